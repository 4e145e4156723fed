"""The rules generator on hand-written Chinese summaries: every sub-type, the exact change."""

from __future__ import annotations

import pytest
from helpers_injection import candidate_of

from longnovel.injection import NotApplicable, RulesGenerator

CASES = [
    ("entity", "pronoun", "黛玉来到贾府。她整夜没有睡着。", "她整夜没有睡着。", "宝玉整夜没有睡着。"),
    ("entity", "role_swap", "宝玉打了袭人。", "宝玉打了袭人。", "袭人打了宝玉。"),
    ("entity", "mismatch", "贾政前往扬州赴任。", "贾政前往扬州赴任。", "贾政前往苏州赴任。"),
    ("number", "quantity", "袭人在府中住了三年。", "袭人在府中住了三年。", "袭人在府中住了六年。"),
    ("number", "time", "他们约定在清晨出发。", "他们约定在清晨出发。", "他们约定在傍晚出发。"),
    ("relation", "replace", "宝玉去看望他的舅舅。", "宝玉去看望他的舅舅。", "宝玉去看望他的叔叔。"),
    ("relation", "invent", "宝玉和朋友去喝酒。", "宝玉和朋友去喝酒。", "宝玉和堂兄弟去喝酒。"),
    ("polarity", "negate", "黛玉接受了邀请。", "黛玉接受了邀请。", "黛玉没有接受邀请。"),
    ("polarity", "affirm", "黛玉没有回家。", "黛玉没有回家。", "黛玉回家了。"),
    ("event", "verb", "宝玉称赞了黛玉的诗。", "宝玉称赞了黛玉的诗。", "宝玉讥讽了黛玉的诗。"),
    ("event", "outcome", "最后袭人获释。", "最后袭人获释。", "最后袭人被拘押。"),
    ("causal", "invent", "黛玉病倒在床。随后宝玉离开了园子。", "随后宝玉离开了园子。",
     "由于这个缘故，宝玉离开了园子。"),
    ("causal", "invert", "她因为思念家乡，所以整日哭泣。", "她因为思念家乡，所以整日哭泣。",
     "她因为整日哭泣，所以思念家乡。"),
]


@pytest.mark.parametrize("type_id,subtype,summary,original,hallucinated", CASES)
def test_exact_change(zh_entities, type_id, subtype, summary, original, hallucinated):
    cand = candidate_of(summary, "zh", zh_entities, type_id, subtype)
    assert cand.original_span == original
    assert cand.hallucinated_span == hallucinated
    assert cand.summary == summary.replace(original, hallucinated)


def test_chinese_numerals_and_years(zh_entities):
    cand = candidate_of("宋江召集了一百零八位好汉。", "zh", zh_entities, "number", "quantity")
    assert cand.hallucinated_span.startswith("宋江召集了") and "一百零八" not in cand.summary
    cand = candidate_of("此事发生在一八一五年的秋天。", "zh", zh_entities, "number", "time")
    assert cand.summary != "此事发生在一八一五年的秋天。"


def test_idiomatic_one_is_not_a_number(zh_entities):
    out = RulesGenerator(1).generate("有一天，宝玉一个人去了园子。", "zh", zh_entities, "number")
    assert isinstance(out, NotApplicable)


def test_temporal_swap_keeps_the_connective(zh_entities):
    summary = "黛玉病倒在床上。随后宝玉离开了园子。"
    cand = candidate_of(summary, "zh", zh_entities, "temporal", "swap")
    assert cand.summary == "宝玉离开了园子。随后黛玉病倒在床上。"


def test_causal_replace(zh_entities):
    summary = "贾政前往扬州赴任。宝玉在园中读书。她因为思念家乡，所以整日哭泣。"
    cand = candidate_of(summary, "zh", zh_entities, "causal", "replace")
    assert cand.hallucinated_span == "她因为贾政前往扬州赴任，所以整日哭泣。"


def test_fabrication(zh_entities):
    summary = ("宝玉在大观园里遇见了黛玉，两人聊了很久。天气渐渐冷了下来，园中的花也谢了。"
               "袭人替宝玉收拾好了过冬的衣物，又把炭盆搬进了屋里。")
    repeat = candidate_of(summary, "zh", zh_entities, "fabrication", "repeat")
    assert repeat.summary == summary + "后来，宝玉在大观园里遇见了黛玉，两人聊了很久。"
    psychology = candidate_of(summary, "zh", zh_entities, "fabrication", "psychology")
    assert psychology.original_span == "" and psychology.hallucinated_span in psychology.summary
    cont = candidate_of(summary, "zh", zh_entities, "fabrication", "continue")
    assert cont.summary.replace(cont.hallucinated_span, "") == summary


@pytest.mark.parametrize("type_id", ["number", "temporal", "causal", "relation"])
def test_not_applicable(zh_entities, type_id):
    out = RulesGenerator(1).generate("宝玉走进园子。", "zh", zh_entities, type_id)
    assert isinstance(out, NotApplicable)
