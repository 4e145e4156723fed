"""An independent release-format check (DESIGN.md section 12) on the embedded default's export."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import yaml
from helpers.builders import build, default_config

COLUMNS = {
    "id": pa.string(), "window_id": pa.string(), "language": pa.string(), "tier": pa.string(),
    "split": pa.string(),
    "book_id": pa.string(), "title": pa.string(), "n_tokens": pa.int64(),
    "article": pa.string(), "summary": pa.string(), "source": pa.string(),
    "generator": pa.string(), "label": pa.string(), "score": pa.int64(),
    "hallucination_types": pa.list_(pa.string()), "reason": pa.string(),
    "subtype": pa.string(), "instruction": pa.string(), "input": pa.string(),
    "output": pa.string(), "reviewed": pa.bool_(), "review_note": pa.string(),
    "evidence": pa.string(), "evidence_start": pa.int64(), "evidence_end": pa.int64(),
}
# what a gold reason attributes to the article: a passage, or two in the article's order
ARTICLE_QUOTE = {"en": re.compile(r'but the article (?:says "(.*)"|tells "(.*)" first and "(.*)" '
                                  r'after it)\.$', re.S),
                 "zh": re.compile(r"但原文(?:是“(.*)”|先讲“(.*)”，后讲“(.*)”)。$", re.S)}
# any quotation after the article is named
ATTRIBUTED = {"en": re.compile(r'the article[^"]*"'), "zh": re.compile(r"原文[^“]*“")}


def article_quotes(reason: str, language: str, changed: str | None = None) -> list[str]:
    """The quotations ``reason`` attributes to the article; fails the test where the reason
    names the article before a quotation in any other form (``changed``: the summary's
    changed text, the reason's first quotation, not searched)."""
    rest = reason.split(changed, 1)[-1] if changed else reason
    found = ARTICLE_QUOTE[language].search(reason)
    if found is None:
        assert not ATTRIBUTED[language].search(rest), reason
        return []
    return [q for q in found.groups() if q is not None]
TYPES = {"entity", "number", "relation", "polarity", "event", "temporal", "causal", "fabrication"}
MARKER = {"en": "\n\nSummary:\n", "zh": "\n\n摘要：\n"}


def check_row(row: dict) -> None:
    assert row["language"] in MARKER and row["source"] in {"human", "arbitration", "injection"}
    assert row["input"] == row["article"] + MARKER[row["language"]] + row["summary"]
    assert row["label"] == ("hallucinated" if row["score"] < 3 else "consistent")
    assert 0 <= row["score"] <= 5 and set(row["hallucination_types"]) <= TYPES
    assert bool(row["hallucination_types"]) == (row["score"] < 3)
    output = json.loads(row["output"])
    assert output["score"] == row["score"] and output["reason"] == row["reason"]
    assert output.get("hallucination_types", []) == row["hallucination_types"]
    assert ("hallucination_types" in output) == (row["score"] < 3)
    if row["evidence"]:  # the passage a reason rests on is the article's own text
        assert row["article"][row["evidence_start"]:row["evidence_end"]] == row["evidence"]
    else:
        assert row["evidence_start"] == row["evidence_end"] == -1
    quotes = article_quotes(row["reason"], row["language"])
    for quote in quotes:  # every quote a reason attributes to the article is in the article
        assert " ".join(quote.split()) in " ".join(row["article"].split())
        assert row["source"] == "injection" and row["evidence"]
    expected_prompt = "JSON" if row["language"] == "en" else "JSON 对象"
    assert expected_prompt in row["instruction"] and "0" in row["instruction"]


def check_export(export: Path) -> list[dict]:
    """Every check of the release format on one export folder; returns all rows."""
    from datasets import load_dataset

    files = sorted(export.glob("*/*.parquet"))
    assert files
    rows = []
    for path in files:
        table = pq.read_table(path)
        assert dict(zip(table.schema.names, table.schema.types, strict=True)) == COLUMNS
        assert list(table.schema.names) == list(COLUMNS)
        tier, split = path.parent.name, path.stem
        loaded = load_dataset("parquet", data_files={split: str(path)}, split=split)
        assert loaded.num_rows == table.num_rows and loaded.column_names == list(COLUMNS)
        assert loaded.features["hallucination_types"].feature.dtype == "string"
        for row in table.to_pylist():
            assert (row["tier"], row["split"]) == (tier, split)
            check_row(row)
            rows.append(row)
    assert len({r["id"] for r in rows}) == len(rows)
    splits_of: dict[str, set] = {}
    for row in rows:
        splits_of.setdefault(row["book_id"], set()).add(row["split"])
    assert all(len(s) == 1 for s in splits_of.values())
    check_card(export, files, rows)
    return rows


def check_card(export: Path, files: list[Path], rows: list[dict]) -> None:
    card = (export / "README.md").read_text(encoding="utf-8")
    header = yaml.safe_load(card.split("---\n")[1])
    assert header["license"] and sorted(header["language"]) == sorted({r["language"] for r in rows})
    listed = {(c["config_name"], d["split"], d["path"])
              for c in header["configs"][1:] for d in c["data_files"]}
    assert listed == {(f.parent.name, f.stem, f"{f.parent.name}/{f.name}") for f in files}
    default = header["configs"][0]  # every tier, loaded when no config is named
    assert default["config_name"] == "default" and default["default"] is True
    assert {d["path"] for d in default["data_files"]} == {f"*/{f.name}" for f in files}
    stats = json.loads((export / "stats.json").read_text(encoding="utf-8"))
    assert stats["samples"] == len(rows)


def test_default_export_passes_the_release_check(default_build):
    rows = check_export(default_build[1] / "export")
    assert {r["language"] for r in rows} == {"en", "zh"}
    assert {r["source"] for r in rows} >= {"human", "injection"}
    assert not any(r["reviewed"] for r in rows)


def test_ids_are_stable_across_two_builds_from_scratch(default_build, tmp_path):
    build(default_config(tmp_path, tmp_path / "second"))
    first, second = (check_export(run / "export") for run in (default_build[1],
                                                               tmp_path / "second"))
    def listing(rows):
        return sorted((r["id"], r["summary"], r["split"]) for r in rows)

    assert listing(first) == listing(second)


def test_every_injection_of_the_default_is_a_true_label_with_a_true_reason(default_build):
    """On the embedded default (all tiers, every valid injection, not only the exported ones):
    each quote a reason attributes to the article is the article's text, found at its
    evidence offsets; no invented sentence is told by the article; an invented cause joins
    events of two units, never two steps of one."""
    from longnovel.injection.engine import TOLD_SUPPORT
    from longnovel.injection.evidence import ArticleIndex

    run = default_build[1]
    articles = {w["window_id"]: w["article"] for w in
                pq.read_table(run / "expand/windows.parquet").to_pylist()}
    rows = [r for r in pq.read_table(run / "inject/injections.parquet").to_pylist()
            if r["valid"]]
    assert len(rows) > 100
    quoted = 0
    for row in rows:
        article, language = articles[row["window_id"]], row["language"]
        assert row["reason"]
        quotes = article_quotes(row["reason"], language, row["hallucinated_span"].strip())
        quoted += bool(quotes)
        for quote in quotes:
            assert " ".join(quote.split()) in " ".join(article.split()), row["reason"]
        if row["evidence"]:
            assert article[row["evidence_start"]:row["evidence_end"]] == row["evidence"]
        if row["type"] == "fabrication":
            added = row["hallucinated_span"]
            assert added not in article and added not in row["original_summary"]
            support = ArticleIndex(article, language).told(added)
            assert support < TOLD_SUPPORT[language], (added, support)
        if row["type"] == "causal" and row["subtype"] == "invent" and \
                row["original_span"].count("\n") == 0:
            assert row["hallucinated_span"] != row["original_span"]
            # (a sentence opening with the writer's connective stands at a unit's start)
            at = row["original_summary"].index(row["original_span"])
            assert at == 0 or row["original_summary"][:at].rstrip(" ").endswith("\n"), row
    assert quoted >= len(rows) // 5  # most changed sentences are found in the article
