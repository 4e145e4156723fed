"""The inject stage on a small windows table, with a stand-in context."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa

from longnovel.config import Config
from longnovel.injection.candidate import Candidate
from longnovel.injection.validate import validate
from longnovel.stages import inject
from longnovel.stages.base import StageContext
from longnovel.taxonomy import TYPE_IDS

EN_SUMMARY = (
    "Wren walks three miles to the Harbour Tower because Orrin has fallen ill. "
    "Captain Ferrant admires her courage, but Mrs. Crale mocks her muddy boots. "
    "Then Wren nurses her master for five days. She did not expect to stay so long. "
    "Captain Ferrant talks with Wren in the lamp room. Later her mother visits the Harbour "
    "Tower with Pell and Mabry.")
EN_ARTICLE = (
    "Wren Halloway walked to the Harbour Tower. Orrin lay ill there. Captain Ferrant and "
    "Mrs. Crale were in the lamp room. Captain Ferrant watched Wren. "
    "Mrs. Crale laughed at her boots. Pell and Mabry stayed at Netters' Row with Edda Halloway. "
    "Later Edda Halloway came to the Harbour Tower with Pell and Mabry. Orrin recovered. "
    "Wren read in the lamp room while Captain Ferrant wrote a letter. Wren and Orrin went home.")
ZH_SUMMARY = (
    "小满在松岭上遇见了青禾，两人聊了很久。青禾因为思念母亲，所以整日哭泣。"
    "第二天，小满送给她三锭墨。钱世昌没有答应顾衡山的请求。随后，韩石和朋友去了临川府。"
    "蔡三在烟房里住了三年，他称赞了小满的墨。")
ZH_ARTICLE = (
    "沈小满在松岭上遇见了顾青禾。顾青禾哭了。小满的师父顾衡山很生气。钱世昌在万宝斋管账。"
    "钱世昌笑了。顾衡山去了临川府。韩石照顾小满。青禾读书。韩石叹气。顾衡山在临川府有亲戚。"
    "蔡三说小满烧的烟还行。青禾问蔡三要不要喝茶。")


def windows_table() -> pa.Table:
    rows = []
    for lang, summary, article in (("en", EN_SUMMARY, EN_ARTICLE), ("zh", ZH_SUMMARY, ZH_ARTICLE)):
        for i in range(2):
            rows.append({"window_id": f"S-{lang}-{i}", "tier": "S", "target_tokens": 16000,
                         "language": lang, "book_id": f"{lang}book", "title": "t",
                         "unit_start": i, "unit_end": i, "n_units": 1, "n_tokens": 100,
                         "article": article, "reference_summary": summary})
    return pa.Table.from_pylist(rows)


# a later unit of each book, outside every window: where invented content comes from
LATER = {"en": "Captain Ferrant sails to the Skerry Light. Mrs. Crale sells her shop.",
         "zh": "小满独自去了青螺滩。韩石卖掉了烟房。"}


def units_of(windows: pa.Table) -> pa.Table:
    """The one-unit windows' units, as ingest would have written them, and a later unit of
    each book."""
    rows = {(w["book_id"], w["unit_start"]): {"book_id": w["book_id"],
                                              "unit_index": w["unit_start"],
                                              "language": w["language"], "text": w["article"],
                                              "summary": w["reference_summary"]}
            for w in windows.to_pylist()}
    for book, language in sorted({(w["book_id"], w["language"]) for w in windows.to_pylist()}):
        rows[(book, 9)] = {"book_id": book, "unit_index": 9, "language": language,
                           "text": LATER[language], "summary": LATER[language]}
    return pa.Table.from_pylist(list(rows.values()))


def make_ctx(table, runner=None, units=None, **inject_config):
    config = Config.model_validate({
        "corpus": [{"path": "x", "format": "dir", "language": "en"}], "seed": 3,
        "inject": inject_config, "models": inject_config.pop("_models", {})})
    return TableContext(config, table, runner, units)


class TableContext(StageContext):
    """The real stage context, reading its windows from ``table`` instead of a run dir."""

    def __init__(self, config, table, runner=None, units=None):
        super().__init__(config, Path("unused-run-dir"), None, False, stage="inject")
        self._table, self._runner = table, runner
        self._units = units if units is not None else units_of(table)

    def read(self, relpath, columns=None):
        table = self._units if relpath == "ingest/units.parquet" else self._table
        return table.select(columns) if columns else table

    def iter_batches(self, relpath, columns=None, batch_size=128):
        return self.read(relpath, columns).to_batches(max_chunksize=batch_size)

    def writer(self, relpath, schema, row_group_size=128):
        self.writers[relpath] = MemoryWriter(schema)
        return self.writers[relpath]


class MemoryWriter:
    """What a stage writes through ``ctx.writer``, kept in memory for the test."""

    def __init__(self, schema):
        self.schema, self.rows = schema, []

    def write_rows(self, rows):
        self.rows.extend(rows)

    def table(self):
        return pa.Table.from_pylist(self.rows, schema=self.schema)


def injections(ctx) -> pa.Table:
    """The ``injections.parquet`` table the stage wrote through ``ctx``."""
    return ctx.writers["injections.parquet"].table()

    def llm_runner(self):
        return self._runner


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
