"""Detector replies parsed leniently; unusable ones are failures, not errors."""

from __future__ import annotations

import pytest

from longnovel.evaluation.parsing import parse_judgment


@pytest.mark.parametrize("text, score, types", [
    ('{"score": 1, "hallucination_types": ["Fictional Event", "时间错误"]}', 1,
     ["fabrication", "number"]),
    ("Let me think {not json}. Final:\n{\"score\": 2, \"types\": \"entity, 关系错误\"}", 2,
     ["entity", "relation"]),
    ('<think>hmm</think>{"score": 4.0, "hallucination_types": ["entity"]}', 4, []),
    ("Score: 3 because it generalizes.", 3, []),
    ('{"score": 2, "hallucination_types": ["weird"]}', 2, ["unknown"]),
    (('{"reason": "x", "score": 2, "hallucination_types": ["Timeline Disruption", '
     '"Causal Chain Fabrication", "Relational", "因果链伪造", "反向陈述"]}'), 2,
     ["temporal", "causal", "relation", "polarity"]),
])
def test_replies_are_parsed_leniently(text, score, types):
    pred = parse_judgment(text)
    assert (pred.score, pred.types, pred.error) == (score, types, None)


def test_unusable_replies_are_failures():
    assert parse_judgment("no idea").error == "no_score"
    assert parse_judgment('{"score": 9}').error == "bad_score"
    assert not parse_judgment("no idea").usable and parse_judgment("score: 4").usable
