"""Per-model usage counters and failure counts of a runner."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass

from longnovel.llm.config import Price


@dataclass
class ModelUsage:
    """Counters for one model.

    ``requests`` counts calls actually sent (retries and re-asks included); tokens cover every
    answer used, cached ones too; ``cost`` is what the calls sent in this run were charged.
    ``usage_flagged`` counts answers whose server-reported token counts were implausible: their
    tokens are longnovel's own count, never the server's figure.
    """

    requests: int = 0
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    usage_flagged: int = 0  # replies whose reported usage was implausible (counted by longnovel)

    def add_tokens(
        self, prompt: int, completion: int, price: Price | None, batch: bool = False
    ) -> None:
        """Add an answer's tokens; ``price`` None means it came from the cache (free now);
        ``batch`` charges the batch rate."""
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        if price is not None:
            self.cost += price.cost(prompt, completion, batch)

    def as_dict(self) -> dict:
        row = asdict(self)
        row["cost"] = round(row["cost"], 6)
        return row


class Accounts:
    """Usage per model and failure counts per reason."""

    def __init__(self):
        self.models: dict[str, ModelUsage] = {}
        self.reasons: Counter[str] = Counter()

    def of(self, model: str) -> ModelUsage:
        """The counters of one model (created on first use)."""
        return self.models.setdefault(model, ModelUsage())

    def fail(self, model: str, reason: str, count: int = 1) -> None:
        """Record failed requests."""
        self.of(model).failures += count
        self.reasons[reason] += count
