"""The LLM generator: prompt templates per type and language, and the reply schema.

Templates live in ``longnovel/prompts/<lang>/inject_<type>.txt``. The user message starts with
the reference summary and the entity list, identical for the eight types of one window, so a
server's prefix cache serves all of them after the first.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from longnovel.injection.candidate import Candidate, NotApplicable
from longnovel.templates import load_prompt

NOT_APPLICABLE = "not_applicable"
MAX_ENTITIES = 40
SYSTEM = {
    "en": "You help build a benchmark for hallucination detection in novel summaries. You edit "
          "summaries exactly as instructed and reply with JSON only.",
    "zh": "你在协助构建小说摘要幻觉检测的评测集。请严格按要求修改摘要，只用 JSON 回复。",
}
RETRY_NOTE = {
    "en": "\n\nYour previous answer was rejected ({reason}). Follow the rules exactly and try "
          "again.",
    "zh": "\n\n你上一次的回答未通过检查（{reason}）。请严格遵守规则，重新作答。",
}


class InjectionReply(BaseModel):
    """The JSON reply asked for by the inject templates."""

    model_config = ConfigDict(extra="ignore")

    subtype: str
    original_sentence: str = ""
    hallucinated_sentence: str = ""
    summary: str = ""
    reason: str = ""


def load_template(type_id: str, language: str) -> str:
    """The prompt template of ``type_id`` in ``language`` (zh or en)."""
    return load_prompt(f"inject_{type_id}", language)


def format_entities(entities: list[dict], language: str) -> str:
    """One line per entity (the most frequent first): ``name (type, count)``."""
    if not entities:
        return "（无）" if language == "zh" else "(none)"
    return "\n".join(f"- {e['name']} ({e['type']}, {e['count']})"
                     for e in entities[:MAX_ENTITIES])


def build_messages(summary: str, language: str, entities: list[dict], type_id: str,
                   rejected: str | None = None) -> list[dict]:
    """Chat messages asking a model for one hallucination of ``type_id`` in ``summary``.
    ``rejected`` (the reason a previous reply was refused) makes a retry a new request."""
    lang = "zh" if language == "zh" else "en"
    values = {"summary": summary.strip(), "entities": format_entities(entities, lang)}
    user = re.sub(r"\{(summary|entities)\}", lambda m: values[m.group(1)],
                  load_template(type_id, lang))
    if rejected:
        user += RETRY_NOTE[lang].format(reason=rejected)
    return [{"role": "system", "content": SYSTEM[lang]}, {"role": "user", "content": user}]


def candidate_from_reply(parsed: InjectionReply | dict, summary: str, type_id: str,
                         model_name: str) -> Candidate | NotApplicable:
    """The candidate a parsed reply describes (validation comes afterwards)."""
    reply = parsed if isinstance(parsed, InjectionReply) else InjectionReply.model_validate(parsed)
    subtype = reply.subtype.strip().lower().replace("-", "_").replace(" ", "_")
    if subtype == NOT_APPLICABLE:
        return NotApplicable(type_id, reply.reason.strip() or "the model found no place for it")
    return Candidate(type_id, subtype, summary, reply.summary.strip(),
                     reply.original_sentence.strip(), reply.hallucinated_sentence.strip(),
                     model_name)
