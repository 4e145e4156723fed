"""The LLM generator, sentence by sentence.

The program chooses what to change, with the rule modules' own sentence choice
(``longnovel.injection.generators.rules``): the sentence (for ``temporal`` the pair of
sentences, for an added ``fabrication`` sentence the one it follows) and the sub-type. The
model is asked to rewrite only that text, given its neighbours and the window's entities, and
replies
``{"sentence": ...}``; the program splices the reply into the summary, and the candidate is
validated like any other. The output paid per candidate is one sentence, not a summary.

Where the rules would change only a few words of one sentence (``Target.focus``), the model
sees the sentence with those words taken out (``inject_blank.txt``) and writes only the words
that go in their place: a small model asked to rewrite a whole sentence often hands it back
unchanged. The program puts the words in and the candidate is validated the same way.

Templates: ``prompts/<lang>/inject_sentence.txt`` and ``inject_blank.txt`` (the frames) and
``inject_<type>.txt`` (one ``subtype: instruction`` line per sub-type).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from longnovel.injection.candidate import Candidate, Edit, NotApplicable
from longnovel.injection.generators.rules.base import RULE_MODULES
from longnovel.injection.generators.rules.choice import seeded_choice
from longnovel.injection.generators.rules.wordcheck import fault, place_fault
from longnovel.injection.nlp.script import converter
from longnovel.injection.nlp.text import all_capitals, cjk_share
from longnovel.templates import load_prompt

MAX_ENTITIES = 40
SYSTEM = {
    "en": "You help build a benchmark for hallucination detection in novel summaries. You "
          "rewrite one piece of a summary exactly as instructed and reply with JSON only.",
    "zh": "你在协助构建小说摘要幻觉检测的评测集。"
          "请严格按要求改写摘要中的一处文字，只用 JSON 回复。",
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
        "sentence", "text", "new_sentence", "hallucinated_sentence", "rewritten", "result",
        "words"))


@dataclass(frozen=True)
class Target:
    """What the model rewrites: ``summary[start:end]`` (empty for an inserted sentence, then
    ``anchor`` is the sentence it follows), with the sub-type the rules chose; ``focus`` is
    the few words of it the rules would change, when they change only a few (else empty)."""

    type: str
    subtype: str
    start: int
    end: int
    anchor: str = ""
    focus: str = ""

    @property
    def insertion(self) -> bool:
        return self.start == self.end


def targets(summary: str, language: str, entities: list[dict], type_id: str) -> list[Target]:
    """Every (sub-type, place) the rule modules would edit for ``type_id``, without duplicates,
    leaving out the places the rules may not edit (the writer's commentary, the words of a
    quotation: ``wordcheck.place_fault``)."""
    return [target for target, allowed in _places(summary, language, entities, type_id)
            if allowed]


def _places(summary: str, language: str, entities: list[dict],
            type_id: str) -> list[tuple[Target, bool]]:
    """Every (sub-type, place) the rule modules would edit for ``type_id``, once, in their
    order, and whether one of its edits passes ``wordcheck.place_fault`` (then the target's
    focus is that edit's)."""
    from longnovel.injection.generators.rules.draft import Draft

    draft = Draft(summary, language, list(entities))
    if not draft.sentences:
        return []
    found: dict[tuple, tuple[Target, bool]] = {}
    if type_id == "fabrication":  # the model invents; the rules' donors are not needed
        from longnovel.injection.generators.rules import fabrication

        edits = fabrication.places(draft)
    else:
        edits = RULE_MODULES[type_id].edits(draft)
    for edit in edits:
        key = (edit.subtype, edit.start, edit.end)
        if key in found and found[key][1]:
            continue
        allowed = place_fault(draft, edit) is None
        if key in found and not allowed:
            continue
        anchor = ""
        if edit.start == edit.end:
            anchor = next((summary[a:b] for a, b in draft.spans if b == edit.start), "")
        focus = "" if anchor else changed_words(edit.original_span, edit.hallucinated_span,
                                                language)
        found[key] = (Target(type_id, edit.subtype, edit.start, edit.end, anchor, focus),
                      allowed)  # a place keeps its first position
    return list(found.values())


def changed_words(old: str, new: str, language: str) -> str:
    """The words of ``old`` that ``new`` replaces, when they are one short run (at most five
    words, or eight characters in zh) within a longer text; else empty. A small model told
    which words to change changes them instead of copying the sentence back."""
    from difflib import SequenceMatcher

    zh = language == "zh"
    pieces = list(old) if zh else re.findall(r"\w+(?:['’-]\w+)*|[^\w\s]", old)
    other = list(new) if zh else re.findall(r"\w+(?:['’-]\w+)*|[^\w\s]", new)
    runs = [op for op in SequenceMatcher(a=pieces, b=other, autojunk=False).get_opcodes()
            if op[0] != "equal"]
    if len(runs) != 1 or runs[0][1] == runs[0][2]:
        return ""
    _, i, j, _, _ = runs[0]
    if j - i > (8 if zh else 5) or j - i > len(pieces) / 2:
        return ""
    if zh:
        return "".join(pieces[i:j])
    words = re.finditer(r"\w+(?:['’-]\w+)*|[^\w\s]", old)
    spans = [m.span() for m in words][i:j]
    return old[spans[0][0]:spans[-1][1]]


def choose_target(summary: str, language: str, entities: list[dict], type_id: str, seed: int,
                  attempt: int = 0) -> Target | NotApplicable:
    """The place to change on this attempt: sub-types in a seeded order, cycled by attempt, and
    within one a seeded order of places (the rules generator's policy). The places the rules
    may not edit are skipped in that order, as the rules skip them, so leaving one out moves
    no other place's turn."""
    places = _places(summary, language, entities, type_id)
    allowed = {target for target, ok in places if ok}
    if not allowed:
        return NotApplicable(type_id, _NOT_APPLICABLE)
    return seeded_choice([target for target, _ in places], seed, type_id, summary, attempt,
                         accept=allowed.__contains__)


def format_entities(entities: list[dict], language: str) -> str:
    """One line per entity (the most frequent first): ``name (type, count)``."""
    if not entities:
        return "（无）" if language == "zh" else "(none)"
    return "\n".join(f"- {e['name']} ({e['type']}, {e['count']})"
                     for e in entities[:MAX_ENTITIES])


FOCUS = {"en": ' Change these words: "{focus}".', "zh": "改动的是“{focus}”这几个字。"}


def instruction(type_id: str, subtype: str, language: str) -> str:
    """The one-line instruction of ``subtype`` from ``inject_<type>.txt``."""
    for line in load_prompt(f"inject_{type_id}", language).splitlines():
        name, _, text = line.partition(":")
        if name.strip() == subtype:
            return text.strip()
    raise ValueError(f"inject_{type_id}.txt has no line for sub-type {subtype!r}")


def _context(summary: str, target: Target, language: str) -> str:
    """The sentence before the text, a marker in its place, and the sentence after. (Marking
    the text in place made a 1.5B model copy the sentences after it into its reply.)"""
    before, after = neighbours(summary, target, language)
    sep = "" if language == "zh" else " "
    return sep.join(p for p in (before, "<text>…</text>", after) if p).strip()


def length_limit(text: str, language: str) -> int:
    """Words (characters in zh) the new text may have: half as many again as ``text`` (for an
    added sentence, the one it follows) plus a few, and at least 12 (20 characters)."""
    n = len(re.sub(r"\s", "", text)) if language == "zh" else len(text.split())
    return max(20 if language == "zh" else 12, round(n * 1.5) + (4 if language == "zh" else 3))


BLANK = "___"


def blank_limit(focus: str, language: str) -> int:
    """Words (zh characters) the words for a blank may have: three times the focus's, at least
    four (six); a longer reply is a remark, not words for the blank."""
    n = len(re.sub(r"\s", "", focus)) if language == "zh" else len(focus.split())
    return max(6 if language == "zh" else 4, 3 * n)


def blanked(summary: str, target: Target) -> str | None:
    """The target's text with its focus taken out (``___`` in its place), when the model is to
    write only the words that go there: a focus that occurs once in a text of its own."""
    text = summary[target.start:target.end]
    if target.insertion or not target.focus or text.count(target.focus) != 1 \
            or BLANK in text or text.strip() == target.focus.strip():
        return None
    return text.replace(target.focus, BLANK)


def build_messages(summary: str, language: str, entities: list[dict], target: Target,
                   rejected: str | None = None) -> list[dict]:
    """Chat messages asking for the new text of ``target`` (or, where ``blanked``, for the
    words in place of its focus); ``rejected`` (why a previous reply was refused) makes a
    retry a new request."""
    lang = "zh" if language == "zh" else "en"
    blank = blanked(summary, target)
    if blank is not None:
        values = {"entities": format_entities(entities, lang),
                  "context": _context(summary, target, lang), "blanked": blank,
                  "focus": target.focus, "limit": str(blank_limit(target.focus, lang)),
                  "instruction": instruction(target.type, target.subtype, lang)}
        user = re.sub(r"\{(entities|context|blanked|focus|instruction|limit)\}",
                      lambda m: values[m.group(1)], load_prompt("inject_blank", lang))
        if rejected:
            user += RETRY_NOTE[lang].format(reason=rejected)
        return [{"role": "system", "content": SYSTEM[lang]}, {"role": "user", "content": user}]
    text = target.anchor if target.insertion else summary[target.start:target.end]
    values = {"entities": format_entities(entities, lang),
              "context": _context(summary, target, lang), "sentence": text,
              "limit": str(length_limit(text, lang)),
              "instruction": instruction(target.type, target.subtype, lang)
              + (FOCUS[lang].format(focus=target.focus) if target.focus else "")}
    user = re.sub(r"\{(entities|context|sentence|instruction|limit)\}",
                  lambda m: values[m.group(1)], load_prompt("inject_sentence", lang))
    if rejected:
        user += RETRY_NOTE[lang].format(reason=rejected)
    return [{"role": "system", "content": SYSTEM[lang]}, {"role": "user", "content": user}]


_FENCE = re.compile(r"```[\w-]*[ \t]*\n?(.*?)(?:```|$)", re.DOTALL)
_LABEL = re.compile(
    r"^\s*(?:(?:here is |here's )?(?:the )?(?:new|rewritten|edited|changed|modified)?\s*"
    r"(?:sentence|sentences|text|result|answer|output)|新的?(?:文字|句子)|改写后(?:的(?:文字|句子))?"
    r"|改写|结果|答案|句子|文字)\s*[:：]\s*", re.IGNORECASE)


def sentence_from_text(text: str) -> str:
    """The new text of a reply that is not the JSON object asked for: the longest string of a
    JSON object under another key, or the plain text without code fences, lines that only
    introduce it ("Here is the sentence:") and a leading label."""
    from longnovel.llm.parsing import ReplyError, load_json_lenient, strip_think

    text = strip_think(text)
    if "{" in text:
        try:
            value = load_json_lenient(text)
        except (ReplyError, ValueError):
            value = None
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        if isinstance(value, dict):
            try:
                return SentenceReply.model_validate(value).sentence.strip()
            except ValueError:
                pass
            strings = [v for v in value.values() if isinstance(v, str) and v.strip()]
            return max(strings, key=len).strip() if strings else ""
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    lines = [line for line in lines if not line.endswith((":", "："))] or lines
    return _LABEL.sub("", lines[0] if lines else "").strip()


def reply_from_result(result, source: str = "", least: float = 0.2) -> SentenceReply | None:
    """The new text of a request's reply (asked without a schema, so that a reply that is
    not the JSON object asked for is read here rather than sent again): None when the request
    failed or the reply holds no text. A plain-text reply (no JSON object) is taken only when
    it shares words with ``source``, the text it rewrites or follows (a share ``least`` of
    them, at least one): a refusal or a remark is not a sentence of the summary."""
    if not result.ok:
        return None
    if isinstance(result.parsed, SentenceReply):
        return result.parsed
    text = sentence_from_text(result.text)
    if not text or "{" not in result.text and source and not _shares_words(text, source,
                                                                            least):
        return None
    return SentenceReply(sentence=text)


def _shares_words(text: str, source: str, least: float) -> bool:
    """True when a share ``least`` of the words of ``source`` (en: words of three letters or
    more; zh: pairs of characters), and at least one, occur in ``text``."""
    if cjk_share(source) > 0.5:
        words = {source[i:i + 2] for i in range(len(source) - 1)
                 if all("\u4e00" <= c <= "\u9fff" for c in source[i:i + 2])}
        found = {w for w in words if w in text}
    else:
        words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", source)}
        found = words & {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}
    return bool(found) and len(found) >= least * len(words)


_MARKER = re.compile(r"\s*<text>\s*(?:…|\.\.\.)?\s*</text>\s*")


def clean_reply(text: str, original: str, before: str = "", after: str = "") -> str:
    """The model's text without wrapping tags, quotes or a leading label, without the
    neighbouring sentences ``before`` and ``after`` when it copied them in (empty when it
    copied nothing else), ending like ``original`` does."""
    text = _MARKER.sub("\n", text)  # the context's marker, echoed: a break between copies
    text = _LABEL.sub("", re.sub(r"</?(?:text|sentence)>", "", text)).strip()
    pairs = {'"': '"', "“": "”", "'": "'", "「": "」"}
    if len(text) > 1 and text[0] in pairs and text[-1] == pairs[text[0]] \
            and text.count(text[0]) == 1 + (pairs[text[0]] == text[0]):
        text = text[1:-1].strip()
    if before.strip() and text.startswith(before.strip()):
        text = text[len(before.strip()):].strip()
    if after.strip() and text.endswith(after.strip()):
        text = text[: -len(after.strip())].strip()
    if not re.search(r"\w", text):
        return ""  # nothing but the copy, or an ellipsis
    if original and original[-1] in _TERMINAL and text[-1] not in _TERMINAL:
        text += original[-1]
    elif original and original[-1] not in _TERMINAL and text[-1] in ".。":
        text = text[:-1]  # a heading without a full stop stays without one
    if all_capitals(original) and not all_capitals(text):
        text = text.upper()
    return text


def drop_copied_sentences(text: str, summary: str, target: Target, language: str) -> str:
    """``text`` without the sentences that copy a sentence of the summary outside the target
    (a small model often goes on copying the summary after its answer); empty when nothing
    else is left."""
    from longnovel.injection.nlp.sentences import sentence_spans, split_sentences

    def key(sentence: str) -> str:
        return " ".join(sentence.strip().strip("…").split())

    outside = {key(summary[a:b]) for a, b in sentence_spans(summary, language)
               if b <= target.start or a >= target.end}
    if target.insertion:
        outside.add(key(target.anchor))
    parts = [p for line in text.splitlines() for p in split_sentences(line, language)]
    kept = [p.strip() for p in parts if key(p) not in outside and re.search(r"\w", p)]
    if len(kept) == len(parts) and "\n" not in text:
        return text
    return ("" if language == "zh" else " ").join(kept)


def match_script(text: str, summary: str) -> str:
    """``text`` in the summary's Chinese script (OpenCC): a reply to a traditional-character
    summary in traditional characters, to a simplified one in simplified characters, even
    when the model mixed the two."""
    simple = converter("t2s").convert(text)  # all simplified first: OpenCC's phrases then match
    if converter("t2s").convert(summary) != summary:
        return converter("s2t").convert(simple)
    return simple


def neighbours(summary: str, target: Target, language: str) -> tuple[str, str]:
    """The sentence before and the sentence after ``target`` (empty at the ends)."""
    from longnovel.injection.nlp.sentences import sentence_spans

    spans = sentence_spans(summary, language)
    start, end = target.start, target.end
    if target.insertion:
        start = next((a for a, b in spans if b == end), start)
    before = [summary[a:b] for a, b in spans if b <= start][-1:]
    after = [summary[a:b] for a, b in spans if a >= end][:1]
    return (before[0] if before else "", after[0] if after else "")


def splice_reply(summary: str, language: str, target: Target, reply: SentenceReply | dict,
                 model_name: str) -> Candidate:
    """The candidate made by putting the model's text in place of ``target``."""
    parsed = reply if isinstance(reply, SentenceReply) else SentenceReply.model_validate(reply)
    original = "" if target.insertion else summary[target.start:target.end]
    if blanked(summary, target) is not None:
        parsed = SentenceReply(sentence=fill_blank(original, target.focus, parsed.sentence,
                                                   language))
    before, after = neighbours(summary, target, language)
    if target.insertion:
        before = target.anchor  # an added sentence often comes after a copy of its anchor
    new = clean_reply(parsed.sentence, original or target.anchor, before, after)
    new = drop_copied_sentences(new, summary, target, language)
    if language == "zh":
        new = match_script(new, summary)
    inserted = ("" if language == "zh" else " ") + new if target.insertion else new
    text = summary[: target.start] + inserted + summary[target.end:]
    return Candidate(target.type, target.subtype, summary, text, original, new, model_name)


def fill_blank(text: str, focus: str, reply: str, language: str) -> str:
    """``text`` with ``focus`` replaced by the model's words; a reply that is the whole
    sentence (it keeps most of the words around the blank) is taken as it is."""
    from longnovel.injection.nlp.text import match_case

    # the sentence sent back with its blank in it (and a change elsewhere): the focus stays
    words = _MARKER.sub(" ", reply).replace(BLANK, focus).strip()
    words = _LABEL.sub("", re.sub(r"</?(?:text|words)>", "", words)).strip()
    before, _, after = text.partition(focus)
    around = before + " " + after
    if _shares_words(words, around, 0.6) and len(words) >= 0.6 * len(text):
        return words
    ends = ".。!！?？"
    pairs = {'"': '"', "“": "”", "'": "'", "「": "」"}
    for _ in range(2):  # "“拒绝”。", "'refused.'"
        if words[-1:] and words[-1] in ends and focus[-1:] not in ends:
            words = words[:-1].rstrip()
        if len(words) > 1 and words[0] in pairs and words[-1] == pairs[words[0]]:
            words = words[1:-1].strip()
    size = len(re.sub(r"\s", "", words)) if language == "zh" else len(words.split())
    clause = re.search(r"[,，;；.。!！?？:：]", words[:-1]) and not re.search(
        r"[,，;；.。!！?？:：]", focus)
    if not words or size > blank_limit(focus, language) or clause:
        return ""  # nothing, or a remark ("Sorry, I would rather ..."): no words for the blank
    if language != "zh" and focus[:1].isupper():  # a capital first, or all capitals
        words = match_case(focus, words)
    return before + words + after


def reply_edit(summary: str, target: Target, candidate: Candidate) -> Edit:
    """The edit of ``summary`` that ``candidate`` (spliced in at ``target``) makes."""
    end = len(candidate.summary) - (len(summary) - target.end)
    return Edit(candidate.subtype, target.start, target.end,
                candidate.summary[target.start:end], candidate.original_span,
                candidate.hallucinated_span)


def candidate_fault(summary: str, language: str, target: Target,
                    candidate: Candidate) -> str | None:
    """What the checks of every rule edit (``wordcheck.fault``) find wrong with the candidate
    made of a reply, as a reason code (``commentary``, ``inside_quote``, ``nonword: <word>``,
    ``broken_contraction: <word>``), or None."""
    from longnovel.injection.generators.rules.draft import Draft

    return fault(Draft(summary, language), reply_edit(summary, target, candidate))
