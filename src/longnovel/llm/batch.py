"""Batch mode: one model's uncached requests of a round go out through its batch API.

The runner hands a ``BatchSender`` the jobs of one model in ``mode: batch``, with the
``Delivery`` that turns replies into results for both ways of sending. It

1. adopts the batches a killed run left pending (their records hold the cache keys they carry),
   so no request that was submitted is submitted again;
2. writes the other requests as JSONL lines (``custom_id`` = the cache key), split into files
   within the provider's limits (``LIMITS``: requests and bytes per file), uploads each file and
   creates its batch, recording the file id and then the batch id at once (``BatchStore``);
3. polls every ``batch_poll_s`` seconds, with a progress bar and an ETA, until each batch ends;
4. reads its output and error files into the reply cache (one commit per batch), then marks the
   batch collected; replies are interpreted as live ones (a truncated or unparseable reply is
   handled the same way, an unusable one asked again once, in the next batch);
5. submits again only the lines that failed or expired, at most ``RESUBMIT_ROUNDS`` times;
   after that they are unanswered failures, and the stage is partial.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import Counter
from pathlib import Path

from longnovel.llm.batch_store import BatchRecord, BatchStore
from longnovel.llm.delivery import Delivery, Job, Outbox
from longnovel.llm.providers import ProviderError, Reply, resolve_key
from longnovel.llm.providers.base import status_error
from longnovel.llm.providers.batch_api import make_batch_api, reply_from_body, request_line

log = logging.getLogger(__name__)

MB = 2**20
# (requests, bytes) per input file: the providers' limits (OpenAI 50,000 requests and 200 MB,
# ZhipuAI 50,000 and 100 MB) with a margin on size. Tests lower them.
LIMITS = {"openai": (50_000, 190 * MB), "zhipuai": (50_000, 95 * MB)}
RESUBMIT_ROUNDS = 2  # times a failed or expired line is submitted again, per run
BATCH_UNKNOWN = "http_404"  # a recorded batch the server no longer knows: submit its lines anew


class BatchSender:
    """Sends one model's jobs as batches of stage ``stage`` and delivers their results to
    ``out``; ``store_path`` is the SQLite file that records the batches."""

    def __init__(self, delivery: Delivery, out: Outbox, name: str, stage: str,
                 store_path: Path, progress: bool = True):
        self.delivery = delivery
        self.out = out
        self.name = name
        self.stage = stage
        self.store_path = store_path
        self.show_progress = progress
        self.config = delivery.models[name]
        self.jobs: dict[str, list[Job]] = {}  # cache key -> the jobs it answers
        self.open: set[str] = set()  # keys not yet settled
        self.failed_rounds: Counter[str] = Counter()
        self.active: list[BatchRecord] = []
        self.progress: dict[str, tuple[int, int]] = {}  # file id -> (done, total)
        self.api = None
        self.store = None
        self.bar = None

    async def run(self, jobs: list[Job]) -> None:
        """Submit, poll and collect until every job is settled (or the stage halts)."""
        for job in jobs:
            self.jobs.setdefault(job.cache_key, []).append(job)
        self.open = set(self.jobs)
        self.api = make_batch_api(self.config, resolve_key(self.name, self.config))
        self.store = BatchStore(self.store_path)
        self.bar = self._progress_bar()
        try:
            todo = await self._resume()
            while (todo or self.active) and not self.delivery.halted:
                if todo:
                    await self._submit(todo)
                todo = await self._poll()
                if self.active and not todo:
                    await asyncio.sleep(self.config.batch_poll_s)
        finally:
            self.bar.close()
            self.store.close()
            await self.api.aclose()

    # -- submitting -------------------------------------------------------------------------------

    async def _resume(self) -> list[str]:
        """Adopt the pending batches that carry needed keys; return the keys still to submit."""
        carried: set[str] = set()
        for record in self.store.pending():
            needed = self.open.intersection(record.keys)
            if not needed or self.delivery.halted:
                continue
            if record.batch_id is None and not await self._create(record, find=True):
                continue
            self.active.append(record)
            self.progress[record.file_id] = (0, len(record.keys))
            carried |= needed
        if carried:
            log.info("%s: polling %d pending batch(es) of %d request(s)", self.name,
                     len(self.active), len(carried))
        return [key for key in self.jobs if key not in carried and key in self.open]

    async def _submit(self, keys: list[str]) -> None:
        """Upload the requests of ``keys`` in files within the limits and create their batches."""
        for chunk, data in self._files(keys):
            if self.delivery.halted:
                return
            name = f"longnovel-{self.stage}-{self.name}-{chunk[0][:12]}.jsonl"
            try:
                file_id = await self._call(self.api.upload, data, name)
            except ProviderError as exc:
                self._settle(chunk, exc)
                continue
            record = self.store.uploaded(file_id, self.stage, self.name, chunk)
            if await self._create(record):
                self.active.append(record)
                self.progress[record.file_id] = (0, len(chunk))
                self.delivery.accounts.of(self.name).requests += len(chunk)

    async def _create(self, record: BatchRecord, find: bool = False) -> bool:
        """Create the batch of an uploaded file (after a kill, first look for one already
        made from it) and record its id; False when it could not be created."""
        try:
            batch_id = await self._call(self.api.find, record.file_id) if find else None
            batch_id = batch_id or await self._call(self.api.create, record.file_id)
        except ProviderError as exc:
            self.store.forget(record)
            self._settle(record.keys, exc)
            return False
        self.store.submitted(record, batch_id)
        return True

    def _files(self, keys: list[str]):
        """(keys, JSONL bytes) of each input file, within the provider's limits."""
        max_requests, max_bytes = LIMITS[self.config.provider]
        chunk, lines, size = [], [], 0
        for key in keys:
            line = request_line(self.config, key, self.jobs[key][0].messages)
            if len(line) > max_bytes:
                error = ProviderError("too_large", f"request of {len(line)} bytes exceeds the "
                                      f"batch file limit of {max_bytes}", retryable=False)
                self._settle([key], error)
                continue
            if chunk and (len(chunk) == max_requests or size + len(line) > max_bytes):
                yield chunk, b"".join(lines)
                chunk, lines, size = [], [], 0
            chunk.append(key)
            lines.append(line)
            size += len(line)
        if chunk:
            yield chunk, b"".join(lines)

    # -- polling and collecting -------------------------------------------------------------------

    async def _poll(self) -> list[str]:
        """Look at every active batch once; collect the finished ones. Returns the keys to
        submit again (failed or expired lines, re-asks of unusable replies)."""
        todo: list[str] = []
        for record in list(self.active):
            try:
                info = await self._call(self.api.retrieve, record.batch_id)
            except ProviderError as exc:
                self.active.remove(record)
                if exc.reason == BATCH_UNKNOWN:
                    self.store.forget(record)
                    todo += self._retry(record.keys, ProviderError(
                        "batch_unknown", f"batch {record.batch_id}: {exc}", retryable=True))
                else:  # the batch stays recorded: the next build polls it again
                    self._settle(record.keys, exc)
                continue
            self.progress[record.file_id] = (min(info.done, len(record.keys)), len(record.keys))
            if info.finished:
                self.active.remove(record)
                todo += await self._collect(record, info)
        self._show_progress()
        return todo

    async def _collect(self, record: BatchRecord, info) -> list[str]:
        """Store a finished batch's replies, mark it collected; return the keys to submit again."""
        try:
            lines = await self._download(info)
        except ProviderError as exc:
            self._settle(record.keys, exc)
            return []
        self.progress[record.file_id] = (len(record.keys), len(record.keys))
        failed: dict[str, ProviderError] = {}
        again: list[str] = []
        with self.delivery.cache.transaction():
            for key in record.keys:
                outcome = _outcome(lines.get(key), info)
                if isinstance(outcome, ProviderError):
                    failed[key] = outcome
                elif key in self.open and not self._take(key, outcome):
                    again.append(key)
                elif key not in self.jobs:
                    self._keep(key, outcome)
        self.store.collected(record)
        for key, error in failed.items():
            again += self._retry([key], error)
        return again

    async def _download(self, info) -> dict[str, dict]:
        """The lines of a batch's output and error files, by ``custom_id``."""
        lines: dict[str, dict] = {}
        for file_id in (info.error_file_id, info.output_file_id):  # an answer wins
            if not file_id:
                continue
            data = await self._call(self.api.download, file_id)
            for raw in data.splitlines():
                try:
                    line = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(line, dict) and isinstance(line.get("custom_id"), str):
                    lines[line["custom_id"]] = line
        return lines

    def _take(self, key: str, reply: Reply) -> bool:
        """Use a reply for every job of ``key``; False when one of them asks again."""
        settled = True
        for job in self.jobs[key]:
            job.spend_ask()
            settled &= self.delivery.take_reply(job, reply, 0.0, self.out, batch=True)
        if settled:
            self.open.discard(key)
        return settled

    def _keep(self, key: str, reply: Reply) -> None:
        """Cache the reply of a line no job of this round needs (a batch adopted after a kill
        may carry requests of another selection): it was paid for."""
        self.delivery.keep(key, self.name, reply)

    def _retry(self, keys: list[str], error: ProviderError) -> list[str]:
        """The keys to submit again after ``error``; the others are settled as failures."""
        again = []
        for key in keys:
            if key not in self.open:
                continue
            if error.retryable and self.failed_rounds[key] < RESUBMIT_ROUNDS:
                self.failed_rounds[key] += 1
                again.append(key)
            else:
                self._settle([key], error)
        return again

    def _settle(self, keys, error: ProviderError) -> None:
        """Record ``keys`` as failed with ``error``, as live failures are."""
        for key in keys:
            if key in self.open:
                self.open.discard(key)
                for job in self.jobs[key]:
                    self.delivery.settle_error(job, error, self.out)

    async def _call(self, method, *args):
        """One batch-API call, retried like a live request on transient errors."""
        return await self.delivery.call(self.name, "a batch call", method, *args)

    # -- progress ---------------------------------------------------------------------------------

    def _progress_bar(self):
        from tqdm import tqdm

        return tqdm(total=len(self.jobs), desc=f"{self.stage} {self.name} batch",
                    unit="req", leave=False, disable=not self.show_progress,
                    dynamic_ncols=True, file=_stderr())

    def _show_progress(self) -> None:
        """Requests finished on the server over requests submitted; tqdm shows the ETA."""
        done = sum(d for d, _ in self.progress.values())
        total = sum(t for _, t in self.progress.values())
        if total != self.bar.total:
            self.bar.total = total
        if done > self.bar.n:
            self.bar.update(done - self.bar.n)
        self.bar.set_postfix(batches=len(self.active), refresh=True)


def _outcome(line: dict | None, info) -> Reply | ProviderError:
    """A batch line as a Reply, or as the ProviderError a live request would have raised."""
    if line is None:
        status = info.status if info.status != "completed" else "missing"
        detail = f": {info.errors}" if info.errors else ""
        return ProviderError(f"batch_{status}", f"no reply in batch {info.id} "
                             f"({info.status}){detail}", retryable=True)
    response = line.get("response") or {}
    code = response.get("status_code")
    body = response.get("body")
    if code == 200:
        try:
            return reply_from_body(body)
        except ProviderError as exc:
            return exc
    if code:
        error = (body.get("error") or {}) if isinstance(body, dict) else {}
        message = " ".join(str(error[k]) for k in ("code", "message") if error.get(k))
        return status_error(int(code), (message or str(body or f"HTTP {code}"))[:300], None)
    error = line.get("error") or {}
    reason = re.sub(r"[^a-z0-9_]+", "_", str(error.get("code") or "error").lower())
    return ProviderError(reason if reason.startswith("batch_") else f"batch_{reason}",
                         str(error.get("message") or "the batch line failed")[:300],
                         retryable=True)


def _stderr():
    import sys

    return sys.stderr
