"""What the live and the batch senders share: a job, the one retry policy, and the way a reply
(or the lack of one) becomes a cached, counted Result in the caller's slot.

``LLMRunner`` (live requests) and ``BatchSender`` (batch APIs) both import this module; it
imports neither of them.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, replace
from typing import Any

from longnovel.llm.accounting import Accounts
from longnovel.llm.cache import CachedReply, ReplyCache
from longnovel.llm.config import ModelConfig
from longnovel.llm.parsing import ReplyError, parse_json_reply, strip_think
from longnovel.llm.providers import ProviderError, Reply
from longnovel.llm.tokens import count_prompts
from longnovel.llm.types import Request, Result

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
class Job:
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

    def spend_ask(self) -> None:
        """Count one ask of this job's request (a send, or a batch line's reply)."""
        self.asks_left = max(self.asks_left - 1, 0)


@dataclass
class Outbox:
    """One run's requests and the result slots they fill, in order, with its progress bar."""

    requests: list[Request]
    results: list[Result | None]
    bar: Any


class Backoff:
    """The retry policy of every call to a server: up to ``max_retries`` retries of a retryable
    ProviderError, waiting the server's Retry-After when it sent one, else exponentially from
    ``initial_s`` to at most ``max_s``, with jitter."""

    def __init__(self, initial_s: float = 1.0, max_s: float = 60.0):
        self.initial_s = initial_s
        self.max_s = max_s

    def retrying(self, max_retries: int, on_retry):
        """A tenacity AsyncRetrying; ``on_retry(error)`` is called before each wait."""
        from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt

        return AsyncRetrying(
            stop=stop_after_attempt(max_retries + 1),
            wait=self.wait,
            retry=retry_if_exception(lambda e: isinstance(e, ProviderError) and e.retryable),
            before_sleep=lambda state: on_retry(state.outcome.exception()),
            reraise=True,
        )

    async def call(self, max_retries: int, on_retry, method, *args):
        """``await method(*args)``, retried under this policy."""
        async for attempt in self.retrying(max_retries, on_retry):
            with attempt:
                return await method(*args)
        raise AssertionError("unreachable: tenacity re-raises the last error")

    def wait(self, state) -> float:
        """Seconds before the next attempt."""
        error = state.outcome.exception()
        if isinstance(error, ProviderError) and error.retry_after is not None:
            return error.retry_after * random.uniform(1.0, 1.1)
        exponent = state.attempt_number - 1
        base = min(self.max_s, self.initial_s * 2**exponent)
        return base + random.uniform(0, self.initial_s)


class Delivery:
    """Turns replies and errors into Results for a runner's jobs: interprets, caches and counts
    them, and records what stops the stage (``halt``) or leaves requests unanswered.

    ``tokenizer`` may be a function that loads it, called when first needed.
    """

    def __init__(self, models: dict[str, ModelConfig], cache: ReplyCache, accounts: Accounts,
                 tokenizer, backoff: Backoff):
        self.models = models
        self.cache = cache
        self.accounts = accounts
        self.backoff = backoff
        self._tokenizer = tokenizer
        self.halt: tuple[str, ProviderError] | None = None  # (model, error) that stops the stage
        self.unanswered = 0

    @property
    def halted(self) -> bool:
        """True once an error no retry mends has stopped the stage."""
        return self.halt is not None

    @property
    def tokenizer(self):
        """The tokenizer, loaded on first use when given a loader."""
        if callable(self._tokenizer) and not hasattr(self._tokenizer, "count_batch"):
            self._tokenizer = self._tokenizer()
        return self._tokenizer

    async def call(self, model: str, what: str, method, *args):
        """One call to ``model``'s server under the retry policy; retries are counted."""
        def on_retry(error) -> None:
            self.accounts.of(model).retries += 1
            log.debug("retrying %s of %s on %s: %s", what, model, getattr(error, "reason", "?"),
                      error)

        return await self.backoff.call(self.models[model].max_retries, on_retry, method, *args)

    def take_reply(self, job: Job, reply: Reply, latency: float, out: Outbox,
                   batch: bool = False) -> bool:
        """Cache and interpret a fresh reply; deliver it when usable or when no ask is left.
        True when the job is settled, False when it is to be asked again."""
        config = self.models[job.model]
        usage = self.reply_usage(job, reply)
        self.accounts.of(job.model).add_tokens(*usage.values(), config.price, batch)
        self.cache.put(job.cache_key, config, to_cached(reply, usage, job.reasking))
        result = self.interpret(job, reply.text, usage, reply.finish_reason, latency)
        job.reasking = True
        if result.error == "truncated":  # the same request stops at the same length
            job.asks_left = 0
        if result.ok or job.asks_left == 0:
            if not result.ok:
                self.accounts.fail(job.model, result.error, len(job.indices))
            self.deliver(job, result, out)
            return True
        return False

    def keep(self, key: str, model: str, reply: Reply) -> None:
        """Cache a reply that no job of this run needs (it was paid for)."""
        completion = reply.completion_tokens
        if completion is None:
            completion = self.tokenizer.count(reply.text)
        usage = {"prompt_tokens": reply.prompt_tokens or 0, "completion_tokens": completion}
        self.cache.put(key, self.models[model], to_cached(reply, usage, False))

    def settle_error(self, job: Job, exc: ProviderError, out: Outbox) -> None:
        """A request that got no reply: stop the stage on a status no retry mends, record a
        refused prompt as final, and count transport failures as unanswered."""
        if exc.reason in FATAL_STATUS and not is_content_filter(exc):
            self.halt = self.halt or (job.model, exc)
            return
        if exc.reason in FATAL_STATUS:
            self.fail(job, "content_filter", str(exc), out)
            return
        self.unanswered += len(job.indices) if exc.retryable else 0
        self.fail(job, exc.reason, str(exc), out)

    def fail(self, job: Job, reason: str, message: str, out: Outbox) -> None:
        """Deliver a failure with ``reason`` to the job's requests."""
        self.accounts.fail(job.model, reason, len(job.indices))
        failure = Result(key="", model=job.model, ok=False, raw=message, error=reason)
        self.deliver(job, failure, out)

    def deliver(self, job: Job, result: Result, out: Outbox) -> None:
        """Put ``result`` in the slot of each of the job's requests."""
        for index in job.indices:
            out.results[index] = replace(result, key=out.requests[index].key,
                                         usage=dict(result.usage))
        out.bar.update(len(job.indices))
        failed = sum(self.accounts.reasons.values())
        if failed:
            out.bar.set_postfix(failed=failed, refresh=False)

    def interpret(self, job: Job, text: str, usage: dict, finish_reason,
                  latency: float = 0.0) -> Result:
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

    def reply_usage(self, job: Job, reply: Reply) -> dict:
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


def is_content_filter(exc: ProviderError) -> bool:
    """True when a 400 reports that a provider's moderation refused the prompt."""
    text = str(exc).lower()
    return exc.reason == "http_400" and any(mark in text for mark in CONTENT_FILTER_MARKS)


def to_cached(reply: Reply, usage: dict, reasked: bool) -> CachedReply:
    """The cache row of a fresh reply (``asks`` 2 when it answers a re-ask)."""
    return CachedReply(
        reply.text,
        usage["prompt_tokens"],
        usage["completion_tokens"],
        reply.finish_reason,
        time.time(),
        2 if reasked else 1,
    )
