"""Replies and usage a server cannot have meant: a reply far beyond max_tokens, absurd counts."""

import sqlite3

import pytest
from helpers.llm import PROVIDERS, make_runner, model_config, requests

from longnovel.llm.cache import CachedReply, ReplyCache, request_key
from longnovel.llm.delivery import (
    OVERSIZED_KEEP_CHARS,
    is_oversized,
    plausible_count,
    reply_byte_limit,
)
from longnovel.llm.tokens import count_prompts

HUGE = "word " * 1_677_722  # 8 MiB of text


def cached_rows(path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT length(text), finish_reason, completion_tokens, asks "
                          "FROM replies").fetchall()


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_8_mb_reply_to_max_tokens_512_is_a_bad_reply_and_only_its_start_is_kept(
    llm_server, tmp_path, provider, word_tokenizer
):
    llm_server.reply = lambda messages: HUGE
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, max_tokens=512) as runner:
        [result] = runner.run(requests(1))
        usage = runner.usage()["m"]
        assert (result.ok, result.error, result.text) == (False, "oversized", result.text)
        assert runner.failures() == {"oversized": 1} and runner.unanswered() == 0
        # asked again once, like any unusable reply; each answer billed at most max_tokens
        assert llm_server.count() == 2
        assert (usage["completion_tokens"], usage["usage_flagged"]) == (2 * 512, 2)
    assert result.raw.startswith("word word") and "8388610 characters" in result.raw
    assert len(result.raw) < OVERSIZED_KEEP_CHARS + 200
    [(length, finish, completion, asks)] = cached_rows(tmp_path / "cache.sqlite")
    assert (finish, completion, asks) == ("oversized", 512, 2)
    assert length == len(result.raw)
    assert (tmp_path / "cache.sqlite").stat().st_size < 1_000_000
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, max_tokens=512) as runner:
        [again] = runner.run(requests(1))  # the recorded failure, nothing sent
        assert (again.ok, again.error, again.cached) == (False, "oversized", True)
    assert llm_server.count() == 2


def test_the_size_bound_is_in_utf8_bytes_at_64_per_token(llm_server):
    config = model_config(llm_server, "openai", max_tokens=512)
    limit = reply_byte_limit(config)
    assert limit == 512 * 64 + 4096
    assert not is_oversized("x" * limit, config) and is_oversized("x" * (limit + 1), config)
    wide = "字" * (limit // 3 + 1)  # fewer characters than the limit, more bytes
    assert len(wide) < limit and is_oversized(wide, config)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_reply_at_the_size_bound_is_accepted(llm_server, tmp_path, provider, word_tokenizer):
    config = model_config(llm_server, provider, max_tokens=16)
    llm_server.reply = lambda messages: "y" * reply_byte_limit(config)
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, max_tokens=16) as runner:
        [result] = runner.run(requests(1))
    assert result.ok and len(result.text) == reply_byte_limit(config)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("reported", [
    {"prompt_tokens": 4e15, "completion_tokens": -20},
    {"prompt_tokens": 12.5, "completion_tokens": "many"},
    {"prompt_tokens": [5], "completion_tokens": 10**30},
])
def test_absurd_usage_is_flagged_and_never_summed(
    llm_server, tmp_path, provider, word_tokenizer, reported, capsys
):
    llm_server.usage = {**reported, "total_tokens": 1}
    price = {"input_per_mtok": 1.0, "output_per_mtok": 1.0}
    batch = requests(3)
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, price=price) as runner:
        results = runner.run(batch)
        usage = runner.usage()["m"]
    assert all(r.ok for r in results)
    prompts = count_prompts([r.messages for r in batch], word_tokenizer)
    completions = [word_tokenizer.count(r.text) for r in results]
    pairs = zip(prompts, completions, strict=True)
    assert [r.usage for r in results] == [
        {"prompt_tokens": p, "completion_tokens": c} for p, c in pairs]
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (sum(prompts), sum(completions))
    assert usage["usage_flagged"] == 3
    assert usage["cost"] == pytest.approx((sum(prompts) + sum(completions)) / 1e6)
    lines = [line for line in capsys.readouterr().err.splitlines() if "implausible" in line]
    assert len(lines) == 1 and "model 'm'" in lines[0] and "usage_flagged" in lines[0]
    with sqlite3.connect(tmp_path / "cache.sqlite") as db:
        stored = db.execute("SELECT prompt_tokens, completion_tokens FROM replies "
                            "ORDER BY prompt_tokens").fetchall()
    assert sorted(stored) == sorted(zip(prompts, completions, strict=True))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_plausible_usage_is_the_servers_own(llm_server, tmp_path, provider, word_tokenizer):
    llm_server.usage = {"prompt_tokens": 7.0, "completion_tokens": 0, "total_tokens": 7}
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        [result] = runner.run(requests(1))
        assert runner.usage()["m"]["usage_flagged"] == 0
    assert result.usage == {"prompt_tokens": 7, "completion_tokens": 0}


def test_plausible_count_bounds():
    assert [plausible_count(v, 100) for v in (0, 100, 101, -1, 3.0, 3.5, "3", None, False,
                                              float("inf"), float("nan"))] == [
        0, 100, None, None, 3, None, None, None, None, None, None]


def test_old_cache_rows_with_absurd_usage_or_a_huge_text_are_checked(
    llm_server, tmp_path, word_tokenizer
):
    absurd, huge = requests(2)
    config = model_config(llm_server, "openai", max_tokens=64)
    cache = ReplyCache(tmp_path / "cache.sqlite")
    cache.put(request_key(config, absurd.messages), config,
              CachedReply("a fine reply", 4 * 10**15, -20, "stop", 0))
    cache.put(request_key(config, huge.messages), config,
              CachedReply("x" * 1_000_000, 5, 5, "stop", 0))
    cache.close()
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, max_tokens=64) as runner:
        first, second = runner.run([absurd, huge])
        usage = runner.usage()["m"]
    prompt = count_prompts([absurd.messages], word_tokenizer)[0]
    assert first.ok and first.cached and first.usage == {"prompt_tokens": prompt,
                                                         "completion_tokens": 3}
    # the huge row is an unusable reply asked only once: asked again, and replaced
    assert second.ok and not second.cached and llm_server.count() == 1
    assert usage["usage_flagged"] == 1 and usage["prompt_tokens"] < 100
    assert max(length for length, *_ in cached_rows(tmp_path / "cache.sqlite")) < 100


@pytest.mark.parametrize("provider", PROVIDERS)
def test_batch_lines_are_bounded_the_same_way(llm_server, tmp_path, provider, word_tokenizer):
    big = "word " * 100_000  # 500 kB for max_tokens 64
    llm_server.reply = lambda m: big if m[-1]["content"].endswith("0") else "fine"
    llm_server.usage = {"prompt_tokens": -1, "completion_tokens": 2, "total_tokens": 1}
    settings = {"mode": "batch", "batch_poll_s": 0.02, "max_tokens": 64}
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, **settings) as runner:
        huge, fine = runner.run(requests(2))
        usage = runner.usage()["m"]
    assert (huge.ok, huge.error, fine.ok, fine.text) == (False, "oversized", True, "fine")
    assert len(llm_server.batches) == 2  # the oversized line was asked again, in a second batch
    # the prompt counts (-1) are flagged; the completion counts (2) are plausible and kept
    assert usage["usage_flagged"] == 3 and usage["completion_tokens"] == 3 * 2
    assert max(length for length, *_ in cached_rows(tmp_path / "cache.sqlite")) < 5000
