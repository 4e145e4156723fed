"""LLMRunner: cached, concurrent, rate-limited, retried chat requests for one stage."""

from __future__ import annotations

import asyncio
import logging
import random
import sys
import time
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from longnovel.llm.accounting import Accounts
from longnovel.llm.cache import CachedReply, ReplyCache, request_key
from longnovel.llm.config import ModelConfig
from longnovel.llm.parsing import ReplyError, parse_json_reply, strip_think
from longnovel.llm.providers import ProviderError, Reply, make_provider, resolve_key
from longnovel.llm.tokens import count_prompts, prompt_token_bound
from longnovel.llm.types import ModelAccessError, Request, Result, UnknownModelError

log = logging.getLogger(__name__)

# Statuses that stop the stage: the same request will fail for every window until the user
# fixes the config or the key. What to tell them, per status:
FATAL_STATUS = {
    "http_400": "the server rejected the request as invalid; check `model`, `extra_body` and "
                "`max_tokens` for this server",
    "http_401": "the API key was refused; check the key in the variable named by api_key_env",
    "http_403": "the key has no access to this model; check the account's permissions",
    "http_404": "model or endpoint not found; check `model` and `base_url`",
    "http_422": "the server rejected the request as invalid; check `model`, `extra_body` and "
                "`max_tokens` for this server",
}
# A 400 that blocks one prompt's content (a provider's moderation) is that request's final
# failure, not a reason to stop: novels are full of violence that some filters refuse.
CONTENT_FILTER_MARKS = ("content_filter", "content_policy", "contentfilter", "1301", "敏感",
                        "unsafe content", "inappropriate content")


@dataclass
class _Job:
    """One distinct request (same cache key), answering one or more Requests."""

    cache_key: str
    model: str
    messages: list[dict]
    schema: Any
    indices: list[int]
    group_rank: int
    asks_left: int = 2  # a fresh reply that can't be used is asked again once
    reasking: bool = False  # the next send re-asks an unusable reply
    prompt_tokens: int = 0
    prompt_is_exact: bool = False
    prompt_tokens_hint: int | None = None  # the caller's count (or bound), trusted
    prompt_hint_exact: bool = True


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
    a server's Retry-After takes precedence. Models in batch mode send through their provider's
    batch API (``longnovel.llm.batch``); ``batch_store`` is the SQLite file that records their
    batches (default: the cache file).
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
    ):
        self.models = models
        self._tokenizer = tokenizer  # or a function that loads it, called when first needed
        self.stage = stage
        self.progress = progress
        self.retry_initial_s = retry_initial_s
        self.retry_max_s = retry_max_s
        self.cache = ReplyCache(cache_path)
        self.batch_store_path = Path(batch_store or cache_path)
        self.accounts = Accounts()
        self._bar = None
        self._unanswered = 0
        self._halt: tuple[str, Exception] | None = None

    # -- public API ---------------------------------------------------------------------------

    def run(self, requests: list[Request]) -> list[Result]:
        """Run all requests and return their results in the same order."""
        return asyncio.run(self.arun(requests))

    async def arun(self, requests: list[Request]) -> list[Result]:
        """Async form of ``run``."""
        self._check_models(requests)
        results: list[Result | None] = [None] * len(requests)
        self._bar = self._progress_bar(len(requests))
        try:
            jobs = self._serve_from_cache(self._make_jobs(requests), requests, results)
            if jobs:
                await self._send_all(jobs, requests, results)
        finally:
            self._bar.close()
        if self._halt is not None:
            raise self._access_error(*self._halt)
        return results

    def usage(self) -> dict[str, dict]:
        """Counters per model: requests, cache_hits, retries, failures, tokens, cost."""
        return {name: usage.as_dict() for name, usage in self.accounts.models.items()}

    def failures(self) -> dict[str, int]:
        """Failed requests counted by reason."""
        return dict(self.accounts.reasons)

    def unanswered(self) -> int:
        """Requests that failed without an answer (after their retries): a later run re-sends
        them, since nothing of theirs is cached. Unusable replies and refusals are final."""
        return self._unanswered

    def close(self) -> None:
        """Close the cache."""
        self.cache.close()

    def __enter__(self) -> LLMRunner:  # noqa: PYI034
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

    def _make_jobs(self, requests: list[Request]) -> list[_Job]:
        """One job per distinct (cache key, schema), ranked so a group's requests go out together."""
        jobs: dict[tuple[str, Any], _Job] = {}
        group_rank: dict[str, int] = {}
        for index, request in enumerate(requests):
            rank = group_rank.setdefault(request.group, len(group_rank))
            key = request_key(self.models[request.model], request.messages)
            job = jobs.get((key, request.schema))
            if job is None:
                job = _Job(key, request.model, request.messages, request.schema, [], rank,
                           prompt_tokens_hint=request.prompt_tokens_hint,
                           prompt_hint_exact=request.prompt_hint_exact)
                jobs[key, request.schema] = job
            job.indices.append(index)
        return list(jobs.values())

    def _serve_from_cache(self, jobs, requests, results) -> list[_Job]:
        """Answer jobs from the cache; return those still to send."""
        stored = self.cache.get_many([job.cache_key for job in jobs])
        pending = []
        for job in jobs:
            reply = stored.get(job.cache_key)
            if reply is None:
                pending.append(job)
                continue
            result = self._interpret(
                job, reply.text, self._stored_usage(reply), reply.finish_reason
            )
            if not result.ok and reply.asks < 2 and result.error != "truncated":
                job.asks_left, job.reasking = 1, True  # asked again once, fresh
                pending.append(job)
                continue
            if not result.ok:  # already re-asked once, in this run or an earlier one
                self.accounts.fail(job.model, result.error, len(job.indices))
            result.cached = True
            usage = self.accounts.of(job.model)
            usage.cache_hits += len(job.indices)
            # tokens once per distinct request, as when it was sent
            usage.add_tokens(reply.prompt_tokens, reply.completion_tokens, None)
            self._deliver(job, result, requests, results)
        return pending

    def _count_prompt_tokens(self, jobs: list[_Job]) -> None:
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
        for job, count in zip(exact, count_prompts([j.messages for j in exact], self.tokenizer)):
            job.prompt_tokens, job.prompt_is_exact = count, True

    def _guard_context(self, jobs, requests, results) -> list[_Job]:
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
            self._fail(job, "context_window", message, requests, results)
        return fitting

    @property
    def tokenizer(self):
        """The tokenizer, loaded on first use when the runner was given a loader."""
        if callable(self._tokenizer) and not hasattr(self._tokenizer, "count_batch"):
            self._tokenizer = self._tokenizer()
        return self._tokenizer

    # -- sending --------------------------------------------------------------------------------

    async def _send_all(self, jobs, requests, results) -> None:
        live = {j.model for j in jobs if not self.models[j.model].batched}
        batched = {j.model for j in jobs} - live
        for name in sorted(live | batched):  # every key is checked before anything is sent
            resolve_key(name, self.models[name])
        providers = {name: make_provider(name, self.models[name]) for name in sorted(live)}
        try:
            jobs = self._guard_context(jobs, requests, results)
            workers = [self._send_batches(name, [j for j in jobs if j.model == name],
                                          requests, results) for name in sorted(batched)]
            for name, provider in providers.items():
                queue = deque(sorted((j for j in jobs if j.model == name), key=_group_order))
                limits = _Limits(self.models[name])
                count = min(self.models[name].max_concurrency, len(queue))
                workers += [
                    self._worker(queue, provider, limits, requests, results) for _ in range(count)
                ]
            await asyncio.gather(*workers)
        finally:
            await asyncio.gather(*(p.aclose() for p in providers.values()), return_exceptions=True)

    async def _send_batches(self, name: str, jobs: list[_Job], requests, results) -> None:
        """Send one model's jobs through its provider's batch API."""
        from longnovel.llm.batch import BatchSender

        if jobs:
            await BatchSender(self, name, requests, results).run(jobs)

    async def _worker(self, queue: deque, provider, limits, requests, results) -> None:
        while queue and self._halt is None:
            job = queue.popleft()
            await self._answer(job, provider, limits, requests, results)

    async def _answer(self, job: _Job, provider, limits, requests, results) -> None:
        """Ask until a usable reply (at most ``asks_left`` times); cache every reply."""
        while job.asks_left > 0:
            job.asks_left -= 1
            try:
                reply, latency = await self._send_with_retries(job, provider, limits)
            except ProviderError as exc:
                self._settle_error(job, exc, requests, results)
                return
            if self._take_reply(job, reply, latency, requests, results):
                return

    def _take_reply(self, job: _Job, reply: Reply, latency, requests, results,
                    batch: bool = False) -> bool:
        """Cache and interpret a fresh reply; deliver it when usable or when no ask is left.
        True when the job is settled, False when it is to be asked again."""
        config = self.models[job.model]
        usage = self._reply_usage(job, reply)
        self.accounts.of(job.model).add_tokens(*usage.values(), config.price, batch)
        self.cache.put(job.cache_key, config, _to_cached(reply, usage, job.reasking))
        result = self._interpret(job, reply.text, usage, reply.finish_reason, latency)
        job.reasking = True
        if result.error == "truncated":  # the same request stops at the same length
            job.asks_left = 0
        if result.ok or job.asks_left == 0:
            if not result.ok:
                self.accounts.fail(job.model, result.error, len(job.indices))
            self._deliver(job, result, requests, results)
            return True
        return False

    def _settle_error(self, job: _Job, exc: ProviderError, requests, results) -> None:
        """A request that got no reply: stop the stage on a status no retry mends, record a
        refused prompt as final, and count transport failures as unanswered."""
        if exc.reason in FATAL_STATUS and not _is_content_filter(exc):
            self._halt = self._halt or (job.model, exc)
            return
        if exc.reason in FATAL_STATUS:
            self._fail(job, "content_filter", str(exc), requests, results)
            return
        self._unanswered += len(job.indices) if exc.retryable else 0
        self._fail(job, exc.reason, str(exc), requests, results)

    async def _send_with_retries(self, job: _Job, provider, limits) -> tuple[Reply, float]:
        from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt

        config = self.models[job.model]
        retrying = AsyncRetrying(
            stop=stop_after_attempt(config.max_retries + 1),
            wait=self._wait,
            retry=retry_if_exception(lambda e: isinstance(e, ProviderError) and e.retryable),
            before_sleep=lambda state: self._note_retry(job, state),
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                return await self._send_once(job, provider, limits)
        raise AssertionError("unreachable: tenacity re-raises the last error")

    async def _send_once(self, job: _Job, provider, limits) -> tuple[Reply, float]:
        await limits.admit(job.prompt_tokens + self.models[job.model].max_tokens)
        async with limits.slots:
            self.accounts.of(job.model).requests += 1
            started = time.perf_counter()
            reply = await provider.complete(job.messages)
            return reply, time.perf_counter() - started

    def _wait(self, state) -> float:
        """Retry-After when the server sent one, else exponential backoff with jitter."""
        error = state.outcome.exception()
        if isinstance(error, ProviderError) and error.retry_after is not None:
            return error.retry_after * random.uniform(1.0, 1.1)
        exponent = state.attempt_number - 1
        base = min(self.retry_max_s, self.retry_initial_s * 2**exponent)
        return base + random.uniform(0, self.retry_initial_s)

    def _note_retry(self, job: _Job, state) -> None:
        self.accounts.of(job.model).retries += 1
        error = state.outcome.exception()
        log.debug("retrying %s on %s: %s", job.model, getattr(error, "reason", "?"), error)

    # -- results --------------------------------------------------------------------------------

    def _interpret(self, job, text, usage, finish_reason, latency=0.0) -> Result:
        """A Result from a reply text: parsed against the job's schema, or checked non-empty."""
        clean = strip_think(text)
        result = Result(
            key="",
            model=job.model,
            ok=True,
            text=clean,
            raw=text,
            usage=dict(usage),
            finish_reason=finish_reason,
            latency_s=latency,
        )
        try:
            if finish_reason == "length":
                raise ReplyError("truncated", "the reply stopped at max_tokens")
            if job.schema is not None:
                result.parsed = parse_json_reply(text, job.schema)
            elif not clean:
                raise ReplyError("empty", "the reply is empty")
        except ReplyError as exc:
            result.ok, result.error = False, exc.reason
        return result

    def _reply_usage(self, job: _Job, reply: Reply) -> dict:
        """The server's token counts, or the tokenizer's when the server sent none."""
        prompt = reply.prompt_tokens
        if prompt is None:
            if not job.prompt_is_exact:
                job.prompt_tokens = count_prompts([job.messages], self.tokenizer)[0]
                job.prompt_is_exact = True
            prompt = job.prompt_tokens
        completion = reply.completion_tokens
        if completion is None:
            completion = self.tokenizer.count(reply.text) if reply.text else 0
        return {"prompt_tokens": int(prompt), "completion_tokens": int(completion)}

    @staticmethod
    def _stored_usage(reply: CachedReply) -> dict:
        return {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens}

    def _access_error(self, model: str, exc: ProviderError) -> ModelAccessError:
        config = self.models[model]
        where = f" at {config.base_url}" if config.base_url else ""
        status = exc.reason.removeprefix("http_")
        return ModelAccessError(
            f"stage {self.stage}: model '{model}' ({config.provider}:{config.model}{where}) "
            f"answered HTTP {status}: {str(exc)[:200]}; {FATAL_STATUS[exc.reason]}")

    def _fail(self, job: _Job, reason: str, message: str, requests, results) -> None:
        self.accounts.fail(job.model, reason, len(job.indices))
        failure = Result(key="", model=job.model, ok=False, raw=message, error=reason)
        self._deliver(job, failure, requests, results)

    def _deliver(self, job: _Job, result: Result, requests, results) -> None:
        for index in job.indices:
            results[index] = replace(result, key=requests[index].key, usage=dict(result.usage))
        self._bar.update(len(job.indices))
        failed = sum(self.accounts.reasons.values())
        if failed:
            self._bar.set_postfix(failed=failed, refresh=False)

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


def _is_content_filter(exc: ProviderError) -> bool:
    text = str(exc).lower()
    return exc.reason == "http_400" and any(mark in text for mark in CONTENT_FILTER_MARKS)


def _group_order(job: _Job) -> tuple[int, int]:
    return job.group_rank, job.indices[0]


def _to_cached(reply: Reply, usage: dict, reasked: bool) -> CachedReply:
    return CachedReply(
        reply.text,
        usage["prompt_tokens"],
        usage["completion_tokens"],
        reply.finish_reason,
        time.time(),
        2 if reasked else 1,
    )
