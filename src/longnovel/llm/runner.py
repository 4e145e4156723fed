"""LLMRunner: cached, concurrent, rate-limited, retried chat requests for one stage."""

from __future__ import annotations

import asyncio
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

from longnovel.llm.accounting import Accounts
from longnovel.llm.cache import CachedReply, ReplyCache, request_key
from longnovel.llm.config import ModelConfig
from longnovel.llm.delivery import FATAL_STATUS, Backoff, Delivery, Job, Outbox, Waits, notice
from longnovel.llm.leases import LEASE_TTL_S, Holder, Leases
from longnovel.llm.providers import ProviderError, Reply, make_provider
from longnovel.llm.providers.base import check_keys
from longnovel.llm.tokens import count_prompts, prompt_token_bound
from longnovel.llm.types import ModelAccessError, Request, Result, UnknownModelError


class _Limits:
    """Concurrency and rate limiters of one model, created inside the running event loop."""

    def __init__(self, config: ModelConfig):
        from aiolimiter import AsyncLimiter

        self.slots = asyncio.Semaphore(config.max_concurrency)
        rpm, tpm = config.requests_per_minute, config.tokens_per_minute
        self.rpm = AsyncLimiter(rpm, 60) if rpm else None
        self.tpm = AsyncLimiter(tpm, 60) if tpm else None

    async def admit(self, tokens: int) -> None:
        """Wait until the rate limits allow one more request of about ``tokens`` tokens."""
        if self.rpm is not None:
            await self.rpm.acquire()
        if self.tpm is not None:
            await self.tpm.acquire(min(tokens, self.tpm.max_rate))


class LLMRunner:
    """Runs a stage's requests through the cache and the configured providers.

    ``retry_initial_s`` and ``retry_max_s`` shape the exponential backoff (tests shorten them);
    a server's Retry-After takes precedence, up to the model's ``retry_after_max_s``; a wait of
    ``notice_wait_s`` or more is announced on stderr. A live request is sent only under a lease
    in the cache file (``longnovel.llm.leases``): one that another runner sharing the file has in
    flight is awaited, polled every ``lease_poll_s``, never sent twice. Models in batch mode
    send through their provider's batch API (``longnovel.llm.batch``); ``batch_store`` is the
    SQLite file that records their batches (default: the cache file). What both ways of
    sending share is in ``longnovel.llm.delivery``.
    """

    def __init__(
        self,
        models: dict[str, ModelConfig],
        cache_path: str | Path,
        tokenizer,
        stage: str,
        progress: bool = True,
        retry_initial_s: float = 1.0,
        retry_max_s: float = 60.0,
        batch_store: str | Path | None = None,
        notice_wait_s: float = 30.0,
        lease_ttl_s: float = LEASE_TTL_S,
        lease_poll_s: float = 0.5,
    ):
        self.models = models
        self.stage = stage
        self.progress = progress
        self.cache = ReplyCache(cache_path)
        self.batch_store_path = Path(batch_store or cache_path)
        self.accounts = Accounts()
        self.lease_ttl_s = lease_ttl_s
        self.lease_poll_s = lease_poll_s
        self.leases: Leases | None = None  # while sending
        self._awaited: set[str] = set()  # models whose requests were found in flight elsewhere
        backoff = Backoff(retry_initial_s, retry_max_s)
        self.delivery = Delivery(models, self.cache, self.accounts, tokenizer, backoff,
                                 Waits(notice_wait_s))

    # -- public API ---------------------------------------------------------------------------

    def run(self, requests: list[Request]) -> list[Result]:
        """Run all requests and return their results in the same order."""
        return asyncio.run(self.arun(requests))

    async def arun(self, requests: list[Request]) -> list[Result]:
        """Async form of ``run``."""
        self._check_models(requests)
        out = Outbox(requests, [None] * len(requests), self._progress_bar(len(requests)))
        try:
            jobs = self._serve_from_cache(self._make_jobs(requests), out)
            if jobs:
                await self._send_all(jobs, out)
        finally:
            out.bar.close()
        if self.delivery.halt is not None:
            raise self._access_error(*self.delivery.halt)
        return out.results

    def usage(self) -> dict[str, dict]:
        """Counters per model: requests, cache_hits, retries, failures, tokens, cost."""
        return {name: usage.as_dict() for name, usage in self.accounts.models.items()}

    def failures(self) -> dict[str, int]:
        """Failed requests counted by reason."""
        return dict(self.accounts.reasons)

    def unanswered(self) -> int:
        """Requests that failed without an answer (after their retries): a later run re-sends
        them, since nothing of theirs is cached. Unusable replies and refusals are final."""
        return self.delivery.unanswered

    @property
    def tokenizer(self):
        """The tokenizer, loaded on first use when the runner was given a loader."""
        return self.delivery.tokenizer

    def close(self) -> None:
        """Close the cache."""
        self.cache.close()

    def __enter__(self) -> LLMRunner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- preparation ----------------------------------------------------------------------------

    def _check_models(self, requests: list[Request]) -> None:
        for name in {r.model for r in requests}:
            if name not in self.models:
                known = ", ".join(sorted(self.models)) or "none"
                raise UnknownModelError(
                    f"stage {self.stage}: model '{name}' is not configured under models: "
                    f"(configured: {known})"
                )

    def _make_jobs(self, requests: list[Request]) -> list[Job]:
        """One job per distinct (cache key, schema), ranked so a group's requests go out
        together."""
        jobs: dict[tuple[str, Any], Job] = {}
        group_rank: dict[str, int] = {}
        for index, request in enumerate(requests):
            rank = group_rank.setdefault(request.group, len(group_rank))
            key = request_key(self.models[request.model], request.messages)
            job = jobs.get((key, request.schema))
            if job is None:
                job = Job(key, request.model, request.messages, request.schema, [], rank,
                          prompt_tokens_hint=request.prompt_tokens_hint,
                          prompt_hint_exact=request.prompt_hint_exact)
                jobs[key, request.schema] = job
            job.indices.append(index)
        return list(jobs.values())

    def _serve_from_cache(self, jobs: list[Job], out: Outbox) -> list[Job]:
        """Answer jobs from the cache; return those still to send."""
        stored = self.cache.get_many([job.cache_key for job in jobs])
        return [job for job in jobs if not self._use_stored(job, stored.get(job.cache_key), out)]

    def _use_stored(self, job: Job, reply: CachedReply | None, out: Outbox) -> bool:
        """Deliver a stored reply; False when the job is still to send (no reply, or an unusable
        one asked only once: it is then asked again, fresh)."""
        if reply is None:
            return False
        stored_usage = self.delivery.stored_usage(job, reply)
        result = self.delivery.interpret(job, reply.text, stored_usage, reply.finish_reason)
        if not result.ok and reply.asks < 2 and result.error != "truncated":
            job.asks_left, job.reasking = 1, True
            return False
        if not result.ok:  # already re-asked once, in this run or an earlier one
            self.accounts.fail(job.model, result.error, len(job.indices))
        result.cached = True
        usage = self.accounts.of(job.model)
        usage.cache_hits += len(job.indices)
        # tokens once per distinct request, as when it was sent
        usage.add_tokens(*stored_usage.values(), None)
        self.delivery.deliver(job, result, out)
        return True

    def _count_prompt_tokens(self, jobs: list[Job]) -> None:
        """Set each job's prompt tokens: the caller's hint when given, else the tokenizer's count
        where it matters (the prompt may not fit, or a tokens-per-minute limit needs it), else a
        cheap upper bound."""
        exact = []
        for job in jobs:
            if job.prompt_tokens_hint is not None:
                job.prompt_tokens = job.prompt_tokens_hint
                job.prompt_is_exact = job.prompt_hint_exact
                continue
            config = self.models[job.model]
            job.prompt_tokens = prompt_token_bound(job.messages)
            too_long = job.prompt_tokens + config.max_tokens > config.context_window
            if too_long or config.tokens_per_minute:
                exact.append(job)
        if not exact:
            return  # nothing to count: the tokenizer is not even loaded
        counts = count_prompts([j.messages for j in exact], self.tokenizer)
        for job, count in zip(exact, counts, strict=True):
            job.prompt_tokens, job.prompt_is_exact = count, True

    def _guard_context(self, jobs: list[Job], out: Outbox) -> list[Job]:
        """Refuse jobs whose prompt cannot fit the model's context window, before sending."""
        self._count_prompt_tokens(jobs)
        fitting = []
        for job in jobs:
            count = job.prompt_tokens
            config = self.models[job.model]
            if count + config.max_tokens <= config.context_window:
                fitting.append(job)
                continue
            message = (
                f"not sent: prompt of about {count} tokens + max_tokens {config.max_tokens} "
                f"exceeds context_window {config.context_window} of model '{job.model}'"
            )
            self.delivery.fail(job, "context_window", message, out)
        return fitting

    # -- sending --------------------------------------------------------------------------------

    async def _send_all(self, jobs: list[Job], out: Outbox) -> None:
        live = {j.model for j in jobs if not self.models[j.model].batched}
        batched = {j.model for j in jobs} - live
        # every key is checked before anything is sent, and every missing one named at once
        check_keys({name: self.models[name] for name in sorted(live | batched)})
        providers = {name: make_provider(name, self.models[name]) for name in sorted(live)}
        self.leases = Leases(self.cache, self.lease_ttl_s)
        renewing = asyncio.create_task(self.leases.keep_renewed())
        try:
            jobs = self._guard_context(jobs, out)
            workers = [self._send_batches(name, [j for j in jobs if j.model == name], out)
                       for name in sorted(batched)]
            workers += [self._serve_model(provider, [j for j in jobs if j.model == name], out)
                        for name, provider in providers.items()]
            await asyncio.gather(*workers)
        finally:
            renewing.cancel()
            self.leases.release_all()
            await asyncio.gather(*(p.aclose() for p in providers.values()), return_exceptions=True)

    async def _send_batches(self, name: str, jobs: list[Job], out: Outbox) -> None:
        """Send one model's jobs through its provider's batch API."""
        from longnovel.llm.batch import BatchSender

        if jobs:
            sender = BatchSender(self.delivery, out, name, self.stage, self.batch_store_path,
                                 self.progress)
            await sender.run(jobs)

    async def _serve_model(self, provider, jobs: list[Job], out: Outbox) -> None:
        """Send one model's jobs, window by window, within its limits. Jobs another runner has
        in flight wait until their lease is free: then their reply is in the cache, or (the
        owner failed or died) they are sent here."""
        if not jobs:
            return
        config = self.models[jobs[0].model]
        limits = _Limits(config)
        queue = deque(sorted(jobs, key=_group_order))
        waiting: list[Job] = []
        while (queue or waiting) and not self.delivery.halted:
            if queue:
                count = min(config.max_concurrency, len(queue))
                await asyncio.gather(*(self._worker(queue, waiting, provider, limits, out)
                                       for _ in range(count)))
            else:
                await asyncio.sleep(self.lease_poll_s)
                queue.extend(self._no_longer_held(waiting, out))

    async def _worker(self, queue: deque, waiting: list[Job], provider, limits: _Limits,
                      out: Outbox) -> None:
        while queue and not self.delivery.halted:
            job = queue.popleft()
            if not self._claim(job, waiting, out):
                continue
            try:
                await self._answer(job, provider, limits, out)
            finally:
                self.leases.release(job.cache_key)

    def _claim(self, job: Job, waiting: list[Job], out: Outbox) -> bool:
        """Take the job's lease; True when it is to be sent from here. A job held by another
        runner waits; one answered meanwhile (by another runner) is delivered from the cache."""
        holder = self.leases.claim(job.cache_key)
        if holder is not None:
            waiting.append(job)
            self._say_awaited(job.model, holder)
            return False
        if self._use_stored(job, self.cache.get(job.cache_key), out):
            self.leases.release(job.cache_key)
            return False
        return True

    def _no_longer_held(self, waiting: list[Job], out: Outbox) -> list[Job]:
        """Take the jobs whose lease is free off ``waiting``: deliver those answered, return the
        others (to send)."""
        free = self.leases.free([job.cache_key for job in waiting])
        if not free:
            return []
        stored = self.cache.get_many(sorted(free))
        ready = [job for job in waiting if job.cache_key in free]
        waiting[:] = [job for job in waiting if job.cache_key not in free]
        return [job for job in ready if not self._use_stored(job, stored.get(job.cache_key), out)]

    def _say_awaited(self, model: str, holder: Holder) -> None:
        if model in self._awaited:
            return
        self._awaited.add(model)
        notice(f"model '{model}': some requests are in flight in another process sharing the "
               f"cache {self.cache.path} ({holder.describe()}); their replies are awaited, not "
               "sent again")

    async def _answer(self, job: Job, provider, limits: _Limits, out: Outbox) -> None:
        """Ask until a usable reply (at most ``asks_left`` times); cache every reply."""
        while job.asks_left > 0:
            job.spend_ask()
            try:
                reply, latency = await self.delivery.call(
                    job.model, "a request", self._send_once, job, provider, limits)
            except ProviderError as exc:
                self.delivery.settle_error(job, exc, out)
                return
            if self.delivery.take_reply(job, reply, latency, out):
                return

    async def _send_once(self, job: Job, provider, limits: _Limits) -> tuple[Reply, float]:
        await limits.admit(job.prompt_tokens + self.models[job.model].max_tokens)
        async with limits.slots:
            self.accounts.of(job.model).requests += 1
            started = time.perf_counter()
            reply = await provider.complete(job.messages)
            return reply, time.perf_counter() - started

    # -- results --------------------------------------------------------------------------------

    def _access_error(self, model: str, exc: ProviderError) -> ModelAccessError:
        config = self.models[model]
        where = f" at {config.base_url}" if config.base_url else ""
        status = exc.reason.removeprefix("http_")
        return ModelAccessError(
            f"stage {self.stage}: model '{model}' ({config.provider}:{config.model}{where}) "
            f"answered HTTP {status}: {str(exc)[:200]}; {FATAL_STATUS[exc.reason]}")

    def _progress_bar(self, total: int):
        from tqdm import tqdm

        return tqdm(
            total=total,
            desc=self.stage,
            unit="req",
            file=sys.stderr,
            disable=not self.progress,
            dynamic_ncols=True,
        )


def _group_order(job: Job) -> tuple[int, int]:
    return job.group_rank, job.indices[0]
