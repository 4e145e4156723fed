"""English entities from capitalized spans, filtered for sentence starts and stop words,
with honorifics kept as part of the name and possessives removed; titles and kinship terms
from the lexicon.

A capitalized span is typed by the evidence around its occurrences, never by default:

- a person needs person evidence: an honorific ("Mr. Vale"), a speech or cognition verb after
  it ("Wren said") or before it ("said Cobb"), a kinship or title word before it ("his mother
  Nan"), a possessive of a body part or a relative ("Orrin's hands"), a he/she reference
  after it when it opens a clause, or repeatedly a verb only people do after it ("Jory walked");
  a word the text also writes in lower case ("Keeper", "Lives") needs more of it;
- a place: a place word ending it ("Lantern Street", "Kestrel Point") or starting it ("Port
  Callow"), prepositions of place before it ("in Harrowmere"), or the writer using it to
  qualify a noun ("a Harrowmere vessel");
- neither (a date, a thing always named with "the", an honorific alone such as "Herr" or
  "Madame", a common word met in a heading): no entity.

A person's gender, where the text shows it (an honorific, a kinship word before the name, the
he/she that follows it), is kept with the counts (``en_entities``)."""

from __future__ import annotations

import re
import string
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from longnovel.injection.lexicon.en import (
    EN_DATE_BEFORE,
    EN_DATE_OF,
    EN_FEMALE_RELATIONS,
    EN_HONORIFICS,
    EN_KINSHIP,
    EN_MALE_RELATIONS,
    EN_ORG_SUFFIXES,
    EN_PLACE_PREPOSITIONS,
    EN_PLACE_SUFFIXES,
    EN_SPATIAL_PREPOSITIONS,
    EN_STOPWORDS,
    EN_TITLES,
)
from longnovel.injection.nlp.sentences import sentence_spans

# Forms of address of other languages met in English novels, and the British ones without a
# full stop: a person's word, never a name.
EXTRA_HONORIFICS = ["Herr", "Frau", "Fräulein", "Madame", "Mademoiselle", "Mlle.", "Mme",
                      "Monsieur", "Signor", "Signora", "Signorina", "Señor", "Señora", "Don",
                      "Doña", "Mynheer", "Mevrouw", "Senhor", "Dona", "Mrs", "Mr", "Ms", "Dr",
                      # ranks written short ("Lt and Chandler return" made "Lt" a person)
                      "Lt", "Lt.", "Lieut", "Lieut.", "Capt", "Capt.", "Sgt", "Sgt.", "Cpl",
                      "Cpl.", "Col.", "Gen.", "Maj.", "Cmdr", "Cmdr.", "Prof", "Prof."]
HONORIFICS = frozenset(EN_HONORIFICS) | frozenset(EXTRA_HONORIFICS)
MALE_HONORIFICS = frozenset(re.findall(r"\S+",
    "Mr. Mr Sir Lord Monsieur Herr Signor Señor Don Mynheer Senhor Father Brother Uncle King "
    "Prince Duke Count Baron Earl Squire Master"))
FEMALE_HONORIFICS = frozenset(re.findall(r"\S+",
    "Mrs. Mrs Ms. Ms Miss Lady Madame Mme. Mme Mademoiselle Mlle. Frau Fräulein Signora "
    "Signorina Señora Doña Mevrouw Dona Mother Sister Aunt Queen Princess Duchess Countess "
    "Baroness Mistress Dame"))
# Words that end (or start) a place's name, beyond the lexicon's suffixes.
PLACE_ENDS = frozenset(EN_PLACE_SUFFIXES) | {
    "Point", "Head", "Common", "Green", "Cross", "End", "Marsh", "Fen", "Ford", "Haven",
    "Cliff", "Cliffs", "Rock", "Rocks", "Falls", "Gap", "Pass", "Ridge", "Strand", "Shore",
    "Field", "Fields", "Heath", "Downs", "Reach", "Sound", "Channel", "Canal", "Creek", "Cove",
    "Crescent", "Terrace", "Avenue", "Close", "Mews", "Hotel", "Theatre", "Prison", "Gaol",
    "Asylum", "Chapel", "Priory", "Convent", "Monastery", "Fort", "Fortress", "Pool", "Well",
    "Springs", "Isle", "Islands", "Mountains", "Hills", "Ocean", "Desert", "Plain", "Plains",
    "Province", "County", "Shire", "Kingdom", "Empire", "Republic", "Country", "Land",
}
PLACE_STARTS = frozenset({"Port", "Mount", "Mt.", "Lake", "Cape", "Fort", "Isle", "Glen",
                          "Loch", "Lough", "Bay", "Castle", "New", "North", "South", "East",
                          "West", "Upper", "Lower"})
_PLACE_OR_ORG_ENDS = PLACE_ENDS | frozenset(EN_ORG_SUFFIXES)  # (built once, not per call)
# Words after a name that only people do: said / asked / thought ... and their like.
_SPEECH = (
    "say said ask asked reply replied answer answered cry cried shout shouted whisper whispered "
    "exclaim exclaimed murmur murmured mutter muttered think thought know knew feel felt wonder "
    "wondered tell told laugh laughed smile smiled nod nodded sigh sighed decide decided want "
    "wanted hope hoped realize realized realise realised remember remembered believe believed "
    "agree agreed promise promised refuse refused explain explained admit admitted insist "
    "insisted confess confessed beg begged fear feared suspect suspected recognize recognized "
    "love loved hate hated marry married kiss kissed weep wept frown frowned shrug shrugged "
    "protest protested warn warned lie lied swear swore pray prayed scream screamed sob sobbed")
_ACTION = (
    "walk walked run ran go went come came look looked see saw hear heard take took give gave "
    "meet met find found leave left return returned arrive arrived follow followed wait waited "
    "sit sat stand stood turn turned open opened pick picked put hold held carry carried pay "
    "paid buy bought sell sold visit visited help helped watch watched try tried write wrote "
    "read bring brought send sent speak spoke call called ask asked get got hurry hurried climb "
    "climbed rush rushed wake woke sleep slept eat ate drink drank learn learned"
    " discover discovered reach reached")


def _verb_forms(words: str) -> frozenset[str]:
    out = set()
    for word in words.split():
        out.add(word)
        if not word.endswith("ed"):
            out.add(word + ("es" if word.endswith(("s", "sh", "ch", "o")) else "s")
                    if not word.endswith("y") else word[:-1] + "ies")
    return frozenset(out)


SPEECH_VERBS = _verb_forms(_SPEECH) | {"says", "cries", "replies", "tries"}
ACTION_VERBS = _verb_forms(_ACTION) - SPEECH_VERBS
_SPEECH_BEFORE = frozenset({"said", "says", "asked", "asks", "replied", "replies", "cried",
                            "cries", "answered", "answers", "whispered", "whispers", "shouted",
                            "shouts", "exclaimed", "murmured", "muttered", "called", "added",
                            "continued", "began", "repeated", "laughed", "sighed", "told",
                            "tells"})
# The nouns a possessive names that only people have ("Orrin's hands", "Wren's aunt").
_PERSON_OWNED = frozenset(re.findall(r"\S+",
    "hand hands face eyes eye voice head heart arm arms shoulder shoulders hair lips mouth "
    "mind wife husband mother father son sons daughter daughters brother brothers sister "
    "sisters aunt uncle cousin nephew niece friend friends grandson granddaughter widow "
    "fiancé fiancée death birth funeral bedside letter letters wedding marriage life "
    "temper smile fingers feet knees back"))
_PRONOUN_AFTER = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
_FEMALE_PRONOUNS = frozenset({"she", "her", "hers", "herself"})
_KIN_OR_TITLE = frozenset(EN_KINSHIP) | frozenset(EN_TITLES) | EN_MALE_RELATIONS \
    | EN_FEMALE_RELATIONS | {"old", "young", "little", "poor", "dear"}

_HONORIFIC = "|".join(re.escape(h) for h in sorted(HONORIFICS, key=len, reverse=True))
# (McGill, MacDonald, O'Brien are one word: "Mc" alone had become a person)
_CAP_WORD = r"(?:Ma?c|O['’])?[A-Z][a-zà-ÿ]+(?:-[A-Z][a-zà-ÿ]+)*"
_POSSESSIVE = r"(?:['’]s\b|(?<=s)['’](?!\w))"
# An honorific joins the name after it across one space or a line break (with the next
# line's indent), not across a run of spaces: "Capt.   Had Colonel Morden ..." is a play's
# speaker label before a line of dialogue, no "Capt. Had".
# A span starts with a capital letter, an honorific's or a word's. The lookahead for those
# letters first finds the same spans, but the engine no longer tries every honorific at every
# character of a text (the scan of the development corpus's English units: 0.48 s -> 0.06 s).
_SPAN_FIRST = "".join(sorted(set(string.ascii_uppercase) | {h[0] for h in HONORIFICS}))
_EN_SPAN = re.compile(
    rf"(?=[{re.escape(_SPAN_FIRST)}])"
    rf"(?:(?:{_HONORIFIC})(?:[ \t]|[ \t]*\r?\n\s*))?{_CAP_WORD}{_POSSESSIVE}?"
    rf"(?:\s+(?:of\s+|de\s+|van\s+)?{_CAP_WORD}{_POSSESSIVE}?)*"
)
_ORDINAL = re.compile(
    r"^(?:\d+(?:st|nd|rd|th)|(?:(?:twenty|thirty)-)?(?:first|second|third|fourth|fifth|sixth|"
    r"seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|"
    r"seventeenth|eighteenth|nineteenth|twentieth|thirtieth))$")
_NEXT_WORD = re.compile(r"(['’]s?)?[ \t]*([a-z]+)\b")
_LOWER_WORD = re.compile(r"\b[a-z][a-z'-]*\b")


@dataclass
class _Seen:
    """What the text says around one name's occurrences."""

    count: int = 0
    mid_sentence: bool = False
    before: list[tuple[str, str]] = field(default_factory=list)  # two words before, nearest first
    person: float = 0.0      # evidence that it names a person
    actions: int = 0         # occurrences followed by a verb only people do
    place: float = 0.0       # evidence that it names a place
    placed: int = 0          # occurrences after a preposition of place
    qualifies: int = 0       # occurrences before a noun they qualify ("a Libyan shore")
    he: int = 0
    she: int = 0


def en_counts(text: str) -> Counter:
    """{(name, kind): count} of the text's entities (kinds as ``en_entities``)."""
    return en_entities(text)[0]


def en_entities(text: str) -> tuple[Counter, dict[str, str]]:
    """{(name, kind): count} of the text's entities, kind person / place / org / title /
    kinship, and {person name: "m" or "f"} where the text shows a person's gender."""
    seen = _collect(text)
    lower = frozenset(_LOWER_WORD.findall(text))
    kinds = {name: _en_kind(name, s, lower) for name, s in seen.items()
             if s.mid_sentence or " " in name
             or _person_score(s) >= 2 and name.lower() not in lower}
    people = {name for name, kind in kinds.items() if kind == "person"}
    counts: Counter = Counter()
    for name, kind in kinds.items():
        if kind is None and _joins_person(name, people):
            kind = "person"  # "Tobin Dray" when Dray or Tobin is known as a person
        if kind:
            counts[(name, kind)] += seen[name].count
    counts.update(lexicon_counts(text))
    genders = {name: g for name in people | {n for (n, k) in counts if k == "person"}
               if (g := _gender(name, seen[name]))}
    return counts, genders


def _collect(text: str) -> dict[str, _Seen]:
    seen: dict[str, _Seen] = defaultdict(_Seen)
    spans = sentence_spans(text, "en")
    for k, (start, end) in enumerate(spans):
        following = text[spans[k + 1][0] : spans[k + 1][1]] if k + 1 < len(spans) else ""
        for match in _EN_SPAN.finditer(text, start, end):
            for piece, offset in _name_pieces(match):
                name = _trim_stopwords(piece)
                if not name:
                    continue
                offset += name_offset(piece, name)
                s = seen[name]
                s.count += 1
                if not _starts_sentence(text, start, offset):
                    s.mid_sentence = True
                _observe(s, name, text, offset, end, following, _opens_clause(text, start, offset))
    return seen


def name_offset(piece: str, name: str) -> int:
    """Where ``name`` starts in ``piece``. The name's words are joined by one space ("Capt.
    Had"); the piece may hold them with other spaces ("Capt.   Had" in a play's speaker line):
    the first place its words stand with any run of white space between them. Where a pattern
    is needed (the piece has other spaces than single ones between its words), it is built;
    elsewhere ``str.find`` gives the same place without compiling a pattern per name (over
    3,000 names on the development corpus, far past ``re``'s cache of 512, so every other
    pattern of the extraction was compiled again and again too)."""
    if " " not in name or " ".join(piece.split()) == piece:
        found = piece.find(name)
        if found >= 0:
            return found
    return re.search(r"\s+".join(map(re.escape, name.split())), piece).start()


def _observe(s: _Seen, name: str, text: str, offset: int, sentence_end: int, following: str,
             subject: bool) -> None:
    """Add one occurrence's evidence to ``s``."""
    w1, w2 = _previous_words(text, offset)
    s.before.append((w1, w2))
    after = offset + len(name)
    m = _NEXT_WORD.match(text, after, sentence_end)
    possessive, nxt = (m.group(1), m.group(2)) if m else (None, "")
    governed = w1 in _GOVERNING  # "in Harrowmere knew": the subject is someone else
    if possessive:
        s.person += 1.5 if nxt in _PERSON_OWNED else 0.5  # "Orrin's hands", "Orrin's shop"
    elif not possessive and not governed and nxt in SPEECH_VERBS:
        s.person += 2 if nxt in _SPEECH_BEFORE else 1
    elif not possessive and not governed and nxt in ACTION_VERBS:
        s.actions += 1
    if _WHO_AFTER.match(text, after, sentence_end):
        s.person += 2  # "visited by Freeman, who testified": "who" goes on from a person
    if w1 in _SPEECH_BEFORE and not w2:
        s.person += 2  # '"Morning, Keeper," said Cobb'
    elif w1 in _KIN_OR_TITLE and " " not in name:
        s.person += 1.5
        s.he += 2 * (w1 in EN_MALE_RELATIONS)  # "his mother Nan"
        s.she += 2 * (w1 in EN_FEMALE_RELATIONS)
    elif w1 == "at" and w2 in _LOOKS:
        s.person += 1  # "looked at Orrin"
    elif possessive:
        pass  # "to Bram Tolley's loft": the preposition governs the loft
    elif w1 == "of" and w2 in _KIN_OR_TITLE | _OWNED_BY_PEOPLE:
        s.person += 1  # "the son of Saturn", "the death of Patroclus": no place
    elif w1 == "of" and w2 not in _PLACE_OF:
        pass  # "the fleet of Antinous": "of" says nothing of a place without a place noun
    elif w1 in _STRONG_PLACE:
        s.place += 1
        s.placed += 1
    elif w1 in EN_PLACE_PREPOSITIONS or w1 == "the" and w2 in EN_SPATIAL_PREPOSITIONS:
        s.place += 0.5
        s.placed += 1
    elif m and not possessive and _qualifies_noun(text, after, nxt):
        s.place += 1  # "a Harrowmere vessel", "the Dunmore side"
    if m and not possessive and _before_a_noun(text, after, nxt):
        s.qualifies += 1
    if subject:
        _pronoun_after(s, text[after:sentence_end], following)


# Nouns of people's own that "of" ties to a person ("the death of Patroclus"), and nouns of
# places that it ties to a place ("the city of Troy")
_OWNED_BY_PEOPLE = frozenset(re.findall(r"\S+",
    "death birth life body ghost shade sword spear shield arms armour armor horses chariot "
    "advice counsel request orders command anger wrath grief fate name words speech prayer "
    "favour favor will heart hand hands head eyes love affection care friends companions "
    "servants followers house tent household children"))
_PLACE_OF = frozenset(re.findall(r"\S+",
    "city town village kingdom island isle coast shore port harbour harbor walls gates land "
    "country province county region streets street plain plains river mountain mount vale "
    "valley bay gulf straits strait empire republic duchy realm towers tower citadel coasts "
    "shores ruins ramparts fall sack siege"))
_WHO_AFTER = re.compile(r",?\s+(?:who|whom)\b")  # (not "whose": "the city, whose walls")
_GOVERNING = frozenset(EN_PLACE_PREPOSITIONS | EN_SPATIAL_PREPOSITIONS
                       | {"with", "by", "for", "about", "than", "like", "against", "without"})
_STRONG_PLACE = frozenset({"in", "into", "inside", "near"})
_LOOKS = frozenset({"looked", "look", "looks", "stared", "stare", "stares", "glanced", "glance",
                    "glances", "smiled", "smiles", "laughed", "laughs", "frowned", "gazed",
                    "shouted", "nodded", "waved", "winked", "grinned", "peered"})


def _opens_clause(text: str, sentence_start: int, offset: int) -> bool:
    """Does the name at ``offset`` open its sentence, or follow only an opening phrase and a
    comma ("Across the street, Orrin lifted his head")? Then it is the clause's subject."""
    prefix = text[sentence_start:offset].strip(" \t\n\"'“‘(*_")
    if not prefix or prefix in EN_STOPWORDS:
        return True
    return prefix.endswith(",") and not _PRONOUN_AFTER.search(prefix)


def _qualifies_noun(text: str, after: int, nxt: str) -> bool:
    """Is the name followed directly (no comma) by a lower-case noun it qualifies?"""
    gap = text[after : after + 2]
    return gap.startswith(" ") and not gap[1:].startswith(",") and nxt in _QUALIFIED


def _before_a_noun(text: str, after: int, nxt: str) -> bool:
    """Is the name followed directly (no comma) by a lower-case word lemminflect knows as a
    noun ("the Libyan coasts", "the Thorabian officials")?"""
    from longnovel.injection.nlp.inflect import word_classes

    return text[after : after + 1] == " " and nxt.islower() and "NOUN" in word_classes(nxt)


# Nouns a place (not a person) qualifies: "the Harrowmere side", "a Corrinford man".
_QUALIFIED = frozenset(re.findall(r"\S+",
    "side road vessel vessels ship ships boat boats men man women woman people folk room "
    "house houses harbour harbor road roads coast shore street streets market trade merchants "
    "fishermen pilots boys girls family families church quay way bank banks"))


_OTHER_REFERENT = re.compile(
    r"(?<![.!?]\s)\b[A-Z][a-z]+|\b(?:him|her|them|man|woman|boy|girl|wife|husband|mother|"
    r"father|son|daughter|brother|sister|aunt|uncle|friend|master|mistress)\b")


def _pronoun_after(s: _Seen, rest: str, following: str) -> None:
    """The he or she that refers back to a clause's first name: the first one in the rest of
    its sentence, else one opening the next sentence; none when another name or a noun of a
    person comes first ("Orrin told Wren that she ...")."""
    m = _PRONOUN_AFTER.search(rest)
    between = rest[: m.start()] if m else rest
    if _OTHER_REFERENT.search(between):
        return
    if m is None:
        m = re.match(r"\W*(He|She|His|Her)\b", following)
    if m is None:
        return
    if m.group(1).lower() in _FEMALE_PRONOUNS:
        s.she += 1
    else:
        s.he += 1


def _gender(name: str, s: _Seen | None) -> str | None:
    """"m" or "f" from an honorific, else from clear pronoun evidence, else None."""
    first = name.split()[0]
    if first in MALE_HONORIFICS:
        return "m"
    if first in FEMALE_HONORIFICS:
        return "f"
    if s is None:
        return None
    if s.he >= 2 * s.she + 1 and s.he >= 2:
        return "m"
    if s.she >= 2 * s.he + 1 and s.she >= 2:
        return "f"
    return None


def _joins_person(name: str, people: set[str]) -> bool:
    """A name of several words, one of which is a person's name of one word ("Tobin Dray"
    when Dray is known from "Mrs Dray"); not a place's ("Port Callow")."""
    words = name.split()
    if len(words) < 2 or words[-1] in _PLACE_OR_ORG_ENDS or words[0] in PLACE_STARTS:
        return False
    surnames = {p.split()[-1] for p in people if p.split()[0] in HONORIFICS}
    single = {p for p in people if " " not in p}
    return words[-1] in single | surnames or words[0] in single


def _name_pieces(match: re.Match) -> list[tuple[str, int]]:
    """Split a capitalized span at possessives: "Wren's Aunt Mabry" is two names, "Orrin's" is
    Orrin; a possessive before a place or organization word stays ("Quill's Foundry")."""
    span, base = match.group(), match.start()
    pieces, cursor = [], 0
    for m in re.finditer(_POSSESSIVE, span):
        rest = span[m.end() :].split()
        plural = not m.group().endswith("s")
        if len(rest) == 1 and (plural or rest[0] in _PLACE_OR_ORG_ENDS):
            continue
        pieces.append((span[cursor : m.start()], base + cursor))
        cursor = m.end()
        while cursor < len(span) and span[cursor].isspace():
            cursor += 1
    if cursor < len(span):
        pieces.append((span[cursor:], base + cursor))
    return [(p, o) for p, o in pieces if p.strip()]


def is_honorific(word: str) -> bool:
    """Mr. / Captain / Herr / Warden-Mayor: a form of address, never a name alone."""
    return word in HONORIFICS or word.rstrip(".") + "." in HONORIFICS or all(
        p in HONORIFICS for p in word.split("-"))


_TRAILING_STOPWORDS = frozenset(EN_STOPWORDS | {"of", "de", "van"})  # (built once, not per call)


def _trim_stopwords(span: str) -> str:
    words = span.split()
    while words and words[0] in EN_STOPWORDS and not (len(words) > 1 and is_honorific(words[0])):
        words.pop(0)
    while words and words[-1] in _TRAILING_STOPWORDS:
        words.pop()
    if all(is_honorific(w) for w in words):
        return ""  # titles only: "Deputy Warden", "Warden-Mayor", "Herr", "Madame"
    return " ".join(words)


def _starts_sentence(text: str, sentence_start: int, offset: int) -> bool:
    """True at a sentence start, also one inside quotes or after a colon or dash."""
    before = text[sentence_start:offset].rstrip()
    return before.strip("\"'“‘(*_") == "" or before[-1:] in "\"“‘:—(*_" or before.endswith(" '")


def _previous_words(text: str, offset: int) -> tuple[str, str]:
    """The two words before ``offset``, lower-cased, nearest first (none across a sentence's
    end or a quotation mark)."""
    window = text[max(0, offset - 40) : offset]
    window = re.split(r"[.!?;:\"“”]", window)[-1]
    words = re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z]+)*", window)
    words = [w.lower() for w in words[-2:]]
    return (words[-1] if words else "", words[-2] if len(words) > 1 else "")


def _date_context(w1: str, w2: str) -> bool:
    """"the fifth of X", "20th X", "since X", "the last week of X"."""
    if w1 == "of":
        return bool(_ORDINAL.match(w2)) or w2 in EN_DATE_OF
    return bool(_ORDINAL.match(w1)) or w1 in EN_DATE_BEFORE


def _en_kind(name: str, s: _Seen, lower: frozenset[str]) -> str | None:
    """person / place / org from the name's words and the evidence around it; None for a
    date ("the fifth of Ashmonth"), a thing always named with "the" and never as a place, a
    common word, or a name without evidence either way."""
    words, n = name.split(), len(s.before)
    if words[0] in ("St.", "Saint", "St") and words[-1] in _PLACE_OR_ORG_ENDS:
        return "place"  # St. Mary's Church
    if is_honorific(words[0]) and len(words) > 1:
        return "person"
    if words[-1] in EN_ORG_SUFFIXES or any(
            w in EN_ORG_SUFFIXES and nxt == "of"
            for w, nxt in zip(words, words[1:], strict=False)):
        return "org"  # "the Guild", "the Perpetual Order of Seekers After Truth"
    if words[-1] in PLACE_ENDS or (words[0] in PLACE_STARTS and len(words) > 1):
        return "place"
    if sum(1 for w1, w2 in s.before if _date_context(w1, w2)) * 2 >= n:
        return None
    if " " not in name and _DEMONYM.search(name) and s.qualifies * 2 >= n:
        return None  # "the Libyan shore", "the Thorabian officials": a people's adjective, no
        # place ("the Thorabia government" had put a place in its slot, seed 5646)
    with_the = [w2 for w1, w2 in s.before if w1 == "the"]
    if len(with_the) * 2 >= n:
        # "on" is as often about time ("on the Long Tide") as about place: half weight
        spatial = sum(0.5 if w2 == "on" else 1 for w2 in with_the
                      if w2 in EN_SPATIAL_PREPOSITIONS)
        if len(words) == 1 and _plural_looking(name):
            # "the Durants went ...", "in the Durants": a family as often as a place (the
            # Alps, the Hebrides): a place only when it is mostly where things are
            return "place" if spatial * 2 > len(with_the) else None
        return "place" if spatial * 4 >= len(with_the) else None
    person = _person_score(s)
    if person >= _needed(name, lower) and person > s.place:
        return "person"
    if " " not in name and name.lower() in lower:
        # a word the text also writes in lower case ("in Letter XX", "Vol", "Lawn", "Young"):
        # a place only when nearly every use of it is where something is (Bath, Reading)
        return "place" if s.placed >= 4 and s.placed >= 0.8 * n else None
    if s.place >= 2 and s.place >= 0.5 * n or s.placed >= 2 and s.placed >= 0.6 * n:
        return "place"
    return None


# The ending of a people's or a place's adjective ("Libyan", "Grecian", "Argolic", "Chinese")
_DEMONYM = re.compile(r"(?:[aeiuy]an|ic|ese|ish)$")


def _plural_looking(name: str) -> bool:
    return name.endswith("s") and not name.endswith(("ss", "us", "is", "'s", "’s"))


def _person_score(s: _Seen) -> float:
    """Person evidence: verbs only people do count from the second one; he/she half."""
    return s.person + (s.actions if s.actions >= 2 else 0) + min(s.he + s.she, 3) * 0.5


def _needed(name: str, lower: frozenset[str]) -> float:
    """The person evidence a name needs: more for a word the text also writes in lower case
    ("Keeper", "Lives", "Hope")."""
    if " " in name:
        return 1
    return 4 if name.lower() in lower else 2


def en_evidence(text: str, people) -> dict[str, str]:
    """{person: "m" or "f"} for the names of ``people`` whose gender ``text`` shows (for
    names another recogniser found)."""
    seen = _collect(text)
    return {name: g for name in people if (g := _gender(name, seen.get(name)))}


def lexicon_counts(text: str) -> Counter:
    """Title and kinship words of ``text`` with their counts."""
    counts: Counter = Counter()
    pattern, kinds = _en_lexicon_pattern()
    for m in pattern.finditer(text.lower()):
        word = m.group(1)
        counts[(word, kinds[word])] += 1
    return counts


@lru_cache(maxsize=1)
def _en_lexicon_pattern() -> tuple[re.Pattern, dict[str, str]]:
    """One pattern for every title and kinship word (and its plural), the longest first, and
    each word's kind."""
    kinds = {w: "kinship" for w in EN_KINSHIP}
    kinds.update({w: "title" for w in EN_TITLES})
    words = "|".join(re.escape(w) for w in sorted(kinds, key=len, reverse=True))
    return re.compile(rf"\b({words})s?\b"), kinds
