"""Shared helpers of the injection tests: the small two-language windows table and a stage
context reading it, a model that follows the sentence prompt, a runner against the local fake
server, the rules' candidate of one sub-type, and a chapter for the entity tests."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa

from helpers.llm import WordTokenizer
from longnovel.config import Config
from longnovel.injection.candidate import Candidate, NotApplicable
from longnovel.injection.engine import judge_reply
from longnovel.injection.generators.llm.generator import Target, build_messages
from longnovel.injection.generators.rules.generator import RulesGenerator
from longnovel.injection.nlp.sentences import split_sentences
from longnovel.injection.validate import validate
from longnovel.llm import LLMRunner, ModelConfig, Request
from longnovel.stages.base import StageContext

EN_SUMMARY = (
    "Wren walks three miles to the Harbour Tower because Orrin has fallen ill. "
    "Captain Ferrant admires her courage, but Mrs. Crale mocks her muddy boots. "
    "Then Wren nurses her master for five days. She did not expect to stay so long. "
    "Captain Ferrant talks with Wren in the lamp room. Wren's mother visits the Harbour Tower "
    "with Pell and Mabry.")
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
LATER = {"en": "Captain Ferrant sails to the Harbour Tower with the winter mail. Mrs. Crale "
              "sells her shop to her aunt. Her aunt pays in silver, and her aunt takes the stock.",
         "zh": "小满独自去了青螺滩，住了半个月才回松岭。韩石卖掉了烟房。"
               "青禾的姑姑给小满做了一双鞋。青禾的姑姑住在临川府，姑姑常来看她。"}


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

    def llm_runner(self):
        """The runner the test gave (its cache in the test's folder), else the stage's own."""
        if self._runner is None:
            return super().llm_runner()
        self._runners.append(self._runner)
        return self._runner


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


def _text_of(messages) -> str:
    return re.findall(r"<text>(.*?)</text>", messages[-1]["content"], re.DOTALL)[-1]


def good_reply(messages) -> str:
    """A model that follows the task: swaps a pair, writes a new sentence, or changes a name
    (Wren -> Pell, 小满 -> 韩石) or, failing that, a word of the sentence."""
    content, text = messages[-1]["content"], _text_of(messages)
    zh = "任务" in content
    if "___" in text:  # only the words for the blank are asked
        focus = re.search(r'The words taken out were: "(.*)"\.|被挖去的是：“(.*)”。', content)
        focus = focus.group(1) or focus.group(2)
        new = ("韩石" if focus != "韩石" else "青禾") if zh else \
            ("Pell" if focus[:1].isupper() and focus != "Pell" else "seven")
        return json.dumps({"words": new}, ensure_ascii=False)
    if "opposite order" in content or "先叙述后一件事" in content:
        parts = split_sentences(text, "zh" if zh else "en")
        new = ("" if zh else " ").join(reversed(parts))
    elif "Write ONE new sentence" in content or "写一个新句子" in content:
        new = "韩石后来卖掉了那条船。" if zh else "Pell later sells the old boat."
    elif ("小满" if zh else "Wren") in text:
        new = text.replace("小满", "韩石", 1) if zh else text.replace("Wren", "Pell", 1)
    else:
        new = text.replace("了", "过", 1) if zh else re.sub(r"\b(\w{4,})\b", "seven", text, count=1)
    return json.dumps({"sentence": new}, ensure_ascii=False)


def runner_for(server, tmp_path):
    models = {"m": ModelConfig(provider="openai", model="fake", base_url=server.base_url,
                               max_retries=1, timeout_s=5)}
    return LLMRunner(models, tmp_path / "cache.sqlite", WordTokenizer(), stage="inject",
                     progress=False, retry_initial_s=0.01, retry_max_s=0.02)


def ask(server, tmp_path, summary: str, language: str, target: Target, reply: str):
    """(candidate, reject reason) of ``reply`` to the request for ``target``."""
    server.enqueue(reply)
    runner = runner_for(server, tmp_path)
    try:
        [result] = runner.run([Request(key="k", model="m",
                                       messages=build_messages(summary, language, [], target))])
    finally:
        runner.close()
    window = {"reference_summary": summary, "language": language}
    return judge_reply(window, target, result, "m")


# A chapter written for these tests in the manner of a Victorian novel.
NOVEL = (
    "Arthur Holm went to Piccadilly in the morning. At Piccadilly he bought a sleeping draught "
    "for Lucy. Lucy said she could not sleep. The Count had left Transylvania in a ship. "
    "Lucy took the draught from Arthur. \"Herr, take this,\" said Lucy. Herr Vogel would not "
    "take the crucifix; Herr Vogel said he would pray. Madame was silent. Later they climbed "
    "to Montanvert. From Montanvert the glacier lay below them. Arthur told Lucy that he loved "
    "her. Arthur said the road to Piccadilly was closed.\n"
    "THE LIVES OF THE SAINTS. Arthur read The Lives of the Saints to Lucy. Their lives were "
    "quiet. Madame Roux said nothing; she watched Lucy. Lucy laughed.")


def candidate_of(summary, language, entities, type_id, subtype, seed=13,
                 outside=()) -> Candidate:
    for attempt in range(40):
        # a new generator each time: the sub-type's seeded place, not one the ledger of the
        # attempts before moved (RulesGenerator.ledger)
        out = RulesGenerator(seed).generate(summary, language, entities, type_id, attempt,
                                            outside=outside)
        assert not isinstance(out, NotApplicable), out
        if out.subtype == subtype:
            assert validate(out, language) is None, validate(out, language)
            return out
    raise AssertionError(f"no {type_id}/{subtype} candidate")


def fabrications(summary, language, entities, outside) -> dict[str, Candidate]:
    """The rules' fabrication of each sub-type for ``summary``, drawn from ``outside`` (the
    book's other units)."""
    return {subtype: candidate_of(summary, language, entities, "fabrication", subtype,
                                  outside=outside)
            for subtype in ("repeat", "continue", "psychology")}


def assert_exact_change(cand: Candidate, summary: str, original: str, hallucinated: str):
    """``cand`` replaces ``original`` in ``summary`` by ``hallucinated``, and nothing else."""
    assert cand.original_span == original
    assert cand.hallucinated_span == hallucinated
    assert cand.summary == summary.replace(original, hallucinated)
    assert cand.generator == "rules"
