"""The LLM generator (sentence by sentence) and the verifier, through the real LLM layer
against the local fake server."""

from __future__ import annotations

import json
import re

from helpers.injection import (
    EN_ARTICLE,
    EN_SUMMARY,
    ZH_ARTICLE,
    ZH_SUMMARY,
    good_reply,
    injections,
    make_ctx,
    runner_for,
    windows_table,
)
from helpers.llm import WordTokenizer

from longnovel.injection.candidate import NotApplicable
from longnovel.injection.generators.llm.entities import entity_messages
from longnovel.injection.generators.llm.generator import (
    SentenceReply,
    Target,
    build_messages,
    choose_target,
    splice_reply,
)
from longnovel.injection.nlp.entities import extract_entities
from longnovel.injection.nlp.sentences import split_sentences
from longnovel.injection.validate import validate
from longnovel.stages import inject
from longnovel.taxonomy import TYPE_IDS


def test_the_program_chooses_the_sentence_and_the_model_rewrites_only_it():
    ents = [{"name": "Mabry", "type": "person", "count": 3}]
    target = choose_target(EN_SUMMARY, "en", ents, "number", 3)
    sentence = EN_SUMMARY[target.start:target.end]
    assert target.subtype in ("quantity", "time") and re.search(r"three|five", sentence)
    content = build_messages(EN_SUMMARY, "en", ents, target)[1]["content"]
    # a few words to change: the sentence is shown with them taken out, the words are asked
    assert target.focus and f"<text>{sentence.replace(target.focus, '___')}</text>" in content
    assert "- Mabry (person, 3)" in content and '{"words"' in content
    assert EN_SUMMARY not in content  # the neighbours only, not the whole summary
    swap = choose_target(EN_SUMMARY, "en", ents, "temporal", 3)
    whole = build_messages(EN_SUMMARY, "en", ents, swap)[1]["content"]
    assert f"<text>{EN_SUMMARY[swap.start:swap.end]}</text>" in whole and '{"sentence"' in whole
    again = [choose_target(EN_SUMMARY, "en", ents, "number", 3, a) for a in range(4)]
    assert again[0] == target and len({(t.subtype, t.start) for t in again}) > 1
    pair = choose_target(EN_SUMMARY, "en", ents, "temporal", 3)
    assert len(split_sentences(EN_SUMMARY[pair.start:pair.end], "en")) == 2
    zh = build_messages(ZH_SUMMARY, "zh", [], choose_target(ZH_SUMMARY, "zh", [], "polarity", 3))
    assert "任务" in zh[1]["content"] and "（无）" in zh[1]["content"]
    assert isinstance(choose_target("Rain.", "en", [], "number", 3), NotApplicable)


def test_splice_reply_puts_the_sentence_in_place():
    summary = "Mabry walks home. Wren reads. The tide comes in. Orrin sleeps by the lamp."
    target = Target("entity", "mismatch", 0, len("Mabry walks home."))
    cand = splice_reply(summary, "en", target, {"sentence": '"Pell walks home"'}, "m")
    assert cand.summary.startswith("Pell walks home. Wren reads.") and cand.generator == "m"
    assert cand.original_span == "Mabry walks home." and validate(cand, "en") is None
    added = splice_reply(summary, "en", Target("fabrication", "continue", 17, 17),
                         SentenceReply(sentence="<text>Pell hides the key.</text>"), "m")
    assert added.summary.startswith("Mabry walks home. Pell hides the key. Wren reads.")
    assert added.original_span == "" and validate(added, "en") is None


def test_stage_with_llm_generator(llm_server, tmp_path):
    llm_server.reply = good_reply
    ctx = make_ctx(windows_table(), runner=runner_for(llm_server, tmp_path), generator="m",
                   _models={"m": {"provider": "openai", "model": "fake",
                                  "base_url": llm_server.base_url}})
    result = inject.run(ctx)
    rows = injections(ctx).to_pylist()
    assert len(rows) == 4 * len(TYPE_IDS)
    entity_rows = [r for r in rows if r["type"] == "entity"]
    assert all(r["valid"] and r["generator"] == "m" for r in entity_rows)
    assert result.usage["m"]["requests"] >= len(rows) / 2


def test_garbled_replies_become_rows_with_reasons(llm_server, tmp_path):
    llm_server.reply = good_reply
    llm_server.chaos(fail=0.3, garble=0.4, seed=2)
    # No retry of a garbled reply: which requests the chaos hits depends on arrival order, and
    # with retries every garbled first reply could be mended by its second attempt.
    ctx = make_ctx(windows_table(), runner=runner_for(llm_server, tmp_path), generator="m",
                   max_retries=0, _models={"m": {"provider": "openai", "model": "fake",
                                                 "base_url": llm_server.base_url}})
    inject.run(ctx)
    rows = injections(ctx).to_pylist()
    assert {(r["language"], r["type"]) for r in rows} == {
        (lang, t) for lang in ("en", "zh") for t in TYPE_IDS}
    assert all(r["valid"] or r["reject_reason"] for r in rows)
    # the garbled reply is plain text unlike the sentence asked about: never a candidate
    assert any(r["reject_reason"] == "llm_empty" for r in rows)
    assert not any("Sorry" in r["hallucinated_span"] for r in rows), [
        (r["type"], r["subtype"], r["hallucinated_span"]) for r in rows
        if "Sorry" in r["hallucinated_span"]]


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
    rows = ctx.writers["entities.parquet"].table().to_pylist()
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
    assert len(set(first)) == 3  # three different types for the first window
    # a sentence each (a pair for temporal), never the whole summary
    assert all(p.expected_completion_tokens < 90 for p in planned[4:])
    assert inject.plan_requests(make_ctx(windows_table())) == []
