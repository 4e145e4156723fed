"""The inject stage on a small windows table, with a stand-in context."""

from __future__ import annotations

from types import SimpleNamespace

import pyarrow as pa

from longnovel.config import Config
from longnovel.injection import Candidate, validate
from longnovel.stages import inject
from longnovel.taxonomy import TYPE_IDS

EN_SUMMARY = (
    "Elizabeth walks three miles to Netherfield Park because Jane has fallen ill. "
    "Mr. Darcy admires her fine eyes, but Miss Bingley mocks her muddy petticoat. "
    "Then Elizabeth nurses her sister for five days. She did not expect to stay so long. "
    "Mr. Darcy talks with Elizabeth in the library. Later her mother visits Netherfield Park "
    "with Lydia and Kitty.")
EN_ARTICLE = (
    "Elizabeth Bennet walked to Netherfield Park. Jane lay ill there. Mr. Darcy and "
    "Miss Bingley were in the drawing room. Mr. Darcy watched Elizabeth. "
    "Miss Bingley laughed at her petticoat. Lydia and Kitty stayed at Longbourn with Mrs. Bennet. "
    "Later Mrs. Bennet came to Netherfield Park with Lydia and Kitty. Jane recovered. "
    "Elizabeth read in the library while Mr. Darcy wrote a letter. Elizabeth and Jane went home.")
ZH_SUMMARY = (
    "宝玉在大观园里遇见了黛玉，两人聊了很久。黛玉因为思念家乡，所以整日哭泣。"
    "第二天，宝玉送给她三本书。王熙凤没有答应贾母的请求。随后，贾政和朋友去了扬州。"
    "袭人在府中住了三年，她称赞了宝玉的诗。")
ZH_ARTICLE = (
    "贾宝玉在大观园里遇见了林黛玉。林黛玉哭了。宝玉的父亲贾政很生气。王熙凤在荣国府管家。"
    "王熙凤笑了。贾政去了扬州。袭人服侍宝玉。黛玉读书。袭人叹气。贾母在扬州有亲戚。")


def windows_table() -> pa.Table:
    rows = []
    for lang, summary, article in (("en", EN_SUMMARY, EN_ARTICLE), ("zh", ZH_SUMMARY, ZH_ARTICLE)):
        for i in range(2):
            rows.append({"window_id": f"S-{lang}-{i}", "tier": "S", "target_tokens": 16000,
                         "language": lang, "book_id": f"{lang}book", "title": "t",
                         "unit_start": i, "unit_end": i, "n_units": 1, "n_tokens": 100,
                         "article": article, "reference_summary": summary})
    return pa.Table.from_pylist(rows)


def make_ctx(table, runner=None, **inject_config):
    config = Config.model_validate({
        "corpus": [{"path": "x", "format": "dir", "language": "en"}], "seed": 3,
        "inject": inject_config, "models": inject_config.pop("_models", {})})
    return SimpleNamespace(config=config, tiers=None, read=lambda path: table,
                           progress=lambda it, desc="", total=None: it,
                           llm_runner=lambda: runner)


def test_stage_writes_a_row_per_window_and_type():
    result = inject.run(make_ctx(windows_table()))
    rows = result.tables["injections.parquet"].to_pylist()
    assert result.tables["injections.parquet"].schema == inject.INJECTIONS
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
    result = inject.run(make_ctx(windows_table()))
    entities = result.tables["entities.parquet"]
    assert entities.column_names == ["window_id", "name", "type", "count"]
    names = {r["name"] for r in entities.to_pylist() if r["window_id"] == "S-en-0"}
    assert "Mr. Darcy" in names
    for row in result.tables["injections.parquet"].to_pylist():
        if row["valid"] and row["type"] == "entity" and row["language"] == "en":
            for name in names:
                if name in row["hallucinated_span"] and name not in row["original_span"]:
                    assert name in EN_ARTICLE


def test_stage_is_deterministic_and_balanced():
    a = inject.run(make_ctx(windows_table(), types_per_window=3))
    b = inject.run(make_ctx(windows_table(), types_per_window=3))
    assert a.tables["injections.parquet"].equals(b.tables["injections.parquet"])
    rows = a.tables["injections.parquet"].to_pylist()
    assert len(rows) == 4 * 3


def test_config_section_includes_model_fingerprint():
    ctx = make_ctx(windows_table(), generator="m",
                   _models={"m": {"provider": "openai", "model": "x", "base_url": "http://h"}})
    section = inject.config_section(ctx.config)
    assert section["models"]["m"]["model"] == "x"
    assert section["seed"] == 3 and section["inject"]["generator"] == "m"
