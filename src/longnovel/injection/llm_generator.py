"""The LLM generator, sentence by sentence.

The program chooses what to change, with the rule modules' own sentence choice
(``longnovel.injection.ops``): the sentence (for ``temporal`` the pair of sentences, for an
added ``fabrication`` sentence the one it follows) and the sub-type. The model is asked to
rewrite only that text, given its neighbours and the window's entities, and replies
``{"sentence": ...}``; the program splices the reply into the summary, and the candidate is
validated like any other. The output paid per candidate is one sentence, not a summary.

Templates: ``prompts/<lang>/inject_sentence.txt`` (the frame) and ``inject_<type>.txt`` (one
``subtype: instruction`` line per sub-type).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from longnovel.injection.candidate import Candidate, NotApplicable
from longnovel.templates import load_prompt

MAX_ENTITIES = 40
SYSTEM = {
    "en": "You help build a benchmark for hallucination detection in novel summaries. You "
          "rewrite one piece of a summary exactly as instructed and reply with JSON only.",
    "zh": "你在协助构建小说摘要幻觉检测的评测集。请严格按要求改写摘要中的一处文字，只用 JSON 回复。",
}
RETRY_NOTE = {
    "en": "\n\nYour previous answer was rejected ({reason}). Follow the task exactly and try "
          "again.",
    "zh": "\n\n你上一次的回答未通过检查（{reason}）。请严格按任务要求，重新作答。",
}
_NOT_APPLICABLE = "no place in the summary for this type (the rule modules found none)"
_TERMINAL = ".!?。！？…”’\"'"


class SentenceReply(BaseModel):
    """The JSON reply asked for by ``inject_sentence``: the new text."""

    model_config = ConfigDict(extra="ignore")

    sentence: str = Field(validation_alias=AliasChoices(
        "sentence", "text", "new_sentence", "hallucinated_sentence", "rewritten", "result"))


@dataclass(frozen=True)
class Target:
    """What the model rewrites: ``summary[start:end]`` (empty for an inserted sentence, then
    ``anchor`` is the sentence it follows), with the sub-type the rules chose."""

    type: str
    subtype: str
    start: int
    end: int
    anchor: str = ""

    @property
    def insertion(self) -> bool:
        return self.start == self.end


def _modules() -> dict:
    from longnovel.injection.ops import (
        causal,
        entity,
        event,
        fabrication,
        number,
        polarity,
        relation,
        temporal,
    )

    return {"entity": entity, "number": number, "relation": relation, "polarity": polarity,
            "event": event, "temporal": temporal, "causal": causal, "fabrication": fabrication}


def targets(summary: str, language: str, entities: list[dict], type_id: str) -> list[Target]:
    """Every (sub-type, place) the rule modules would edit for ``type_id``, without duplicates."""
    from longnovel.injection.ops.base import Draft

    draft = Draft(summary, language, list(entities))
    if not draft.sentences:
        return []
    found: dict[tuple, Target] = {}
    for edit in _modules()[type_id].edits(draft):
        anchor = ""
        if edit.start == edit.end:
            anchor = next((summary[a:b] for a, b in draft.spans if b == edit.start), "")
        key = (edit.subtype, edit.start, edit.end)
        found.setdefault(key, Target(type_id, edit.subtype, edit.start, edit.end, anchor))
    return list(found.values())


def choose_target(summary: str, language: str, entities: list[dict], type_id: str, seed: int,
                  attempt: int = 0) -> Target | NotApplicable:
    """The place to change on this attempt: sub-types in a seeded order, cycled by attempt, and
    within one a seeded order of places (the rules generator's policy)."""
    options = targets(summary, language, entities, type_id)
    if not options:
        return NotApplicable(type_id, _NOT_APPLICABLE)
    from longnovel.injection.rules import seeded_choice

    return seeded_choice(options, seed, type_id, summary, attempt)


def format_entities(entities: list[dict], language: str) -> str:
    """One line per entity (the most frequent first): ``name (type, count)``."""
    if not entities:
        return "（无）" if language == "zh" else "(none)"
    return "\n".join(f"- {e['name']} ({e['type']}, {e['count']})"
                     for e in entities[:MAX_ENTITIES])


def instruction(type_id: str, subtype: str, language: str) -> str:
    """The one-line instruction of ``subtype`` from ``inject_<type>.txt``."""
    for line in load_prompt(f"inject_{type_id}", language).splitlines():
        name, _, text = line.partition(":")
        if name.strip() == subtype:
            return text.strip()
    raise ValueError(f"inject_{type_id}.txt has no line for sub-type {subtype!r}")


def _context(summary: str, target: Target, language: str) -> str:
    """The sentence before the text, a marker in its place, and the sentence after."""
    from longnovel.injection.text import sentence_spans

    spans = sentence_spans(summary, language)
    start, end = target.start, target.end
    if target.insertion:
        start = next((a for a, b in spans if b == end), start)
    before = [summary[a:b] for a, b in spans if b <= start][-1:]
    after = [summary[a:b] for a, b in spans if a >= end][:1]
    marker = "<text>…</text>"
    sep = "" if language == "zh" else " "
    return sep.join([*before, marker, *after]).strip()


def build_messages(summary: str, language: str, entities: list[dict], target: Target,
                   rejected: str | None = None) -> list[dict]:
    """Chat messages asking for the new text of ``target``; ``rejected`` (why a previous reply
    was refused) makes a retry a new request."""
    lang = "zh" if language == "zh" else "en"
    text = target.anchor if target.insertion else summary[target.start:target.end]
    values = {"entities": format_entities(entities, lang),
              "context": _context(summary, target, lang), "sentence": text,
              "instruction": instruction(target.type, target.subtype, lang)}
    user = re.sub(r"\{(entities|context|sentence|instruction)\}",
                  lambda m: values[m.group(1)], load_prompt("inject_sentence", lang))
    if rejected:
        user += RETRY_NOTE[lang].format(reason=rejected)
    return [{"role": "system", "content": SYSTEM[lang]}, {"role": "user", "content": user}]


def clean_reply(text: str, original: str) -> str:
    """The model's text without wrapping tags or quotes, ending like ``original`` does."""
    text = re.sub(r"</?(?:text|sentence)>", "", text).strip()
    pairs = {'"': '"', "“": "”", "'": "'", "「": "」"}
    if len(text) > 1 and text[0] in pairs and text[-1] == pairs[text[0]] \
            and text.count(text[0]) == 1 + (pairs[text[0]] == text[0]):
        text = text[1:-1].strip()
    if original and original[-1] in _TERMINAL and text and text[-1] not in _TERMINAL:
        text += original[-1]
    return text


def splice_reply(summary: str, language: str, target: Target, reply: SentenceReply | dict,
                 model_name: str) -> Candidate:
    """The candidate made by putting the model's text in place of ``target``."""
    parsed = reply if isinstance(reply, SentenceReply) else SentenceReply.model_validate(reply)
    original = "" if target.insertion else summary[target.start:target.end]
    new = clean_reply(parsed.sentence, original or target.anchor)
    inserted = ("" if language == "zh" else " ") + new if target.insertion else new
    text = summary[: target.start] + inserted + summary[target.end:]
    return Candidate(target.type, target.subtype, summary, text, original, new, model_name)
