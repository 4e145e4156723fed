"""Causal errors: a mere sequence made cause and effect (``invent``), cause and effect traded
(``invert``), or the cause replaced by an unrelated event of the summary (``replace``)."""

from __future__ import annotations

import re

from longnovel.injection import lexicon
from longnovel.injection.candidate import Edit
from longnovel.injection.ops.base import Draft, strip_time_phrase
from longnovel.injection.ops.temporal import _split_opener
from longnovel.injection.text import sentence_body, upper_first

# (pattern over the sentence body, template for the inverted body) -- groups a=cause, b=effect
_EN_PAIRS = [
    (re.compile(r"^(?P<b>.+?),? because (?P<a>.+)$"), "{A} because {b}"),
    (re.compile(r"^Because (?P<a>.+?), (?P<b>.+)$"), "Because {b}, {a}"),
    (re.compile(r"^(?P<a>.+?), so (?P<b>.+)$"), "{B}, so {a}"),
]
_EN_LEAD = re.compile(r"^(?:However|But|Still|Yet|Instead|Meanwhile|Finally|Eventually|"
                      r"In the end|At first|Then|Later|Afterwards|So),?\s+")
_ZH_PAIRS = [
    (re.compile(r"^(?P<s>[^，,]{0,8}?)因为(?P<a>[^，,]+)[，,]所以(?P<b>.+)$"), "{s}因为{b}，所以{a}"),
    (re.compile(r"^由于(?P<a>[^，,]+)[，,](?P<b>.+)$"), "由于{b}，{a}"),
    (re.compile(r"^(?P<b>[^，,]+)[，,]是因为(?P<a>.+)$"), "{a}，是因为{b}"),
    (re.compile(r"^(?P<b>[^，,]+)[，,]因为(?P<a>.+)$"), "{a}，因为{b}"),
    (re.compile(r"^(?P<a>[^，,因由]+)[，,](?P<m>所以|因此|因而)(?P<b>.+)$"), "{b}，{m}{a}"),
]


def edits(draft: Draft) -> list[Edit]:
    out = []
    for i, sentence in enumerate(draft.sentences):
        for subtype, new in _changes(draft, i, sentence):
            edit = draft.replace_sentence(i, new, subtype)
            if edit:
                out.append(edit)
    return out


def _changes(draft: Draft, i: int, sentence: str) -> list[tuple[str, str]]:
    body, end = sentence_body(sentence, draft.language)
    lead = _EN_LEAD.match(body) if not draft.zh else None
    if lead:  # "However, A because B" -> "However, B because A"
        body = body[lead.end() :]
    out = []
    invented = _invent(draft, i, sentence)
    if invented:
        out.append(("invent", invented))
    for pattern, template in _ZH_PAIRS if draft.zh else _EN_PAIRS:
        m = pattern.match(body)
        if not m:
            continue
        inverted = _fill(template, m, draft)
        if lead:
            inverted = lead.group() + draft.lower_first(inverted)
        out.append(("invert", inverted + end))
        out += [("replace", (lead.group() if lead else "") + _replace_cause(body, m, other) + end)
                for other in _unrelated_events(draft, i)]
        break
    return out


def _fill(template: str, m: re.Match, draft: Draft) -> str:
    parts = {k: v for k, v in m.groupdict().items() if v is not None}
    if not draft.zh:
        parts = {k: draft.lower_first(v) for k, v in parts.items()}
        parts.update({k.upper(): upper_first(v) for k, v in parts.items()})
    return template.format(**parts)


def _replace_cause(body: str, m: re.Match, other: str) -> str:
    return body[: m.start("a")] + other + body[m.end("a") :]


def _unrelated_events(draft: Draft, i: int) -> list[str]:
    """Bodies of sentences at least two positions away, usable as a (wrong) cause clause."""
    out = []
    for j, body in draft.memo("cause_clauses", lambda: _cause_bodies(draft)):
        if abs(j - i) >= 2:
            out.append(body)
            if len(out) == 2:
                break
    return out


def _cause_bodies(draft: Draft) -> list[tuple[int, str]]:
    """(index, body) of every sentence whose body could stand as a cause clause."""
    out = []
    for j, sentence in enumerate(draft.sentences):
        body = sentence_body(sentence, draft.language)[0]
        body = strip_time_phrase(_split_opener(body, draft.zh)[1], draft.zh)
        if _has_causal_marker(body, draft.zh) or not 4 <= len(body) <= (40 if draft.zh else 120):
            continue
        if draft.zh and re.search(r"[，,；;：:“”]", body):
            continue
        if _starts_with_pronoun(body, draft.zh):
            continue  # "because he had drowned": "he" would point at someone else here
        out.append((j, draft.lower_first(body)))
    return out


def _invent(draft: Draft, i: int, sentence: str) -> str | None:
    """Tie sentence ``i`` to the previous one as its effect, in the summary's own words: "B
    because A" (en) or "因为A，B" (zh), or the writer's own connective when the summary
    uses one ("So, ...", "于是，...")."""
    if i == 0 or _has_causal_marker(sentence, draft.zh) or draft.sentences[i - 1][-1:] in "?？":
        return None
    if "\n" in draft.summary[draft.spans[i - 1][1] : draft.spans[i][0]]:
        return None
    rest = _split_opener(sentence, draft.zh)[1]
    if rest[:1] in "“\"‘'「(（":
        return None
    own = _writers_connectives(draft)
    if own:
        return own[(len(sentence) + i) % len(own)] + draft.lower_first(rest)
    cause = _cause_clause(draft, i - 1)
    if not cause or _has_causal_marker(draft.sentences[i - 1], draft.zh):
        return None
    body, end = sentence_body(sentence, draft.language)
    if draft.zh:
        return "因为" + cause + "，" + sentence_body(rest, "zh")[0] + end
    return body + " because " + cause + end


def _cause_clause(draft: Draft, j: int) -> str | None:
    """Sentence ``j`` as a clause: no final mark, no time phrase or opener, short enough."""
    body = sentence_body(draft.sentences[j], draft.language)[0]
    body = strip_time_phrase(_split_opener(body, draft.zh)[1], draft.zh)
    if not 4 <= len(body) <= (40 if draft.zh else 140) or re.search(r"[“”\"；;:：,，]", body):
        return None
    return body if draft.zh else draft.lower_first(body)


def _writers_connectives(draft: Draft) -> list[str]:
    """Sentence-opening causal connectives the summary's own writer uses."""
    return draft.memo("causal_connectives", lambda: _connectives_used(draft))


def _connectives_used(draft: Draft) -> list[str]:
    openers = lexicon.ZH_CAUSAL_OPENERS if draft.zh else lexicon.EN_CAUSAL_OPENERS
    found = []
    for opener in openers:
        head = re.compile(re.escape(opener.rstrip(" ，,")) + r"(?![A-Za-z])")
        if any(head.match(sentence) for sentence in draft.sentences):
            found.append(opener)
    return found


def _starts_with_pronoun(body: str, zh: bool) -> bool:
    if zh:
        return body.startswith(("他", "她", "它"))
    return bool(re.match(r"(?i)(he|she|they|it|his|her|their|its|we|i)\b", body))


def _has_causal_marker(text: str, zh: bool) -> bool:
    if zh:
        return any(m in text for m in lexicon.ZH_CAUSAL_MARKERS)
    return any(re.search(rf"\b{m}\b", text, re.IGNORECASE) for m in lexicon.EN_CAUSAL_MARKERS)
