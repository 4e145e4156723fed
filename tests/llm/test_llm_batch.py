"""Batch mode through the real openai and zhipuai SDKs against the fake files + batches API."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from helpers.fake_llm import EXPIRE, GARBLED, status
from helpers.llm import PROVIDERS, Judgment, make_runner, requests

from longnovel.llm import batch
from longnovel.llm.batch_store import BatchStore, pending_counts
from longnovel.llm.config import ModelConfig, Price
from longnovel.llm.types import ModelAccessError

BATCH = {"mode": "batch", "batch_poll_s": 0.02}


def contents(results) -> list[str]:
    return [r.text for r in results]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_round_goes_out_as_one_batch_and_a_rerun_sends_nothing(
        llm_server, tmp_path, provider, word_tokenizer):
    price = {"input_per_mtok": 2.0, "output_per_mtok": 8.0}
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, price=price,
                     **BATCH) as runner:
        results = runner.run(requests(6))
        usage = runner.usage()["m"]
    assert contents(results) == [f"echo: prompt number {i}" for i in range(6)]
    assert all(r.ok and r.finish_reason == "stop" for r in results)
    assert llm_server.count() == 0  # no live chat request
    assert len(llm_server.batches) == 1
    (created,) = llm_server.batches.values()
    expected_url = "/v4/chat/completions" if provider == "zhipuai" else "/v1/chat/completions"
    assert created["endpoint"] == expected_url
    line = created["lines"][0]
    assert line["url"] == expected_url and line["body"]["model"] == "fake-model"
    assert line["body"]["messages"] == requests(1)[0].messages
    assert usage["requests"] == 6 and usage["prompt_tokens"] == 18
    assert usage["completion_tokens"] == 24
    assert usage["cost"] == round((18 * 2.0 + 24 * 8.0) / 1e6 * 0.5, 6)  # the batch rate
    calls = len(llm_server.batch_calls)

    with make_runner(llm_server, tmp_path, provider, word_tokenizer, **BATCH) as runner:
        again = runner.run(requests(6))
    assert all(r.cached for r in again) and contents(again) == contents(results)
    assert len(llm_server.batch_calls) == calls and llm_server.count() == 0


def test_live_mode_reuses_replies_paid_in_batch_mode(llm_server, tmp_path, word_tokenizer):
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, **BATCH) as runner:
        runner.run(requests(3))
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer) as runner:
        results = runner.run(requests(4))
    assert [r.cached for r in results] == [True, True, True, False]
    assert llm_server.count() == 1


def test_files_are_split_by_request_count_and_by_size(
        llm_server, tmp_path, word_tokenizer, monkeypatch):
    monkeypatch.setitem(batch.LIMITS, "openai", (4, 10**6))
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, **BATCH) as runner:
        assert all(r.ok for r in runner.run(requests(10)))
    assert [len(b["custom_ids"]) for b in llm_server.batches.values()] == [4, 4, 2]

    line_size = len(llm_server.files["file-1"]["data"]) // 4
    uploaded = len(llm_server.files)
    monkeypatch.setitem(batch.LIMITS, "openai", (100, 3 * line_size + 10))
    with make_runner(llm_server, tmp_path / "b", "openai", word_tokenizer, **BATCH) as runner:
        assert all(r.ok for r in runner.run(requests(7, prefix="other")))
    sizes = [len(b["custom_ids"]) for b in list(llm_server.batches.values())[3:]]
    assert sizes == [3, 3, 1]
    uploads = [f["data"] for f in list(llm_server.files.values())[uploaded:]
               if f["purpose"] == "batch"]
    assert len(uploads) == 3 and all(len(data) <= 3 * line_size + 10 for data in uploads)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_only_failed_and_expired_lines_are_submitted_again(
        llm_server, tmp_path, provider, word_tokenizer):
    llm_server.enqueue(status(500), "fine", EXPIRE)  # the first three lines of the first batch
    with make_runner(llm_server, tmp_path, provider, word_tokenizer, **BATCH) as runner:
        results = runner.run(requests(5))
        assert runner.unanswered() == 0 and runner.failures() == {}
    assert all(r.ok for r in results)
    assert results[1].text == "fine" and results[0].text == "echo: prompt number 0"
    first, second = (b["custom_ids"] for b in llm_server.batches.values())
    assert len(first) == 5 and sorted(second) == sorted([first[0], first[2]])
    assert [b["status"] for b in llm_server.batches.values()] == ["expired", "completed"]


def test_lines_that_keep_failing_are_unanswered_after_the_last_round(
        llm_server, tmp_path, word_tokenizer):
    llm_server.reply = lambda m: status(503) if "number 1" in m[-1]["content"] else "ok"
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, **BATCH) as runner:
        results = runner.run(requests(3))
        assert runner.unanswered() == 1 and runner.failures() == {"http_503": 1}
    assert [r.ok for r in results] == [True, False, True]
    submitted = Counter(llm_server.submitted())
    assert sorted(submitted.values()) == [1, 1, 1 + batch.RESUBMIT_ROUNDS]
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, **BATCH) as runner:
        llm_server.reply = lambda m: "ok now"
        again = runner.run(requests(3))  # the next run sends the unanswered one only
    assert [r.cached for r in again] == [True, False, True] and again[1].text == "ok now"


def test_an_unusable_reply_is_asked_again_once_in_the_next_batch(
        llm_server, tmp_path, word_tokenizer):
    good = json.dumps({"score": 4, "reason": "fine"})
    llm_server.enqueue(GARBLED, good, good)
    llm_server.reply = lambda m: good
    with make_runner(llm_server, tmp_path, "zhipuai", word_tokenizer, **BATCH) as runner:
        results = runner.run(requests(3, schema=Judgment))
    assert all(r.ok and r.parsed.score == 4 for r in results)
    first, second = (b["custom_ids"] for b in llm_server.batches.values())
    assert second == [first[0]]


def test_a_truncated_reply_is_final(llm_server, tmp_path, word_tokenizer):
    llm_server.finish = lambda m: "length"
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, **BATCH) as runner:
        results = runner.run(requests(2))
        assert runner.failures() == {"truncated": 2} and runner.unanswered() == 0
    assert len(llm_server.batches) == 1 and not any(r.ok for r in results)


@pytest.mark.parametrize(("code", "where"), [(401, "/v1/files"), (403, "/v1/batches"),
                                           (404, "/v1/files")])
def test_a_refused_key_or_model_stops_the_stage(llm_server, tmp_path, word_tokenizer, code, where):
    answer = llm_server._batch_call
    llm_server._batch_call = lambda method, path: status(code) if path == where \
        else answer(method, path)
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, **BATCH) as runner, \
            pytest.raises(ModelAccessError, match=f"HTTP {code}"):
        runner.run(requests(3))
    assert not llm_server.batches and llm_server.count() == 0
    assert pending_counts(tmp_path / "cache.sqlite") == {}


def test_transient_upload_errors_are_retried(llm_server, tmp_path, word_tokenizer):
    llm_server.enqueue_api(status(429, retry_after="0"), status(502))
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, **BATCH) as runner:
        assert all(r.ok for r in runner.run(requests(2)))
        assert runner.usage()["m"]["retries"] == 2


def test_a_pending_batch_is_polled_again_and_not_submitted_twice(
        llm_server, tmp_path, word_tokenizer):
    """Records left by a killed run: the next run polls their batches and sends only the rest."""
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, **BATCH) as runner:
        runner.run(requests(2))  # requests 0 and 1 are cached
    llm_server.batch_polls = 3
    store = BatchStore(tmp_path / "cache.sqlite")
    # requests 2 and 3: uploaded, batch created and recorded
    keys = _keys(llm_server, requests(4)[2:])
    file = llm_server._new_file(_lines(keys, 2), "batch", "killed.jsonl")
    record = store.uploaded(file["id"], "test", "m", keys)
    store.submitted(record, llm_server._new_batch({"input_file_id": file["id"]})["id"])
    # request 4: uploaded and recorded, its batch created but killed before it was recorded
    lost_keys = _keys(llm_server, requests(5)[4:])
    lost = llm_server._new_file(_lines(lost_keys, 4), "batch", "lost.jsonl")
    llm_server._new_batch({"input_file_id": lost["id"]})
    store.uploaded(lost["id"], "test", "m", lost_keys)
    store.close()
    assert pending_counts(tmp_path / "cache.sqlite") == {
        "test": {"m": {"batches": 2, "requests": 3}}}
    created = len(llm_server.batches)

    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, **BATCH) as runner:
        results = runner.run(requests(6))
    assert all(r.ok for r in results) and [r.cached for r in results][:2] == [True, True]
    assert contents(results)[2:5] == [f"echo: prompt number {i}" for i in (2, 3, 4)]
    new = list(llm_server.batches.values())[created:]
    assert [b["custom_ids"] for b in new] == [_keys(llm_server, requests(6)[5:])]
    assert pending_counts(tmp_path / "cache.sqlite") == {}


def _keys(server, reqs) -> list[str]:
    """The cache keys of ``reqs`` for make_runner's model."""
    from helpers.llm import model_config

    from longnovel.llm.cache import request_key

    config = model_config(server, "openai", **BATCH)
    return [request_key(config, r.messages) for r in reqs]


def _lines(keys: list[str], first: int) -> bytes:
    """JSONL request lines for ``keys``, the prompts of requests ``first``, ``first + 1``..."""
    lines = []
    for i, key in enumerate(keys, first):
        body = {"model": "fake-model",
                "messages": [{"role": "user", "content": f"prompt number {i}"}]}
        lines.append(json.dumps({"custom_id": key, "method": "POST",
                                 "url": "/v1/chat/completions", "body": body}) + "\n")
    return "".join(lines).encode()


def test_batch_mode_needs_a_batch_api_and_prices_at_the_batch_rate():
    with pytest.raises(ValueError, match="mode batch needs provider openai or zhipuai"):
        ModelConfig(provider="transformers", model="/models/x", mode="batch")
    price = Price(input_per_mtok=1.0, output_per_mtok=4.0, batch_discount=0.25)
    assert price.cost(1_000_000, 1_000_000, batch=True) == pytest.approx(3.75)
    assert price.cost(1_000_000, 1_000_000) == pytest.approx(5.0)
    config = ModelConfig(provider="openai", model="m")
    batched = ModelConfig(provider="openai", model="m", mode="batch", batch_poll_s=1.0)
    assert config.fingerprint_fields() == batched.fingerprint_fields()


def test_plan_prices_batch_models_at_the_batch_rate(word_tokenizer):
    from longnovel.llm import PlannedRequest, estimate

    price = {"input_per_mtok": 3000.0, "output_per_mtok": 6000.0, "batch_discount": 0.5}
    models = {"live": ModelConfig(provider="openai", model="m", price=price, max_tokens=100),
              "bulk": ModelConfig(provider="zhipuai", model="m", price=price, max_tokens=100,
                                  mode="batch")}
    messages = [{"role": "user", "content": "one two three"}]
    rows = estimate([PlannedRequest("arbitrate", name, messages) for name in models], models,
                    word_tokenizer)
    by_model = {row["model"]: row for row in rows}
    assert by_model["live"]["mode"] == "live" and by_model["bulk"]["mode"] == "batch"
    assert by_model["bulk"]["cost"] == pytest.approx(by_model["live"]["cost"] / 2)
    assert by_model["bulk"]["prompt_tokens"] == by_model["live"]["prompt_tokens"]


def test_a_recorded_batch_the_server_does_not_know_is_submitted_anew(
        llm_server, tmp_path, word_tokenizer):
    keys = _keys(llm_server, requests(2))
    store = BatchStore(tmp_path / "cache.sqlite")
    store.submitted(store.uploaded("file-gone", "test", "m", keys), "batch-gone")
    store.close()
    with make_runner(llm_server, tmp_path, "openai", word_tokenizer, **BATCH) as runner:
        results = runner.run(requests(2))
    assert all(r.ok for r in results)
    assert [b["custom_ids"] for b in llm_server.batches.values()] == [keys]
    assert pending_counts(tmp_path / "cache.sqlite") == {}


def test_a_line_refused_by_a_content_filter_is_final_and_a_refused_key_stops(
        llm_server, tmp_path, word_tokenizer):
    llm_server.enqueue(status(400, message="content_filter: the prompt was blocked"))
    with make_runner(llm_server, tmp_path, "zhipuai", word_tokenizer, **BATCH) as runner:
        results = runner.run(requests(3))
        assert runner.failures() == {"content_filter": 1} and runner.unanswered() == 0
    assert [r.ok for r in results] == [False, True, True] and len(llm_server.batches) == 1

    llm_server.enqueue(status(401))
    with make_runner(llm_server, tmp_path, "zhipuai", word_tokenizer, **BATCH) as runner, \
            pytest.raises(ModelAccessError, match="HTTP 401"):
        runner.run(requests(2, prefix="fresh"))
    assert pending_counts(tmp_path / "cache.sqlite") == {}  # the batch was collected


def test_outcome_of_batch_lines():
    from longnovel.llm.batch import _outcome
    from longnovel.llm.providers.batch_api import BatchInfo

    info = BatchInfo("b1", "expired", 1, 2)
    refused = _outcome({"custom_id": "k", "response": {"status_code": 400, "body": {
        "error": {"code": "1301", "message": "系统检测到输入或生成内容可能包含不安全或敏感内容"}}}},
        info)
    assert refused.reason == "http_400" and "1301" in str(refused) and not refused.retryable
    assert _outcome(None, info).reason == "batch_expired"
    gone = _outcome({"custom_id": "k", "error": {"code": "Batch Expired", "message": "late"}}, info)
    assert gone.reason == "batch_expired" and gone.retryable
    body = {"choices": [{"message": {"content": "hi"}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 1}}
    reply = _outcome({"custom_id": "k", "response": {"status_code": 200, "body": body}}, info)
    assert (reply.text, reply.finish_reason, reply.prompt_tokens) == ("hi", "length", 3)
    assert _outcome({"custom_id": "k", "response": {"status_code": 200, "body": {}}},
                    info).reason == "bad_response"
