"""Prompt token counts for the context-window guard, rate limits and plan estimates."""

from __future__ import annotations

import json

# Chat templates add a few tokens per message (role markers) and to prime the reply.
PER_MESSAGE_OVERHEAD = 4
PER_PROMPT_OVERHEAD = 3


def message_text(messages: list[dict]) -> str:
    """The messages as one string of roles and contents, for counting."""
    parts = []
    for message in messages:
        content = message.get("content", "")
        if not isinstance(content, str):
            content = json.dumps(content, ensure_ascii=False)
        parts.append(f"{message.get('role', '')}\n{content}")
    return "\n".join(parts)


def prompt_token_bound(messages: list[dict]) -> int:
    """An upper bound on the prompt's tokens without tokenizing: every byte-level BPE token
    covers at least one UTF-8 byte."""
    size = len(message_text(messages).encode("utf-8"))
    return size + PER_MESSAGE_OVERHEAD * len(messages) + PER_PROMPT_OVERHEAD


def count_prompts(prompts: list[list[dict]], tokenizer) -> list[int]:
    """Estimated prompt tokens of each message list, counted in one batch."""
    if not prompts:
        return []
    counts = tokenizer.count_batch([message_text(m) for m in prompts])
    return [c + PER_MESSAGE_OVERHEAD * len(m) + PER_PROMPT_OVERHEAD
            for c, m in zip(counts, prompts, strict=True)]
