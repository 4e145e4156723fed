"""Entity errors: a pronoun pointed at another character, two characters' roles swapped, or a
place, organization, title (or, failing those, a person) replaced by another one from the book."""

from __future__ import annotations

import re
from itertools import pairwise

from longnovel.injection.candidate import Edit
from longnovel.injection.generators.rules.draft import Draft, find_names, splice
from longnovel.injection.lexicon.zh import ZH_KINSHIP, ZH_SURNAME_TITLES, ZH_TITLES

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
                + ["老哥", "老弟", "大姐", "师兄", "师弟"])


def edits(draft: Draft) -> list[Edit]:
    return pronoun_edits(draft) + role_swap_edits(draft) + mismatch_edits(draft)


def pronoun_edits(draft: Draft) -> list[Edit]:
    """Replace a pronoun by a character named nowhere before it, so that it cannot be the
    pronoun's referent; a character must have been named before the pronoun."""
    people = draft.names("person")
    in_summary = find_names(draft.summary, people, draft.zh)  # once, not once per pronoun
    named = list(dict.fromkeys(n for _, _, n in in_summary))
    out = []
    pattern = _PRONOUN_ZH if draft.zh else _PRONOUN_EN
    for i, sentence in enumerate(draft.sentences):
        for m in pattern.finditer(sentence):
            position = draft.spans[i][0] + m.start()
            named_before = {n for _, end, n in in_summary if end <= position}
            if not named_before:
                continue
            exclude = frozenset(named_before | {n for _, _, n in draft.mentions(i, people)})
            others = draft.memo(("other_names", exclude),
                                lambda ex=exclude: _other_names(named, people, ex, draft.zh))
            for name in others:
                new = splice(sentence, m.start(), m.end(), _pronoun_as_name(m.group(), name))
                edit = draft.replace_sentence(i, new, "pronoun")
                if edit:
                    out.append(edit)
    return out


def _other_names(named: list[str], people: list[str], exclude: set, zh: bool) -> list[str]:
    """Characters other than ``exclude`` (nor a longer or shorter form of one), those
    ``named`` in the summary first; at most three."""
    found = []
    for name in dict.fromkeys(named + people):
        if not any(_maybe_same(name, m, zh) for m in exclude):
            found.append(name)
            if len(found) == 3:
                break
    return found


def _maybe_same(a: str, b: str, zh: bool) -> bool:
    """Could ``a`` and ``b`` name one person? A longer or shorter form (青禾, 顾青禾; Ferrant,
    Captain Ferrant), the same surname with a title (顾衡山, 顾师傅) or a shared last name
    (Isolde Ferrant, Captain Ferrant)."""
    if a in b or b in a:
        return True
    if zh:
        return a[0] == b[0] and any(x[1:] in _ZH_FORMS for x in (a, b))
    return len(a.split()) > 1 and len(b.split()) > 1 and a.split()[-1] == b.split()[-1]


def _pronoun_as_name(pronoun: str, name: str) -> str:
    return name + "'s" if pronoun == "his" else name


def role_swap_edits(draft: Draft) -> list[Edit]:
    """Swap two different characters of one sentence (who did what to whom)."""
    out = []
    symmetric = _SYMMETRIC_ZH if draft.zh else _SYMMETRIC_EN
    conjunction = _CONJUNCTION_ZH if draft.zh else _CONJUNCTION_EN
    for i, sentence in enumerate(draft.sentences):
        if symmetric.search(sentence):
            continue
        found = draft.mentions(i, draft.names("person"))
        for (a0, a1, a), (b0, b1, b) in pairwise(found):
            between = sentence[a1:b0]
            if _maybe_same(a, b, draft.zh) or conjunction.search(between) or (
                    not draft.zh and _MUTUAL_EN.match(between)):
                continue
            new = sentence[:a0] + b + sentence[a1:b0] + a + sentence[b1:]
            edit = draft.replace_sentence(i, new, "role_swap")
            if edit:
                out.append(edit)
    return out


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
            if draft.zh and re.search(r"家$|[这那一][间座个家所]$", sentence[:start]):
                continue  # 顾家墨坊, 这间墨坊: a kind of place, not a place name to swap
            for other in [n for n in names if n not in present and name not in n and n not in name][:3]:
                new = _with_article(draft, sentence, start, end, other, kind)
                edit = draft.replace_sentence(i, new, "mismatch")
                if edit:
                    out.append(edit)
    return out


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
    with_the, bare = draft.memo(("article", other), lambda: (
        bool(re.search(rf"\b[Tt]he {re.escape(other)}\b", draft.summary)),
        bool(re.search(rf"(?<![Tt]he )(?<![\w.]){re.escape(other)}\b", draft.summary))))
    article = re.search(r"\b([Tt]he) $", sentence[:start])
    if article and bare and not with_the:
        return sentence[: article.start()] + other + sentence[end:]
    if not article and with_the and not bare:
        return splice(sentence, start, end, "the " + other)
    return splice(sentence, start, end, other)
