"""The inject stage on a small windows table, with a stand-in context."""

from __future__ import annotations

import re

from helpers.injection import EN_ARTICLE, injections, make_ctx, windows_table

from longnovel.injection.candidate import Candidate
from longnovel.injection.validate import validate
from longnovel.stages import inject
from longnovel.taxonomy import TYPE_IDS


def test_stage_writes_a_row_per_window_and_type():
    ctx = make_ctx(windows_table())
    result = inject.run(ctx)
    rows = injections(ctx).to_pylist()
    assert injections(ctx).schema == inject.INJECTIONS
    assert len(rows) == 4 * len(TYPE_IDS)
    assert {(r["window_id"], r["type"]) for r in rows} == {
        (f"S-{lang}-{i}", t) for lang in ("en", "zh") for i in range(2) for t in TYPE_IDS}
    for row in rows:
        if row["valid"]:
            cand = Candidate(**{k: row[k] for k in ("type", "subtype", "original_summary",
                                                     "summary", "original_span",
                                                     "hallucinated_span", "generator")})
            assert validate(cand, row["language"]) is None
        else:
            assert row["reject_reason"]
    for lang in ("en", "zh"):
        valid_types = {r["type"] for r in rows if r["valid"] and r["language"] == lang}
        assert valid_types == set(TYPE_IDS), lang
    assert result.rows_out == sum(r["valid"] for r in rows)


def test_stage_entities_table_and_new_names_from_article():
    ctx = make_ctx(windows_table())
    inject.run(ctx)
    entities = ctx.writers["entities.parquet"].table()
    assert entities.column_names == ["book_id", "unit_index", "name", "type", "count"]
    rows = entities.to_pylist()
    assert len({(r["book_id"], r["unit_index"]) for r in rows}) == 4  # once per unit
    names = {r["name"] for r in rows if (r["book_id"], r["unit_index"]) == ("enbook", 0)}
    assert "Captain Ferrant" in names
    checked = 0
    for row in injections(ctx).to_pylist():
        if row["valid"] and row["type"] == "entity" and row["language"] == "en":
            before = set(re.findall(r"\b[A-Z][a-z]+\b", row["original_span"]))
            for word in set(re.findall(r"\b[A-Z][a-z]+\b", row["hallucinated_span"])) - before:
                assert re.search(rf"\b{word}\b", EN_ARTICLE), (word, row)
                checked += 1
    assert checked


def test_stage_is_deterministic_and_balanced():
    a, b = make_ctx(windows_table(), types_per_window=3), make_ctx(windows_table(),
                                                                   types_per_window=3)
    inject.run(a)
    inject.run(b)
    assert injections(a).equals(injections(b))
    rows = injections(a).to_pylist()
    assert len(rows) == 4 * 3
    for lang in ("en", "zh"):  # 2 windows x 3 types over 8 types: no type twice
        types = [r["type"] for r in rows if r["language"] == lang]
        assert len(types) == len(set(types)) == 6, types


def test_config_section_includes_model_fingerprint():
    ctx = make_ctx(windows_table(), generator="m",
                   _models={"m": {"provider": "openai", "model": "x", "base_url": "http://h"}})
    section = inject.config_section(ctx.config)
    assert section["models"]["m"]["model"] == "x"
    assert section["seed"] == 3 and section["inject"]["generator"] == "m"
