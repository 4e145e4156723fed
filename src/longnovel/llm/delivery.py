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
from longnovel.llm.tokens import count_prompts, prompt_token_bound
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
RETRY_AFTER = "retry_after"  # the failure reason of a request whose Retry-After was too long
CONTENT_FILTER_MARKS = ("content_filter", "content_policy", "contentfilter", "1301", "敏感",
                        "unsafe content", "inappropriate content")


# A reply far longer than ``max_tokens`` allows was not written under that limit (a broken or
# hostile server): it is a bad reply, and only its start is kept. No tokenizer in use has tokens
# longer than this many UTF-8 bytes.
MAX_BYTES_PER_TOKEN = 64
REPLY_SLACK_BYTES = 4096
OVERSIZED = "oversized"  # the failure reason, and the finish reason stored with the cut reply
OVERSIZED_KEEP_CHARS = 4096  # characters of an oversized reply kept as its raw text
# Server-reported token counts beyond these bounds are implausible: the prompt holds at most one
# token per UTF-8 byte (twice that, plus a server's own template and system text, is allowed),
# the completion at most ``max_tokens`` (plus a few, for servers that count the end token).
PROMPT_SLACK_TOKENS = 4096
COMPLETION_SLACK_TOKENS = 64


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
    ``initial_s`` to at most ``max_s``, with jitter. A Retry-After longer than the caller's
    ``max_wait_s`` is not waited for: the call fails at once with reason ``retry_after``."""

    def __init__(self, initial_s: float = 1.0, max_s: float = 60.0):
        self.initial_s = initial_s
        self.max_s = max_s

    def retrying(self, max_retries: int, on_retry, max_wait_s: float = float("inf")):
        """A tenacity AsyncRetrying; ``on_retry(error, seconds)`` is called before each wait."""
        from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt

        def worth_retrying(error: BaseException) -> bool:
            return (isinstance(error, ProviderError) and error.retryable
                    and not asks_too_long(error, max_wait_s))

        return AsyncRetrying(
            stop=stop_after_attempt(max_retries + 1),
            wait=self.wait,
            retry=retry_if_exception(worth_retrying),
            before_sleep=lambda state: on_retry(state.outcome.exception(),
                                                state.next_action.sleep),
            reraise=True,
        )

    async def call(self, max_retries: int, on_retry, method, *args,
                   max_wait_s: float = float("inf")):
        """``await method(*args)``, retried under this policy."""
        try:
            async for attempt in self.retrying(max_retries, on_retry, max_wait_s):
                with attempt:
                    return await method(*args)
        except ProviderError as exc:
            if asks_too_long(exc, max_wait_s):
                raise ProviderError(
                    RETRY_AFTER, f"{exc.reason}: the server asked to wait "
                    f"{duration(exc.retry_after)} before retrying, more than retry_after_max_s "
                    f"({duration(max_wait_s)})", retryable=True, retry_after=exc.retry_after,
                ) from exc
            raise
        raise AssertionError("unreachable: tenacity re-raises the last error")

    def wait(self, state) -> float:
        """Seconds before the next attempt."""
        error = state.outcome.exception()
        if isinstance(error, ProviderError) and error.retry_after is not None:
            return error.retry_after * random.uniform(1.0, 1.1)
        exponent = state.attempt_number - 1
        base = min(self.max_s, self.initial_s * 2**exponent)
        return base + random.uniform(0, self.initial_s)


def asks_too_long(error: BaseException, max_wait_s: float) -> bool:
    """True when ``error`` carries a Retry-After longer than ``max_wait_s``."""
    wait = getattr(error, "retry_after", None)
    return isinstance(error, ProviderError) and wait is not None and wait > max_wait_s


def duration(seconds: float | None) -> str:
    """A wait for people: ``45 s``, ``4 min 50 s``, ``3 h 20 min``, ``2 days 1 h``."""
    if seconds is None or seconds == float("inf"):
        return "forever"
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min" + (f" {seconds % 60} s" if seconds % 60 else "")
    if seconds < 86400:
        minutes = seconds % 3600 // 60
        return f"{seconds // 3600} h" + (f" {minutes} min" if minutes else "")
    days, hours = seconds // 86400, seconds % 86400 // 3600
    return f"{days} day{'s' if days > 1 else ''}" + (f" {hours} h" if hours else "")


def what_failed(error: BaseException) -> str:
    """A failed call in words: ``the server answered HTTP 429``, ``the request timed out``."""
    reason = getattr(error, "reason", type(error).__name__)
    if reason.startswith("http_"):
        return f"the server answered HTTP {reason.removeprefix('http_')}"
    return {"timeout": "the request timed out", "connection": "the connection failed",
            "bad_response": "the server's response was malformed"}.get(reason, reason)


class Waits:
    """The lines that say why a model's requests are waiting: a wait of ``notice_s`` or more
    is announced once per wave (waits that end within ``notice_s`` of an announced one are
    not), and a refused Retry-After once per model and run."""

    def __init__(self, notice_s: float = 30.0):
        self.notice_s = notice_s
        self._until: dict[str, float] = {}
        self._refused: set[str] = set()

    def waiting(self, model: str, error: BaseException, seconds: float) -> None:
        """Say that ``model``'s requests wait ``seconds`` after ``error``, when it is long."""
        ends = time.time() + seconds
        if seconds < self.notice_s or ends < self._until.get(model, 0.0) + self.notice_s:
            return
        self._until[model] = ends
        why = "as its Retry-After asks" if getattr(error, "retry_after", None) else "backing off"
        until = time.strftime("%H:%M:%S", time.localtime(ends))
        notice(f"model '{model}': {what_failed(error)}; waiting {duration(seconds)} "
               f"({why}, until {until}) before retrying. Ctrl-C stops: answers so far are "
               "cached, and the next build sends only the rest.")

    def refused(self, model: str, error: ProviderError, max_wait_s: float) -> None:
        """Say, once, that ``model``'s server asked for a wait longer than the config allows."""
        if model in self._refused:
            return
        self._refused.add(model)
        notice(f"model '{model}': the server asked to wait {duration(error.retry_after)} "
               f"(Retry-After), more than retry_after_max_s ({duration(max_wait_s)}): such "
               "requests are left unanswered, the stage is partial and the next build sends "
               f"them again; raise models.{model}.retry_after_max_s to wait instead.")


class Delivery:
    """Turns replies and errors into Results for a runner's jobs: interprets, caches and counts
    them, and records what stops the stage (``halt``) or leaves requests unanswered.

    ``tokenizer`` may be a function that loads it, called when first needed.
    """

    def __init__(self, models: dict[str, ModelConfig], cache: ReplyCache, accounts: Accounts,
                 tokenizer, backoff: Backoff, waits: Waits | None = None):
        self.models = models
        self.cache = cache
        self.accounts = accounts
        self.backoff = backoff
        self.waits = waits or Waits()
        self._tokenizer = tokenizer
        self.halt: tuple[str, ProviderError] | None = None  # (model, error) that stops the stage
        self.unanswered = 0
        self._flagged_models: set[str] = set()

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
        config = self.models[model]

        def on_retry(error, seconds: float) -> None:
            self.accounts.of(model).retries += 1
            log.debug("retrying %s of %s on %s: %s", what, model, getattr(error, "reason", "?"),
                      error)
            self.waits.waiting(model, error, seconds)

        try:
            return await self.backoff.call(config.max_retries, on_retry, method, *args,
                                           max_wait_s=config.retry_after_max_s)
        except ProviderError as exc:
            if exc.reason == RETRY_AFTER:
                self.waits.refused(model, exc, config.retry_after_max_s)
            raise

    def take_reply(self, job: Job, reply: Reply, latency: float, out: Outbox,
                   batch: bool = False) -> bool:
        """Cache and interpret a fresh reply; deliver it when usable or when no ask is left.
        True when the job is settled, False when it is to be asked again."""
        config = self.models[job.model]
        reply = bound_reply(reply, config)
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
        reply = bound_reply(reply, self.models[model])
        # its prompt is not known here: a count the server did not send (or sent implausible)
        # is stored as 0
        usage = self.reply_usage(Job(key, model, [], None, [], 0, prompt_is_exact=True), reply)
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
        config = self.models[job.model]
        if is_oversized(text, config):  # a row cached before oversized replies were cut
            text, finish_reason = cut_reply(text, config), OVERSIZED
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
            if finish_reason == OVERSIZED:
                raise ReplyError(OVERSIZED, "the reply is far longer than max_tokens allows")
            if job.schema is not None:
                result.parsed = parse_json_reply(text, job.schema)
            elif not clean:
                raise ReplyError("empty", "the reply is empty")
        except ReplyError as exc:
            result.ok, result.error = False, exc.reason
        return result

    def reply_usage(self, job: Job, reply: Reply) -> dict:
        """The server's token counts when plausible, else the tokenizer's: missing counts are
        counted, implausible ones (negative, not integers, beyond what the prompt or
        ``max_tokens`` allow) too, and the request is counted under ``usage_flagged``."""
        return self._checked_usage(job, reply.prompt_tokens, reply.completion_tokens, reply.text,
                                   reply.finish_reason)

    def stored_usage(self, job: Job, reply: CachedReply) -> dict:
        """A cached reply's token counts, checked as a fresh reply's are (rows written by older
        versions may hold a server's implausible counts)."""
        return self._checked_usage(job, reply.prompt_tokens, reply.completion_tokens, reply.text,
                                   reply.finish_reason)

    def _checked_usage(self, job: Job, prompt, completion, text: str, finish_reason) -> dict:
        config = self.models[job.model]
        prompt_limit = (2 * prompt_token_bound(job.messages) if job.messages
                        else 2 * config.context_window) + PROMPT_SLACK_TOKENS
        checked_prompt = plausible_count(prompt, prompt_limit)
        checked_completion = plausible_count(completion,
                                             config.max_tokens + COMPLETION_SLACK_TOKENS)
        implausible = [f"{name}={value!r}"[:60] for name, value, checked in (
            ("prompt_tokens", prompt, checked_prompt),
            ("completion_tokens", completion, checked_completion))
            if value is not None and checked is None]
        if implausible:
            self._flag_usage(job.model, implausible)
        if checked_prompt is None:
            checked_prompt = self._own_prompt_count(job)
        if checked_completion is None:
            checked_completion = self._own_completion_count(text, finish_reason, config)
        return {"prompt_tokens": checked_prompt, "completion_tokens": checked_completion}

    def _own_prompt_count(self, job: Job) -> int:
        if not job.messages:
            return 0
        if not job.prompt_is_exact:
            job.prompt_tokens = count_prompts([job.messages], self.tokenizer)[0]
            job.prompt_is_exact = True
        return job.prompt_tokens

    def _own_completion_count(self, text: str, finish_reason, config: ModelConfig) -> int:
        if finish_reason == OVERSIZED or is_oversized(text, config):
            return config.max_tokens  # the most a server that kept to max_tokens could bill
        return self.tokenizer.count(text) if text else 0

    def _flag_usage(self, model: str, implausible: list[str]) -> None:
        """Count a request whose usage was implausible; say so once per model and run."""
        self.accounts.of(model).usage_flagged += 1
        if model in self._flagged_models:
            return
        self._flagged_models.add(model)
        notice(f"model '{model}' reported implausible token usage ({', '.join(implausible)}); "
               "longnovel counts those tokens itself, and counts such requests under "
               "usage_flagged in the stage's manifest")


def plausible_count(value, limit: int) -> int | None:
    """``value`` as a token count when it is a whole number in ``[0, limit]``, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or not 0 <= value <= limit:
        return None
    return value


def reply_byte_limit(config: ModelConfig) -> int:
    """The most UTF-8 bytes a reply of at most ``max_tokens`` tokens can hold."""
    return config.max_tokens * MAX_BYTES_PER_TOKEN + REPLY_SLACK_BYTES


def is_oversized(text: str, config: ModelConfig) -> bool:
    """True when ``text`` is longer than ``max_tokens`` tokens could ever be."""
    limit = reply_byte_limit(config)
    if len(text) > limit:  # at least one byte per character: no need to encode 8 MB
        return True
    return 4 * len(text) > limit and len(text.encode("utf-8")) > limit


def cut_reply(text: str, config: ModelConfig) -> str:
    """The start of an oversized reply, with a note of what was cut."""
    return (f"{text[:OVERSIZED_KEEP_CHARS]}\n[cut by longnovel: the reply had {len(text)} "
            f"characters, more than max_tokens {config.max_tokens} allows]")


def bound_reply(reply: Reply, config: ModelConfig) -> Reply:
    """``reply``, or when it is oversized its cut start with the finish reason ``oversized``
    (what the cache stores, so the full reply is never kept)."""
    if not is_oversized(reply.text, config):
        return reply
    return replace(reply, text=cut_reply(reply.text, config), finish_reason=OVERSIZED)


def notice(message: str) -> None:
    """One line for the user on stderr, printed above any progress bar."""
    import sys

    from tqdm import tqdm

    tqdm.write(message, file=sys.stderr)


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
