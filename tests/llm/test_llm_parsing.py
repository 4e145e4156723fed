import pytest
from helpers.llm import Judgment

from longnovel.llm import ReplyError, parse_json_reply, strip_think


def test_plain_json_validates():
    parsed = parse_json_reply('{"score": 4, "reason": "ok"}', Judgment)
    assert parsed == Judgment(score=4, reason="ok")


def test_think_block_and_code_fence_and_trailing_comma():
    text = '<think>maybe {"score": 0}</think>\nHere:\n```json\n{"score": 2, "reason": "x",}\n```'
    assert parse_json_reply(text, Judgment).score == 2


def test_reply_starting_mid_thought_keeps_only_the_answer():
    assert strip_think('so the answer is...</think>\n{"a": 1}') == '{"a": 1}'
    assert strip_think("<think>never finished") == ""


def test_json_inside_prose_and_truncated_json_are_repaired():
    prose = 'Sure! {"score": 5, "reason": "all good"} Hope it helps.'
    assert parse_json_reply(prose, Judgment) == Judgment(score=5, reason="all good")
    assert parse_json_reply('{"score": 3, "reason": "cut', Judgment).reason.startswith("cut")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("<think>only thoughts</think>", "empty"),
        ("I refuse to answer.", "bad_json"),
        ('{"score": 9, "reason": "x"}', "schema"),
        ('{"score": "high"}', "schema"),
    ],
)
def test_unusable_replies_name_their_reason(text, reason):
    with pytest.raises(ReplyError) as caught:
        parse_json_reply(text, Judgment)
    assert caught.value.reason == reason


def test_dict_and_no_schema():
    assert parse_json_reply('{"a": [1, 2,]}', dict) == {"a": [1, 2]}
    assert parse_json_reply("[1, 2]", None) == [1, 2]
    with pytest.raises(ReplyError):
        parse_json_reply("[1, 2]", dict)
