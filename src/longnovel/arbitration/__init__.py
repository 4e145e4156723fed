"""Multi-model arbitration: prompts, judge replies and the aggregation of verdicts (DESIGN §10)."""

from longnovel.arbitration.aggregate import (
    CONSISTENT,
    DISPUTED,
    HALLUCINATED,
    Verdict,
    Vote,
    aggregate,
    pairwise_agreement,
)
from longnovel.arbitration.judgment import JudgeReply, judgment_fields
from longnovel.arbitration.prompts import judge_prompt, shared_prefix, summary_prompt

__all__ = [
    "CONSISTENT",
    "DISPUTED",
    "HALLUCINATED",
    "JudgeReply",
    "Verdict",
    "Vote",
    "aggregate",
    "judge_prompt",
    "judgment_fields",
    "pairwise_agreement",
    "shared_prefix",
    "summary_prompt",
]
