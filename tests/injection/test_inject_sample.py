"""The inject stage on the real sample corpus: windows made of five consecutive units, their
summaries joined as the expand stage joins them. Every valid row must pass a sentence-level
check written here independently of ``validate``, every type must be valid in both languages
with a balanced count, and an en entity change may only bring in names from the article."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pytest
from helpers.injection import injections, make_ctx

from longnovel.stages import inject
from longnovel.taxonomy import TYPE_IDS
from longnovel.tokenizer import JOIN

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "raw" / "sample"
BOOKS = [("en", SAMPLE / "en" / "salt-clock"), ("zh", SAMPLE / "zh" / "song-yan-ji")]
UNITS_PER_WINDOW = 5
WINDOW_STARTS = (0, 3, 6)


def _units(book: Path) -> list[tuple[str, str]]:
    """(text, summary) of the book's units, in order, as long as both files exist."""
    units = []
    for number in range(1, 1000):
        text, summary = book / f"{number:03d}.txt", book / f"{number:03d}.summary.txt"
        if not (text.exists() and summary.exists()):
            break
        units.append((text.read_text(encoding="utf-8").strip(),
                      summary.read_text(encoding="utf-8").strip()))
    return units


def _windows() -> list[dict]:
    rows = []
    for language, book in BOOKS:
        units = _units(book)
        if len(units) < UNITS_PER_WINDOW:
            pytest.skip(f"sample book {book.name} has fewer than {UNITS_PER_WINDOW} units")
        starts = sorted({min(s, len(units) - UNITS_PER_WINDOW) for s in WINDOW_STARTS})
        for s in starts:
            part = units[s : s + UNITS_PER_WINDOW]
            rows.append({"window_id": f"S:{book.name}:{s + 1}-{s + UNITS_PER_WINDOW}",
                         "tier": "S", "target_tokens": 16000, "language": language,
                         "book_id": book.name, "title": book.name, "unit_start": s,
                         "unit_end": s + UNITS_PER_WINDOW - 1, "n_units": UNITS_PER_WINDOW,
                         "n_tokens": 0, "article": JOIN.join(t for t, _ in part),
                         "reference_summary": JOIN.join(m for _, m in part)})
    return rows


@pytest.fixture(scope="module")
def sample_run():
    windows = _windows()
    units = [{"book_id": book.name, "unit_index": i, "language": language, "text": text,
              "summary": summary}
             for language, book in BOOKS for i, (text, summary) in enumerate(_units(book))]
    ctx = make_ctx(pa.Table.from_pylist(windows), units=pa.Table.from_pylist(units))
    inject.run(ctx)
    articles = {w["window_id"]: w["article"] for w in windows}
    return injections(ctx).to_pylist(), articles


# --- an independent sentence-level check ------------------------------------------------------

_EN_BOUNDARY = re.compile(r"(?<=[.!?])[\"'”’*_)]*\s+(?=[\"“'‘*(]?[A-Z0-9])|\n+")
_ZH_BOUNDARY = re.compile(r"(?<=[。！？…])[”’」』）]*|\n+")


def sentences(text: str, language: str) -> list[str]:
    """A plain splitter: en ends at . ! ? before a capital (not after Mr./Mrs./Dr./St./a
    single initial), zh at 。！？…; line breaks always end a sentence."""
    pattern = _ZH_BOUNDARY if language == "zh" else _EN_BOUNDARY
    pieces, start = [], 0
    for m in pattern.finditer(text):
        if language == "en" and "\n" not in m.group() and _abbreviation_before(text, m.start()):
            continue
        pieces.append(text[start : m.end()].strip())
        start = m.end()
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]


def _abbreviation_before(text: str, end: int) -> bool:
    word = re.search(r"(\S+)\.[\"'”’*_)]*$", text[:end])
    return bool(word) and (word.group(1) in {"Mr", "Mrs", "Ms", "Dr", "St"}
                           or re.fullmatch(r"(?:[A-Z]\.)*[A-Z]", word.group(1)) is not None)


def _one_sentence(span: str, language: str) -> bool:
    return len(sentences(span, language)) == 1


def _words(text: str) -> Counter:
    return Counter(re.findall(r"\w+", text.lower()))


def check_row(row: dict) -> None:
    """Assert that a valid row is exactly one sentence-level change of its type."""
    old, new, lang = row["original_summary"], row["summary"], row["language"]
    orig, hall = row["original_span"], row["hallucinated_span"]
    assert new != old and hall and hall in new
    assert 0.7 <= len(new) / len(old) <= 1.5
    cjk = len(re.findall(r"[\u4e00-\u9fff]", hall))
    assert (cjk > len(re.findall(r"[A-Za-z]", hall))) == (lang == "zh"), hall
    old_sentences = sentences(old, lang)
    if row["type"] == "temporal":
        first_two = sentences(orig, lang)
        assert len(first_two) == 2 and orig in old, orig
        assert new == old.replace(orig, hall, 1)
        assert len(sentences(hall, lang)) == 2 and sentences(hall, lang) != first_two
        same = _words(orig) == _words(hall) if lang == "en" else sorted(orig) == sorted(hall)
        assert same, (orig, hall)  # the same two events, told in the other order
    elif not orig:
        # one whole sentence added right after a sentence of the original, nothing else
        assert row["type"] == "fabrication" and _one_sentence(hall, lang), hall
        sep = "" if lang == "zh" else " "
        at = new.index(sep + hall)
        assert new[:at] + new[at + len(sep + hall) :] == old
        assert re.search(r"[.!?。！？…][\"'”’」』）*_)]*$", new[:at]), new[:at][-40:]
        assert len(sentences(new, lang)) == len(old_sentences) + 1
    elif row["type"] == "causal" and len(sentences(orig, lang)) == 2:
        # an invented cause joins the last sentence of one unit's summary and the first of
        # the next (never two steps of one unit's story) into one, which ends the first
        # unit's paragraph: the paragraphs stay
        first, second = sentences(orig, lang)
        k = old_sentences.index(first)
        assert row["subtype"] == "invent" and old_sentences[k + 1] == second, orig
        assert "\n" in orig[len(first):orig.index(second)], orig
        assert _one_sentence(hall, lang), hall
        assert "".join(new.replace(hall, "", 1).split()) == \
            "".join(old.replace(orig, "", 1).split())
        assert new.count("\n\n") == old.count("\n\n")
        assert len(sentences(new, lang)) == len(old_sentences) - 1
    else:
        assert orig in old_sentences, orig  # a whole sentence of the original summary
        assert _one_sentence(hall, lang), hall
        assert new == old.replace(orig, hall, 1)
        new_sentences = sentences(new, lang)
        assert len(new_sentences) == len(old_sentences)
        assert sum(a != b for a, b in zip(old_sentences, new_sentences, strict=False)) == 1


def test_every_type_is_valid_in_both_languages_and_balanced(sample_run):
    rows, _ = sample_run
    for language in ("en", "zh"):
        counts = Counter(r["type"] for r in rows if r["valid"] and r["language"] == language)
        assert set(counts) == set(TYPE_IDS), (language, counts)
        assert max(counts.values()) <= 2 * min(counts.values()), (language, counts)


def test_every_valid_row_passes_the_sentence_check(sample_run):
    rows, _ = sample_run
    valid = [r for r in rows if r["valid"]]
    assert valid
    for row in valid:
        check_row(row)


def test_en_entity_changes_only_bring_in_names_from_the_article(sample_run):
    rows, articles = sample_run
    checked = 0
    for row in rows:
        if not (row["valid"] and row["type"] == "entity" and row["language"] == "en"):
            continue
        before = set(re.findall(r"\b[A-Z][a-z]+\b", row["original_span"]))
        for name in set(re.findall(r"\b[A-Z][a-z]+\b", row["hallucinated_span"])) - before:
            assert re.search(rf"\b{name}\b", articles[row["window_id"]]), (name, row)
            checked += 1
    assert checked


def test_the_independent_splitter_agrees_on_the_sample_summaries():
    for language, book in BOOKS:
        for _, summary in _units(book):
            assert "".join(sentences(summary, language)).replace(" ", "") == \
                summary.replace(" ", "").replace("\n", "")


def test_the_check_catches_bad_rows():
    old = "Wren winds the clock. Orrin reads the tide book. Pell runs to the quay."
    good = {"type": "event", "subtype": "verb", "language": "en", "original_summary": old,
            "original_span": "Wren winds the clock.", "hallucinated_span": "Wren breaks the clock.",
            "summary": old.replace("winds", "breaks")}
    check_row(good)
    bad = [
        {"summary": old.replace("winds", "breaks").replace("reads", "burns")},  # two changed
        {"original_span": "Wren winds", "hallucinated_span": "Wren breaks"},  # not a sentence
        {"summary": old.replace("winds the clock.", "breaks the clock. Pell cries."),
         "hallucinated_span": "Wren breaks the clock. Pell cries."},  # one became two
        {"type": "fabrication", "original_span": "", "hallucinated_span": "Pell cries.",
         "summary": old.replace("the clock.", "the Pell cries. clock.")},  # inside a sentence
        {"type": "temporal", "original_span": "Wren winds the clock. Orrin reads the tide book.",
         "hallucinated_span": "Orrin reads the map. Wren winds the clock.",
         "summary": "Orrin reads the map. Wren winds the clock. Pell runs to the quay."},
    ]
    for change in bad:
        with pytest.raises(AssertionError):
            check_row({**good, **change})
