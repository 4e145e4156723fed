"""The seeded order in which a generator tries the places of a type: shared by the rules and
the LLM generator, so both try the same places in the same order."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

# Of this many places (the first that pass the checks, taken from the sub-types in turn, in
# their seeded order) the one that keeps the run's ledger closest to zero is taken: what every
# edit brings in ("does not", "declined", 回绝, a sentence more) is what an article-free
# classifier learns, and what is brought in as often as it is taken out tells nothing.
FLOW_PLACES = 8


def seeded_choice(options: list, seed: int, type_id: str, summary: str, attempt: int,
                  accept=None, used: Counter | None = None, rank=None, avoid=None,
                  prefer: tuple[str, ...] = ()):
    """The option (anything with a ``subtype``) to use on this attempt, or None: sub-types in
    a seeded order, cycled by attempt; within one, a seeded order of places. Shared by the
    rules and the LLM generator, so both try the same places in the same order.

    ``accept`` (an option -> bool check) is asked lazily: of each sub-type only until one
    option passes, and of the chosen sub-type's places, so a summary with thousands of
    possible edits costs a few checks, not thousands.

    ``used`` (sub-type -> times chosen so far) puts the least used sub-types first, the seeded
    order breaking ties. Without ``rank``, a later attempt takes a later sub-type, then a later
    place. With ``rank`` (an option -> number), the first ``FLOW_PLACES`` places that pass,
    taken from the sub-types in turn, are ranked together, lowest first, the seeded order
    breaking ties: on the first attempt from every sub-type (the least used ones only, with
    ``used``), on a later one from the attempt's sub-type. The lowest not to ``avoid`` (an
    option -> bool check: an earlier attempt's) is the choice, or a repeat when every place
    is avoided. ``prefer``: sub-types put first among equally used ones."""
    accept = accept or (lambda option: True)
    rng = random.Random(digest(seed, type_id, summary))
    by_subtype: dict[str, list] = {}
    for option in options:
        by_subtype.setdefault(option.subtype, []).append(option)
    order = sorted(by_subtype)
    rng.shuffle(order)
    for subtype in order:
        rng.shuffle(by_subtype[subtype])
    first = {}
    for subtype in order:
        first[subtype] = next((o for o in by_subtype[subtype] if accept(o)), None)
    order = [subtype for subtype in order if first[subtype] is not None]
    if not order:
        return None
    def standing(subtype: str) -> tuple[int, bool]:
        return (used[subtype] if used else 0), subtype not in prefer

    if used or prefer:
        order.sort(key=standing)  # stable: ties keep the seeded order
    if rank:
        if attempt:
            order = [order[attempt % len(order)]]
        elif used or prefer:
            order = [s for s in order if standing(s) == standing(order[0])]
        return _ranked(order, by_subtype, accept, rank, avoid, attempt)
    wanted, places = attempt // len(order), []
    for option in by_subtype[order[attempt % len(order)]]:
        if accept(option):
            if len(places) == wanted:
                return option
            places.append(option)
    return places[wanted % len(places)]


def _ranked(order: list[str], by_subtype: dict, accept, rank, avoid, attempt: int):
    """The lowest ranked of the first ``FLOW_PLACES`` passing places not to ``avoid``, taken
    from the sub-types of ``order`` in turn (the first place of each, then the second, ...);
    when every passing place is to be avoided, the attempt's turn among them."""
    fresh, places = [], []
    queues = [iter(by_subtype[subtype]) for subtype in order]
    while queues and len(fresh) < FLOW_PLACES:
        for queue in list(queues):
            option = next((o for o in queue if accept(o)), None)
            if option is None:
                queues.remove(queue)
                continue
            places.append(option)
            if not (avoid and avoid(option)):
                fresh.append(option)
                if len(fresh) == FLOW_PLACES:
                    break
    if len(fresh) == 1:
        return fresh[0]  # nothing to rank it against
    if fresh:
        return min(fresh, key=rank)  # min keeps the first of equals: the seeded order
    return places[attempt % len(places)]


def digest(*parts) -> int:
    text = "\x00".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
