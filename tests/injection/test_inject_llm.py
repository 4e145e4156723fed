"""The LLM generator through the real LLM layer against the local fake server."""

from __future__ import annotations

import json
import re

from test_inject_stage import EN_ARTICLE, EN_SUMMARY, ZH_ARTICLE, make_ctx, windows_table

from longnovel.injection import NotApplicable, extract_entities, validate
from longnovel.injection.llm_entities import entity_messages
from longnovel.injection.llm_generator import build_messages, candidate_from_reply
from longnovel.llm import LLMRunner, ModelConfig
from longnovel.stages import inject
from longnovel.taxonomy import TYPE_IDS


class WordTokenizer:
    def count(self, text):
        return len(text.split())

    def count_batch(self, texts):
        return [len(t.split()) for t in texts]


def _summary_of(messages) -> str:
    return re.search(r"<summary>\n(.*?)\n</summary>", messages[-1]["content"], re.DOTALL).group(1)


def good_reply(messages) -> str:
    """A model that puts Pell in place of Wren in the first sentence -- or, in zh, 韩石 in
    place of 小满."""
    summary = _summary_of(messages)
    first = re.split(r"(?<=[.。])\s*", summary)[0]
    new_first = first.replace("Wren", "Pell", 1) if "Wren" in first else \
        first.replace("小满", "韩石", 1)
    return json.dumps({"subtype": "mismatch", "original_sentence": first,
                       "hallucinated_sentence": new_first,
                       "summary": summary.replace(first, new_first, 1)}, ensure_ascii=False)


def runner_for(server, tmp_path):
    models = {"m": ModelConfig(provider="openai", model="fake", base_url=server.base_url,
                               max_retries=1, timeout_s=5)}
    return LLMRunner(models, tmp_path / "cache.sqlite", WordTokenizer(), stage="inject",
                     progress=False, retry_initial_s=0.01, retry_max_s=0.02)


def test_messages_share_the_summary_prefix():
    ents = [{"name": "Mabry", "type": "person", "count": 3}]
    a = build_messages(EN_SUMMARY, "en", ents, "entity")[1]["content"]
    b = build_messages(EN_SUMMARY, "en", ents, "number")[1]["content"]
    prefix = a[: a.index("Task:")]
    assert b.startswith(prefix) and EN_SUMMARY in prefix and "- Mabry (person, 3)" in prefix
    assert "not_applicable" in a and '"hallucinated_sentence"' in a
    zh = build_messages("小满来了。", "zh", ents, "temporal")[1]["content"]
    assert "小满来了。" in zh and "时序错乱" in zh


def test_candidate_from_reply():
    summary = "Mabry walks home. Wren reads."
    reply = {"subtype": "Role Swap", "original_sentence": "Mabry walks home.",
             "hallucinated_sentence": "Pell walks home.", "summary": "Pell walks home. Wren reads."}
    cand = candidate_from_reply(reply, summary, "entity", "m")
    assert cand.subtype == "role_swap" and cand.generator == "m"
    assert validate(cand, "en") is None
    na = candidate_from_reply({"subtype": "not_applicable", "reason": "no pair"}, summary,
                              "causal", "m")
    assert isinstance(na, NotApplicable) and na.reason == "no pair"


def test_stage_with_llm_generator(llm_server, tmp_path):
    llm_server.reply = good_reply
    ctx = make_ctx(windows_table(), runner=runner_for(llm_server, tmp_path), generator="m",
                   _models={"m": {"provider": "openai", "model": "fake",
                                  "base_url": llm_server.base_url}})
    result = inject.run(ctx)
    rows = result.tables["injections.parquet"].to_pylist()
    assert len(rows) == 4 * len(TYPE_IDS)
    entity_rows = [r for r in rows if r["type"] == "entity"]
    assert all(r["valid"] and r["generator"] == "m" for r in entity_rows)
    assert result.usage["m"]["requests"] >= len(rows) / 2


def test_garbled_replies_become_rows_with_reasons(llm_server, tmp_path):
    llm_server.reply = good_reply
    llm_server.chaos(fail=0.3, garble=0.4, seed=2)
    ctx = make_ctx(windows_table(), runner=runner_for(llm_server, tmp_path), generator="m",
                   max_retries=1, _models={"m": {"provider": "openai", "model": "fake",
                                                 "base_url": llm_server.base_url}})
    rows = inject.run(ctx).tables["injections.parquet"].to_pylist()
    assert {(r["language"], r["type"]) for r in rows} == {
        (lang, t) for lang in ("en", "zh") for t in TYPE_IDS}
    assert all(r["valid"] or r["reject_reason"] for r in rows)
    assert any(r["reject_reason"].startswith("llm_") for r in rows)


def test_llm_entities_fall_back_to_the_lexical_ones(llm_server, tmp_path):
    """en windows get the model's entities (only names that occur in the article); a zh reply
    without entities falls back to the lexical extraction and is counted as a failure."""
    def reply(messages):
        if "Article:" in messages[-1]["content"]:
            return json.dumps({"entities": [{"name": "Pell", "type": "person", "count": 9},
                                             {"name": "Nobody Here", "type": "person"}]})
        return json.dumps({"entities": []})

    llm_server.reply = reply
    ctx = make_ctx(windows_table(), runner=runner_for(llm_server, tmp_path), entities="m",
                   _models={"m": {"provider": "openai", "model": "fake",
                                  "base_url": llm_server.base_url}})
    result = inject.run(ctx)
    rows = result.tables["entities.parquet"].to_pylist()
    en = [(r["name"], r["type"], r["count"]) for r in rows if r["book_id"] == "enbook"
          and r["unit_index"] == 0]
    assert en == [("Pell", "person", EN_ARTICLE.count("Pell"))]
    zh = {r["name"] for r in rows if r["book_id"] == "zhbook" and r["unit_index"] == 0}
    assert zh == {e["name"] for e in extract_entities(ZH_ARTICLE, "zh")}
    assert result.failures["entities_empty"] == 2


def test_plan_requests_match_the_first_round(tmp_path):
    ctx = make_ctx(windows_table(), generator="m", entities="m", types_per_window=3,
                   _models={"m": {"provider": "openai", "model": "fake", "base_url": "http://h"}})
    ctx.tokenizer = WordTokenizer()
    planned = inject.plan_requests(ctx)
    assert len(planned) == 4 + 4 * 3 and {p.model for p in planned} == {"m"}
    assert planned[0].messages == entity_messages(EN_ARTICLE, "en")
    first = [p.messages[-1]["content"] for p in planned[4:7]]
    assert all(EN_SUMMARY in text for text in first)
    assert len(set(first)) == 3  # three different types for the first window
    assert inject.plan_requests(make_ctx(windows_table())) == []
