"""The rules generator on hand-written Chinese summaries: every sub-type, the exact change."""

from __future__ import annotations

import re

import pytest
from helpers.injection import assert_exact_change, candidate_of, fabrications

from longnovel.injection.candidate import NotApplicable
from longnovel.injection.generators.rules.generator import RulesGenerator

CASES = [
    ("entity", "role_swap", "小满骗了韩石。", "小满骗了韩石。", "韩石骗了小满。"),
    ("entity", "mismatch", "顾衡山前往临川府卖墨。", "顾衡山前往临川府卖墨。",
     "顾衡山前往青砚镇卖墨。"),
    ("number", "quantity", "韩石在墨坊住了三年。", "韩石在墨坊住了三年。", "韩石在墨坊住了四年。"),
    ("number", "time", "他们约定在清晨出发。", "他们约定在清晨出发。",
     "他们约定在傍晚出发。"),
    ("relation", "replace", "小满去看望他的外公。", "小满去看望他的外公。", "小满去看望他的爷爷。"),
    # 朋友 has no gender
    ("relation", "invent", "小满和朋友去喝酒。", "小满和朋友去喝酒。", "小满和亲戚去喝酒。"),
    # (a negation is added or taken out only where the writer negates elsewhere too)
    ("polarity", "negate", "青禾接受了邀请。小满没有说任何话。", "青禾接受了邀请。",
     "青禾没有接受邀请。"),
    ("polarity", "affirm", "青禾没有回家。小满没有说任何话。", "青禾没有回家。", "青禾回家了。"),
    ("event", "verb", "小满拥抱了青禾。", "小满拥抱了青禾。", "小满推开了青禾。"),
    ("event", "outcome", "最后韩石获释。", "最后韩石获释。", "最后韩石被拘押。"),
    ("causal", "invert", "她因为思念家乡，所以整日哭泣。", "她因为思念家乡，所以整日哭泣。",
     "她因为整日哭泣，所以思念家乡。"),
]


@pytest.mark.parametrize("type_id,subtype,summary,original,hallucinated", CASES)
def test_exact_change(zh_entities, type_id, subtype, summary, original, hallucinated,
                      monkeypatch):
    from longnovel.injection.generators.rules import entity

    monkeypatch.setattr(entity, "KEEP_TO_NAME", (1, 1))  # every pronoun-to-name edit offered
    assert_exact_change(candidate_of(summary, "zh", zh_entities, type_id, subtype),
                        summary, original, hallucinated)


def test_a_replaced_cause_is_an_event_of_another_part_of_the_book(zh_entities):
    summary = "顾衡山前往临川府卖墨。\n\n小满在院中读书。她因为思念家乡，所以整日哭泣。"
    outside = ((False, "顾衡山丢了一箱墨。"),)
    cand = candidate_of(summary, "zh", zh_entities, "causal", "replace", outside=outside)
    assert cand.hallucinated_span == "她因为顾衡山丢了一箱墨，所以整日哭泣。"
    assert cand.original_span == "她因为思念家乡，所以整日哭泣。"


def test_chinese_numerals_and_years(zh_entities):
    cand = candidate_of("周大有召集了一百零八位船夫。", "zh", zh_entities, "number", "quantity")
    assert cand.hallucinated_span.startswith("周大有召集了") and "一百零八" not in cand.summary
    cand = candidate_of("此事发生在一七九三年。", "zh", zh_entities, "number", "time")
    assert re.fullmatch("此事发生在一七九[〇一五六八]年。", cand.summary), cand.summary


def test_idiomatic_one_is_not_a_number(zh_entities):
    out = RulesGenerator(1).generate("有一天，小满一个人去了松岭。", "zh", zh_entities, "number")
    assert isinstance(out, NotApplicable)


def test_temporal_swap_keeps_the_connective(zh_entities):
    summary = "青禾病倒在床上。随后小满离开了墨坊。"
    cand = candidate_of(summary, "zh", zh_entities, "temporal", "swap")
    assert cand.summary == "小满离开了墨坊。随后青禾病倒在床上。"


def test_an_invented_cause_joins_the_last_event_of_one_unit_to_the_first_of_the_next(
        zh_entities):
    summary = ("韩石在院中磨墨，所以一直忙到天黑。青禾病倒在床。\n\n"
               "随后小满离开了墨坊。小满去了临川府。")
    cand = candidate_of(summary, "zh", zh_entities, "causal", "invent")
    assert cand.hallucinated_span == "青禾病倒在床，所以小满离开了墨坊。"
    assert cand.summary == ("韩石在院中磨墨，所以一直忙到天黑。"
                            "青禾病倒在床，所以小满离开了墨坊。\n\n小满去了临川府。")


def test_no_invented_cause_between_two_steps_of_one_unit(zh_entities):
    summary = ("韩石在院中磨墨，所以一直忙到天黑。青禾病倒在床。{}"
               "随后小满离开了墨坊。小满去了临川府。")

    def made(text):
        return [RulesGenerator(13).generate(text, "zh", zh_entities, "causal", attempt)
                for attempt in range(6)]

    # within one unit the rules offer no causal edit of this summary at all
    assert {out.reason for out in made(summary.format(""))} == {
        "no sequential pair of events or cause-effect pair"}
    # the same two sentences told by two units' summaries: there the cause is invented
    assert "invent" in {out.subtype for out in made(summary.format("\n\n"))}


def test_fabrication_tells_a_sentence_from_the_rest_of_the_book(zh_entities):
    summary = "青禾把墨送到了临川府。小满在院中读书。天气渐渐冷了下来。韩石在院中磨墨。"
    outside = ((True, "小满在松岭上烧了三年松烟。"),
               (False, "韩石心中担心墨坊的生意。韩石卖掉了烟房。"))
    made = fabrications(summary, "zh", zh_entities, outside)
    assert {subtype: c.summary for subtype, c in made.items()} == {
        "repeat": summary.replace("临川府。", "临川府。小满在松岭上烧了三年松烟。"),
        "continue": summary + "韩石卖掉了烟房。",
        "psychology": summary + "韩石心中担心墨坊的生意。"}
    assert all(c.original_span == "" for c in made.values())


def test_fabrication_borrows_no_sentence_ending_on_a_bare_verb(zh_entities):
    """Sample, seed 4434: 韩石说可以去石湾渡的聚源油行买 was added to a summary: buy what? Its
    object was in the sentence before, in the donor's own paragraph."""
    summary = "青禾把墨送到了临川府。小满在院中读书。天气渐渐冷了下来。韩石在院中磨墨。"
    outside = ((False, "韩石说可以去石湾渡的聚源油行买。韩石卖掉了城里的烟房。"),)
    made = [RulesGenerator(13).generate(summary, "zh", zh_entities, "fabrication", attempt,
                                        outside=outside) for attempt in range(8)]
    added = {c.summary for c in made if not isinstance(c, NotApplicable)}
    assert summary + "韩石卖掉了城里的烟房。" in added, added
    assert not any("油行买" in text for text in added), added


@pytest.mark.parametrize("type_id", ["number", "temporal", "causal", "relation"])
def test_not_applicable(zh_entities, type_id):
    out = RulesGenerator(1).generate("小满走进墨坊。", "zh", zh_entities, type_id)
    assert isinstance(out, NotApplicable)


def test_negation_is_kept_where_the_sentence_only_reads_negated(zh_entities):
    """Dropping 不 from 不告诉任何人 would be ungrammatical, so that sentence is not affirmed."""
    summary = "他决定不把这件事告诉任何人。青禾没有回家。小满没有说任何话。"
    cand = candidate_of(summary, "zh", zh_entities, "polarity", "affirm")
    assert cand.original_span == "青禾没有回家。"
    only = RulesGenerator(1).generate("他决定不把这件事告诉任何人。", "zh", zh_entities,
                                      "polarity")
    assert isinstance(only, NotApplicable) or only.subtype == "negate"
