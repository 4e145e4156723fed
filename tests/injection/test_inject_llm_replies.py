"""What a small model really returns to the sentence prompt, and how the generator reads it.

Each reply below is modelled on one that Qwen2.5-Coder-1.5B-Instruct (Q4, llama.cpp's server)
gave in ``bench/llm_inject.py``; each goes through the real LLM layer to the local fake server,
and the test asserts the candidate the stage makes of it.
"""

from __future__ import annotations

import json

from helpers.injection import EN_SUMMARY, ZH_SUMMARY, ask

from longnovel.injection.generators.llm.generator import (
    Target,
    build_messages,
    choose_target,
    targets,
)
from longnovel.injection.nlp.sentences import split_sentences


def _after(summary: str, language: str, index: int) -> Target:
    """An added sentence after sentence ``index``."""
    from longnovel.injection.nlp.sentences import sentence_spans

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
    assert f'The words taken out were: "{number.focus}".' in content and "___" in content
    zh = choose_target(ZH_SUMMARY, "zh", [], "number", 3)
    assert zh.focus and zh.focus in ZH_SUMMARY[zh.start:zh.end]
    assert f"被挖去的是：“{zh.focus}”" in build_messages(ZH_SUMMARY, "zh", [], zh)[1]["content"]
    # a focus that occurs twice in its sentence cannot be blanked: the whole sentence is asked
    twice = Target("number", "quantity", 0, len("Wren saw two boats and two men."), focus="two")
    assert 'Change these words: "two".' in build_messages(
        "Wren saw two boats and two men. Orrin waits.", "en", [], twice)[1]["content"]
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
    target = Target("relation", "replace", len(first) + 2, len(summary), focus="A LETTER")
    content = build_messages(summary, "en", [], target)[1]["content"]
    assert f"{first} <text>…</text>" in content
    assert f"<text>{second.replace('A LETTER', '___')}</text>" in content
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
    target = Target("number", "quantity", start, start + len(sentences[2]))
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


# --- the words for a blank (``inject_blank``) ----------------------------------------------------
# Where the rules would change a few words, the model gets the sentence with them taken out:
# asked for the whole sentence, Qwen2.5-Coder-1.5B handed it back unchanged in 18 of 62
# requests (bench/README.md); asked for the words, in 6 of 62.

BLANK_SUMMARY = "Wren mends the clock. Orrin accepted the offer at noon. Jory rows home."


def _blank_target() -> Target:
    start = BLANK_SUMMARY.index("Orrin")
    return Target("event", "outcome", start, start + len("Orrin accepted the offer at noon."),
                  focus="accepted")


def test_the_words_for_the_blank_are_put_in_place(llm_server, tmp_path):
    target = _blank_target()
    content = build_messages(BLANK_SUMMARY, "en", [], target)[1]["content"]
    assert "<text>Orrin ___ the offer at noon.</text>" in content
    assert 'The words taken out were: "accepted".' in content and "At most 4 words" in content
    for reply in ('{"words": "refused"}', "refused", '{"words": "refused."}',
                  '{"sentence": "Orrin refused the offer at noon."}',
                  '"refused"'):
        cand, reason = ask(llm_server, tmp_path / str(len(reply)) / reply[:3].strip('{"'),
                           BLANK_SUMMARY, "en", target, reply)
        assert reason is None, reply
        assert cand.hallucinated_span == "Orrin refused the offer at noon.", reply
        assert cand.summary == BLANK_SUMMARY.replace("accepted", "refused")


def test_words_that_are_no_answer_are_no_candidate(llm_server, tmp_path):
    target = _blank_target()
    cases = {
        '{"words": "accepted"}': "unchanged",
        '{"words": ""}': "llm_empty",
        "Sorry, I would rather talk about something else today.": "empty",
        '{"words": "very quickly and then at once refused it"}': "empty",  # past the limit
        '{"words": "refused refused"}': "repeated_word: refused",
    }
    for k, (reply, wanted) in enumerate(cases.items()):
        _, reason = ask(llm_server, tmp_path / str(k), BLANK_SUMMARY, "en", target, reply)
        assert reason == wanted, (reply, reason)


def test_the_sentence_sent_back_with_its_blank_keeps_the_focus(llm_server, tmp_path):
    """A reply that copied the blanked sentence and changed another word is that change."""
    cand, reason = ask(llm_server, tmp_path, BLANK_SUMMARY, "en", _blank_target(),
                       '{"sentence": "Orrin ___ the offer at midnight."}')
    assert reason is None and cand.hallucinated_span == "Orrin accepted the offer at midnight."


def test_zh_words_for_the_blank_and_a_capital_kept():
    from longnovel.injection.generators.llm.generator import fill_blank

    assert fill_blank("顾衡山答应了。", "答应", "拒绝", "zh") == "顾衡山拒绝了。"
    assert fill_blank("顾衡山答应了。", "答应", "“拒绝”。", "zh") == "顾衡山拒绝了。"
    assert fill_blank("Wren mends the clock.", "Wren", "jory", "en") == "Jory mends the clock."
    assert fill_blank("WREN MENDS THE CLOCK", "WREN", "Jory", "en") == "JORY MENDS THE CLOCK"
    assert fill_blank("顾衡山答应了。", "答应", "我不想回答这个问题，请换一个。", "zh") == ""


def test_a_doubled_word_is_refused_for_the_rules_too():
    from longnovel.injection.candidate import Edit
    from longnovel.injection.generators.rules.draft import Draft
    from longnovel.injection.generators.rules.wordcheck import word_fault

    draft = Draft("Hector takes leave of his wife Andromache.", "en")
    edit = Edit("relation", 0, 42, "Hector takes leave of wife wife Andromache.",
                "Hector takes leave of his wife Andromache.",
                "Hector takes leave of wife wife Andromache.")
    assert word_fault(draft, edit) == "repeated_word: wife"
    kept = Draft("He had had enough.", "en")
    same = Edit("polarity", 0, 18, "He had had more.", "He had had enough.", "He had had more.")
    assert word_fault(kept, same) is None  # the writer's own "had had"
    zh = Draft("顾衡山拒绝了。", "zh")
    assert word_fault(zh, Edit("event", 0, 7, "顾衡山答应了了。", "顾衡山拒绝了。",
                               "顾衡山答应了了。")) == "repeated_word: 了"
