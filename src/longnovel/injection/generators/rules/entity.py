"""Entity errors: a pronoun pointed at another character, two characters' roles swapped, or a
place, organization, title (or, failing those, a person) replaced by another one from the book.

A name only fills a slot of its own type (a person's by a person of the window's entities, of
the same gender where the text shows it), never by another name of the same person (Darcy for
Mr. Darcy, 孫悟空 for 孫行者, see ``maybe_same``), and in a couplet (a 回目 of two parallel
halves) only by a name of the same length. ``refusal(draft)`` says why a summary offered no
entity edit, for the generator's reason."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from itertools import pairwise

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.choice import digest
from longnovel.injection.generators.rules.draft import (
    CJK_ONLY,
    PRONOUN_GENDER,
    Draft,
    find_names,
    keeps_couplet,
    splice,
    split_opener,
)
from longnovel.injection.lexicon.en import (
    EN_FEMALE_RELATIONS,
    EN_FUNCTION_WORDS,
    EN_KINSHIP,
    EN_MALE_RELATIONS,
    EN_PLACE_KINDS,
    EN_TITLE_GENDERS,
    EN_TITLES,
)
from longnovel.injection.lexicon.zh import (
    ZH_COMPOUND_SURNAMES,
    ZH_KINSHIP,
    ZH_PLACE_KINDS,
    ZH_PLACE_SUFFIXES,
    ZH_SURNAME_TITLES,
    ZH_SURNAMES,
    ZH_TITLE_GENDERS,
    ZH_TITLE_NEAR_SAME,
    ZH_TITLES,
    ZH_YOUNG_TITLES,
)
from longnovel.injection.nlp import inflect
from longnovel.injection.nlp.en.entities import HONORIFICS
from longnovel.injection.nlp.numerals import EN_NUMBER_WORDS, en_words_to_int
from longnovel.injection.nlp.script import to_simplified
from longnovel.injection.nlp.text import changed_parts, word_start

_SYMMETRIC_EN = re.compile(r"\b(together|each other|one another|both|with each)\b", re.IGNORECASE)
_SYMMETRIC_ZH = re.compile(r"一起|一同|共同|彼此|互相|相互|二人|两人|双方")
_CONJUNCTION_EN = re.compile(r"^\s*(and|or|&|nor)\s*$|[,;:]")
# A mutual action between the two names ("A talks with B", "A meets B", "A married B"): the
# same fact with the names traded, so no role swap (TAXONOMY: symmetric sentences don't count).
_MUTUAL_EN = re.compile(
    r"^\s+(?:\w+ly\s+)?(?:talk|speak|spoke|chat|meet|met|marr|quarrel|argu|danc|dine|dining|"
    r"fight|fought|play|agree|correspond|negotiat|trad|convers|reconcil|part|shak\w* hands|"
    r"exchang|wrestl|duel|fenc|struggl|consult|confer)"
    r"\w*\s+(?:with\s+|to\s+)?$", re.IGNORECASE)
_CONJUNCTION_ZH = re.compile(r"^\s*[和与及跟同、]\s*$|[，,；;：:]")
_PRONOUN_EN = re.compile(r"\b(He|She|he|she|him|his)\b")
_PRONOUN_ZH = re.compile(r"[他她](?![们人])")
_ZH_FORMS = set(ZH_SURNAME_TITLES + ZH_KINSHIP + ZH_TITLES
                + ["老哥", "老弟", "大姐", "师兄", "师弟", "太师", "元帅", "天王", "真人", "道人",
                   "大王", "先锋", "总兵", "监生", "学道", "道长", "天师", "娘子", "相公", "大官人",
                   "姑娘", "小姐", "公子", "少爷", "二爷", "三爷", "大爷", "老爷", "太太", "奶奶"])


def edits(draft: Draft) -> list[Edit]:
    return pronoun_edits(draft) + named_as_pronoun_edits(draft) + role_swap_edits(draft) \
        + mismatch_edits(draft)


def preferred(draft: Draft, edits: list[Edit]) -> list[Edit]:
    """Where a summary offers a name made a pronoun that points at someone else, the pronoun
    edits are those: a summary offers a pronoun to name far more often, and were the direction
    left to the places it offers, "a name where a pronoun was" would be what readers learn
    marks an edit. Where it offers only pronoun-to-name edits and also another sub-type (a
    role swap, a mismatch), the pronoun edits stay in one summary in ``KEEP_TO_NAME`` (by a
    digest of the summary, the same in every build): they still came out ten to one against
    a name made a pronoun, which a reader comparing the pair learned (0.90 on the study
    corpus). Role swaps and mismatches are kept whatever the direction."""
    to_pronoun = [e for e in edits if e.subtype == "pronoun" and _made_pronoun(e, draft.zh)]
    if to_pronoun:
        return [e for e in edits if e.subtype != "pronoun"] + to_pronoun
    others = [e for e in edits if e.subtype != "pronoun"]
    opening = [e for e in edits if e.subtype == "pronoun" and _opens_its_sentence(e, draft.zh)]
    if opening:  # a name made a pronoun always opens its sentence: so does the pronoun made a
        edits = others + opening  # name, where the summary offers one (else the pronouns that
        # open sentences grew in injected summaries, and a reader of pairs read 0.94)
    if others and len(others) < len(edits) and \
            digest("entity-direction", draft.summary) % KEEP_TO_NAME[1] >= KEEP_TO_NAME[0]:
        return others
    return edits


KEEP_TO_NAME = (1, 4)  # a pronoun-to-name edit stays offered in one summary in four


def _opens_its_sentence(edit: Edit, zh: bool) -> bool:
    """Does the edit's change start at its sentence's first word (after an opener: "Then he",
    "九月初六，他")?"""
    a, _, _ = changed_parts(edit.original_span, edit.hallucinated_span)
    if not zh:  # "He asks" -> "Hoshick asks" changes from the word's start, not its "H"
        a = word_start(edit.original_span, a)
    return a == len(split_opener(edit.original_span, zh)[0])


def _made_pronoun(edit: Edit, zh: bool) -> bool:
    a, _, new_end = changed_parts(edit.original_span, edit.hallucinated_span)
    new = edit.hallucinated_span[a:new_end].strip()
    return new in (_ZH_NEW_PRONOUNS if zh else _EN_NEW_PRONOUNS)


_EN_NEW_PRONOUNS = {"He", "She", "His", "Her", "he", "she", "his", "her"}
_ZH_NEW_PRONOUNS = {"他", "她"}


def named_as_pronoun_edits(draft: Draft) -> list[Edit]:
    """A character who opens a sentence ("Carton takes the key", "Carton's horse") written as
    a pronoun that now points at someone else: the one person of that gender the sentence
    before names ("Darnay meets Lucie. He takes the key": Darnay took it). Only where the
    character's gender is known, the sentence before names them not, and names exactly one
    person of that gender (with no pronoun of it before that name), in the same paragraph."""
    people = draft.names("person")
    out = []
    for i in range(1, len(draft.sentences)):
        if draft.paragraph_of(i - 1) != draft.paragraph_of(i):
            continue
        sentence = draft.sentences[i]
        opener, rest = split_opener(sentence, draft.zh)
        mentions = draft.mentions(i, people)
        first = next(((a, b, n) for a, b, n in mentions if a == len(opener)), None)
        if first is None and not draft.zh:  # "Carton's horse": no whole-name mention
            owner = next((n for n in sorted(people, key=len, reverse=True)
                          if rest.startswith((n + "'s ", n + "’s "))), None)
            first = (len(opener), len(opener) + len(owner), owner) if owner else None
        if first is None:
            continue
        start, end, name = first
        gender = draft.gender_of(name)
        if gender is None:
            continue
        before = draft.mentions(i - 1, people)
        if any(maybe_same(name, n, draft.zh, people) for _, _, n in before):
            continue  # named just before: the pronoun would still be theirs
        if any(draft.gender_of(n) is None for _, _, n in before):
            continue  # someone of unknown gender: who the pronoun means is not sure
        same = {n for _, _, n in before if draft.gender_of(n) == gender}
        if len(same) != 1:
            continue
        (other,) = same
        if any(n == other or maybe_same(n, name, draft.zh, people)
               for a, _, n in mentions if a != start):
            continue  # "He gives Lucie's key to Darnay": both named in it
        at = min(a for a, _, n in before if n == other)
        if _gender_pronoun_in(draft.sentences[i - 1][:at], gender, draft.zh):
            continue  # "He tells Darnay ...": someone else is already "he"
        if i + 1 < len(draft.sentences) and any(
                _written_in(draft.sentences[i + 1], n, draft.zh) for n in people
                if maybe_same(n, name, draft.zh, people)):
            continue  # "Retief wonders ... Magnan says this is none of Retief's concern": the
            # next sentence names them again, so "He" reads as them, only vaguer
        pronoun = _pronoun_for(sentence, end, gender, bool(opener), draft.zh)
        if pronoun is None:
            continue
        if _gender_pronoun_in(sentence[end:], gender, draft.zh):
            continue  # "Syd Palmer is a friend of his": made "He is a friend of his", both
            # pronouns would be the one person before (seed 5040's reading)
        cut = end + (2 if not draft.zh and sentence[end:end + 2] in ("'s", "’s") else 0)
        edit = _replace(draft, i, splice(sentence, start, cut, pronoun), "pronoun")
        if edit:
            out.append(edit)
    return out


def _written_in(text: str, name: str, zh: bool) -> bool:
    """Is ``name`` written in ``text`` (in en as a whole word, "Retief's" included)?"""
    if zh:
        return name in text
    return re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text) is not None


def _gender_pronoun_in(text: str, gender: str, zh: bool) -> bool:
    """Does ``text`` hold a pronoun of ``gender``?"""
    if zh:
        return ("他" if gender == "m" else "她") in text
    words = r"he|him|his|himself" if gender == "m" else r"she|her|hers|herself"
    return bool(re.search(rf"(?i)\b(?:{words})\b", text))


def _pronoun_for(sentence: str, end: int, gender: str, after_opener: bool, zh: bool
                 ) -> str | None:
    """The pronoun for a name that opens a sentence and ends at ``end``: subject ("He",
    "she" after an opener) or possessive ("His" for "Carton's"); None where the name stands
    in an apposition ("Carton, the lawyer,") or before anything but a verb or a noun."""
    if zh:
        return ("他" if gender == "m" else "她") if CJK_ONLY.match(sentence[end:end + 1]) \
            else None
    follow = sentence[end:]
    if follow[:2] in ("'s", "’s"):
        word = "his" if gender == "m" else "her"
    elif re.match(r" [a-z]", follow) and not re.match(r" (?:and|or|nor)\b", follow):
        word = "he" if gender == "m" else "she"
    else:
        return None
    return word if after_opener else word.capitalize()


def refusal(draft: Draft) -> str:
    """Why ``draft`` offered no entity edit, in a few words the run can count: the refusal met
    most often while looking (a name of the same person, the other gender, a couplet's length,
    an apposition), else that the summary names no character or place of the window."""
    counts = draft.memo("entity_refusals", Counter)
    if not counts:
        return "no named character or place of the window in the summary"
    (reason, _), = counts.most_common(1)
    return reason


def _refuse(draft: Draft, reason: str) -> None:
    draft.memo("entity_refusals", Counter)[reason] += 1


REFUSALS = {
    "alias": "only other names of the same person",
    "gender": "only characters of the other gender",
    "couplet": "a name of another length would unbalance the couplet",
    "apposition": "the names stand in appositions (the nurse X)",
    "no_other": "no other name of the same type in the window",
    "later": "only characters the summary introduces after the sentence",
    "scene": "only characters the summary does not name near the sentence",
}


def pronoun_edits(draft: Draft) -> list[Edit]:
    """Replace a he or she by another character of its gender in the scene: one the summary
    has named before the pronoun within ``SCENE`` sentences, not named in the pronoun's own
    sentence, and not the last person of that gender named before it (whom the pronoun
    finds). A name the summary never writes, or writes only elsewhere, would come from
    nowhere for any reader (seed 5343's reading: "Sas also mentions that he and his sister
    have left Earth", where the summary never names Sas)."""
    people = draft.names("person")
    in_summary = find_names(draft.summary, people, draft.zh)  # once, not once per pronoun
    named = list(dict.fromkeys(n for _, _, n in in_summary))
    out = []
    pattern = _PRONOUN_ZH if draft.zh else _PRONOUN_EN
    for i, sentence in enumerate(draft.sentences):
        for m in pattern.finditer(sentence):
            if re.match(r"\s+own\b", sentence[m.end():]):
                continue  # "for his own", "on his own": an idiom, no one's name fits there
            gender = PRONOUN_GENDER.get(m.group().lower())
            position = draft.spans[i][0] + m.start()
            before = [n for _, end, n in in_summary if end <= position]
            found = [n for n in before if draft.gender_of(n) == gender]
            if not found:
                continue  # no one of its gender named before it: whom it finds is unknown
            # whom it may find: the last of its gender named before it, and anyone of its
            # gender or of none known that the sentence before names ("The man, who
            # introduces himself as Alberta (Butt) Lee Brown, gives Ferdinand a nickname.
            # Eventually, he asks": "he" is Butt, the last man named is Ferdinand)
            recent = {n for _, _, n in draft.mentions(i - 1, people)
                      if draft.gender_of(n) in (gender, None)} if i else set()
            exclude = frozenset({found[-1]} | recent
                                | {n for _, _, n in draft.mentions(i, people)})
            scene = _scene_people(draft, i) & frozenset(before)
            others = draft.memo(("other_names", exclude, gender, scene),
                                lambda ex=exclude, g=gender, sc=scene:
                                _other_names(draft, named, ex, frozenset(), g, sc))
            for name in others:
                if draft.gender_of(name) != gender or repeats_a_name(sentence, name, draft.zh):
                    continue
                new = splice(sentence, m.start(), m.end(), _pronoun_as_name(m.group(), name))
                edit = _replace(draft, i, new, "pronoun")
                if edit:
                    out.append(edit)
    return out


def _other_names(draft: Draft, named: list[str], exclude: frozenset, later: frozenset,
                 gender: str | None, scene: frozenset) -> list[str]:
    """Characters of the ``scene`` other than ``exclude`` (nor another name of one of them)
    and other than those the summary introduces ``later``, those of ``gender`` before those
    of unknown gender; at most three."""
    people = draft.names("person")
    found, refused = [], None
    for name in dict.fromkeys(named + people):
        if _no_name_to_put_in(draft, name):
            continue  # "Dad", "Mother", "the Regime": no name to put in
        if any(maybe_same(name, m, draft.zh, people) for m in exclude):
            refused = refused or "alias"
        elif any(maybe_same(name, m, draft.zh, people) for m in later):
            refused = refused or "later"  # "Lemuel is given a thick envelope ..." before the
            # summary meets "someone called 'Lemuel'" (seed 4939's reading)
        elif not _gender_fits(draft, name, gender):
            refused = "gender"
        elif name not in scene:
            refused = refused or "scene"
        else:
            found.append(name)
    if not found and refused:
        _refuse(draft, REFUSALS[refused])
    known = [n for n in found if gender and draft.gender_of(n) == gender]
    return (known + [n for n in found if n not in known])[:3]


def maybe_same(a: str, b: str, zh: bool, people: list[str] = ()) -> bool:
    """Could ``a`` and ``b`` name one person? A longer or shorter form (青禾, 顾青禾; Darcy,
    Mr. Darcy), a shared word (Isolde Ferrant, Captain Ferrant), both parts of a third name of
    ``people`` (Fitzwilliam, Darcy: Fitzwilliam Darcy); in zh the same surname with a title,
    with a shared given-name character, or with an epithet (孙行者, 孙悟空; 老孙)."""
    if a == b or _same_direct(a, b, zh):
        return True
    return any(p not in (a, b) and _part_of(a, p, zh) and _part_of(b, p, zh) for p in people)


def _same_direct(a: str, b: str, zh: bool) -> bool:
    if a in b or b in a:
        return True
    if not zh:
        wa, wb = _name_words(a), _name_words(b)
        return bool(wa & wb) or any(_nickname_of(x, y) or _nickname_of(y, x)
                                    for x in wa for y in wb)
    a, b = to_simplified(a), to_simplified(b)  # the lexicons are simplified: 聞太師, 聞仲
    for x, y in ((a, b), (b, a)):
        if len(x) >= 2 and x[0] in "老小阿" and y.startswith(x[1:]):
            return True  # 老孙, 孙悟空
    sa, sb = _zh_surname(a) or a[:1], _zh_surname(b) or b[:1]
    if sa != sb:
        return False
    ga, gb = a[len(sa):], b[len(sb):]
    if ga in _ZH_FORMS or gb in _ZH_FORMS or ga.endswith(_ZH_EPITHETS) \
            or gb.endswith(_ZH_EPITHETS):
        return True  # 顾师傅, 聞太師 (a surname the list lacks), 孫行者
    return bool(_zh_surname(a)) and bool(set(ga) & set(gb))


_ZH_EPITHETS = ("者", "公", "老")


def _zh_looks_personal(name: str) -> bool:
    """A Chinese "place" that reads as a person's name: a surname and one or two characters,
    no place suffix (杜少卿 typed as a place after 到 in some chapter)."""
    simple = to_simplified(name)
    return 2 <= len(simple) <= 3 and bool(_zh_surname(simple)) \
        and simple[-1] not in ZH_PLACE_SUFFIXES


def _zh_surname(name: str) -> str:
    if name[:2] in ZH_COMPOUND_SURNAMES:
        return name[:2]
    return name[0] if len(name) >= 2 and name[0] in ZH_SURNAMES else ""


def _nickname_of(short: str, given: str) -> bool:
    """Is ``short`` a usual short form of the given name ``given`` (Gabe of Gabriel, Nick of
    Nicholas), by the ``nicknames`` table? "Gabe" became "Gabriel Lockard promises", the man
    by his full name."""
    return short.lower() in _nicknamer().nicknames_of(given)


@cache
def _nicknamer():
    from nicknames import NickNamer

    return NickNamer()


def _name_words(name: str) -> set[str]:
    """The words of an English name that are not honorifics (Captain Ferrant: Ferrant)."""
    return {w for w in name.split() if w not in HONORIFICS and w.rstrip(".") + "." not in
            HONORIFICS}


def _part_of(part: str, whole: str, zh: bool) -> bool:
    if zh:
        return part in whole
    words = _name_words(part)
    return bool(words) and words <= _name_words(whole)


def _a_word_of_address(name: str, zh: bool) -> bool:
    """A word no one is named: how someone is addressed ("Dad", "Mother"), or a one-word
    "name" that the dictionary knows as a word and never as a noun ("Please", "Suddenly": a
    capital at a line of dialogue's start, taken for a name)."""
    if zh:
        return False
    lower = name.lower()
    if lower in _EN_ADDRESS_WORDS or lower in EN_KINSHIP:
        return True
    classes = inflect.word_classes(name) if " " not in name else frozenset()
    return bool(classes) and "NOUN" not in classes


def _titled(draft: Draft, name: str) -> bool:
    """Does the writer put "the" or "a" before ``name`` more often than not (this summary and
    the book's others)? Then it is a title or a kind ("the Lord High Executioner", "the Regime",
    "an Earthman"),
    not a name to put where a name or a pronoun was ("When Lord High Executioner wakes up",
    "before Regime greets them"). en; a name the summaries never write is no title."""
    if draft.zh:
        return False
    with_the, bare = draft.memo(("a_the_counts", name),
                                lambda: _the_counts(draft.book_texts, name, r"[Tt]he|[Aa]n?"))
    return with_the > bare


def _no_name_to_put_in(draft: Draft, name: str) -> bool:
    """A form of address, a word that is no noun, or a title (``_a_word_of_address``,
    ``_titled``): nobody's name to put in place of a name or a pronoun."""
    return _a_word_of_address(name, draft.zh) or _titled(draft, name)


def _the_counts(texts, name: str, articles: str = "[Tt]he") -> tuple[int, int]:
    """How often ``texts`` write ``name`` after "the" (or ``articles``), and without it (en; a
    bare use inside a longer name, "Bar" in "the Greywater Bar", is neither)."""
    with_the = bare = 0
    for text in texts:
        for m in re.finditer(rf"(?<![\w.]){re.escape(name)}\b", text):
            if re.search(rf"\b(?:{articles})\s+$", text[: m.start()]):
                with_the += 1
            elif not inside_longer_name(text, m.start(), m.end()):
                bare += 1
    return with_the, bare


_EN_ADDRESS_WORDS = frozenset(("dad", "daddy", "mom", "mommy", "mum", "mummy", "ma", "pa",
                               "papa", "mama", "grandma", "grandpa", "granny", "sis", "bro",
                               "sir", "madam", "ma'am", "boss", "doc", "kid", "son", "honey"))


def _gender_fits(draft: Draft, name: str, gender: str | None) -> bool:
    """Not known to be of the other gender."""
    known = draft.gender_of(name)
    return gender is None or known is None or known == gender


def repeats_a_name(sentence: str, name: str, zh: bool) -> bool:
    """Would ``name`` put into ``sentence`` repeat a name it already holds (Mr. Lovelace
    where "Lovelace to Belford" opens it, Mrs. Howe beside Miss Howe)? The sentence would then
    pair a person with themself, or two of one family where the writer named one: a reader
    notices the repeat without the book."""
    if zh:
        return to_simplified(name) in to_simplified(sentence) or \
            len(name) == 3 and bool(_zh_surname(name)) and name[1:] in sentence
    words = [w for w in _name_words(name) if len(w) >= 2]
    if any(_written_in(sentence, w, False) for w in words):
        return True
    # a near form of the name ("Bbula" beside "Bbulas"): a reader takes them for one person
    written = set(re.findall(r"\b[A-Z][\w'’-]{3,}", sentence))
    return any(len(w) >= 4 and w != c and (c.startswith(w) or w.startswith(c))
               for w in words for c in written)


def _pronoun_as_name(pronoun: str, name: str) -> str:
    return name + "'s" if pronoun == "his" else name


def role_swap_edits(draft: Draft) -> list[Edit]:
    """Swap two different characters of one sentence (who did what to whom): not two names of
    one person, not two characters known to be of different genders (the pronouns around
    would no longer fit), not a name standing in an apposition ("the nurse Bettany")."""
    out = []
    symmetric = _SYMMETRIC_ZH if draft.zh else _SYMMETRIC_EN
    conjunction = _CONJUNCTION_ZH if draft.zh else _CONJUNCTION_EN
    people = draft.names("person")
    for i, sentence in enumerate(draft.sentences):
        if symmetric.search(sentence):
            continue
        found = draft.mentions(i, people)
        for (a0, a1, a), (b0, b1, b) in pairwise(found):
            between = sentence[a1:b0]
            if conjunction.search(between) or (not draft.zh and _MUTUAL_EN.match(between)):
                continue
            if maybe_same(a, b, draft.zh, people):
                _refuse(draft, REFUSALS["alias"])
            elif not _gender_fits(draft, a, draft.gender_of(b)) or (
                    _later_pronoun_gender(sentence, a1, draft.zh)
                    and None in (draft.gender_of(a), draft.gender_of(b))):
                # ("Gus Doran tries to look sexy as she answers": a he or she after the pair
                # points at one of them only where both genders are known)
                _refuse(draft, REFUSALS["gender"])
            elif _in_apposition(draft, sentence, a0) or _in_apposition(draft, sentence, b0):
                _refuse(draft, REFUSALS["apposition"])
            elif not draft.zh and any(
                    inside_longer_name(sentence, x0, x1) or _counted_or_compound(sentence, x0, x1)
                    for x0, x1 in ((a0, a1), (b0, b1))):
                continue
            elif _pronoun_before_could_be(draft, sentence, a0, a, b):
                continue  # "He grows gills, but Dorothy visits him after avoiding Barry":
                # he is Barry, who would visit himself
            elif _named_again(sentence, (a0, a1), (b0, b1), draft.zh) or not draft.zh and (
                    _EN_ARTICLE_BEFORE.search(sentence[:a0])
                    or _EN_ARTICLE_BEFORE.search(sentence[:b0])):
                continue  # "informs Johnson" after the swap; "the Steel-Blue" -> "the Jon"
            else:
                new = sentence[:a0] + b + sentence[a1:b0] + a + sentence[b1:]
                edit = _replace(draft, i, new, "role_swap")
                if edit:
                    out.append(edit)
    return out


# An article before a capitalized word: a kind or a title ("a Steel-Blue", "the President"),
# not a person's name to swap in or out.
_EN_ARTICLE_BEFORE = re.compile(r"\b(?:[Tt]he|[Aa]n?)\s+$")


def _pronoun_before_could_be(draft: Draft, sentence: str, at: int, a: str, b: str) -> bool:
    """Is there a personal pronoun before ``at`` that may be ``a`` or ``b`` (its gender is
    one of theirs, or one of them has none known)? Swapping the two then leaves one of them
    acting on the pronoun that is himself."""
    pattern = _PRONOUN_ZH if draft.zh else _ANY_PRONOUN_EN
    genders = {PRONOUN_GENDER[m.group().lower()] for m in pattern.finditer(sentence[:at])}
    known = {draft.gender_of(a), draft.gender_of(b)}
    return bool(genders) and (None in known or bool(genders & known))


def _named_again(sentence: str, a: tuple[int, int], b: tuple[int, int], zh: bool) -> bool:
    """Is either name of a role swap written again elsewhere in the sentence? Trading the
    pair alone would leave "Johnson rushes next to Caldwell ... and informs Johnson"."""
    rest = sentence[: a[0]] + " " + sentence[a[1] : b[0]] + " " + sentence[b[1] :]
    return any(repeats_a_name(rest, sentence[x:y], zh) for x, y in (a, b))


def _in_apposition(draft: Draft, sentence: str, start: int) -> bool:
    """Is the name at ``start`` in apposition to a title or kinship word before it ("the
    nurse Bettany Gallant", "his great-grandfather Amsel", 外甥卜大顺, 师父顾衡山) or after an
    honorific the name list does not hold with it ("Aunt Mabry" found as Mabry)?"""
    before = sentence[:start]
    if draft.zh:
        return before.endswith(_ZH_APPOSITION)
    m = re.search(r"([A-Za-z][A-Za-z.-]*) $", before)
    if not m:
        return False
    word = m.group(1)
    if word[0].isupper():
        return word in HONORIFICS or word + "." in HONORIFICS
    return word.split("-")[-1] in _EN_APPOSITION


_ZH_APPOSITION = tuple(ZH_KINSHIP + ZH_TITLES + ["外甥", "徒弟", "伙计", "船夫", "船家"])
_EN_APPOSITION = frozenset(EN_TITLES + EN_KINSHIP) | EN_MALE_RELATIONS | EN_FEMALE_RELATIONS \
    | {"friend", "neighbour", "neighbor", "apprentice", "partner", "clerk", "keeper", "pilot",
       "sailor", "boatman", "widow", "old", "young", "little"}


def _replace(draft: Draft, index: int, new: str, subtype: str) -> Edit | None:
    """``draft.replace_sentence``, refused when it unbalances a couplet."""
    if not keeps_couplet(draft.sentences[index], new):
        _refuse(draft, REFUSALS["couplet"])
        return None
    if not draft.zh and len(_TWO_TITLES.findall(new)) > len(
            _TWO_TITLES.findall(draft.sentences[index])):
        return None  # "a meeting between him and Mr. Mr. Belford", "Mr. Lord M.": a titled
        # name put in after the title of the name it replaced (the prose corpus, seed 5747)
    return draft.replace_sentence(index, new, subtype)


_TITLE = "|".join(dict.fromkeys(re.escape(t.rstrip(".")) for t in sorted(HONORIFICS, key=len,
                                                                          reverse=True)))
_TWO_TITLES = re.compile(rf"\b(?:{_TITLE})\.?\s+(?:{_TITLE})\b")  # two titles in a row


def mismatch_edits(draft: Draft) -> list[Edit]:
    """Replace a place, organization or title by another of the same kind from the book;
    when the summary names none, replace a character by another character of the book."""
    out = []
    for kind in ("place", "org", "title"):
        out += _swap_kind(draft, kind)
    return out or _swap_kind(draft, "person")


def _swap_kind(draft: Draft, kind: str) -> list[Edit]:
    names = _summary_names_first(draft, kind)
    out = []
    for i, sentence in enumerate(draft.sentences):
        present = {n for _, _, n in draft.mentions(i, names)}
        for start, end, name in draft.mentions(i, names):
            if not _swappable_here(draft, kind, sentence, start, end, name):
                continue
            if _restated_nearby(draft, i, sentence[:start], name, kind):
                continue  # "alert the attention of Sparks ... He is successful in getting the
                # attention of Sparks"; "at the Guildhall" told again two sentences on
                # (seed 5747's readings): the summary says it again, against the edit
            later = _later_pronoun_gender(sentence, end, draft.zh) \
                if kind in ("person", "title") else None
            for other in _stand_ins(draft, kind, name, names, present,
                                    _scene_people(draft, i) if kind == "person" else None):
                if not _stand_in_fits(draft, kind, sentence, start, name, other, later):
                    continue
                if kind == "person" and _introduced_after(draft, other, i):
                    _refuse(draft, REFUSALS["later"])
                    continue  # "Hank said that Hendricks wanted to see her", two sentences
                    # before "Commissioner Hendricks" comes in (seed 4939's reading)
                new = _with_article(draft, sentence, start, end, other, kind)
                edit = _replace(draft, i, new, "mismatch")
                if edit and kind == "person" and other not in _scene_people(draft, i):
                    _refuse(draft, REFUSALS["scene"])
                elif edit:
                    out.append(edit)
    return out


SCENE = 3  # sentences on each side of an edit whose people are in its scene


def _restated_nearby(draft: Draft, i: int, before: str, name: str, kind: str) -> bool:
    """Does a sentence next to sentence ``i`` write ``name`` after the same two words as
    ``before`` ends with ("the attention of Sparks" twice), or, for a place, name it at all
    within two sentences (the hearing "at the Guildhall", then "began at the Guildhall")?"""
    lead = before[-2:] if draft.zh else " ".join(before.split()[-2:])
    reach = 2 if kind == "place" else 1
    for k in range(max(0, i - reach), min(len(draft.sentences), i + reach + 1)):
        if k == i:
            continue
        text = draft.sentences[k]
        if kind == "place" and _written_in(text, name, draft.zh):
            return True
        if len(lead) >= 2 and _written_in(text, lead + ("" if draft.zh else " ") + name,
                                          draft.zh):
            return True
    return False


def _scene_people(draft: Draft, i: int) -> frozenset:
    """The people the summary names within ``SCENE`` sentences of sentence ``i``: those a
    stand-in for a person is drawn from. One the summary never names, or names only in
    another scene, is a tell for any reader ("Sas also mentions that he and his sister have
    left Earth", Sas never in the summary; "comforts crying Molly", the robot nurse, far from
    the bridge tower: seed 5343's reading)."""
    people = draft.names("person")
    return frozenset(n for k in range(max(0, i - SCENE), min(len(draft.sentences), i + SCENE + 1))
                     for _, _, n in draft.mentions(k, people))


def _introduced_after(draft: Draft, name: str, i: int) -> bool:
    """Does the summary name person ``name`` first after sentence ``i``?"""
    first = draft.memo("first_named", lambda: {n: start for start, _, n in reversed(
        find_names(draft.summary, draft.names("person"), draft.zh))})
    return name in first and first[name] >= draft.spans[i][1]


def _counted_or_compound(sentence: str, start: int, end: int) -> bool:
    """Is the en word at ``sentence[start:end]`` part of a compound ("Harlowe-place" is a
    house: no "Mr. Solmes-place") or counted ("a parade of six Terrestrials": a kind, no "six
    Miss Meuhl")? (Seed 4939's reading.)"""
    if re.match(r"-[A-Za-z]", sentence[end:end + 2]):
        return True
    before = re.search(r"([\w-]+)\s+$", sentence[:start])
    if not before:
        return False
    word = before.group(1).lower()
    if word in ("several", "many", "dozen") or word.isdigit() and int(word) > 1:
        return True
    count = en_words_to_int(word) if EN_NUMBER_WORDS.fullmatch(word) else None
    return count is not None and count > 1


# A place's aside that says where it lies (", in southeast Brooklyn", ", near the coast")
_EN_LOCATED_AFTER = re.compile(r",\s*(?:in|on|near|outside|by|off|beyond|across|north|south|"
                               r"east|west)\b")


def _swappable_here(draft: Draft, kind: str, sentence: str, start: int, end: int,
                    name: str) -> bool:
    """May the name of ``kind`` at ``sentence[start:end]`` be swapped for another there?"""
    before = sentence[:start]
    if draft.zh:
        if re.search(r"家$|[这那一][间座个家所]$", before):
            return False  # 顾家墨坊, 这间墨坊: a kind of place, not a place name to swap
        return not (kind == "title" and before.endswith("少"))  # 少夫人, 少大人: how a son's
        # wife or a son is called, no 少先生
    if inside_longer_name(sentence, start, end):
        return False
    if _counted_or_compound(sentence, start, end):
        return False
    if kind == "person" and _EN_ARTICLE_BEFORE.search(before):
        return False  # "a Steel-Blue paralyzes him": a kind of creature, not "a Jon"; "the
        # President of Venus": a title, not "the Rielly"
    if kind == "title" and name.islower() and not _EN_DETERMINED.search(before):
        return False  # "agreed to nurse the boy": a verb, not the title "nurse"
    if kind == "place" and _derived_word_in(sentence, name, start, end):
        return False  # "flew to Venus ..., arrived in a Venusian bar": told twice
    if kind == "place" and _EN_LOCATED_AFTER.match(sentence[end:]):
        return False  # "The crime is in Canarsie, in southeast Brooklyn": the aside says
        # where it lies, against any other place (the study corpus, seed 5747's rows)
    # "they hurry to stop Antlers Park": Antlers is a person, and so is his full name,
    # whatever its last word
    return not (kind == "place" and " " in name and name.split()[0] in draft.names("person"))


def _stand_in_fits(draft: Draft, kind: str, sentence: str, start: int, name: str, other: str,
                   later: str | None) -> bool:
    """May ``other`` stand in for ``name`` at ``start`` (``later``: the gender of the first
    pronoun after the name)?"""
    if repeats_a_name(sentence, other, draft.zh):
        return False  # "Lovelace to Belford. Has an interview with Mr. Lovelace"
    rest = sentence[:start] + " " + sentence[start + len(name):]
    if kind == "title" and not draft.zh and re.search(
            rf"(?i)(?<![a-z]){re.escape(other)}(?![a-z])", rest):
        return False  # "Warden-Mayor Tabitha Oakes heard the mayor": one title, two people
        # (seed 5242's reading)
    if kind == "title" and not _title_keeps_gender(name, other, later, draft.zh):
        return False  # "the lady's maid ... she herself": no "master"
    if kind == "title" and draft.zh and sentence[:start].endswith("老") and \
            other in ZH_YOUNG_TITLES:
        return False  # 老掌柜 is no 老公子
    if kind == "person" and not draft.zh and _derived_word_in(sentence, other, 0, 0):
        return False  # "Ganymede is the manager of the Ganymedan branch": a place, whatever
        # the extractor typed it
    if kind == "person" and later and draft.gender_of(name) in (None, later) and \
            draft.gender_of(other) != later:
        return False  # "Ann tells them he has decided to stay": who is "he"?
    # "arrived on Lunar City": the writer is in Lunar City
    return not (kind == "place" and not draft.zh
                and not _preposition_fits(draft, sentence[:start], other))


# Before a lower-case title: a determiner or an owner, perhaps an adjective between ("the old
# nurse", "the lady's maid"); a title with none of them may be a verb ("to nurse the boy").
_EN_DETERMINED = re.compile(
    r"(?:\b(?:the|a|an|his|her|their|its|my|your|our|this|that|every|each|one|no)"
    r"|[\w-]+['’]s)\s+(?:(?!to\b)[a-z][\w-]*\s+)?$", re.IGNORECASE)


def _title_gender(title: str, zh: bool) -> str | None:
    return (ZH_TITLE_GENDERS if zh else EN_TITLE_GENDERS).get(title if zh else title.lower())


def _title_keeps_gender(old: str, new: str, later: str | None, zh: bool) -> bool:
    """Does ``new`` name the gender that ``old`` names, or else the one of the first pronoun
    after it (and none when neither tells)?"""
    wanted = _title_gender(old, zh) or later
    if wanted is None:  # a title of either gender takes one of either: 老掌柜 may be a man
        return _title_gender(new, zh) is None  # (no 老太太), "the captain ... her" a woman
    return _title_gender(new, zh) in (None, wanted)


def _stand_ins(draft: Draft, kind: str, name: str, names: list[str], present: set[str],
               scene: frozenset | None = None) -> list[str]:
    """At most three names of ``kind`` to put in place of ``name``: not in the sentence, not
    another name of the same thing or person, no place that is part of a person's name (衡山 in
    顾衡山); for a person, not one known to be of the other gender (those of the same gender
    first); in a couplet, of the same length."""
    def pick() -> list[str]:
        people = draft.names("person")
        # not a one-word name the summary also writes in lower case ("to Ship", a "ship")
        others = [n for n in names if n not in present and n not in name and name not in n
                  and not (draft.language == "en" and " " not in n
                           and n.lower() in draft.lower_words)]
        if kind == "person":
            kept = [n for n in others if not _no_name_to_put_in(draft, n)
                    and not any(maybe_same(m, n, draft.zh, people) for m in present | {name})]
            if others and not kept:
                _refuse(draft, REFUSALS["alias"])
            gender = draft.gender_of(name)
            fits = [n for n in kept if _gender_fits(draft, n, gender)]
            if kept and not fits:
                _refuse(draft, REFUSALS["gender"])
            same = [n for n in fits if gender and draft.gender_of(n) == gender]
            others = same + [n for n in fits if n not in same]
        elif kind == "place":
            others = [n for n in others if not any(n in p for p in people)
                      and not (draft.zh and _zh_looks_personal(n))
                      and _same_kind(_place_kind(n, draft.zh), _place_kind(name, draft.zh))]
        elif kind == "title" and draft.zh:
            others = [n for n in others
                      if not any({n, name} <= near for near in ZH_TITLE_NEAR_SAME)]
        if scene is not None:  # those of the scene first (the caller refuses the others)
            others = [n for n in others if n in scene] + [n for n in others if n not in scene]
        if not others:
            _refuse(draft, REFUSALS["no_other"])
        return others
    others = draft.memo(("stand_ins", kind, name, frozenset(present), scene), pick)
    return others[:3]


def _place_kind(name: str, zh: bool) -> str | None:
    """The kind of place (``EN_PLACE_KINDS``, ``ZH_PLACE_KINDS``) its name's end tells, or
    None: two places are of one kind when both names tell the same kind or neither tells any
    ("Dunmore" for "Corrinford" may stand; "the Bar" for "the Harbour Tower" may not)."""
    if zh:
        return next((kind for kind, ends in ZH_PLACE_KINDS.items() if name[-1:] in ends), None)
    last = name.split()[-1].lower().strip(".,'’")
    for kind, words in EN_PLACE_KINDS.items():
        if last in words:
            return kind
    for kind, words in EN_PLACE_KINDS.items():  # an ending: "Guildhall", "Lanternwick"
        if any(len(w) >= 3 and last.endswith(w) and len(last) > len(w) + 2 for w in words):
            return kind
    return None


def _same_kind(a: str | None, b: str | None) -> bool:
    """May places of kinds ``a`` and ``b`` stand for each other? The same kind; or a town
    and a name that tells no kind (most such names are of towns and lands: "Dunmore",
    "Corrinford")."""
    return a == b or {a, b} == {None, "town"}


def _preposition_fits(draft: Draft, before: str, other: str) -> bool:
    """May ``other`` follow the preposition that ends ``before`` ("on", "in", "at", with or
    without "the")? After "on" (a planet, an island, a street: "arrived on Earth"), only a
    place the writer (this summary or the book's others) also puts after "on"; after "in" or
    "at", any place but one the writer only ever puts after "on"."""
    m = re.search(r"\b(on|in|at)\s+(?:the\s+)?$", before, re.IGNORECASE)
    if not m:
        return True

    def used() -> set[str]:
        pattern = re.compile(rf"\b(on|in|at)\s+(?:the\s+)?{re.escape(other)}\b",
                             re.IGNORECASE)
        return {found.lower() for text in draft.book_texts for found in pattern.findall(text)}
    uses = draft.memo(("place_prepositions", other), used)
    if m.group(1).lower() == "on":
        return "on" in uses
    return uses != {"on"}


def _derived_word_in(sentence: str, name: str, start: int, end: int) -> bool:
    """Does the sentence, outside the name, hold a word made from it (Venus, "Venusian")?"""
    stem = name.split()[-1][:-1]
    rest = sentence[:start] + " " + sentence[end:]
    return len(stem) >= 4 and bool(re.search(rf"\b{re.escape(stem)}\w+", rest))


def _later_pronoun_gender(sentence: str, end: int, zh: bool) -> str | None:
    """The gender of the first personal pronoun after ``end`` in ``sentence``, if any."""
    m = (_PRONOUN_ZH if zh else _ANY_PRONOUN_EN).search(sentence, end)
    return PRONOUN_GENDER[m.group().lower()] if m else None


_ANY_PRONOUN_EN = re.compile(r"(?i)\b(?:he|him|his|she|her)\b")


def _summary_names_first(draft: Draft, kind: str) -> list[str]:
    """The book's names of ``kind``, those the summary itself uses first: a stand-in the
    writer already wrote elsewhere brings no new words into the summary (a title such as
    太太 drawn from the book's most frequent ones would be the same tell in every book)."""
    def order() -> list[str]:
        names = draft.names(kind)
        used = {n for _, _, n in find_names(draft.summary, names, draft.zh)}
        return [n for n in names if n in used] + [n for n in names if n not in used]
    return draft.memo(("summary_names_first", kind), order)


def _with_article(draft: Draft, sentence: str, start: int, end: int, other: str,
                  kind: str) -> str:
    """Put ``other`` in place of ``sentence[start:end]``; in en, add or drop "the" as the
    summary writes ``other`` ("on Tarry Lane" -> "on the Harbour Tower")."""
    if draft.zh or kind not in ("place", "org"):
        return splice(sentence, start, end, other)
    with_the, bare = draft.memo(("article", other), lambda: _article_uses(draft, other))
    article = re.search(r"\b([Tt]he) $", sentence[:start])
    if article and bare and not with_the:
        return sentence[: article.start()] + other + sentence[end:]
    if not article and with_the and not bare:
        if re.search(r"\b(?:[Aa]n?|[Tt]his|[Tt]hat|[Ee]very|[Hh]is|[Hh]er|[Tt]heir)\s+$",
                     sentence[:start]):
            return sentence  # "a Corrinford washerwoman": no "a the Mole washerwoman"
        return splice(sentence, start, end, "the " + other)
    return splice(sentence, start, end, other)


def _article_uses(draft: Draft, other: str) -> tuple[bool, bool]:
    """(written with "the"?, written without?) of ``other`` in the summary, else (when the
    summary writes it in neither way) in the book's other unit summaries (``_the_counts``:
    "on Lantern Street" had become "on Bar", from "the Greywater Bar")."""
    for texts in (draft.book_texts[:1], draft.book_texts[1:]):
        with_the, bare = _the_counts(texts, other)
        if with_the or bare:
            return bool(with_the), bool(bare)
    return False, False


def inside_longer_name(sentence: str, start: int, end: int) -> bool:
    """Is the English name at ``start:end`` part of a longer capitalized name ("Office" in
    "Lanternwick Insurance Office", "Jory" in "Jory Fenwick")? Replacing that part alone
    makes a name nobody bears. A capitalized word opening the sentence or an honorific
    before it does not count; one joined to it by "and" or "of" does ("Bank and Trust
    Company"); so does a Roman numeral after it ("War" in "World War III")."""
    if re.search(r"[A-Z][\w'’-]*\s+(?:and|&|of|de|von|van)\s+$", sentence[:start]):
        return True  # "Trust Company" in "Taft National Bank and Trust Company"
    before = re.search(r"([A-Z][\w'’-]*)\s+$", sentence[:start])
    if before:
        word, head = before.group(1), sentence[: before.start()]
        opens = not head.strip(" \"“‘(") or re.search(r"[.!?:;][\s\"“‘(]*$", head)
        # an opening word counts when no dictionary knows it: a first name ("John Harlowe a
        # sly sinner": no "John Mr. Lovelace"), not "Then" or "Suddenly"
        named = not opens or (not inflect.word_classes(word)  # (an owner is no part of it)
                              and word.lower() not in EN_FUNCTION_WORDS
                              and not word.endswith(("'s", "’s")))
        if named and word not in HONORIFICS and word + "." not in HONORIFICS:
            return True
    return bool(re.match(r"\s+(?:of\s+)?[A-Z][a-z]|\s+[IVXL]+\b", sentence[end:]))
