"""A window's entities: each unit's, extracted once however many windows and tiers share the
unit (lexically on a process pool, or by a model with the lexical ones as fallback), merged
per window on first use."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from longnovel.config import LOCAL_EXTRACTORS
from longnovel.injection.nlp.entities import (
    NAMED_TYPES,
    extract_entities,
    merge_entities,
)
from longnovel.injection.nlp.zh.segment import warm as _warm_jieba

Unit = tuple[str, int]  # (book_id, unit_index)
UNIT_COLUMNS = ["book_id", "unit_index", "language", "text"]  # of ingest/units.parquet


def units_of(window: dict) -> list[Unit]:
    """The units a window covers."""
    return [(window["book_id"], i) for i in range(window["unit_start"], window["unit_end"] + 1)]


def wanted_units(windows: list[dict]) -> set[Unit]:
    """The units some window of ``windows`` covers."""
    return {u for w in windows for u in units_of(w)}


def unit_texts(batches, wanted: set[Unit]) -> dict[Unit, tuple[str, str]]:
    """(text, language) of every unit in ``wanted``, in unit order; ``batches``: record batches
    of ``ingest/units.parquet`` with the ``UNIT_COLUMNS``."""
    units = {}
    for batch in batches:
        for book, index, language, text in zip(*(batch.column(c).to_pylist()
                                                 for c in UNIT_COLUMNS), strict=True):
            if (book, index) in wanted:
                units[(book, index)] = (text, language)
    return dict(sorted(units.items()))


def unit_entities(model: str, batches, wanted: set[Unit], runner,
                  workers: int | None = None) -> tuple[dict, Counter]:
    """Entities per unit of ``wanted`` and the failures by reason: ``model`` ``lexical`` or
    ``spacy`` (``LOCAL_EXTRACTORS``, over ``workers`` processes: default the cores available),
    or the name of the model to ask (through ``runner``; a failed extraction falls back to the
    lexical one). ``batches`` as for ``unit_texts``."""
    if model in LOCAL_EXTRACTORS:
        return lexical_unit_entities(batches, wanted, model, workers), Counter()
    from longnovel.injection.generators.llm.entities import model_unit_entities

    return model_unit_entities(unit_texts(batches, wanted), model, runner)


def lexical_unit_entities(batches, wanted: set[Unit], backend: str = "lexical",
                          workers: int | None = None) -> dict:
    """Lexical entities of every unit in ``wanted``, a row batch at a time (the units' texts
    are never all in memory), extracted on one pool of ``workers`` processes (``backend`` and
    ``workers`` as for ``EntityExtractor``)."""
    out: dict = {}
    with EntityExtractor(workers, backend=backend) as extract:
        for batch in batches:
            keys, texts = [], []
            for book, index, language, text in zip(*(batch.column(c).to_pylist()
                                                     for c in UNIT_COLUMNS), strict=True):
                if (book, index) in wanted:
                    keys.append((book, index))
                    texts.append((text, language))
            if keys:
                out.update(zip(keys, extract(texts), strict=False))
    return dict(sorted(out.items()))


class WindowEntities:
    """A window's entities, merged from its units' on first use and kept for the last few
    windows only (all windows' merged lists of a large corpus would not fit in memory). A
    person's gender is the one the whole book shows, and a name is kept only where the whole
    book types it as the window does (a window's few chapters can mislead: "in favour of
    Wagtail", "to Wagtail" made a place of a doctor the book names eleven times as a person,
    and an entity swap put a coffee-house in his place)."""

    KEEP = 64

    def __init__(self, by_unit: dict, windows: list[dict]):
        from collections import OrderedDict

        self.by_unit = by_unit
        self.units = {w["window_id"]: units_of(w) for w in windows}
        self._recent: OrderedDict = OrderedDict()
        self._books: dict[str, tuple[dict[str, str], dict[str, str]]] = {}

    def __getitem__(self, window_id: str) -> list[dict]:
        found = self._recent.get(window_id)
        if found is None:
            units = self.units[window_id]
            found = merge_entities([self.by_unit[u] for u in units])
            if units:
                kinds, genders = self._book(units[0][0])
                found = with_genders(with_types(found, kinds), genders)
            self._recent[window_id] = found
            if len(self._recent) > self.KEEP:
                self._recent.popitem(last=False)
        else:
            self._recent.move_to_end(window_id)
        return found


    def _book(self, book: str) -> tuple[dict[str, str], dict[str, str]]:
        """{name: type} and {person: gender} over all of ``book``'s units."""
        if book not in self._books:
            merged = merge_entities([found for (b, _), found in self.by_unit.items() if b == book])
            self._books[book] = ({e["name"]: e["type"] for e in merged
                                  if e["type"] in NAMED_TYPES},
                                 {e["name"]: gender for e in merged
                                  if (gender := e.get("gender") or _usual_gender(e))})
        return self._books[book]


def _usual_gender(entity: dict) -> str | None:
    """A person's gender where the book's text shows none: the first name's usual one, where
    ``gender-guesser``'s table of given names holds it as only or mostly of one gender (an
    honorific or a title first says nothing here: its own gender came from the text).
    Without it, a pronoun "He" whose sentence goes on "toward his hideout" became "Ida is
    walking ... toward his hideout": the text gave Ida no pronoun of her own."""
    if entity["type"] != "person" or not re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z]+)?",
                                                      entity["name"]):
        return None
    return {"male": "m", "female": "f"}.get(_gender_detector().get_gender(
        entity["name"].split()[0]))


@lru_cache(maxsize=1)
def _gender_detector():
    from gender_guesser.detector import Detector

    return Detector(case_sensitive=True)


def with_types(entities: list[dict], kinds: dict[str, str]) -> list[dict]:
    """``entities`` less the names of people, places and organizations whose type the whole
    book (``kinds``) does not confirm: typed otherwise there, or left untyped (as many
    mentions of each kind). Votes summed over a book are no surer than a window's (a doctor
    named "to Freeman" three times and as a person twice), so a type in doubt is no type to
    swap a name by."""
    return [e for e in entities
            if e["type"] not in NAMED_TYPES or kinds.get(e["name"]) == e["type"]]


def with_genders(entities: list[dict], genders: dict[str, str]) -> list[dict]:
    """``entities`` with each person's gender as ``genders`` has it (none where it has none)."""
    out = []
    for e in entities:
        if e["type"] == "person":
            e = {k: v for k, v in e.items() if k != "gender"}
            if e["name"] in genders:
                e["gender"] = genders[e["name"]]
        out.append(e)
    return out


def extract_many(texts: list[tuple[str, str]], workers: int | None = None) -> list[list[dict]]:
    """``extract_entities`` of every (text, language), across processes when there are enough
    texts to pay for them (jieba's tagger is pure Python and holds the GIL)."""
    with EntityExtractor(workers) as extract:
        return extract(texts)


class EntityExtractor:
    """``extract_entities`` over batch after batch of (text, language), on one pool of
    ``workers`` processes (default: the cores available; one: in this process) kept for all
    of them (a corpus is read a batch of units at a time, never whole). With
    ``backend`` ``spacy``, English texts go through spaCy's pipeline in this process (loaded
    once; it is itself vectorised), Chinese ones as for ``lexical``."""

    def __init__(self, workers: int | None = None, backend: str = "lexical"):
        import os

        self.workers = workers or len(os.sched_getaffinity(0))
        self.backend = backend
        self._pool = None
        if backend == "spacy":
            from longnovel.injection.nlp.en.ner import pipeline

            pipeline()  # a missing pipeline is a config error before any work

    def __enter__(self) -> EntityExtractor:  # noqa: PYI034  (typing.Self needs 3.11)
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if self._pool is not None:
            from longnovel.workers import stop_pool

            stop_pool(self._pool, failed=exc_type is not None)
            self._pool = None

    def __call__(self, texts: list[tuple[str, str]]) -> list[list[dict]]:
        if self.backend == "spacy":
            return self._with_spacy(texts)
        return self._lexical(texts)

    def _with_spacy(self, texts: list[tuple[str, str]]) -> list[list[dict]]:
        out: list = [None] * len(texts)
        zh = [k for k, (_, language) in enumerate(texts) if language == "zh"]
        for k, found in zip(zh, self._lexical([texts[k] for k in zh]), strict=True):
            out[k] = found
        for k, (text, language) in enumerate(texts):
            if language != "zh":
                out[k] = extract_entities(text, language, backend="spacy")
        return out

    def _lexical(self, texts: list[tuple[str, str]]) -> list[list[dict]]:
        if not texts:
            return []
        if self.workers < 2 or (len(texts) < 8 and self._pool is None):
            return [extract_entities(text, language) for text, language in texts]
        if self._pool is None:
            from longnovel.workers import process_pool

            if any(language == "zh" for _, language in texts):
                _warm_jieba()  # load the dictionary once; forked workers inherit it
            self._pool = process_pool(self.workers)  # its workers die with the build
        from longnovel.workers import pool_map

        chunks = max(1, len(texts) // (self.workers * 4))
        return pool_map(self._pool, _extract_pair, texts, chunksize=chunks)


def _extract_pair(pair: tuple[str, str]) -> list[dict]:
    return extract_entities(*pair)
