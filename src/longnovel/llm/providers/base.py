"""The provider interface: messages in; text, usage, finish reason out; errors as reason codes."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from functools import lru_cache
from typing import Protocol

from longnovel.llm.config import ModelConfig
from longnovel.llm.types import MissingKeyError

NO_AUTH_KEY = "EMPTY"  # what local servers without auth (vLLM, llama.cpp) accept


def tls_verify(base_url: str | None):
    """What to give httpx as ``verify``: one shared TLS context for https endpoints (loading
    the CA bundle takes ~0.1 s, and every model builds a client), and no certificate checks
    for a plain-http endpoint (a local server), which never uses them."""
    if base_url and base_url.startswith("http://"):
        return False
    return _tls_context()


@lru_cache(maxsize=1)
def _tls_context():
    import ssl

    try:
        import certifi
    except ImportError:  # httpx ships it; without it, the system's store
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())


@dataclass
class Reply:
    """A model's answer. Token counts are None when the server did not report them."""

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    finish_reason: str | None


class ProviderError(Exception):
    """A failed call. ``reason`` is a short code (``http_429``, ``timeout``, ``connection``...)."""

    def __init__(
        self, reason: str, message: str, retryable: bool, retry_after: float | None = None
    ):
        self.reason = reason
        self.retryable = retryable
        self.retry_after = retry_after
        super().__init__(message)


class Provider(Protocol):
    """What the runner needs from a provider."""

    async def complete(self, messages: list[dict]) -> Reply:
        """Send one chat request; raise ProviderError on failure."""

    async def aclose(self) -> None:
        """Release connections and threads."""


def resolve_key(name: str, config: ModelConfig) -> str | None:
    """The API key from ``api_key_env``; ``EMPTY`` for keyless local servers.

    Returns None for providers that need no key (transformers).
    """
    if config.provider == "transformers":
        return None
    if config.api_key_env is None:
        return NO_AUTH_KEY
    key = os.environ.get(config.api_key_env)
    if not key:
        raise MissingKeyError(config.api_key_env, name)
    return key


def check_keys(models: dict[str, ModelConfig]) -> None:
    """Stop before anything is sent when any of ``models`` lacks its key, naming them all."""
    missing = [(config.api_key_env, name) for name, config in models.items()
               if key_status(config) == "missing"]
    if missing:
        raise MissingKeyError(*missing[0], *missing[1:])


def key_status(config: ModelConfig) -> str:
    """``present``, ``missing`` or ``not needed``; never the key itself."""
    if config.provider == "transformers" or config.api_key_env is None:
        return "not needed"
    return "present" if os.environ.get(config.api_key_env) else "missing"


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date), as
    the server asks: the runner decides whether to wait that long (``retry_after_max_s``)."""
    if not headers:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return _seconds(float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = parsedate_to_datetime(value).timestamp() - time.time()
        except (TypeError, ValueError):
            return None
    return _seconds(seconds)


def _seconds(value: float) -> float | None:
    """A wait in seconds, at least 0; None for NaN (no usable header)."""
    return None if math.isnan(value) else max(value, 0.0)


def redact(text: str, secret: str | None) -> str:
    """``text`` with any occurrence of the key masked (servers sometimes echo it)."""
    if secret and len(secret) >= 8 and secret != NO_AUTH_KEY:
        return text.replace(secret, "***")
    return text


def first_line(exc: BaseException, secret: str | None = None) -> str:
    """A short one-line description of an SDK exception, key masked (before cutting, so no
    prefix of the key survives the cut)."""
    text = redact(str(exc).strip(), secret) or type(exc).__name__
    return text.splitlines()[0][:300]


def status_error(status: int, message: str, headers: Mapping[str, str] | None) -> ProviderError:
    """A ProviderError for an HTTP status: 408, 409, 429 and 5xx are worth retrying."""
    retryable = status in (408, 409, 429) or status >= 500
    return ProviderError(f"http_{status}", message, retryable, parse_retry_after(headers))


def translate_sdk_error(errors, exc: Exception, secret: str | None) -> Exception:
    """A ProviderError for an exception of the openai SDK or the zhipuai SDK (``errors`` is the
    SDK module: both name their classes alike); any other exception is returned unchanged."""
    if isinstance(exc, errors.APIStatusError):
        return status_error(exc.status_code, first_line(exc, secret), exc.response.headers)
    if isinstance(exc, errors.APITimeoutError):
        return ProviderError("timeout", "request timed out", retryable=True)
    if isinstance(exc, errors.APIConnectionError):
        return ProviderError("connection", first_line(exc, secret), retryable=True)
    if isinstance(exc, (errors.APIResponseValidationError, ValueError)):
        return ProviderError("bad_response", first_line(exc, secret), retryable=True)
    return exc


def reply_from_completion(response) -> Reply:
    """Text, usage and finish reason of an OpenAI-style completion object (both SDKs')."""
    if isinstance(response, str) or not getattr(response, "choices", None):
        raise ProviderError("bad_response", "the server's reply has no choices", retryable=True)
    choice = response.choices[0]
    message = getattr(choice, "message", None)
    text = getattr(message, "content", None) or ""
    usage = getattr(response, "usage", None)
    return Reply(
        text=text,
        prompt_tokens=getattr(usage, "prompt_tokens", None),
        completion_tokens=getattr(usage, "completion_tokens", None),
        finish_reason=getattr(choice, "finish_reason", None),
    )
