"""Settings of one named model endpoint (an entry under ``models:`` in the config)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

BATCH_PROVIDERS = ("openai", "zhipuai")


class Price(BaseModel, extra="forbid"):
    """Price in currency units per million tokens, for cost estimates.

    ``batch_discount`` is the share taken off both prices for requests sent in batch mode
    (0.5: batches cost half, as on OpenAI and ZhipuAI).
    """

    input_per_mtok: float = Field(0.0, ge=0)
    output_per_mtok: float = Field(0.0, ge=0)
    batch_discount: float = Field(0.5, ge=0, le=1)

    def cost(self, prompt_tokens: int, completion_tokens: int, batch: bool = False) -> float:
        """Cost of a call with these token counts (at the batch rate when ``batch``)."""
        live = (
            prompt_tokens * self.input_per_mtok + completion_tokens * self.output_per_mtok
        ) / 1e6
        return live * (1.0 - self.batch_discount) if batch else live


class ModelConfig(BaseModel, extra="forbid"):
    """One model endpoint: which provider serves it, its limits and sampling parameters."""

    provider: Literal["openai", "zhipuai", "transformers"]
    model: str
    base_url: str | None = None
    cache_namespace: str | None = None
    api_key_env: str | None = None
    max_concurrency: int = Field(8, ge=1)
    requests_per_minute: int | None = Field(None, ge=1)
    tokens_per_minute: int | None = Field(None, ge=1)
    temperature: float = Field(0.0, ge=0)
    max_tokens: int = Field(1024, ge=1)
    timeout_s: float = Field(120.0, gt=0)
    max_retries: int = Field(5, ge=0)
    retry_after_max_s: float = Field(300.0, ge=0)
    context_window: int = Field(32768, ge=1)
    extra_body: dict = Field(default_factory=dict)
    price: Price = Field(default_factory=Price)
    mode: Literal["live", "batch"] = "live"
    batch_poll_s: float = Field(30.0, gt=0)

    @model_validator(mode="after")
    def _batch_needs_api(self):
        if self.mode == "batch" and self.provider not in BATCH_PROVIDERS:
            raise ValueError(f"mode batch needs provider {' or '.join(BATCH_PROVIDERS)} "
                             f"(got {self.provider})")
        return self

    @property
    def batched(self) -> bool:
        """True when this model's requests go through the provider's batch API."""
        return self.mode == "batch"

    def endpoint(self) -> str:
        """Where replies come from, for the cache key: ``cache_namespace`` when set, else the
        ``base_url`` (trailing slash ignored), else the provider's own service."""
        if self.cache_namespace:
            return self.cache_namespace
        return (self.base_url or f"{self.provider}:default").rstrip("/")

    def fingerprint_fields(self) -> dict:
        """What a stage using this model depends on: the reply settings, and ``context_window``,
        which decides which prompts are refused before sending. Limits, timeouts, retries,
        prices, the key's variable and the mode of sending (live or batch) are left out."""
        return {**self.reply_fields(), "context_window": self.context_window}

    def reply_fields(self) -> dict:
        """The settings that decide a reply: part of every cache key."""
        return {
            "provider": self.provider,
            "model": self.model,
            "endpoint": self.endpoint(),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "extra_body": self.extra_body,
        }
