"""The request and result records that stages exchange with the runner."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from longnovel.errors import LongnovelError


@dataclass
class Request:
    """One chat request. ``key`` is the caller's id; ``group`` schedules related requests together.

    ``schema`` is a pydantic model the reply must parse into (``dict`` accepts any JSON object);
    ``None`` means a free-text reply. ``prompt_tokens_hint`` is the caller's count of the
    prompt's tokens when it already knows most of it (an article's ``n_tokens`` plus a count of
    the rest), used instead of tokenizing the prompt for the context-window guard;
    ``prompt_hint_exact`` is False when the rest was bounded (one token per UTF-8 byte) rather
    than counted.
    """

    key: str
    model: str
    messages: list[dict]
    schema: Any = None
    group: str = ""
    prompt_tokens_hint: int | None = None
    prompt_hint_exact: bool = True


@dataclass
class Result:
    """The outcome of one request. A failed request has ``ok=False`` and a reason in ``error``."""

    key: str
    model: str
    ok: bool
    text: str = ""
    parsed: Any = None
    raw: str = ""
    error: str | None = None
    usage: dict = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0})
    finish_reason: str | None = None
    latency_s: float = 0.0
    cached: bool = False


class MissingKeyError(LongnovelError):
    """A model's ``api_key_env`` names an environment variable that is not set."""

    def __init__(self, variable: str, model_name: str, *others: tuple[str, str]):
        self.variable = variable
        self.variables = list(dict.fromkeys([variable] + [v for v, _ in others]))
        if not others:
            super().__init__(
                f"model '{model_name}' needs an API key: set the environment variable {variable}"
            )
            return
        names = ", ".join(f"'{m}'" for m in dict.fromkeys([model_name] + [m for _, m in others]))
        super().__init__(f"models {names} need API keys: set the environment variables "
                         f"{', '.join(self.variables)}")


class ModelAccessError(LongnovelError):
    """A model answered with an error that no retry can mend (401, 403, 404, 400): the stage
    stops instead of recording the same failure for every request."""


class UnknownModelError(LongnovelError):
    """A request names a model that is not under ``models:`` in the config."""
