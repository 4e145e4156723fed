import multiprocessing
import sqlite3
import threading

import pytest
from pydantic import ValidationError

from longnovel.llm import ModelConfig
from longnovel.llm.cache import CachedReply, ReplyCache, request_key

MESSAGES = [{"role": "user", "content": "文章 and text"}]


def config(**overrides):
    return ModelConfig(**{"provider": "openai", "model": "m", **overrides})


def test_unknown_keys_are_rejected():
    with pytest.raises(ValidationError):
        ModelConfig(provider="openai", model="m", api_key="sk-oops")
    with pytest.raises(ValidationError):
        ModelConfig(provider="openai", model="m", price={"input": 1})


def test_fingerprint_ignores_limits_and_prices():
    base = config().fingerprint_fields()
    assert (
        config(
            max_concurrency=64,
            timeout_s=3,
            api_key_env="SOME_KEY",
            price={"input_per_mtok": 2},
            requests_per_minute=10,
            max_retries=0,
        ).fingerprint_fields()
        == base
    )
    assert config(temperature=0.7).fingerprint_fields() != base
    assert config(context_window=4096).fingerprint_fields() != base
    assert set(base) == {"provider", "model", "endpoint", "temperature", "max_tokens",
                         "extra_body", "context_window"}


def test_request_key_depends_on_what_changes_replies():
    key = request_key(config(), MESSAGES)
    assert key == request_key(config(max_concurrency=1, context_window=999), MESSAGES)
    assert len(key) == 64
    for changed in (
        config(model="m2"),
        config(provider="zhipuai"),
        config(max_tokens=5),
        config(extra_body={"chat_template_kwargs": {"enable_thinking": False}}),
    ):
        assert request_key(changed, MESSAGES) != key
    assert request_key(config(base_url="http://127.0.0.1:8001/v1"), MESSAGES) != key
    assert request_key(config(), [{"role": "user", "content": "other"}]) != key


def test_the_endpoint_is_in_the_key_and_a_namespace_keeps_a_moved_server_s_cache():
    """Two local servers that both call their model ``local`` never share replies; a server
    moved to another host keeps its replies when ``cache_namespace`` names it."""
    one = config(model="local", base_url="http://127.0.0.1:8001/v1")
    two = config(model="local", base_url="http://127.0.0.1:8002/v1")
    assert request_key(one, MESSAGES) != request_key(two, MESSAGES)
    assert request_key(one, MESSAGES) == request_key(
        config(model="local", base_url="http://127.0.0.1:8001/v1/"), MESSAGES)
    old = config(model="local", base_url="http://gpu-a:8000/v1", cache_namespace="vllm-box")
    moved = config(model="local", base_url="http://gpu-b:9000/v1", cache_namespace="vllm-box")
    assert request_key(old, MESSAGES) == request_key(moved, MESSAGES)


def test_cache_round_trip_replace_and_wal(tmp_path):
    cache = ReplyCache(tmp_path / "sub" / "c.sqlite")
    cache.put("k", config(), CachedReply("first", 3, 4, "stop", 0.0))
    cache.put("k", config(), CachedReply("second", 5, 6, "length", 1.0))
    assert cache.get("k").text == "second"
    assert cache.get_many(["k", "nope"]).keys() == {"k"}
    assert len(cache) == 1
    cache.close()
    mode = sqlite3.connect(tmp_path / "sub" / "c.sqlite").execute("PRAGMA journal_mode").fetchone()
    assert mode[0] == "wal"


def test_cache_written_before_reasks_were_recorded_is_upgraded(tmp_path):
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE replies (key TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL,"
        " text TEXT NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL,"
        " finish_reason TEXT, created_at REAL NOT NULL)"
    )
    old.execute("INSERT INTO replies VALUES ('k', 'openai', 'm', 'old', 1, 2, 'stop', 5.0)")
    old.commit()
    old.close()
    cache = ReplyCache(path)
    assert cache.get("k") == CachedReply("old", 1, 2, "stop", 5.0, asks=1)
    cache.put("n", config(), CachedReply("new", 3, 4, None, 6.0, asks=2))
    assert cache.get("n").asks == 2
    cache.close()


def _write_rows(path, worker, n):
    cache = ReplyCache(path)
    for i in range(n):
        cache.put(f"{worker}-{i}", config(), CachedReply(f"text {i}", 1, 1, "stop", 0.0))
    cache.close()


def test_concurrent_writers_threads_and_processes(tmp_path):
    path = tmp_path / "c.sqlite"
    shared = ReplyCache(path)
    threads = [
        threading.Thread(
            target=lambda w=w: [
                shared.put(f"t{w}-{i}", config(), CachedReply("x", 1, 1, None, 0.0))
                for i in range(50)
            ]
        )
        for w in range(4)
    ]
    context = multiprocessing.get_context("spawn")
    procs = [context.Process(target=_write_rows, args=(path, f"p{w}", 50)) for w in range(2)]
    for worker in threads + procs:
        worker.start()
    for worker in threads + procs:
        worker.join(timeout=60)
    assert all(p.exitcode == 0 for p in procs)
    assert len(shared) == 300
    shared.close()
