"""Balanced assignment of hallucination types to windows, per tier and language."""

from __future__ import annotations

import hashlib
import random


def assign_types(windows: list[tuple[str, str, str]], types: list[str], per_window: int,
                 seed: int) -> dict[str, list[str]]:
    """Map each window id to ``per_window`` distinct types.

    Within each (tier, language) group, windows take consecutive slices of one seeded cycle
    through ``types``, so the counts of the types differ by at most one."""
    per_window = min(per_window, len(types))
    groups: dict[tuple[str, str], list[str]] = {}
    for window_id, tier, language in windows:
        groups.setdefault((tier, language), []).append(window_id)
    assigned: dict[str, list[str]] = {}
    for (tier, language), ids in sorted(groups.items()):
        rng = random.Random(_group_seed(seed, tier, language))
        order = list(types)
        rng.shuffle(order)
        ids = sorted(ids)
        rng.shuffle(ids)
        for k, window_id in enumerate(ids):
            start = k * per_window
            assigned[window_id] = [order[(start + i) % len(order)] for i in range(per_window)]
    return assigned


def _group_seed(seed: int, tier: str, language: str) -> int:
    digest = hashlib.sha256(f"{seed}\x00{tier}\x00{language}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
