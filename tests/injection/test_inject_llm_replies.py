"""What a small model really returns to the sentence prompt, and how the generator reads it.

Each reply below is modelled on one that Qwen2.5-Coder-1.5B-Instruct (Q4, llama.cpp's server)
gave in ``bench/llm_inject.py``; each goes through the real LLM layer to the local fake server,
and the test asserts the candidate the stage makes of it.
"""

from __future__ import annotations

import json

from test_inject_llm import runner_for
from test_inject_stage import EN_SUMMARY, ZH_SUMMARY

from longnovel.injection import split_sentences
from longnovel.injection.llm_generator import (
    Target,
    build_messages,
    choose_target,
    targets,
)
from longnovel.llm import Request
from longnovel.stages.inject import _judge_reply


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
    return _judge_reply(window, target, result, "m")


def _after(summary: str, language: str, index: int) -> Target:
    """An added sentence after sentence ``index``."""
    from longnovel.injection.text import sentence_spans

    start, end = sentence_spans(summary, language)[index]
    return Target("fabrication", "continue", end, end, summary[start:end])


def test_a_plain_text_reply_is_taken_as_the_sentence(llm_server, tmp_path):
    """The model answered the sentence itself, no JSON: was ``llm_bad_json``."""
    cand, reason = ask(llm_server, tmp_path, ZH_SUMMARY, "zh", _after(ZH_SUMMARY, "zh", 0),
                       "第三天，小满背着二十斤松烟下山。")
    assert reason is None and cand.hallucinated_span == "第三天，小满背着二十斤松烟下山。"
    assert cand.summary.startswith("小满在松岭上遇见了青禾，两人聊了很久。第三天，小满背着")


def test_a_label_a_fence_or_another_key_is_read_through(llm_server, tmp_path):
    summary = "Mabry walks home. Wren reads. The tide comes in."
    target = Target("entity", "mismatch", 0, len("Mabry walks home."))
    for reply in ("Here is the rewritten sentence:\n\nSentence: \"Pell walks home.\"",
                  "```\nPell walks home.\n```",
                  json.dumps({"rewritten_sentence_text": "Pell walks home."})):
        cand, reason = ask(llm_server, tmp_path / str(len(reply)), summary, "en", target,
                           reply)
        assert reason is None, reply
        assert cand.summary == "Pell walks home. Wren reads. The tide comes in.", reply


def test_an_echoed_next_sentence_is_cut_off(llm_server, tmp_path):
    """The model swapped the pair and copied the next sentence of the context after it: was
    ``not_a_swap``."""
    sentences = split_sentences(ZH_SUMMARY, "zh")
    start = ZH_SUMMARY.index(sentences[0])
    end = start + len(sentences[0]) + len(sentences[1])
    target = Target("temporal", "swap", start, end)
    reply = json.dumps({"sentence": sentences[1] + sentences[0] + sentences[2]},
                       ensure_ascii=False)
    cand, reason = ask(llm_server, tmp_path, ZH_SUMMARY, "zh", target, reply)
    assert reason is None and cand.hallucinated_span == sentences[1] + sentences[0]
    assert cand.summary.count(sentences[2]) == 1


def test_an_added_sentence_after_a_copy_of_its_anchor_keeps_only_the_new_one(llm_server,
                                                                             tmp_path):
    target = _after(EN_SUMMARY, "en", 0)
    reply = json.dumps({"sentence": target.anchor + " Pell hides the key under the mat."})
    cand, reason = ask(llm_server, tmp_path, EN_SUMMARY, "en", target, reply)
    assert reason is None and cand.hallucinated_span == "Pell hides the key under the mat."
    assert cand.summary.count(target.anchor) == 1


def test_a_simplified_reply_to_a_traditional_summary_is_written_in_traditional(llm_server,
                                                                               tmp_path):
    summary = "張桂芳奉詔西征，聞太師設宴送行。姜子牙在西岐迎戰。"
    first = summary.index("。") + 1
    target = Target("entity", "mismatch", 0, first)
    reply = json.dumps({"sentence": "张桂芳奉诏东征，闻太师设宴送行。"}, ensure_ascii=False)
    cand, reason = ask(llm_server, tmp_path, summary, "zh", target, reply)
    assert reason is None and cand.hallucinated_span == "張桂芳奉詔東征，聞太師設宴送行。"
    mixed = json.dumps({"sentence": "张桂芳奉詔東征，聞太师设宴送行。"}, ensure_ascii=False)
    assert ask(llm_server, tmp_path / "m", summary, "zh", target, mixed
               )[0].hallucinated_span == "張桂芳奉詔東征，聞太師設宴送行。"
    simple = "小满送给她三锭墨。"
    assert ask(llm_server, tmp_path / "s", simple, "zh", Target("number", "quantity", 0, 9),
               json.dumps({"sentence": "小滿送給她五錠墨。"}, ensure_ascii=False)
               )[0].hallucinated_span == "小满送给她五锭墨。"


def test_a_reply_to_an_all_capital_heading_is_put_in_capitals(llm_server, tmp_path):
    summary = "SAMUEL WELLER MAKES A PILGRIMAGE TO DORKING, AND BEHOLDS HIS MOTHER-IN-LAW"
    target = Target("relation", "replace", 0, len(summary))
    reply = json.dumps({"sentence": "Samuel Weller makes a pilgrimage to Dorking, and beholds "
                                    "his stepmother"})
    cand, reason = ask(llm_server, tmp_path, summary, "en", target, reply)
    assert reason is None and cand.summary.endswith("AND BEHOLDS HIS STEPMOTHER")


def test_the_prompt_names_the_words_to_change_when_the_rules_change_a_few():
    """A 1.5B model asked to change "a number" in a sentence often copies it back
    (``unchanged``); told which words, it changes them."""
    ents = [{"name": "Mabry", "type": "person", "count": 3}]
    number = choose_target(EN_SUMMARY, "en", ents, "number", 3)
    assert number.focus in ("three", "five")
    content = build_messages(EN_SUMMARY, "en", ents, number)[1]["content"]
    assert f'Change these words: "{number.focus}".' in content
    zh = choose_target(ZH_SUMMARY, "zh", [], "number", 3)
    assert zh.focus and zh.focus in ZH_SUMMARY[zh.start:zh.end]
    assert f"改动的是“{zh.focus}”" in build_messages(ZH_SUMMARY, "zh", [], zh)[1]["content"]
    added = targets(EN_SUMMARY, "en", [*ents, {"name": "Wren", "type": "person", "count": 5}],
                    "fabrication")
    assert added and all(t.focus == "" for t in added)  # a new sentence: nothing to point at
    swap = choose_target(EN_SUMMARY, "en", ents, "temporal", 3)
    assert swap.focus == "" and "Change these words" not in build_messages(
        EN_SUMMARY, "en", ents, swap)[1]["content"]


def test_a_truncated_reply_is_still_a_failure(llm_server, tmp_path):
    llm_server.finish = lambda messages: "length"
    cand, reason = ask(llm_server, tmp_path, EN_SUMMARY, "en", _after(EN_SUMMARY, "en", 0),
                       "Pell hides the key under")
    assert cand is None and reason == "llm_truncated"


def test_a_copy_of_the_neighbouring_heading_is_no_candidate(llm_server, tmp_path):
    """Given two chapter headings, the model rewrote the other one and kept the context's
    ellipsis: was a valid candidate repeating the neighbour."""
    first = "WHEREIN IS CONTINUED THE INSTRUCTION GIVEN TO DON QUIXOTE"
    second = "WHEREIN IS RELATED A LETTER WHICH SANCHO PANZA WROTE TO HIS WIFE"
    summary = f"{first}\n\n{second}"
    target = Target("relation", "replace", len(first) + 2, len(summary), focus="WIFE")
    content = build_messages(summary, "en", [], target)[1]["content"]
    assert f"{first} <text>…</text>" in content and f"<text>{second}</text>" in content
    assert 'Change these words: "WIFE".' in content and "at most 21 words" in content
    cand, reason = ask(llm_server, tmp_path, summary, "en", target,
                       json.dumps({"sentence": first + " …"}))
    assert reason == "empty" and cand.hallucinated_span == ""


def test_a_full_stop_added_to_a_heading_is_not_a_change(llm_server, tmp_path):
    summary = "SAMUEL WELLER MAKES A PILGRIMAGE TO DORKING, AND BEHOLDS HIS MOTHER-IN-LAW"
    target = Target("relation", "replace", 0, len(summary))
    reply = json.dumps({"sentence": "Samuel Weller makes a pilgrimage to Dorking, and beholds "
                                    "his mother-in-law."})
    assert ask(llm_server, tmp_path, summary, "en", target, reply)[1] == "unchanged"


def test_sentences_copied_from_the_summary_are_dropped(llm_server, tmp_path):
    """The model put the sentence before in front of its answer, or went on copying the
    summary after it: was ``not_one_sentence_changed``."""
    sentences = split_sentences(ZH_SUMMARY, "zh")
    start = ZH_SUMMARY.index(sentences[2])
    target = Target("number", "quantity", start, start + len(sentences[2]), focus="三")
    new = sentences[2].replace("三", "五")
    for reply in (sentences[1] + new, new + sentences[3] + sentences[4]):
        cand, reason = ask(llm_server, tmp_path / str(len(reply)), ZH_SUMMARY, "zh", target,
                           json.dumps({"sentence": reply}, ensure_ascii=False))
        assert reason is None and cand.hallucinated_span == new, reply
    cand, reason = ask(llm_server, tmp_path / "only", ZH_SUMMARY, "zh", target,
                       json.dumps({"sentence": sentences[3] + sentences[4]},
                                  ensure_ascii=False))
    assert reason == "empty"


def test_an_echoed_context_with_its_marker_is_no_added_sentence(llm_server, tmp_path):
    """Asked for a sentence after one of the summary, the model sent the context back,
    marker and all: was the candidate "…" (``not_one_sentence_added``)."""
    target = _after(EN_SUMMARY, "en", 1)
    before = split_sentences(EN_SUMMARY, "en")[0]
    after = split_sentences(EN_SUMMARY, "en")[2]
    reply = json.dumps({"sentence": f"{before} <text>…</text> {after}"})
    assert ask(llm_server, tmp_path, EN_SUMMARY, "en", target, reply)[1] == "empty"
    zh = _after(ZH_SUMMARY, "zh", 1)
    copy = split_sentences(ZH_SUMMARY, "zh")[0]
    reply = json.dumps({"sentence": copy + "…"}, ensure_ascii=False)
    assert ask(llm_server, tmp_path / "zh", ZH_SUMMARY, "zh", zh, reply)[1] == "empty"


def test_a_comma_or_a_capital_is_not_a_change(llm_server, tmp_path):
    """The model's causal "invention" only added a comma, its relation change only lowered a
    capital: both were valid."""
    summary = "二月初六下午，顾衡山当众说出经过。第二天柴文炳回了青螺滩。"
    start = summary.index("第二天")
    target = Target("causal", "invent", start, len(summary))
    reply = json.dumps({"sentence": "第二天，柴文炳回了青螺滩。"}, ensure_ascii=False)
    assert ask(llm_server, tmp_path, summary, "zh", target, reply)[1] == "unchanged"
    heading = "The Brothers Cheeryble make various Declarations for themselves and others."
    reply = json.dumps({"sentence": heading.replace("Brothers", "brothers")})
    assert ask(llm_server, tmp_path / "en", heading, "en",
               Target("relation", "replace", 0, len(heading)), reply)[1] == "unchanged"
