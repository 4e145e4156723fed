"""Spending estimates before a run: requests, tokens and cost per stage and model."""

from __future__ import annotations

from dataclasses import dataclass

from longnovel.llm.config import ModelConfig
from longnovel.llm.tokens import count_prompts


@dataclass
class PlannedRequest:
    """A request a stage would send. ``expected_completion_tokens`` None means max_tokens."""

    stage: str
    model: str
    messages: list[dict]
    expected_completion_tokens: int | None = None


def estimate(
    planned: list[PlannedRequest], models: dict[str, ModelConfig], tokenizer
) -> list[dict]:
    """One row per (stage, model): mode, requests, prompt_tokens, completion_tokens, cost.
    Sends nothing.

    Prompt tokens are counted with the tokenizer, all prompts in one batch. A model in batch
    mode is priced at the batch rate (``price.batch_discount`` off).
    """
    prompt_counts = count_prompts([p.messages for p in planned], tokenizer)
    rows: dict[tuple[str, str], dict] = {}
    for request, prompt_tokens in zip(planned, prompt_counts, strict=True):
        config = models[request.model]
        completion = request.expected_completion_tokens
        if completion is None:
            completion = config.max_tokens
        row = rows.setdefault(
            (request.stage, request.model),
            {
                "stage": request.stage,
                "model": request.model,
                "mode": config.mode,
                "requests": 0,
                "prompt_tokens": 0,
                "completion_tokens": 0,
                "cost": 0.0,
            },
        )
        row["requests"] += 1
        row["prompt_tokens"] += prompt_tokens
        row["completion_tokens"] += completion
        row["cost"] += config.price.cost(prompt_tokens, completion, config.batched)
    for row in rows.values():
        row["cost"] = round(row["cost"], 6)
    return list(rows.values())
