"""Causal errors: the end of one unit's events made the cause of the next unit's first event
(``invent``: events of different units, never two steps of one scene), cause and effect
traded (``invert``), or the cause replaced by an event that a part of the book outside the
window tells of one of its characters (``replace``)."""

from __future__ import annotations

import re

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.donors import donors, retells
from longnovel.injection.generators.rules.draft import (
    PRONOUN_GENDER,
    Draft,
    describes_a_state,
    find_names,
    opens_with_time,
    split_opener,
    strip_time_phrase,
)
from longnovel.injection.lexicon.en import (
    EN_CAUSAL_MARKERS,
    EN_CAUSAL_OPENERS,
    EN_REPORTING_VERBS,
    EN_SUBJECT_OPENERS,
)
from longnovel.injection.lexicon.zh import ZH_CAUSAL_MARKERS, ZH_CAUSAL_OPENERS, ZH_REPORTING_VERBS
from longnovel.injection.nlp import inflect
from longnovel.injection.nlp.sentences import sentence_body
from longnovel.injection.nlp.text import upper_first

_EN_MARKER_PATTERNS = tuple(re.compile(rf"\b{m}\b", re.IGNORECASE)
                            for m in EN_CAUSAL_MARKERS)
# (pattern over the sentence body, template for the inverted body) -- groups a=cause, b=effect
# "because of his knees" is no clause: it cannot change places with one
_EN_PAIRS = [
    (re.compile(r"^(?P<b>.+?),? because (?!of\b)(?P<a>.+)$"), "{A} because {b}"),
    (re.compile(r"^Because (?!of\b)(?P<a>.+?), (?P<b>.+)$"), "Because {b}, {a}"),
    (re.compile(r"^(?P<a>.+?), so (?P<b>.+)$"), "{B}, so {a}"),
]
_EN_LEAD = re.compile(r"^(?:However|But|Still|Yet|Instead|Meanwhile|Finally|Eventually|"
                      r"In the end|At first|Then|Later|Afterwards|So),?\s+")
_ZH_PAIRS = [
    (re.compile(r"^(?P<s>[^，,]{0,8}?)因为(?P<a>[^，,]+)[，,]所以(?P<b>.+)$"),
     "{s}因为{b}，所以{a}"),
    (re.compile(r"^由于(?P<a>[^，,]+)[，,](?P<b>.+)$"), "由于{b}，{a}"),
    (re.compile(r"^(?P<b>[^，,]+)[，,]是因为(?P<a>.+)$"), "{a}，是因为{b}"),
    (re.compile(r"^(?P<b>[^，,]+)[，,]因为(?P<a>.+)$"), "{a}，因为{b}"),
    (re.compile(r"^(?P<a>[^，,因由]+)[，,](?P<m>所以|因此|因而)(?P<b>.+)$"), "{b}，{m}{a}"),
]
# The part a zh trade puts first as the main clause: it needs a subject of its own (怕师父咳血，
# 因为小满没有说出… has none; the writer's subject stayed with the other part).
_ZH_FRONT = {2: "a", 3: "a", 4: "b"}


def edits(draft: Draft) -> list[Edit]:
    out = []
    for i, sentence in enumerate(draft.sentences):
        invented = _invent(draft, i, sentence)
        if invented and invented[1]:
            out.append(_merge_across(draft, i - 1, invented[0]))
        elif invented:
            out.append(draft.replace_sentence(i, invented[0], "invent"))
        for subtype, new in _changes(draft, i, sentence):
            edit = draft.replace_sentence(i, new, subtype)
            if edit:
                out.append(edit)
    return [edit for edit in out if edit]


def _changes(draft: Draft, i: int, sentence: str) -> list[tuple[str, str]]:
    body, end = sentence_body(sentence, draft.language)
    lead = _EN_LEAD.match(body) if not draft.zh else None
    if lead:  # "However, A because B" -> "However, B because A"
        body = body[lead.end() :]
    out = []
    for k, (pattern, template) in enumerate(_ZH_PAIRS if draft.zh else _EN_PAIRS):
        m = pattern.match(body)
        if not m:
            continue
        if _reports(m, draft.zh):
            break  # "青禾算出，因为A，B": the part before the cause is a report, not an effect
        if not draft.zh and _tangled(m):
            break  # "A, and because B, C" / "A, but she refused, because B": no plain pair
        inverted = _fill(template, m, draft)
        reported = m.groupdict().get("b") and _opens_with_report(draft, m.group("b"))
        if lead:
            inverted = lead.group() + draft.lower_first(inverted)
        # a clause whose subject points back ("this is surprising") cannot change places
        # with the clause it points at: "..., because this is surprising"
        moved = [v for v in m.groupdict().values() if v]
        points_back = not draft.zh and (any(_REFERRING.match(v) or re.match(
            r"(?i)(?:it|this|that)\b", v) for v in moved) or _pronoun_in_later(m))
        # "Winship hangs up, so the person who answers cannot speak English": an ability or
        # a need is no effect of a later event; and a need no cause of an earlier one ("Simon
        # must go to Bahnhof, so there is no hotel space in Munch"; a lack of ability may
        # be: "he cannot swim, so he drowns")
        capacity = not draft.zh and (_EN_CAPACITY.search(m.group("a"))
                                     or _EN_NEED.search(m.group("b")))
        no_subject = draft.zh and k in _ZH_FRONT and not _zh_clause_with_subject(
            draft, m.group(_ZH_FRONT[k]))
        # a record or a report in either part ("the dues ledger showed eleven", "a letter
        # from the Office said ..."): evidence and what it shows, or a message and what it
        # tells, cannot trade places (seeds 5343's and 5444's readings)
        evidence = not draft.zh and any(_EN_EVIDENCE.search(part)
                                        for part in (m.group("a"), m.group("b")))
        if not (points_back or reported or capacity or no_subject or evidence
                or (not draft.zh and _tenses_disagree(m.group("a"), m.group("b")))):
            out.append(("invert", inverted + end))
        if not (m.start("b") > m.start("a") and not draft.zh and _EN_PERSONAL.search(
                m.group("b"))):  # "A, so they appease her": she was named in the cause
            out += [("replace",
                     (lead.group() if lead else "") + _replace_cause(body, m, other) + end)
                    for other in _unrelated_events(draft, m.group("a"))
                    if draft.zh or m.start("b") > m.start("a")
                    or not _a_pronoun_may_be(draft, m.group("b"), other)]
        break
    return out


def _tenses_disagree(a: str, b: str) -> bool:
    """Do the two clauses of a stated cause tell of different times (one past, one present),
    or one of what would have been? Their places traded, a past effect would follow from a
    present state ("Nobody knew how to kill the Invaders because all of the survivors are
    underground") or a cause from what never happened ("The humans wouldn't have expected a
    colony there because there is something curious about the ruins")."""
    if any(re.search(r"(?i)\bwould(?:n['’]t| not)? have\b", clause) for clause in (a, b)):
        return True
    first, second = inflect.clause_tense(a), inflect.clause_tense(b)
    return first is not None and second is not None and first != second


_EN_EVIDENCE = re.compile(r"\b(?:" + "|".join(EN_REPORTING_VERBS) + r"|showed|shows|shown|"
                          r"revealed|reveals|proved|proves|suggested|suggests|indicated|"
                          r"indicates|wrote|writes|recorded|records|reported|reports)\b")
_NEEDS = r"must|needs? to|has to|have to|had to|should|ought to"
_EN_CAPACITY = re.compile(rf"(?i)\b(?:can|cannot|can['’]t|could|couldn['’]t|unable|able to|"
                          rf"{_NEEDS})\b")
_EN_NEED = re.compile(rf"(?i)\b(?:{_NEEDS})\b")
_EN_PERSONAL = re.compile(r"(?i)\b(?:he|she|they|him|her|them|his|their|hers|theirs|himself|"
                          r"herself|themselves)\b")


def _a_pronoun_may_be(draft: Draft, effect: str, cause: str) -> bool:
    """Does ``cause`` (a borrowed sentence, which opens with a name) open with a person whom a
    "she" or "him" of ``effect``, told before it, may already be? "Her father had told her to
    throw it back, because Wren counted sixty teeth": the writer would have written "she"."""
    said = {PRONOUN_GENDER[w] for w in re.findall(r"[a-z]+", effect.lower())
            if w in PRONOUN_GENDER}
    found = find_names(cause, draft.names("person"), False) if said else []
    return bool(found) and found[0][0] == 0 and draft.gender_of(found[0][2]) in said


def _pronoun_in_later(m: re.Match) -> bool:
    """Does the clause the writer put second hold a personal pronoun? It points at someone
    the first clause named ("Strike was no longer trusted, so he banished him"): put in front,
    it would name no one yet ("He banished him ..., so Strike was ...")."""
    groups = [g for g in ("a", "b") if m.groupdict().get(g)]
    later = max(groups, key=m.start)
    return bool(_EN_PERSONAL.search(m.group(later)))


def _zh_clause_with_subject(draft: Draft, clause: str) -> bool:
    return _has_subject(draft, clause) or _starts_with_pronoun(clause, True)


def _fill(template: str, m: re.Match, draft: Draft) -> str:
    parts = {k: v for k, v in m.groupdict().items() if v is not None}
    if not draft.zh:
        parts = {k: draft.lower_first(v) for k, v in parts.items()}
        parts.update({k.upper(): upper_first(v) for k, v in parts.items()})
    return template.format(**parts)


def _replace_cause(body: str, m: re.Match, other: str) -> str:
    return body[: m.start("a")] + other + body[m.end("a") :]


def _unrelated_events(draft: Draft, cause: str) -> list[str]:
    """Events that another part of the book (a unit outside this window) tells of a character
    of this window, usable as a (wrong) cause clause: of another time than this window's
    events, in the writer's own words, and no retelling of this summary (a cause copied from
    the summary's own next paragraph repeats it, which any reader notices). The two nearest
    the replaced cause's length come first: a borrowed cause twice as long as the writer's is
    a tell of its own."""
    if not draft.names("person") or not draft.outside:
        return []
    size = _clause_size(cause, draft.zh)
    tense = None if draft.zh else inflect.clause_tense(cause)
    # (told in the replaced cause's tense: "because Silas Morrow proposes ..." for a cause
    # the writer told in the past is another hand's)
    fitting = [body for body in draft.memo("cause_donors", lambda: _cause_donors(draft))
               if 0.6 * size <= _clause_size(body, draft.zh) <= 1.5 * size + (4 if draft.zh else 2)
               and (tense is None or inflect.clause_tense(body) in (None, tense))]
    fitting.sort(key=lambda body: (abs(_clause_size(body, draft.zh) - size), body))
    return fitting[:2]


def _clause_size(clause: str, zh: bool) -> int:
    return len(clause) if zh else len(clause.split())


def _cause_donors(draft: Draft) -> list[str]:
    """The book's borrowable sentences (``donors``) that are one plain clause with no cause of
    its own, without their final mark."""
    out = []
    # of a character the summary names: "because Liesl said she could find the Ewe's anchor",
    # in a summary where no Liesl is, is a cause from nowhere (seed 4939's reading)
    named = list(dict.fromkeys(n for _, _, n in find_names(draft.summary, draft.names("person"),
                                                           draft.zh)))
    for _, _, sentence in donors(draft, named):
        clause = sentence_body(sentence, draft.language)[0]
        if _has_causal_marker(clause, draft.zh) or retells(draft, clause):
            continue
        if re.search(r"[，,；;：:“”\"]", clause) or not (draft.zh or _has_verb(clause)):
            continue
        out.append(clause)
    return list(dict.fromkeys(out))


# An effect that opens by bringing someone or something into the story ("An American man
# named ...", "There is ...", 一个/有一位...)
_INTRODUCES = re.compile(r"(?:An?|There (?:is|are|was|were))\s|(?:有)?一[个位名只条]")


def _invent(draft: Draft, i: int, sentence: str) -> tuple[str, bool] | None:
    """Tie sentence ``i`` to the previous one as its effect, in the summary's own words, and
    say whether the new text stands for both sentences: the writer's own sentence-opening
    connective when the summary opens a paragraph with one ("So, ...", "于是，...": sentence
    ``i`` alone), else
    the two sentences joined into one ("A. B." -> "Because A, b." or "A, so b."; zh
    "因为A，B" or "A，所以B"), so that no event is told twice."""
    if i == 0 or _has_causal_marker(sentence, draft.zh) or draft.sentences[i - 1][-1:] in "?？!！":
        return None
    if draft.unit_of(i - 1) == draft.unit_of(i):
        return None  # two steps of one unit's story are often truly cause and effect
    if i + 1 >= len(draft.sentences) or draft.unit_of(i + 1) != draft.unit_of(i):
        return None  # the joined sentence would leave the next unit's summary empty
    rest = split_opener(sentence, draft.zh)[1]
    if rest[:1] in "“\"‘'「(（":
        return None
    if draft.commentary_at(i) or draft.commentary_at(i - 1):
        return None  # "..., because the story ends with ...": the writer on the book, no event
    if describes_a_state(rest, draft.zh):
        return None  # "Thus, the person from Lovenbroy is named Hank": a fact, not an effect
    own = _paragraph_connectives(draft)
    if own:
        return own[(len(sentence) + i) % len(own)] + draft.lower_first(rest), False
    cause = _cause_clause(draft, i - 1)
    if not cause or _has_causal_marker(draft.sentences[i - 1], draft.zh):
        return None
    prefix, clause = cause
    effect, end = sentence_body(rest, draft.language)
    opener = sentence[: len(sentence) - len(rest)].strip(" ,，")
    if opener in ("Meanwhile",):
        return None  # two things at once: neither can have caused the other
    if opens_with_time(effect, draft.zh):
        return None  # "因为A，十四到十六日，B": the effect has a time of its own
    if _INTRODUCES.match(effect):
        return None  # "A, so an American man named Major Winship learns ...": someone
        # brought into the story is no effect of what came before
    if _opens_with_report(draft, effect):
        return None  # "Because she said nothing, Jory said he had left": no caused event
    if not (_has_subject(draft, effect) or _starts_with_pronoun(effect, draft.zh)):
        return None  # ", so using the workbook, ..." / "所以这时...": no subject to cause
    if not draft.zh and not (_has_verb(clause) and _has_verb(effect)):
        return None  # a heading's "THEIR CONVERSATION, AND ..." is no event
    subject = _leading_name(draft, clause)
    if draft.zh and subject and effect.startswith(subject):
        return None  # "因为柴文炳不要，柴文炳回了青螺滩" names him twice
    if opener in _TIMED_OPENERS:  # "A, so that night B": the effect keeps its time
        effect = opener + ("" if draft.zh else " ") + effect
    forms = _writers_joins(draft)
    if not draft.zh and (_starts_with_pronoun(clause, False) or re.search(r"[,;:]", effect)
                         or _EN_RELATIVE.search(effect) or len(effect.split()) > 20
                         or re.search(r"\b(?:and|but|or|hoping|leaving)\b", effect)
                         or subject and effect.startswith(subject)):
        # "Macklin gets a migraine because Macklin is skeptical" names him twice
        # "B because he ..." : who? "B, although C because A", "the ship where he works
        # because A", "B and his efforts succeed because A": which does it explain?
        forms = tuple(form for form in forms if form != _AFTER)
    if not forms:
        return None  # a writer who never writes "because" or "so" would not write it here
    form = forms[_coin(draft, i) % len(forms)]
    if draft.zh:
        joined = f"因为{clause}，{effect}" if form == _FIRST else f"{clause}，所以{effect}"
        return prefix + joined + end, True
    effect, cause = draft.lower_first(effect), draft.lower_first(clause)
    if form == _FIRST:
        opener = "because" if prefix else "Because"
        return f"{prefix}{opener} {cause}, {effect}{end}", True
    if form == _AFTER:
        effect = effect if prefix else upper_first(effect)
        return f"{prefix}{effect} because {cause}{end}", True
    clause = clause if prefix else upper_first(clause)
    return f"{prefix}{clause}, so {effect}{end}", True


def _merge_across(draft: Draft, first: int, new: str) -> Edit:
    """Sentences ``first`` (the last of one unit's summary) and ``first + 1`` (the first of the
    next) made the one sentence ``new``, which ends the first unit's paragraph: the
    paragraph break stays before what followed them."""
    start, end = draft.spans[first][0], draft.spans[first + 1][1]
    gap = draft.summary[draft.spans[first][1] : draft.spans[first + 1][0]]
    nxt = draft.spans[first + 2][0]
    return Edit("invent", start, nxt, new + gap, draft.summary[start:end], new)


_EN_RELATIVE = re.compile(r"(?i)\b(?:that|which|where|who|whom|whose|when|while|until|before|"
                          r"after|although|though)\b")
# en words that point back into their own paragraph: a cause clause moved away cannot open so
_REFERRING = re.compile(r"(?i)(?:one|this|that|these|those|both|each|neither|either|another|"
                        r"the other|the same|such)\b")
_TIMED_OPENERS = ("The next day", "That night", "第二天", "当晚", "次日")


def _opens_with_report(draft: Draft, effect: str) -> bool:
    """Does the clause's main verb, among its first words, say or know rather than act?"""
    if draft.zh:
        name = _leading_name(draft, effect) or ""
        head = effect[len(name) : len(name) + 6]
        return head.startswith(ZH_REPORTING_VERBS) or any(
            verb in effect[:8] for verb in ZH_REPORTING_VERBS if len(verb) > 1)
    return any(w.lower() in EN_REPORTING_VERBS for w in effect.split()[:4])


# The forms of a joined cause: "Because A, B" (zh 因为A，B), "B because A", "A, so B" (zh A，所以B)
_FIRST, _AFTER, _SO = "because first", "because after", "so"


def _writers_joins(draft: Draft) -> tuple[str, ...]:
    """The forms of a joined cause the summary's writer uses. A writer who puts "because" only
    between the effect and its cause never opens a sentence with it: a ". Because" from such a
    writer is the edit's own word."""
    def joins() -> tuple[str, ...]:
        text = draft.summary
        if draft.zh:
            found = {_FIRST: "因为" in text or "由于" in text,
                     _SO: "所以" in text or "因此" in text}
        else:
            found = {_FIRST: bool(re.search(r"(?:^|[.!?]['’\"”]?\s+)Because\b(?! of)", text)),
                     _AFTER: bool(re.search(r"[a-z,]\s+because\b(?! of)", text)),
                     _SO: bool(re.search(r",\s+so\s+(?!that|much|many|far|long)\w", text))}
        return tuple(form for form, used in found.items() if used)
    return draft.memo("causal_joins", joins)


def _coin(draft: Draft, i: int) -> int:
    """A stable number per summary and sentence, for the form an invented cause takes."""
    return len(draft.sentences[i]) + len(draft.sentences[i - 1]) + i


def _cause_clause(draft: Draft, j: int) -> tuple[str, str] | None:
    """Sentence ``j`` as (its leading time phrase or opener, the clause after it, without its
    final mark), when the clause is short enough and has a subject of its own."""
    body = sentence_body(draft.sentences[j], draft.language)[0]
    clause = strip_time_phrase(split_opener(body, draft.zh)[1], draft.zh)
    if not 4 <= len(clause) <= (40 if draft.zh else 140) or \
            re.search(r"[“”\"；;:：,，]", clause):
        return None
    if not _has_subject(draft, clause) and not _starts_with_pronoun(clause, draft.zh):
        return None  # a heading's "treats on a very poor subject" has no subject of its own
    prefix = body[: len(body) - len(clause)]
    if prefix and not prefix.rstrip().endswith((",", "，")):
        prefix = ""  # an opener such as "Then" gives way to the connective
    return prefix, clause


def _writers_connectives(draft: Draft) -> list[str]:
    """Sentence-opening causal connectives the summary's own writer uses."""
    return draft.memo("causal_connectives", lambda: _connectives_used(draft))


def _paragraph_connectives(draft: Draft) -> list[str]:
    """The writer's sentence-opening causal connectives that also open one of the summary's
    paragraphs (a unit's summary). Sentence ``i`` of an invented cause opens a paragraph; a
    writer who writes "So, ..." inside a paragraph seldom opens a chapter's summary with it,
    and "Therefore, a girl goes up to Joe's table" at a paragraph's head gave the edit away."""
    def find() -> list[str]:
        heads = [k for k in range(len(draft.sentences))
                 if k == 0 or draft.paragraph_of(k - 1) != draft.paragraph_of(k)]
        return [opener for opener in _writers_connectives(draft)
                if any(_opens_with(draft.sentences[k], opener) for k in heads)]
    return draft.memo("causal_paragraph_connectives", find)


def _opens_with(sentence: str, opener: str) -> bool:
    return bool(re.match(re.escape(opener.rstrip(" ，,")) + r"(?![A-Za-z])", sentence))


def _connectives_used(draft: Draft) -> list[str]:
    openers = ZH_CAUSAL_OPENERS if draft.zh else EN_CAUSAL_OPENERS
    return [opener for opener in openers
            if any(_opens_with(sentence, opener) for sentence in draft.sentences)]


def _reports(m: re.Match, zh: bool) -> bool:
    """Does the part of a matched pair before its cause end with a verb of saying or
    knowing (then it is a report of the reasoning, not its effect)?"""
    head = m.string[: m.start("a")] if m.start("a") > 0 else ""
    head = head.rstrip(" ，,").removesuffix("因为").removesuffix("是").rstrip(" ，,")
    if zh:
        return head.endswith(ZH_REPORTING_VERBS)
    head = head.removesuffix(" because").rstrip(", ").removesuffix(" that")
    return head.split()[-1:] != [] and head.split()[-1].lower() in EN_REPORTING_VERBS


def _tangled(m: re.Match) -> bool:
    """Is an en cause or effect more than one plain clause (a comma inside it, a dangling
    "and"), or does it open with a time phrase that the trade would bury mid-sentence?"""
    parts = [m.group("a"), m.group("b")]
    if any("," in part or ";" in part for part in parts):
        return True
    if re.search(r"\b(?:and|but|or|so|then)$", m.group("b").strip()):
        return True
    return any(opens_with_time(part, False) for part in parts)


def _leading_name(draft: Draft, body: str) -> str | None:
    """The person's name a clause opens with, if it opens with one."""
    for name in draft.names("person"):
        if body.startswith(name):
            return name
    return None


def _has_subject(draft: Draft, body: str) -> bool:
    """Can ``body`` stand as a clause of its own: does it open with a subject (a name, a
    determiner or title; zh: a character's name near its start)?"""
    if draft.zh:
        return any(name in body[:8] for name in draft.names("person"))
    first = re.match(r"[\w'’-]+", body)
    if not first:
        return False
    word = first.group()
    if word.lower() in EN_SUBJECT_OPENERS:
        return True
    proper = draft.memo("proper_lower", lambda: {w.lower() for w in draft.proper_words})
    return word.lower() in proper and not _is_heading_verb(word)


def _has_verb(clause: str) -> bool:
    """Does an en clause have a word that can be a verb before its first comma?"""
    from lemminflect import getAllLemmas

    words = re.findall(r"[A-Za-z]+", clause.split(",")[0])[1:]
    return any({"VERB", "AUX"} & getAllLemmas(w.lower()).keys() for w in words)


def _is_heading_verb(word: str) -> bool:
    """An all-capitals heading's first word that is a verb form ("TREATS", "CONTAINS")."""
    if not word.isupper():
        return False
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word.lower())
    return "VERB" in lemmas and "PROPN" not in lemmas and "NOUN" not in lemmas


def _starts_with_pronoun(body: str, zh: bool) -> bool:
    if zh:
        return body.startswith(("他", "她", "它"))
    return bool(re.match(r"(?i)(he|she|they|it|his|her|their|its|we|i)\b", body))


def _has_causal_marker(text: str, zh: bool) -> bool:
    if zh:
        return any(m in text for m in ZH_CAUSAL_MARKERS)
    return any(p.search(text) for p in _EN_MARKER_PATTERNS)
