"""The sentence-level validator on good and bad candidates, and the gold reason."""

from __future__ import annotations

import pytest

from longnovel.injection import Candidate, describe, validate

EN = "Jane walks to the house in the rain. Elizabeth stays at home with her mother."


def cand(summary, hallucinated, original="", type_id="entity", subtype="mismatch",
         base=EN):
    return Candidate(type_id, subtype, base, summary, original, hallucinated, "test")


def test_good_single_sentence_change():
    new = EN.replace("her mother", "her aunt")
    c = cand(new, "Elizabeth stays at home with her aunt.",
             "Elizabeth stays at home with her mother.", "relation", "replace")
    assert validate(c, "en") is None


@pytest.mark.parametrize("summary,span,reason", [
    (EN, "Jane walks to the house in the rain.", "unchanged"),
    (EN.replace("Jane", "Darcy").replace("mother", "aunt"), "Darcy walks", "not_one_sentence_changed"),
    (EN.replace("Jane", "Darcy"), "Wickham walks", "span_not_in_summary"),
    (EN.replace("Jane", "Darcy"), "Elizabeth stays at home", "span_not_the_change"),
    (EN + " And then a very long invented paragraph follows here, far longer than the rest.",
     "And then", "length_ratio"),
    ("简在雨中走向那栋房子。伊丽莎白和母亲待在家里。", "简在雨中", "language_changed"),
    (EN.replace("Jane", "Darcy"), "", "empty"),
])
def test_bad_candidates(summary, span, reason):
    assert validate(cand(summary, span), "en") == reason


def test_unknown_subtype_is_rejected():
    c = cand(EN.replace("Jane", "Darcy"), "Darcy walks to the house in the rain.",
             subtype="made_up")
    assert validate(c, "en") == "unknown_subtype"


def test_temporal_swap_rules():
    a, b = "Jane walks to the house in the rain.", "Elizabeth stays at home with her mother."
    good = Candidate("temporal", "swap", EN, f"{b} {a}", EN, f"{b} {a}", "t")
    assert validate(good, "en") is None
    one = Candidate("temporal", "swap", EN, f"{a} Elizabeth stays home.", EN, "Elizabeth", "t")
    assert validate(one, "en") == "not_a_swap"


def test_fabrication_adds_exactly_one_sentence():
    added = "Jane secretly feels ashamed of this."
    good = cand(f"{EN} {added}", added, "", "fabrication", "continue")
    assert validate(good, "en") is None
    two = cand(EN.replace("Jane", "Darcy") + f" {added}", added, "", "fabrication", "continue")
    assert validate(two, "en") == "not_one_sentence_added"
    changed = cand(EN.replace("the rain.", "the rain, secretly ashamed."),
                   "Jane walks to the house in the rain, secretly ashamed.", "",
                   "fabrication", "continue")
    assert validate(changed, "en") == "not_one_sentence_added"
    changed.subtype = "psychology"
    assert validate(changed, "en") is None


def test_zh_candidate():
    base = "宝玉打了袭人。黛玉在房中哭泣。"
    c = Candidate("entity", "role_swap", base, "袭人打了宝玉。黛玉在房中哭泣。", "宝玉打了袭人。",
                  "袭人打了宝玉。", "rules")
    assert validate(c, "zh") is None
    c.summary = "Xiren hit Baoyu. 黛玉在房中哭泣。"
    assert validate(c, "zh") in {"language_changed", "span_not_in_summary"}


def test_describe_names_both_sentences_in_the_sample_language():
    c = Candidate("entity", "role_swap", "宝玉打了袭人。", "袭人打了宝玉。", "宝玉打了袭人。",
                  "袭人打了宝玉。", "rules")
    assert describe(c, "zh") == "实体错误：摘要称“袭人打了宝玉。”，但原文是“宝玉打了袭人。”。"
    e = cand(EN.replace("Jane", "Darcy"), "Darcy walks to the house in the rain.",
             "Jane walks to the house in the rain.")
    text = describe(e, "en")
    assert text.startswith("Entity error: ") and '"Darcy walks' in text and '"Jane walks' in text
    added = cand(EN + " X.", "X.", "", "fabrication", "continue")
    assert "does not support" in describe(added, "en")
