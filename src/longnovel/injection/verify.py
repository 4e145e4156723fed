"""Verified injections: a model checks each valid candidate against the window's article.

The prompt starts with the article, so a prefix-caching server prefills it once for all the
requests of a window (they share ``group=window_id``). The reply says whether the original
text is supported, whether the new text is contradicted or unsupported, and whether it is
fluent; a candidate passes only when all three go its way.
"""

from __future__ import annotations

import re

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from longnovel.injection.candidate import Candidate
from longnovel.templates import load_prompt

SYSTEM = {
    "en": "You check edits of novel summaries against the novel's text. Reply with JSON only.",
    "zh": "你根据小说原文核查小说摘要的改动。只用 JSON 回复。",
}
REASONS = ("verify_original_unsupported", "verify_supported", "verify_disfluent",
           "verify_failed")


class VerifyReply(BaseModel):
    """The judge's three answers (``yes``/``no``, ``true``/``false`` and 1/0 are accepted)."""

    model_config = ConfigDict(extra="ignore")

    original_supported: bool
    new_unsupported: bool = Field(validation_alias=AliasChoices(
        "new_unsupported", "new_contradicted_or_unsupported", "new_contradicted"))
    fluent: bool


def verify_messages(article: str, candidate: Candidate, language: str) -> list[dict]:
    """Chat messages asking the judge about ``candidate``; the article comes first."""
    lang = "zh" if language == "zh" else "en"
    values = {"article": article.strip(), "original": candidate.original_span.strip(),
              "new": candidate.hallucinated_span.strip()}
    user = re.sub(r"\{(article|original|new)\}", lambda m: values[m.group(1)],
                  load_prompt("inject_verify", lang))
    return [{"role": "system", "content": SYSTEM[lang]}, {"role": "user", "content": user}]


def verdict(result) -> str | None:
    """None when the judge accepts the candidate, else one of ``REASONS``."""
    if not result.ok or result.parsed is None:
        return "verify_failed"
    parsed = result.parsed
    if not isinstance(parsed, VerifyReply):
        try:
            parsed = VerifyReply.model_validate(parsed)
        except ValueError:
            return "verify_failed"
    if not parsed.original_supported:
        return "verify_original_unsupported"
    if not parsed.new_unsupported:
        return "verify_supported"
    if not parsed.fluent:
        return "verify_disfluent"
    return None
