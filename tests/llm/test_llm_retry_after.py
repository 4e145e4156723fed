"""Long Retry-After waits: announced in one line, and refused beyond retry_after_max_s."""

import pytest
from helpers.fake_llm import status
from helpers.llm import PROVIDERS, model_config, requests

from longnovel.llm import LLMRunner
from longnovel.llm.delivery import duration
from longnovel.llm.providers.base import parse_retry_after

pytestmark = pytest.mark.parametrize("provider", PROVIDERS)


def runner_for(server, tmp_path, provider, tokenizer, notice_wait_s=30.0, **overrides):
    models = {"m": model_config(server, provider, **overrides)}
    return LLMRunner(models, tmp_path / "cache.sqlite", tokenizer, "test", progress=False,
                     retry_initial_s=0.01, retry_max_s=0.05, notice_wait_s=notice_wait_s)


def notices(capsys, word: str) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if word in line]


def test_a_retry_after_of_a_day_leaves_the_requests_unanswered_with_one_line(
    llm_server, tmp_path, provider, word_tokenizer, capsys
):
    llm_server.reply = lambda messages: status(429, retry_after="86400")
    with runner_for(llm_server, tmp_path, provider, word_tokenizer) as runner:
        results = runner.run(requests(3))
        assert [r.error for r in results] == ["retry_after"] * 3
        assert runner.unanswered() == 3 and runner.failures() == {"retry_after": 3}
        assert runner.usage()["m"]["retries"] == 0
    assert llm_server.count() == 3  # each asked once, none retried after a day
    assert "asked to wait 1 day before retrying" in results[0].raw
    [line] = notices(capsys, "Retry-After")
    assert "model 'm'" in line and "1 day" in line and "retry_after_max_s (5 min)" in line
    assert "models.m.retry_after_max_s" in line and "next build sends them again" in line
    llm_server.reply = lambda messages: "back"
    with runner_for(llm_server, tmp_path, provider, word_tokenizer) as runner:
        again = runner.run(requests(3))  # not final: the next run sends them
    assert [r.text for r in again] == ["back"] * 3 and llm_server.count() == 6


def test_a_wait_within_the_cap_is_announced_once_and_then_made(
    llm_server, tmp_path, provider, word_tokenizer, capsys
):
    llm_server.enqueue(*[status(429, retry_after="1")] * 3)
    with runner_for(llm_server, tmp_path, provider, word_tokenizer, notice_wait_s=0.5,
                    max_concurrency=3, retry_after_max_s=2) as runner:
        results = runner.run(requests(3))
        assert all(r.ok for r in results) and runner.usage()["m"]["retries"] == 3
    [line] = notices(capsys, "waiting")
    assert "model 'm': the server answered HTTP 429; waiting 1 s (" in line
    assert "as its Retry-After asks" in line and "Ctrl-C stops" in line


def test_a_short_wait_is_not_announced_and_a_lower_cap_refuses_it(
    llm_server, tmp_path, provider, word_tokenizer, capsys
):
    llm_server.enqueue(status(429, retry_after="1"))
    with runner_for(llm_server, tmp_path, provider, word_tokenizer) as runner:
        [result] = runner.run(requests(1))
    assert result.ok and notices(capsys, "model 'm'") == []
    llm_server.enqueue(status(503, retry_after="1"))
    with runner_for(llm_server, tmp_path, provider, word_tokenizer,
                    retry_after_max_s=0.5) as runner:
        [refused] = runner.run(requests(1, prefix="other"))
        assert runner.unanswered() == 1
    assert refused.error == "retry_after" and refused.raw.startswith("http_503")
    assert len(notices(capsys, "retry_after_max_s (0 s)")) == 1


def test_retry_after_is_read_as_sent_and_told_in_words(provider):
    assert parse_retry_after({"retry-after": "86400"}) == 86400.0
    assert parse_retry_after({"retry-after-ms": "1500"}) == 1.5
    assert parse_retry_after({"retry-after": "-3"}) == 0.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert [duration(s) for s in (45, 290, 7200, 12000, 86400, 2 * 86400 + 3600)] == [
        "45 s", "4 min 50 s", "2 h", "3 h 20 min", "1 day", "2 days 1 h"]
