"""Aggregating the judges' verdicts on one summary, and agreement between judges.

Rules (``arbitrate.rule``), over the judges whose reply was usable:

- ``majority``: the label is the side (hallucinated: score < 3, or consistent) taken by more
  than half of the judges; an even split has no majority and is ``disputed``.
- ``unanimous``: every judge must take the same side, otherwise ``disputed``.

The score is the median of all usable scores, a half rounded down (2 and 3 give 2); with a
strict majority the median always falls on the majority's side. Types (hallucinated only) are
those named by at least two judges, or by the only judge when just one judgment is usable; when
the judges name different types, those of the *representative* judge: the judge on the label's
side whose score is closest to the aggregated one (the earliest such judge in config order).
Every usable hallucinated judgment names a type (``JudgeReply`` refuses one that doesn't), so a
``hallucinated`` label always names at least one. The reason is the representative's too. A
summary without any usable judgment is ``disputed`` with a reason saying so.
``agreement`` is the share of usable judges on the label's side (for ``disputed``, on the larger
side); it is None without judgments.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from longnovel.arbitration.judgment import round_half_down
from longnovel.taxonomy import HALLUCINATED_BELOW, TYPE_IDS

HALLUCINATED, CONSISTENT, DISPUTED = "hallucinated", "consistent", "disputed"
RULES = ("majority", "unanimous")


@dataclass(frozen=True)
class Vote:
    """One usable judgment of a summary."""

    judge: str
    score: int
    types: tuple[str, ...] = ()
    reason: str = ""

    @property
    def side(self) -> str:
        return HALLUCINATED if self.score < HALLUCINATED_BELOW else CONSISTENT


@dataclass
class Verdict:
    """The aggregated label of one summary."""

    label: str
    score: int | None
    types: list[str] = field(default_factory=list)
    reason: str = ""
    agreement: float | None = None
    n_judgments: int = 0


def median_score(scores: list[int]) -> int:
    """The median, a half rounded down."""
    return round_half_down(statistics.median(scores))


def agreed_types(votes: list[Vote]) -> list[str]:
    """Types named by at least two judges, or by the only judge; in taxonomy order."""
    if len(votes) == 1:
        return _ordered(set(votes[0].types))
    counts = Counter(t for vote in votes for t in set(vote.types))
    return _ordered({t for t, n in counts.items() if n >= 2})


def _ordered(types: set[str]) -> list[str]:
    rank = {t: i for i, t in enumerate(TYPE_IDS)}
    return sorted(types, key=lambda t: (rank.get(t, len(rank)), t))


def aggregate(votes: list[Vote], rule: str = "majority", expected: int | None = None) -> Verdict:
    """The verdict of ``votes`` under ``rule``; ``expected`` judges were asked (for the reason)."""
    if rule not in RULES:
        raise ValueError(f"unknown arbitration rule {rule!r}; known: {RULES}")
    if not votes:
        return Verdict(DISPUTED, None, reason=_no_judgment_reason(expected))
    sides = Counter(vote.side for vote in votes)
    top, top_n = sides.most_common(1)[0]
    decided = top_n == len(votes) if rule == "unanimous" else top_n * 2 > len(votes)
    score = median_score([vote.score for vote in votes])
    share = top_n / len(votes)
    if not decided:
        return Verdict(DISPUTED, score, reason=_split_reason(votes), agreement=share,
                       n_judgments=len(votes))
    representative = _representative(votes, top, score)
    types = []
    if top == HALLUCINATED:
        types = agreed_types(votes) or _ordered(set(representative.types))
    return Verdict(top, score, types, representative.reason, share, len(votes))


def _representative(votes: list[Vote], side: str, score: int) -> Vote:
    on_side = [vote for vote in votes if vote.side == side]
    return min(on_side, key=lambda vote: abs(vote.score - score))


def _no_judgment_reason(expected: int | None) -> str:
    if expected == 0:
        return "no usable judgment: no judge other than the summary's author is configured"
    return f"no usable judgment: all {expected or 0} judge replies failed"


def _split_reason(votes: list[Vote]) -> str:
    parts = ", ".join(f"{vote.judge} {vote.score} ({vote.side})" for vote in votes)
    return f"judges disagree: {parts}"


def pairwise_agreement(judgments: list[dict]) -> list[dict]:
    """Agreement of every pair of judges over the summaries both judged usably.

    ``judgments`` are judgment rows (``window_id, summary_model, judge_model, score,
    hallucination_types, ok``). Per pair: ``n`` shared summaries, ``label_agreement`` (same side),
    Cohen's ``kappa`` on the sides (None when undefined), and ``types_jaccard``, the mean
    Jaccard similarity of the type sets over the ``n_both_hallucinated`` summaries both judges
    called hallucinated (None when there are none).
    """
    by_judge: dict[str, dict[tuple[str, str], dict]] = {}
    for row in judgments:
        if row["ok"]:
            key = (row["window_id"], row["summary_model"])
            by_judge.setdefault(row["judge_model"], {})[key] = row
    pairs = []
    for a, b in combinations(sorted(by_judge), 2):
        shared = sorted(set(by_judge[a]) & set(by_judge[b]))
        pairs.append(_pair_stats(a, b, [(by_judge[a][k], by_judge[b][k]) for k in shared]))
    return pairs


def _pair_stats(a: str, b: str, rows: list[tuple[dict, dict]]) -> dict:
    sides = [(r["score"] < HALLUCINATED_BELOW, s["score"] < HALLUCINATED_BELOW) for r, s in rows]
    both = [(set(r["hallucination_types"]), set(s["hallucination_types"]))
            for (r, s), (x, y) in zip(rows, sides, strict=True) if x and y]
    agree = sum(x == y for x, y in sides) / len(sides) if sides else None
    jaccard = [len(x & y) / len(x | y) if x | y else 1.0 for x, y in both]
    return {"judges": [a, b], "n": len(sides),
            "label_agreement": _round(agree), "kappa": _round(_kappa(sides)),
            "n_both_hallucinated": len(both),
            "types_jaccard": _round(sum(jaccard) / len(jaccard) if jaccard else None)}


def _kappa(sides: list[tuple[bool, bool]]) -> float | None:
    if not sides:
        return None
    n = len(sides)
    observed = sum(x == y for x, y in sides) / n
    pa = sum(x for x, _ in sides) / n
    pb = sum(y for _, y in sides) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    return None if chance >= 1 else (observed - chance) / (1 - chance)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
