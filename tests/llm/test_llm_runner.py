"""The runner against the fake server, through the real openai and zhipuai SDKs."""


import pytest
from helpers.fake_llm import DROP, GARBLED, MALFORMED, hang, status, words
from helpers.llm import PROVIDERS, Judgment, make_runner, model_config, requests

from longnovel.llm import LLMRunner, MissingKeyError, Request, UnknownModelError
from longnovel.llm.types import ModelAccessError

GOOD_JSON = '{"score": 4, "reason": "consistent"}'

pytestmark = pytest.mark.parametrize("provider", PROVIDERS)


def test_rerun_is_served_from_cache_with_zero_requests(
    llm_server, tmp_path, provider, word_tokenizer
):
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        first = runner.run(requests(10))
    assert all(r.ok and not r.cached for r in first) and llm_server.count() == 10
    assert [r.key for r in first] == [f"r{i}" for i in range(10)]
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        second = runner.run(requests(10))
        assert runner.usage()["m"]["cache_hits"] == 10 and runner.usage()["m"]["requests"] == 0
    assert llm_server.count() == 10
    assert [r.text for r in second] == [r.text for r in first] and all(r.cached for r in second)


def test_concurrency_limit_is_respected(llm_server, tmp_path, provider, word_tokenizer):
    llm_server.latency = 0.1
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, max_concurrency=3) as runner:
        results = runner.run(requests(12))
    assert all(r.ok for r in results)
    # three in flight at once, never more: requests overlap up to the limit (no wall-clock
    # bound here; the machine is shared and timing belongs in bench/llm.py)
    assert llm_server.max_in_flight == 3


def test_429_honours_retry_after(llm_server, tmp_path, provider, word_tokenizer, monkeypatch):
    from longnovel.llm.delivery import Backoff

    waits = []
    real_wait = Backoff.wait

    def recorded_wait(self, state):
        waits.append(real_wait(self, state))
        return waits[-1]

    monkeypatch.setattr(Backoff, "wait", recorded_wait)
    llm_server.enqueue(status(429, retry_after="1"))
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, max_concurrency=1) as runner:
        [result] = runner.run(requests(1))
        assert len(waits) == 1 and 1.0 <= waits[0] <= 1.1  # the server's second, plus jitter
        assert result.ok and runner.usage()["m"]["retries"] == 1
        assert runner.usage()["m"]["requests"] == 2 and runner.failures() == {}


def test_500_burst_is_retried(llm_server, tmp_path, provider, word_tokenizer):
    llm_server.enqueue(status(500), status(502), status(503), MALFORMED, DROP)
    with make_runner(
        llm_server, tmp_path, provider, word_tokenizer, max_concurrency=1, max_retries=5
    ) as runner:
        results = runner.run(requests(2))
        assert all(r.ok for r in results)
        assert runner.usage()["m"]["retries"] == 5 and llm_server.count() == 7


def test_exhausted_retries_are_recorded_not_raised(llm_server, tmp_path, provider, word_tokenizer):
    llm_server.enqueue(*[status(500)] * 3, status(429, retry_after="0"), status(429, "0"))
    with make_runner(
        llm_server, tmp_path, provider, word_tokenizer, max_concurrency=1, max_retries=2
    ) as runner:
        first, second = runner.run(requests(2))
        assert (first.ok, first.error) == (False, "http_500") and "500" in first.raw
        assert second.ok  # its third attempt succeeded
        assert runner.failures() == {"http_500": 1}
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        runner.run(requests(2))  # errors are not cached: the failed one is sent again
        assert runner.usage()["m"]["requests"] == 1 and runner.usage()["m"]["cache_hits"] == 1


def test_timeout_is_retried_then_recorded(llm_server, tmp_path, provider, word_tokenizer):
    llm_server.enqueue(hang(3), hang(3), hang(3))
    with make_runner(
        llm_server,
        tmp_path,
        provider,
        word_tokenizer,
        max_concurrency=1,
        timeout_s=0.3,
        max_retries=1,
    ) as runner:
        first, second = runner.run(requests(2))
        assert (first.ok, first.error) == (False, "timeout")
        assert second.ok  # timed out once, then answered
        assert runner.usage()["m"]["retries"] == 2 and runner.failures() == {"timeout": 1}


def test_garbled_reply_is_asked_again_once_then_recorded(
    llm_server, tmp_path, provider, word_tokenizer
):
    llm_server.reply = lambda messages: GARBLED
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        [result] = runner.run(requests(1, schema=Judgment))
        assert (result.ok, result.error, result.raw, result.parsed) == (
            False,
            "bad_json",
            GARBLED,
            None,
        )
        assert runner.failures() == {"bad_json": 1} and llm_server.count() == 2
    llm_server.reply = lambda messages: GOOD_JSON
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        # already asked twice: a re-run serves the recorded failure and sends nothing
        [result] = runner.run(requests(1, schema=Judgment))
        assert (result.ok, result.error, result.raw, result.cached) == (
            False, "bad_json", GARBLED, True)
        assert runner.failures() == {"bad_json": 1} and llm_server.count() == 2
    assert llm_server.count() == 2


def test_unusable_reply_asked_only_once_is_asked_again_on_resume(
    llm_server, tmp_path, provider, word_tokenizer
):
    """A run killed right after a bad first answer re-asks it once on resume, then caches."""
    from longnovel.llm.cache import CachedReply, ReplyCache, request_key

    [request] = requests(1, schema=Judgment)
    config = model_config(llm_server, provider)
    cache = ReplyCache(tmp_path / "cache.sqlite")
    cache.put(request_key(config, request.messages), config, CachedReply(GARBLED, 3, 3, "stop", 0))
    cache.close()
    llm_server.reply = lambda messages: GOOD_JSON
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        [result] = runner.run([request])
        assert result.ok and not result.cached and llm_server.count() == 1
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        [result] = runner.run([request])  # ... and the good answer replaced the bad one
        assert result.cached and result.parsed == Judgment(score=4, reason="consistent")
    assert llm_server.count() == 1


def test_bad_then_good_reply_and_schema_failure(llm_server, tmp_path, provider, word_tokenizer):
    llm_server.enqueue("not json at all", GOOD_JSON, '{"score": 17, "reason": "x"}', '{"score": 9}')
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, max_concurrency=1) as runner:
        first, second = runner.run(requests(2, schema=Judgment))
        assert first.ok and first.parsed.score == 4
        assert (second.ok, second.error, second.raw) == (False, "schema", '{"score": 9}')
        assert runner.failures() == {"schema": 1} and runner.usage()["m"]["requests"] == 4


def test_think_is_stripped(llm_server, tmp_path, provider, word_tokenizer):
    llm_server.enqueue(
        f'<think>Let me check {{"score": 0}}</think>\n```json\n{GOOD_JSON}\n```',
        "<think>short</think>\n\nA summary.",
    )
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, max_concurrency=1) as runner:
        judged = runner.run(requests(1, schema=Judgment))[0]
        summary = runner.run(requests(1, prefix="summarize"))[0]
    assert judged.ok and judged.parsed.score == 4 and "<think>" in judged.raw
    assert summary.ok and summary.text == "A summary."


def test_empty_reply_is_a_failure_for_text_requests(llm_server, tmp_path, provider, word_tokenizer):
    llm_server.reply = lambda messages: "<think>thinking until the end"
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        [result] = runner.run(requests(1))
        assert (result.ok, result.error) == (False, "empty") and result.raw.startswith("<think>")


def test_context_window_refusal_sends_nothing(llm_server, tmp_path, provider, word_tokenizer):
    long_prompt = Request("long", "m", [{"role": "user", "content": "word " * 100}])
    # over the window by its byte bound (150 + 8 bytes), within it by the tokenizer's count
    # (1 + 30 words + 7 of template overhead): it is sent
    fitting = Request("fitting", "m", [{"role": "user", "content": "word " * 30}])
    with make_runner(
        llm_server, tmp_path, provider, word_tokenizer, context_window=80, max_tokens=20
    ) as runner:
        long_result, short_result, fitting_result = runner.run([long_prompt, *requests(1), fitting])
        assert (long_result.ok, long_result.error) == (False, "context_window")
        assert "context_window 80" in long_result.raw and "not sent" in long_result.raw
        assert short_result.ok and fitting_result.ok
        assert runner.failures() == {"context_window": 1}
    assert llm_server.count() == 2


def test_missing_key_raises_before_any_request_and_key_is_never_stored(
    llm_server, tmp_path, provider, word_tokenizer, monkeypatch
):
    monkeypatch.delenv("LONGNOVEL_TEST_KEY", raising=False)
    with (
        make_runner(
            llm_server, tmp_path, provider, word_tokenizer, api_key_env="LONGNOVEL_TEST_KEY"
        ) as runner,
        pytest.raises(MissingKeyError, match="LONGNOVEL_TEST_KEY"),
    ):
        runner.run(requests(3))
    assert llm_server.count() == 0
    secret = "sk-test-secret-0123456789"
    monkeypatch.setenv("LONGNOVEL_TEST_KEY", secret)
    with make_runner(
        llm_server, tmp_path, provider, word_tokenizer, api_key_env="LONGNOVEL_TEST_KEY"
    ) as runner:
        results = runner.run(requests(3))
    assert all(r.ok for r in results)
    assert all(secret in r["headers"]["authorization"] for r in llm_server.requests)
    for path in tmp_path.iterdir():
        assert secret.encode() not in path.read_bytes(), path
    assert not any(secret in r.raw or secret in r.text for r in results)


@pytest.mark.parametrize("code", [400, 401, 403, 404])
def test_a_non_transient_error_stops_after_a_few_requests_naming_the_model(
    llm_server, tmp_path, provider, word_tokenizer, code
):
    llm_server.reply = lambda messages: status(code)
    with (make_runner(llm_server, tmp_path, provider, word_tokenizer, max_concurrency=2) as runner,
          pytest.raises(ModelAccessError) as caught):
        runner.run(requests(50))
    message = str(caught.value)
    assert f"HTTP {code}" in message and "model 'm'" in message and "check" in message
    assert "\n" not in message
    assert llm_server.count() <= 2  # the requests in flight when the first error came back


def test_a_content_filter_400_is_that_request_s_final_failure(
    llm_server, tmp_path, provider, word_tokenizer
):
    blocked = status(400, message="content_filter: the prompt was blocked (code 1301)")
    llm_server.reply = lambda messages: (
        blocked if messages[-1]["content"].endswith("1") else "fine")
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        results = runner.run(requests(3))
        assert runner.unanswered() == 0
    assert [r.error for r in results].count("content_filter") == 1
    assert sum(r.ok for r in results) == 2


def test_transport_failures_are_unanswered_and_a_rerun_sends_only_those(
    llm_server, tmp_path, provider, word_tokenizer
):
    llm_server.reply = lambda messages: status(503)
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, max_retries=0) as runner:
        llm_server.enqueue("one", "two")
        results = runner.run(requests(5))
        assert runner.unanswered() == 3
    assert sum(r.ok for r in results) == 2
    sent = llm_server.count()
    llm_server.reply = lambda messages: "recovered"
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        results = runner.run(requests(5))
        assert runner.unanswered() == 0
    assert all(r.ok for r in results) and llm_server.count() - sent == 3


def test_a_reply_cut_at_max_tokens_is_truncated_and_not_asked_again(
    llm_server, tmp_path, provider, word_tokenizer
):
    llm_server.finish = lambda messages: "length"
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        results = runner.run(requests(2))
        assert runner.unanswered() == 0
    assert [r.error for r in results] == ["truncated", "truncated"]
    assert llm_server.count() == 2
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        again = runner.run(requests(2))
    assert [r.error for r in again] == ["truncated", "truncated"] and llm_server.count() == 2


def test_keyless_server_gets_a_dummy_key(llm_server, tmp_path, provider, word_tokenizer):
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        runner.run(requests(1))
    assert llm_server.requests[0]["headers"]["authorization"] == "Bearer EMPTY"


def test_accounting(llm_server, tmp_path, provider, word_tokenizer):
    price = {"input_per_mtok": 1000.0, "output_per_mtok": 2000.0}
    llm_server.enqueue(status(500))
    batch = requests(3)
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, price=price) as runner:
        results = runner.run(batch)
        prompt = sum(words(r.messages[0]["content"]) for r in batch)
        completion = sum(words(r.text) for r in results)
        assert results[0].usage == {"prompt_tokens": 3, "completion_tokens": 4}
        assert runner.usage()["m"] == {
            "requests": 4,
            "cache_hits": 0,
            "retries": 1,
            "failures": 0,
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "cost": pytest.approx((prompt * 1000 + completion * 2000) / 1e6),
            "usage_flagged": 0,
        }
        assert all(r.latency_s > 0 for r in results)
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, price=price) as runner:
        runner.run(batch)
        usage = runner.usage()["m"]
        assert (usage["cache_hits"], usage["requests"], usage["cost"]) == (3, 0, 0.0)
        assert (usage["prompt_tokens"], usage["completion_tokens"]) == (prompt, completion)


def test_missing_server_usage_is_counted_with_the_tokenizer(
    llm_server, tmp_path, provider, word_tokenizer
):
    llm_server.omit_usage = True
    batch = requests(1)
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        [result] = runner.run(batch)
    # "user\nprompt number 0": 4 words, + 4 per message + 3 per prompt of template overhead
    assert result.usage == {"prompt_tokens": 11, "completion_tokens": words(result.text)}


def test_groups_are_scheduled_together(llm_server, tmp_path, provider, word_tokenizer):
    batch = [
        Request(
            f"r{i}",
            "m",
            [{"role": "user", "content": f"window {i % 3} task {i}"}],
            group=f"w{i % 3}",
        )
        for i in range(9)
    ]
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, max_concurrency=1) as runner:
        results = runner.run(batch)
    assert [r.key for r in results] == [f"r{i}" for i in range(9)]
    windows = [r["body"]["messages"][0]["content"].split()[1] for r in llm_server.requests]
    assert windows == ["0"] * 3 + ["1"] * 3 + ["2"] * 3


def test_identical_requests_are_sent_once(llm_server, tmp_path, provider, word_tokenizer):
    batch = requests(1) + [Request("copy", "m", requests(1)[0].messages)]
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        first, copy = runner.run(batch)
    assert llm_server.count() == 1 and first.text == copy.text and copy.key == "copy"


def test_identical_requests_are_sent_once_per_schema(
    llm_server, tmp_path, provider, word_tokenizer
):
    llm_server.reply = lambda messages: GOOD_JSON
    messages = requests(1)[0].messages
    batch = [Request(f"r{i}", "m", messages, schema) for i, schema in
             enumerate([None, Judgment, Judgment, None])]  # fmt: skip
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        results = runner.run(batch)
    assert llm_server.count() == 2 and all(r.ok for r in results)
    judged = Judgment(score=4, reason="consistent")
    assert [r.parsed for r in results] == [None, judged, judged, None]
    assert [r.text for r in results] == [GOOD_JSON] * 4


def test_unknown_model_is_a_user_error(llm_server, tmp_path, provider, word_tokenizer):
    runner = make_runner(llm_server, tmp_path, provider, word_tokenizer)
    with runner, pytest.raises(UnknownModelError, match="'nope'"):
        runner.run([Request("x", "nope", [{"role": "user", "content": "hi"}])])


def test_extra_body_and_sampling_reach_the_server(llm_server, tmp_path, provider, word_tokenizer):
    extra = {"chat_template_kwargs": {"enable_thinking": False}}
    with make_runner(
        llm_server, tmp_path, provider, word_tokenizer, extra_body=extra, max_tokens=77
    ) as runner:
        runner.run(requests(1))
    body = llm_server.requests[0]["body"]
    assert body["chat_template_kwargs"] == {"enable_thinking": False}
    assert body["max_tokens"] == 77 and body["model"] == "fake-model"


def test_flaky_server_run_finishes_and_records_every_failure(
    llm_server, tmp_path, provider, word_tokenizer
):
    llm_server.chaos(fail=0.2, garble=0.1, seed=3)
    llm_server.reply = lambda messages: GOOD_JSON
    models = {"m": model_config(llm_server, provider, max_concurrency=8, max_retries=1)}
    runner = LLMRunner(
        models,
        tmp_path / "c.sqlite",
        word_tokenizer,
        "chaos",
        progress=False,
        retry_initial_s=0.001,
        retry_max_s=0.01,
    )
    results = runner.run(requests(200, schema=Judgment))
    failed = [r for r in results if not r.ok]
    assert failed and len(failed) < 40
    assert {r.error for r in failed} <= {"http_500", "bad_json"}
    assert sum(runner.failures().values()) == len(failed) == runner.usage()["m"]["failures"]
    for result in failed:
        assert result.raw == GARBLED if result.error == "bad_json" else "500" in result.raw
    assert all(isinstance(r.parsed, Judgment) for r in results if r.ok)
    assert runner.usage()["m"]["requests"] == llm_server.count()
    runner.close()


def test_tokens_per_minute_limit_delays_the_excess(llm_server, tmp_path, provider, word_tokenizer,
                                                   monkeypatch):
    # 4 requests of 3000 + 11 tokens against 12000 tokens/minute: the first three fit the
    # bucket at once, the last one must wait for it to drain. Checked on the limiter's own
    # account (no clock: the machine is shared), as each request asks for its tokens.
    from aiolimiter import AsyncLimiter

    asked = []
    real_acquire = AsyncLimiter.acquire

    async def recorded_acquire(self, amount: float = 1):
        asked.append((amount, self.has_capacity(amount)))
        return await real_acquire(self, amount)

    monkeypatch.setattr(AsyncLimiter, "acquire", recorded_acquire)
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, max_tokens=3000,
                     tokens_per_minute=12000) as runner:  # fmt: skip
        results = runner.run(requests(4))
    assert all(r.ok for r in results)
    assert [has_room for _, has_room in asked] == [True, True, True, False]
    assert sum(amount for amount, _ in asked[:3]) <= 12000 < sum(a for a, _ in asked)


def test_progress_bar_goes_to_stderr(llm_server, tmp_path, provider, word_tokenizer, capfd):
    models = {"m": model_config(llm_server, provider)}
    with LLMRunner(models, tmp_path / "c.sqlite", word_tokenizer, "judge", progress=True) as runner:
        runner.run(requests(3))
    captured = capfd.readouterr()
    assert "judge" in captured.err and "3/3" in captured.err and captured.out == ""


def test_duplicate_requests_report_the_same_tokens_cold_and_warm(
    llm_server, tmp_path, provider, word_tokenizer
):
    """Identical requests are sent once; their tokens count once, whether sent or cached."""
    batch = requests(3) + requests(3)
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        runner.run(batch)
        cold = runner.usage()["m"]
    with make_runner(llm_server, tmp_path, provider, word_tokenizer) as runner:
        runner.run(batch)
        warm = runner.usage()["m"]
    assert llm_server.count() == 3 and cold["requests"] == 3 and warm["requests"] == 0
    assert warm["cache_hits"] == 6
    for key in ("prompt_tokens", "completion_tokens"):
        assert warm[key] == cold[key] > 0


def test_two_local_servers_with_one_model_name_never_share_replies(
    llm_server, tmp_path, provider, word_tokenizer
):
    from helpers.fake_llm import FakeLLM

    other = FakeLLM().start()
    try:
        llm_server.reply = lambda messages: "from the first server"
        other.reply = lambda messages: "from the second server"
        models = {"one": model_config(llm_server, provider, model="local"),
                  "two": model_config(other, provider, model="local")}
        asks = [Request(key=name, model=name, messages=[{"role": "user", "content": "same"}])
                for name in ("one", "two")]
        with LLMRunner(models, tmp_path / "cache.sqlite", word_tokenizer, "test",
                       progress=False) as runner:
            one, two = runner.run(asks)
        assert (one.text, two.text) == ("from the first server", "from the second server")
        assert llm_server.count() == 1 and other.count() == 1
        moved = {"two": model_config(other, provider, model="local",
                                     cache_namespace=llm_server.base_url)}
        with LLMRunner(moved, tmp_path / "cache.sqlite", word_tokenizer, "test",
                       progress=False) as runner:
            (again,) = runner.run([asks[1]])
        assert again.text == "from the first server" and again.cached  # the namespace kept it
        assert other.count() == 1
    finally:
        other.stop()


def test_prompt_tokens_hint_replaces_the_count(llm_server, tmp_path, provider, word_tokenizer):
    llm_server.omit_usage = True
    # a one-word prompt said to be 79 tokens does not fit; 100 words said to be 50 tokens do
    over = Request("over", "m", [{"role": "user", "content": "word"}], prompt_tokens_hint=79)
    hinted = Request("hinted", "m", [{"role": "user", "content": "word " * 100}],
                     prompt_tokens_hint=50)
    with make_runner(
        llm_server, tmp_path, provider, word_tokenizer, context_window=80, max_tokens=20
    ) as runner:
        over_result, hinted_result = runner.run([over, hinted])
    assert (over_result.ok, over_result.error) == (False, "context_window")
    assert "about 79 tokens" in over_result.raw
    assert hinted_result.ok and hinted_result.usage["prompt_tokens"] == 50
    assert llm_server.count() == 1
