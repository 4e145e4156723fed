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


def reassign(group_windows: list[str], outcomes: list[tuple[str, str, bool]], types: list[str],
             free: int, failed_windows: list[str]) -> list[tuple[str, str]]:
    """New (window id, type) jobs for one (tier, language) group, to fill ``free`` slots that
    final rejections left, keeping the counts of valid injections per type balanced.

    ``outcomes`` holds every (window id, type, valid) tried so far, so a pair is never tried
    twice. Each slot goes to the type with the fewest valid injections (planned ones counted)
    that some window still lacks -- never to a type already at the group's maximum while
    another is below it, so a type the corpus rarely allows does not unbalance the rest. The
    window is one whose candidate was rejected when it lacks that type (another type on the
    same window), else the window with the fewest tries."""
    counts = {t: 0 for t in types}
    tried: set[tuple[str, str]] = set()
    tries: dict[str, int] = {w: 0 for w in group_windows}
    for window_id, type_id, valid in outcomes:
        tried.add((window_id, type_id))
        tries[window_id] = tries.get(window_id, 0) + 1
        if valid and type_id in counts:
            counts[type_id] += 1
    jobs: list[tuple[str, str]] = []
    slots = list(failed_windows)
    for _ in range(free):
        preferred = slots.pop(0) if slots else None
        job = _next_job(group_windows, counts, tried, tries, preferred)
        if job is None:
            break
        jobs.append(job)
        tried.add(job)
        tries[job[0]] += 1
        counts[job[1]] += 1  # planned: counted as if it will succeed
    return jobs


def _next_job(windows, counts, tried, tries, preferred) -> tuple[str, str] | None:
    top, bottom = max(counts.values()), min(counts.values())
    for type_id in sorted(counts, key=lambda t: (counts[t], t)):
        if counts[type_id] >= top > bottom:
            return None  # only full types have room left: adding one would unbalance
        lacking = [w for w in windows if (w, type_id) not in tried]
        if not lacking:
            continue
        window = preferred if preferred in lacking else min(lacking, key=lambda w: (tries[w], w))
        return window, type_id
    return None
