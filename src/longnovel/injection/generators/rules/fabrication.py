"""Invented content, drawn from the rest of the book: an event a later part of the book tells
of a character of this window (``continue``), an event an earlier part tells, told as if it
happened again (``repeat``), or a thought or feeling another part gives that character
(``psychology``). Each adds one sentence, the book's writer's own, after a sentence of the
summary about that character; the engine then checks that the window's article does not
tell it."""

from __future__ import annotations

import re

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.donors import donors, retells
from longnovel.injection.generators.rules.draft import (
    Draft,
    describes_a_state,
    find_names,
    points_at_a_thing,
    takes_up_before,
)
from longnovel.injection.nlp import inflect


def edits(draft: Draft) -> list[Edit]:
    return _psychology(draft) + _continue(draft) + _repeat(draft)


def places(draft: Draft) -> list[Edit]:
    """Where a model may add an invented sentence of its own (the ``llm`` generator): after
    each sentence but the first that names a character, for each sub-type. The edits hold
    the sentence they follow as a stand-in for the text the model writes."""
    out = []
    for subtype in ("psychology", "continue", "repeat"):
        out += [draft.insert_after(i, draft.sentences[i], subtype)
                for i in range(1, len(draft.sentences))
                if _subject(draft, i) and not draft.commentary_at(i)]
    return out


def _subject(draft: Draft, i: int) -> str | None:
    """The first character named in sentence ``i``."""
    found = draft.mentions(i, draft.names("person"))
    return found[0][2] if found else None


_EN_FEELING = re.compile(r"\b(?:feels?|felt|fears?|feared|hopes?|hoped|wish(?:es|ed)?|"
                         r"loves?|loved|hates?|hated|suspects?|suspected|resolves?|resolved|"
                         r"decides?|decided|worries|worried|longs|longed|regrets?|regretted|"
                         r"believes?|believed|realizes?|realized|is (?:angry|afraid|ashamed|"
                         r"jealous|happy|relieved)|was (?:angry|afraid|ashamed|jealous|happy|"
                         r"relieved))\b")
_ZH_FEELING = re.compile(r"感到|觉得|心想|担心|害怕|决定|决心|怀疑|希望|喜欢|恨|后悔|羡慕|嫉妒|"
                         r"高兴|伤心|难过|生气|不安|暗自|心中|心里")
def _psychology(draft: Draft) -> list[Edit]:
    """A thought or feeling that another part of the book gives a character of this window,
    told here, after a sentence about that character."""
    feeling = _ZH_FEELING if draft.zh else _EN_FEELING
    return _from_the_book(draft, "psychology", lambda body, earlier: bool(feeling.search(body)))


def _continue(draft: Draft) -> list[Edit]:
    """An event that a later part of the book tells of a character of this window, told
    here, after a sentence about that character: it did not happen (yet) in this window."""
    feeling = _ZH_FEELING if draft.zh else _EN_FEELING
    return _from_the_book(draft, "continue", lambda body, earlier: not earlier and not (
        feeling.search(body) or describes_a_state(body, draft.zh)))


def _repeat(draft: Draft) -> list[Edit]:
    """An event that an earlier part of the book tells of a character of this window, told
    again here as if it happened again."""
    feeling = _ZH_FEELING if draft.zh else _EN_FEELING
    return _from_the_book(draft, "repeat", lambda body, earlier: earlier and not (
        feeling.search(body) or describes_a_state(body, draft.zh)))


def _from_the_book(draft: Draft, subtype: str, fits) -> list[Edit]:
    """Sentences of the book's other unit summaries that open with a character of this window
    and fit ``fits(body, earlier)``: a feeling added after a sentence of this summary about
    that character (never its first sentence, so the summary still opens as the writer
    opened it), an event at the window's edge (``_edge``) of a character its unit names. The
    sentence is the writer's own, from elsewhere in the book: no retelling of this summary,
    no words the writer does not use."""
    people = draft.names("person")
    if not people or not draft.outside:
        return []
    where: dict[str, list[int]] = {}  # person -> the sentences to add after
    edge = _edge(draft, subtype)
    if edge == _NO_EDGE:
        return []
    if edge is None:  # a feeling: after any sentence about the person
        for i in range(1, len(draft.sentences)):
            if not draft.commentary_at(i) and not _taken_up_next(draft, i):
                for name in dict.fromkeys(n for _, _, n in draft.mentions(i, people)):
                    where.setdefault(name, []).append(i)
    elif not draft.commentary_at(edge) and not _taken_up_next(draft, edge):
        for i in range(len(draft.sentences)):  # an event: at the edge, of its unit's people
            if draft.unit_of(i) == draft.unit_of(edge):
                for name in dict.fromkeys(n for _, _, n in draft.mentions(i, people)):
                    where[name] = [edge]
    shortest = draft.memo("typical_length", lambda: _typical_length(draft))
    out = []
    for earlier, name, body in draft.memo("donors", lambda: donors(draft, people)):
        if name in where and len(body) >= shortest and fits(body, earlier) and \
                not retells(draft, body):
            out += [draft.insert_after(i, body, subtype) for i in where[name]
                    if _fits_between(draft, i, body)]
    return out


def _fits_between(draft: Draft, i: int, body: str) -> bool:
    """Can ``body`` stand between sentence ``i`` and the next? Not where the next sentence's
    pronoun would find in it someone (or something) other than whom it finds now ("Orrin Vale
    paid his fine eleven days early. Orrin found it half an hour early": "it" was the lost
    purse, seed 5242's reading), nor told in another tense than the sentence it follows
    ("Wren ... now hands the keeping of a clock to a younger girl" in a summary told in the
    past: the same reading)."""
    if i + 1 < len(draft.sentences) and _captures(draft, i, body, draft.sentences[i + 1]):
        return False
    if draft.zh:
        return True
    before, added = inflect.clause_tense(draft.sentences[i]), inflect.clause_tense(body)
    return before is None or added is None or before == added


_EN_GENDERED = re.compile(r"(?i)\b(?:(he|him|his|himself)|(she|her|hers|herself))\b")
_ZH_GENDERED = re.compile(r"(他(?!们))|(她(?!们))")


def _captures(draft: Draft, i: int, body: str, following: str) -> bool:
    """Would a pronoun of ``following`` that no name before it in that sentence answers
    find its referent in ``body``, put right before it, rather than where it finds it now?
    A thing or a group (it, they; 它, 他们) always may: ``body`` tells things of its own. A
    he or she finds the last person of that gender named before it: refused where the last
    one ``body`` names is not the one the summary named last up to sentence ``i``."""
    if points_at_a_thing(following, draft.zh):
        return True
    people = draft.names("person")
    for pronoun in (_ZH_GENDERED if draft.zh else _EN_GENDERED).finditer(following):
        gender = "m" if pronoun.group(1) else "f"
        if any(draft.gender_of(name) == gender and name in following[: pronoun.start()]
               for name in people):
            continue  # "Ned says that he ...": a name before it answers the pronoun
        added = _last_of(draft, find_names(body, people, draft.zh), gender)
        if added is not None and added != _named_last(draft, i, gender):
            return True
    return False


def _last_of(draft: Draft, found: list, gender: str) -> str | None:
    """The last of the names ``found`` (start, end, name) that is a person of ``gender``."""
    of_gender = [(start, name) for start, _, name in found if draft.gender_of(name) == gender]
    return max(of_gender)[1] if of_gender else None


def _named_last(draft: Draft, i: int, gender: str) -> str | None:
    """The person of ``gender`` the summary names last up to the end of sentence ``i``."""
    for k in range(i, -1, -1):
        found = _last_of(draft, draft.mentions(k, draft.names("person")), gender)
        if found is not None:
            return found
    return None


def _edge(draft: Draft, subtype: str) -> int | None:
    """The sentence after which an event of that sub-type can be told without the sentences
    around it telling against it: what the book tells later (``continue``) after the
    summary's last sentence, where the story runs on into it; what it told earlier
    (``repeat``) after the first, nearest the time it happened; None for the sub-types told
    anywhere (``psychology``). Set down anywhere else, either lands in a scene it does not
    belong to (seed 5242's and 5343's readings: "Ulysses ... goes from the city to visit his
    father" inside the slaughter in the hall; "Achilles drags the dead body" after the body
    was returned and buried; seed 5545's: "Telemachus ... arrives in the morning at Pylos"
    before the sentence in which he sails, which the last half of the last unit allowed).
    The person it tells of is one the edge's unit names. ``_NO_EDGE`` for a region of a long
    summary that does not reach that edge of the window (its own last sentence is mid-window:
    the generator then reads the whole summary)."""
    if subtype == "continue":
        return len(draft.sentences) - 1 if draft.edges[1] else _NO_EDGE
    if subtype == "repeat":
        if not draft.edges[0]:
            return _NO_EDGE
        first = 0  # after the headings that open it, if any: "LETTER XXVIII." stays with
        # its "From the same.--Miss Howe arrives." (the prose corpus, seed 5747)
        while first < len(draft.sentences) - 1 and _heading(draft.sentences[first], draft.zh):
            first += 1
        return first
    return None


_NO_EDGE = -1
_EN_HEADING = re.compile(r"[A-Z0-9][A-Z0-9 .,:;'’()-]*")  # "LETTER XXVIII.", "CHAPTER 4."
_ZH_HEADING = re.compile(r"[第卷][\d一二三四五六七八九十百千零〇两]+[章回节卷部篇][^。！？]{0,20}")


def _heading(sentence: str, zh: bool) -> bool:
    """Is ``sentence`` a heading (a letter's or a chapter's number, in capitals), no event?"""
    return bool((_ZH_HEADING if zh else _EN_HEADING).fullmatch(sentence.strip()))


def _taken_up_next(draft: Draft, i: int) -> bool:
    """Does the sentence after sentence ``i`` open by taking up what ``i`` told ("He bends
    it immediately")? A sentence added between them would take it over ("Telemachus brings
    arms for his father. He bends it": who bends what?, seed 4939's reading)."""
    return i + 1 < len(draft.sentences) and takes_up_before(draft.sentences[i + 1], draft.zh)


def _typical_length(draft: Draft) -> int:
    """The shortest an added sentence may be: the length (characters) of the summary's own
    sentences at their lower quartile. The sentences a rule can borrow are the plain ones (no
    pronoun, no quotation, one named opener), shorter than most a writer writes; added among
    longer ones ("Milo refused and ran."), a terse sentence stands out to any reader."""
    lengths = sorted(len(sentence) for sentence in draft.sentences)
    return lengths[len(lengths) // 4] if lengths else 0
