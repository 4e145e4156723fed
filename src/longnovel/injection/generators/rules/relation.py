"""Relation errors: a stated relationship replaced by another (``replace``: teacher -> father),
or an acquaintance turned into kin the book never mentions (``invent``: friend -> cousin).

A stand-in must read as the writer's own and as something a reader could believe: a relation
word the summary, or else the book's summaries, already use ("stepfather" or "cousins" that no
summary of the book writes give the change away), of the same gender as the person it names
("his son Pell" never becomes "his daughter Pell"; "friend" never "mother"), of the same
generation ("十三岁的表妹" is no 姑姑, "Sim's mother and father" no "mother and husband"),
not one the sentence already uses ("怕父亲把纸铺给了父亲"), and never a title in a name
("Mother Mabry", "Brother Jonathan") or words in an aside of the writer's.
"""

from __future__ import annotations

import re
from functools import cache

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules import thinning
from longnovel.injection.generators.rules.draft import (
    Draft,
    find_names,
    sentence_of,
    word_edits,
)
from longnovel.injection.lexicon.en import (
    EN_FEMALE_RELATIONS,
    EN_MALE_RELATIONS,
    EN_RELATION_GENERATIONS,
    EN_RELATION_INVENT,
    EN_RELATION_NEAR_SAME,
    EN_RELATION_REPLACE,
    EN_RELATION_SIDES,
    EN_UNOWNED_RELATIONS,
)
from longnovel.injection.lexicon.zh import (
    ZH_FEMALE_CHARS,
    ZH_MALE_CHARS,
    ZH_RELATION_GENDERS,
    ZH_RELATION_GENERATIONS,
    ZH_RELATION_INVENT,
    ZH_RELATION_REPLACE,
    ZH_SURNAMES,
)
from longnovel.injection.nlp import inflect


def edits(draft: Draft) -> list[Edit]:
    if draft.zh:
        tables = (ZH_RELATION_REPLACE, ZH_RELATION_INVENT)
    else:
        tables = (EN_RELATION_REPLACE, EN_RELATION_INVENT)
    out = []
    for subtype, table in zip(("replace", "invent"), tables, strict=True):
        surnames = frozenset() if draft.zh else _surnames(draft)
        out += [edit for edit in word_edits(draft, _stand_ins(draft, table, subtype), subtype,
                                            en_adapt=lambda *a, s=surnames: _fit(*a, s),
                                            zh_skip=_zh_title)
                if _believable(draft, edit) and _in_balance(draft, edit)]
    return out


def _in_balance(draft: Draft, edit: Edit) -> bool:
    """Is the edit kept in the thinning that makes each relation word come in about as often
    as it goes out (``thinning``)? Putting the common word first instead made "friend" come
    in 18 times more than it went out of one book's summaries."""
    old, new = edit.original_span, edit.hallucinated_span
    start = _common_prefix(old, new)
    old_word, new_word = _word_at(old, start, draft.zh), _word_at(new, start, draft.zh)
    if not old_word or not new_word:
        return True
    return thinning.kept(draft, old_word, new_word, _relation_lexicon(draft.language),
                         "relation", draft.summary, edit.start, edit.text)


@cache
def _relation_lexicon(language: str) -> frozenset[str]:
    """The relation words of the language's tables."""
    zh = language == "zh"
    return frozenset(w for table in ((ZH_RELATION_REPLACE, ZH_RELATION_INVENT) if zh else
                                     (EN_RELATION_REPLACE, EN_RELATION_INVENT))
                     for key, values in table.items() for w in (key, *values))


def _surnames(draft: Draft) -> frozenset[str]:
    """Words used as a family name: last in a name of several words, in the entity list ("Dolly
    Hervey") or in the summary or the book's other unit summaries ("Mrs. Hervey", "Mr. John
    Harlowe"; "her aunt Hervey" may be the only mention in the window, seed 11)."""
    def find() -> frozenset[str]:
        names = list(draft.names("person"))
        for text in draft.book_texts:
            names += re.findall(r"\b[A-Z][a-z]+\.?(?: [A-Z][a-z]+)+", text)
        return frozenset(n.split()[-1] for n in names if len(n.split()) > 1)
    return draft.memo("surnames", find)


def _fit(sentence: str, start: int, end: int, new: str,
         surnames: frozenset[str] = frozenset()) -> str | None:
    """None where an en relation word is part of a compound ("great-grandfather" cannot
    become "great-mother"), a title before a name ("Aunt Mabry", "Mother Mabry"), or inside
    the writer's parenthetical aside, or after "future", "late", "former" (words of a
    marriage or a death, that few relations take)."""
    if sentence[start - 1 : start] == "-" or sentence[end : end + 1] == "-":
        return None
    if re.search(r"(?i)\b(?:future|late|former|ex|would-be|intended)\s+$", sentence[:start]):
        return None  # "his future wife" is no "his future sister"
    word = sentence[start:end]
    if word.istitle() and re.match(r"\s+[A-Z][a-z]", sentence[end:]):
        return None
    following = re.match(r"\s+([A-Z][a-z]+)\b(?!\s+[A-Z])", sentence[end:])
    if word.lower() in _ADDRESS and new.lower() not in _ADDRESS and following and \
            following.group(1) in surnames:
        return None  # "her aunt Hervey" addresses her by the surname: no "her mother Hervey"
    if new.lower() in _ONE_EACH and re.search(r"(?i)\bother\s+$", sentence[:start]):
        return None  # "her other uncle" is no "her other father" (prose corpus, seed 11)
    if sentence[:start].count("(") > sentence[:start].count(")"):
        return None
    noun = re.match(r"\s+([a-z]+)\b", sentence[end:])
    if noun and inflect.only_noun(noun.group(1)):
        return None  # "their rival company" names no person: no "their companion company"
    if word.lower() in ("wife", "husband") and re.match(
            r"\s+and\s+(?:his\s+|her\s+|their\s+)?(?:children|kids|family|sons?|daughters?)\b",
            sentence[end:]):
        return None  # "his wife and children" is a set pair: no "his sister and children"
    if _EN_TITLED_BEFORE.search(sentence[:start]):
        return None  # "Wren's Aunt Mabry, Tomas's older sister": the title holds the kinship
        # the aside spells out ("Tomas's older cousin" contradicts "Aunt", the sample, seed 7)
    if _in_a_set_pair(sentence, start, end):
        return None  # "her own father and mother": one of a couple the writer names together
        # changed alone reads wrong ("her own uncle and mother", seed 11)
    if re.match(r"\s+of\s+honou?r\b", sentence[end:]):
        return None  # "guest of honor", "maid of honour": a fixed phrase, no relation
    modifier = re.search(r"(?<!['’])\b([a-z]{3,})\s+$", sentence[:start])
    if modifier and inflect.only_noun(modifier.group(1)):
        return None  # "his business rival", "her school friend": no "business companion"
    rest = sentence[:start] + " " + sentence[end:]
    if re.search(rf"(?i)\b{re.escape(word.rstrip('s'))}", rest):
        return None  # "His wife Molly has left ... it looks wife-deserted": the word tells again
    if not _EN_OWNER_BEFORE.search(sentence[:start]) and not _EN_OWNER_AFTER.match(
            sentence[end:]):
        return None  # "catch a husband" names no one's husband: no relation to change
    return new


# A kin title before a name, then an aside about that person ("Aunt Mabry, Tomas's older ")
_EN_TITLED_BEFORE = re.compile(r"\b(?:Aunt|Uncle|Cousin|Grandfather|Grandmother|Granny|Grandpa|"
                               r"Grandma)\s+[A-Z][\w'’-]+,\s+(?:[\w'’-]+\s+){0,4}$")


# Kin that a writer names as a couple ("father and mother", "brother and sister"): each word's
# partner, singular or plural.
_SET_PAIRS = {frozenset(pair) for pair in (
    ("father", "mother"), ("husband", "wife"), ("brother", "sister"), ("son", "daughter"),
    ("aunt", "uncle"), ("grandfather", "grandmother"), ("nephew", "niece"),
    ("brothers", "sisters"), ("sons", "daughters"), ("aunts", "uncles"),
    ("nephews", "nieces"))}


def _in_a_set_pair(sentence: str, start: int, end: int) -> bool:
    """Is the word at ``start:end`` one of a set couple, joined by "and"/"or" to its partner
    ("father and mother", "his sisters or brothers")?"""
    word = sentence[start:end].lower()
    after = re.match(r"\s+(?:and|or|&)\s+(?:(?:his|her|their|my|our|your)\s+)?([A-Za-z]+)",
                     sentence[end:])
    before = re.search(r"\b([A-Za-z]+)\s+(?:and|or|&)\s+(?:(?:his|her|their|my|our|your)\s+)?$",
                       sentence[:start])
    return any(m and frozenset((word, m.group(1).lower())) in _SET_PAIRS for m in (after, before))


# Relation words that also address a person by the surname ("aunt Hervey", "cousin Morden")
_ADDRESS = {"aunt", "uncle", "cousin"}
# The kin a person has one of ("her other uncle", never "her other father")
_ONE_EACH = {"father", "mother", "stepfather", "stepmother"}

# Whose relation it is: a possessive before the word ("his", "Sim's", "her younger") or "of"/
# "to" after it ("the wife of Joe", "husband to Marge").
_EN_OWNER_BEFORE = re.compile(r"(?i)\b(?:his|her|their|my|our|your|its|"
                              # "it's a stranger" is no one's: "it's" is "it is"
                              r"(?!(?:it|that|he|she|there|here|what|who|where|let)['’]s\b)"
                              r"\w+['’]s?)\s+(?:\w+\s+)?$")
_EN_OWNER_AFTER = re.compile(r"\s+(?:of|to)\s")


def _zh_title(tokens: list[str], t: int) -> bool:
    """Is token ``t`` inside a parenthetical aside (（…）)?"""
    before = "".join(tokens[:t])
    return before.count("（") > before.count("）") or before.count("(") > before.count(")")


def gender(word: str, zh: bool) -> str | None:
    """"m", "f" or None (either, or not known) for a relation word."""
    if zh:
        if word in ZH_RELATION_GENDERS:
            return ZH_RELATION_GENDERS[word]
        male = any(c in ZH_MALE_CHARS for c in word)
        female = any(c in ZH_FEMALE_CHARS for c in word)
        return None if male == female else ("m" if male else "f")
    word = word.lower()
    if word in EN_MALE_RELATIONS:
        return "m"
    return "f" if word in EN_FEMALE_RELATIONS else None


def generation(word: str, zh: bool) -> int | None:
    """The relation word's generation from the person it relates to (+1 a parent's, -1 a
    child's, 0 one's own), or None when it says none (a teacher, a servant)."""
    if zh:
        return ZH_RELATION_GENERATIONS.get(word)
    return EN_RELATION_GENERATIONS.get(word.lower())


def _same_gender(a: str, b: str, zh: bool) -> bool:
    """Does ``b`` keep what ``a`` says of a person's gender (and add none it does not)?"""
    return gender(a, zh) == gender(b, zh) or gender(b, zh) is None


def _near_generation(a: str, b: str, zh: bool, same: bool = True) -> bool:
    """Do ``a`` and ``b`` name the same generation ("father" and "uncle", not "father" and
    "husband": "Sim's mother and husband")? ``same=False`` allows one generation apart."""
    ga, gb = generation(a, zh), generation(b, zh)
    if ga is None or gb is None:
        return True
    return ga == gb if same else abs(ga - gb) <= 1


def _stand_ins(draft: Draft, table: dict[str, list[str]], subtype: str
               ) -> dict[str, list[str]]:
    """The table with each word's replacements drawn from relation words the summary itself
    uses elsewhere, when it uses any (a swap between the writer's own words leaves no new
    word behind); else from those the book's summaries use (``draft.vocabulary``) or that the
    window names as kin (its kinship and title entities); else, where the book's summaries
    are not known well enough to tell, the table's own replacements. An ``invent`` turns an
    acquaintance into kin, so only kin stands in there (a "guest" who becomes a "friend", a
    知己 who becomes a 好友, is no invented tie: read by hand, seed 4535)."""
    own = _relation_words(draft, lambda w: _in_summary(draft, w))
    known = draft.vocabulary is not None and draft.vocabulary.enough
    books = {e["name"] for e in draft.entities if e["type"] in ("kinship", "title")}
    in_book = _relation_words(draft, lambda w: (known and w in draft.vocabulary)
                              or w in books or w.rstrip("s") in books)
    out = {}
    for word, replacements in table.items():
        def fits(w: str, word=word) -> bool:
            return _fits(word, w, draft.zh) and (subtype != "invent" or _is_kin(w, draft.zh))
        out[word] = [w for w in own if fits(w)] or [w for w in in_book if fits(w)] or (
            [] if known else [w for w in replacements if fits(w)])
    return out


def _is_kin(word: str, zh: bool) -> bool:
    """Does ``word`` name kin: a word of a generation, or one the invent table gives?"""
    return generation(word, zh) is not None or word in _invented_kin(zh)


@cache
def _invented_kin(zh: bool) -> frozenset[str]:
    table = ZH_RELATION_INVENT if zh else EN_RELATION_INVENT
    return frozenset(w for words in table.values() for w in words)


@cache
def _fits(word: str, w: str, zh: bool) -> bool:
    """Can ``w`` stand in for ``word`` (the same number, gender and generation, kin for
    kin)? Of the two words alone: kept for every summary."""
    return w != word and w not in EN_UNOWNED_RELATIONS \
        and not any(w in same and word in same for same in EN_RELATION_NEAR_SAME) \
        and _same_number(w, word, zh) \
        and _same_gender(word, w, zh) \
        and _near_generation(word, w, zh) \
        and _kin_for_kin(word, w, zh)


# The spouse words, and the gender of whoever has the spouse (a husband's owner is a woman)
_SPOUSE_OF = {"husband": "f", "husbands": "f", "fiancé": "f", "丈夫": "f", "未婚夫": "f",
              "老公": "f", "wife": "m", "wives": "m", "fiancée": "m", "妻子": "m", "未婚妻": "m",
              "老婆": "m"}
_SPOUSES = frozenset(_SPOUSE_OF)


# Kin words of a married woman (a wife, a son's or a brother's wife, an uncle's): those a woman
# named by her family's surname and 氏 may bear
_ZH_MARRIED_WOMEN = frozenset({"妻子", "媳妇", "老婆", "夫人", "娘子", "太太", "妻", "内人",
                               "儿媳", "儿媳妇", "嫂子", "弟媳", "弟妹", "婶婶", "婶子", "舅妈",
                               "舅母", "伯母", "大娘", "未婚妻"})


def _kin_for_kin(a: str, b: str, zh: bool) -> bool:
    """Does ``b`` name a tie a reader takes for one like ``a``? Kin (a word of a generation)
    becomes other kin, not a role of a moment or of trade ("his sister" -> "his guest",
    "Kevin's mother" -> "Kevin's partner", "her husband" -> "her guest": read by hand, seeds
    3626 and 3727, such rows named no believable tie), nor a friend but where the table pairs
    them both ways (cousin and friend): from the words a summary uses, every kin word could
    become a "friend" and few "friend"s kin, and "friend" came in nine times more than it
    went out of the study corpus's summaries."""
    if generation(a, zh) is None:
        # a spouse says the owner's gender, which a role does not: 韩石 "回到师父身边" is no
        # "回到丈夫身边" (seed 3828)
        return b.lower() not in _SPOUSES
    if generation(b, zh) is not None:
        return True
    table = ZH_RELATION_REPLACE if zh else EN_RELATION_REPLACE
    return b in table.get(a if zh else a.lower(), ())


def _believable(draft: Draft, edit: Edit) -> bool:
    """Does the new relation word keep the generation, agree with the gender known of the
    person it names, and stay new to the sentence?"""
    old_sentence, new_sentence = edit.original_span, edit.hallucinated_span
    start = _common_prefix(old_sentence, new_sentence)
    old_word, new_word = _word_at(old_sentence, start, draft.zh), _word_at(new_sentence, start,
                                                                             draft.zh)
    if not old_word or not new_word:
        return True
    if _count(old_sentence, new_word, draft.zh) > 0:
        return False  # the sentence names that relation already: 父亲把纸铺给了父亲
    if _denied(old_sentence[:start], draft.zh):
        return False  # "Retief is not his cousin" -> "not his friend": true either way
    if _held_elsewhere(draft, old_sentence, start, new_word):
        return False  # "Hogey is Marie's brother" where the summary later has "Marie's
        # brother comes out" (another man); 回到舅舅身边 where 舅舅 is 周大有 throughout
    i = sentence_of(draft, edit)
    if i is not None and _told_again(draft, i, old_word):
        return False  # "assumes Retief is the cousin of someone called Lemuel" ... "reveals
        # that Retief is not his cousin" (study corpus, seed 5545): the word the writer comes
        # back to holds the edit to the original
    if _an_epithet(draft, old_sentence, start + len(old_word), old_word):
        return False  # 舅舅周大有, written so in the book's other chapters: the writer's way
        # of naming him; 父亲周大有 beside 顾青禾 and 沈小满 (seeds 5343's and 5444's readings)
    if not draft.zh and _states_the_other_side(old_sentence, old_word):
        return False  # "Hendricks is his daughter ... all who doubted her father"
    if not draft.zh and _EN_KIN_OF.match(old_sentence[start + len(old_word):]):
        return False  # "Wren's cousin Pell, the son of her Aunt Mabry": the sentence says it
    if not _near_generation(old_word, new_word, draft.zh):
        return False
    if new_word.lower() in _SPOUSES and old_word.lower() not in _SPOUSES and \
            _owner_gender(draft, old_sentence, start) != _SPOUSE_OF.get(new_word.lower()):
        return False  # 柴文焕提出另贴丈夫五十两: a spouse says its owner's gender
    if draft.zh and new_word not in _ZH_MARRIED_WOMEN and \
            re.match(r"[\u4e00-\u9fff]{1,2}氏", old_sentence[start + len(old_word):]):
        return False  # 表妹冯氏: a woman named by her family's surname and 氏 is someone's
        # wife (the sample, seed 5747: 妻子冯氏)
    found, named = _named_after(draft, new_sentence, start + len(new_word))
    if found and named is None:
        named = gender(old_word, draft.zh)  # 女儿顾青禾: the word itself told her gender
    return named is None or gender(new_word, draft.zh) in (None, named)


def _told_again(draft: Draft, i: int, word: str) -> bool:
    """Does another sentence of the same unit's summary as sentence ``i``, or the next, write
    the relation ``word`` again of the same two people, naming both ("assumes that Retief is
    the cousin of someone called Lemuel" ... "Lemuel reveals that Retief is not his cousin")?
    That mention holds the original against the edit. (Two cousins of one person, "Wren's
    cousin Pell" and "Wren's cousin Jory", share one name only.) In Chinese a kin word alone
    is a person's label (母亲 throughout): written again nearby it is the same person
    ("姑姑柳氏" beside "用母亲的法子", seed 5545)."""
    unit = draft.unit_of(i)
    nearby = [k for k in range(len(draft.sentences))
              if k != i and draft.unit_of(k) in (unit, unit + 1)]
    if draft.zh:
        return any(word in draft.sentences[k] for k in nearby)
    people = draft.names("person")
    here = {n for _, _, n in draft.mentions(i, people)}
    if len(here) < 2:
        return False
    pattern = re.compile(rf"(?i)\b{re.escape(word.rstrip('s'))}s?\b")
    return any(pattern.search(draft.sentences[k])
               and len(here & {n for _, _, n in draft.mentions(k, people)}) >= 2
               for k in nearby)


def _an_epithet(draft: Draft, sentence: str, end: int, word: str) -> bool:
    """Is relation ``word``, written right before a person's name ("uncle Ned", 舅舅周大有),
    how the writer names that person: the same word before the same name in another sentence
    of the summary or in one of the book's other unit summaries? Changed in one place, the
    label contradicts the writer's every other use of it."""
    rest = sentence[end:].lstrip(" ,")
    name = next((e["name"] for e in draft.entities
                 if e["type"] == "person" and rest.startswith(e["name"])), None)
    if name is None:
        return False
    label = word + ("" if draft.zh else " ") + name
    texts = [text for _, text in draft.outside] + [draft.elsewhere(sentence)]
    if not draft.zh:  # "Uncle Ned" at a sentence's head, "uncle Ned" inside one
        label, texts = label.lower(), [text.lower() for text in texts]
    return any(label in text for text in texts)


_EN_DENIED = re.compile(r"(?i)\b(?:not|n['’]t|never|no longer|nor)\b[^,;:.]*$")
_ZH_DENIED = re.compile(r"(?:不是|并非|并不是|没有|不)[^，,；;。]*$")


def _denied(before: str, zh: bool) -> bool:
    """Is the relation word after ``before`` in a clause that denies it ("is not his
    friend")? Another relation denied is as true."""
    return bool((_ZH_DENIED if zh else _EN_DENIED).search(before))


def _held_elsewhere(draft: Draft, sentence: str, start: int, new_word: str) -> bool:
    """Does another sentence of the summary give the relation ``new_word`` to someone, with
    the owner this sentence gives it ("Marie's brother"; in zh the word alone, which a
    summary uses as a person's label: 舅舅周大有)? The new relation then clashes with it."""
    others = draft.elsewhere(sentence)
    if draft.zh:
        return new_word in others
    owner = re.search(r"([\w'’]+)\s+(?:[a-z-]+\s+)?$", sentence[:start])
    if not owner:
        return False
    return bool(re.search(rf"\b{re.escape(owner.group(1))}\s+(?:[a-z-]+\s+)?"
                          rf"{re.escape(new_word)}\b", others, re.IGNORECASE))


# A relation spelled out beside the relation word, after the name it goes with ("cousin
# Pell, the fourteen-year-old son of her Aunt Mabry"): the word cannot change without the
# sentence contradicting itself.
_EN_KIN_OF = re.compile(r"\s*(?:[A-Z][\w'’-]*\s*)+,\s+(?:the|a|an|his|her|their)\s+"
                        r"(?:[\w-]+\s+){0,3}?(?:sons?|daughters?|child|children|brothers?|"
                        r"sisters?|wife|husband|father|mother|nephew|niece|cousin|uncle|aunt|"
                        r"grandson|granddaughter|widow|widower|parents?) of\b")


def _states_the_other_side(sentence: str, word: str) -> bool:
    """Does an en sentence name, besides ``word``, the same relation from the other side ("his
    daughter ... her father", "her husband ... his wife")? A changed ``word`` would leave the
    two telling different stories in one sentence."""
    side = EN_RELATION_SIDES.get(word.lower())
    if side is None:
        return False
    for other in re.findall(r"[a-z][a-z-]*", sentence.lower()):
        found = EN_RELATION_SIDES.get(other)
        if other != word.lower() and found is not None and found[0] == side[0] \
                and (found[1] != side[1] or side[1] is None):
            return True
    return False




def _owner_gender(draft: Draft, sentence: str, start: int) -> str | None:
    """The gender of whoever the relation word at ``start`` belongs to, where the sentence
    tells it: en, "his" or "her" just before the word; zh, the first person the sentence
    names before it, by the window's entities."""
    before = sentence[:start]
    if not draft.zh:
        m = re.search(r"\b(his|her)\s+(?:[a-z-]+\s+)?$", before)
        return ({"his": "m", "her": "f"}[m.group(1)]) if m else None
    found = find_names(before, draft.names("person"), True)
    return draft.gender_of(found[0][2]) if found else None


def _named_after(draft: Draft, sentence: str, end: int) -> tuple[bool, str | None]:
    """Is a person named right after ``end`` ("his cousin Mabry", 表妹周杏儿), and the gender
    the window's entities give them, if any?"""
    rest = sentence[end:].lstrip(" ,")
    found = False
    for entity in draft.entities:
        if entity["type"] == "person" and rest.startswith(entity["name"]):
            if entity.get("gender"):
                return True, entity["gender"]
            found = True
    if not found:  # a name the window's entities lack: 女儿顾青禾, "his mother Joan"
        found = bool(re.match(r"[\u4e00-\u9fff]{2,3}", rest)) and rest[0] in ZH_SURNAMES \
            if draft.zh else bool(re.match(r"[A-Z][a-z]+\b(?!['’])", rest))
    return found, None


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _word_at(sentence: str, start: int, zh: bool) -> str:
    """The relation word that starts at or just before ``start`` (the first changed
    character)."""
    known = _all_relation_words()
    if zh:
        for length in range(7, 0, -1):
            for a in range(max(0, start - length + 1), start + 1):
                if sentence[a : a + length] in known:
                    return sentence[a : a + length]
        return ""
    m = re.search(r"[A-Za-zé'-]*$", sentence[:start])
    word = (m.group() if m else "") + re.match(r"[A-Za-zé' -]*", sentence[start:]).group()
    word = word.strip().lower()
    while word and word not in known:
        word = word.rsplit(" ", 1)[0] if " " in word else ""
    return word


def _count(sentence: str, word: str, zh: bool) -> int:
    if zh:
        return sentence.count(word)
    return len(re.findall(rf"(?i)\b{re.escape(word)}\b", sentence))


def _all_relation_words() -> set[str]:
    return {w for table in (ZH_RELATION_REPLACE, ZH_RELATION_INVENT, EN_RELATION_REPLACE,
                            EN_RELATION_INVENT)
            for key, values in table.items() for w in (key, *values)}


def _in_summary(draft: Draft, word: str) -> bool:
    return word in draft.summary if draft.zh else word in draft.lower_words


def _relation_words(draft: Draft, keep) -> list[str]:
    known = {w for table in ((ZH_RELATION_REPLACE, ZH_RELATION_INVENT) if draft.zh else
                             (EN_RELATION_REPLACE, EN_RELATION_INVENT))
             for key, values in table.items() for w in (key, *values)}
    return sorted(w for w in known if (len(w) > 1 or not draft.zh) and keep(w))


def _same_number(a: str, b: str, zh: bool) -> bool:
    return zh or a.endswith("s") == b.endswith("s")
