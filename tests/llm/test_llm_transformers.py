"""The transformers provider's plumbing, with a fake model and tokenizer (no torch here)."""

import asyncio

import pytest

from longnovel.errors import ConfigError
from longnovel.llm import LLMRunner, ModelConfig, Request
from longnovel.llm.providers import transformers_provider
from longnovel.llm.providers.transformers_provider import TransformersProvider


class FakeTokenizer:
    eos_token_id = 2
    pad_token_id = None

    def __init__(self):
        self.template_calls = []

    def apply_chat_template(self, messages, **kwargs):
        self.template_calls.append((messages, kwargs))
        return {"input_ids": [[1] * (3 * len(messages))]}

    def decode(self, ids, skip_special_tokens=False):
        return "<think>hm</think>" + " ".join(f"t{i}" for i in ids)


class FakeModel:
    def __init__(self, new_tokens):
        self.new_tokens = new_tokens
        self.generate_calls = []

    def generate(self, input_ids, **kwargs):
        self.generate_calls.append(kwargs)
        return [list(input_ids[0]) + self.new_tokens]


@pytest.fixture
def fake_loaded(monkeypatch):
    loaded = {"model": FakeModel([7, 8, 9]), "tokenizer": FakeTokenizer(), "paths": []}

    def loader(path):
        loaded["paths"].append(path)
        return loaded["model"], loaded["tokenizer"]

    monkeypatch.setattr(transformers_provider, "load_local_model", loader)
    return loaded


def test_runner_through_transformers_provider(fake_loaded, tmp_path, word_tokenizer):
    config = ModelConfig(
        provider="transformers",
        model="/models/qwen",
        max_tokens=3,
        extra_body={"chat_template_kwargs": {"enable_thinking": False}, "repetition_penalty": 1.1},
    )
    runner = LLMRunner(
        {"local": config}, tmp_path / "c.sqlite", word_tokenizer, "t", progress=False
    )
    batch = [Request(f"k{i}", "local", [{"role": "user", "content": f"hi {i}"}]) for i in range(3)]
    results = runner.run(batch)
    assert [r.text for r in results] == ["t7 t8 t9"] * 3
    assert results[0].usage == {"prompt_tokens": 3, "completion_tokens": 3}
    assert results[0].finish_reason == "length"
    assert fake_loaded["paths"] == ["/models/qwen"]  # loaded once, lazily
    _, template_kwargs = fake_loaded["tokenizer"].template_calls[0]
    assert template_kwargs["enable_thinking"] is False and template_kwargs["add_generation_prompt"]
    generate_kwargs = fake_loaded["model"].generate_calls[0]
    assert generate_kwargs == {
        "max_new_tokens": 3,
        "do_sample": False,
        "pad_token_id": 2,
        "repetition_penalty": 1.1,
    }
    assert runner.usage()["local"]["requests"] == 3
    runner.close()


def test_sampling_with_temperature(fake_loaded):
    provider = TransformersProvider(
        ModelConfig(provider="transformers", model="m", temperature=0.7)
    )

    async def ask():
        try:
            return await provider.complete([{"role": "user", "content": "x"}])
        finally:
            await provider.aclose()

    reply = asyncio.run(ask())
    assert reply.finish_reason == "stop"
    assert fake_loaded["model"].generate_calls[0]["temperature"] == 0.7


def test_missing_model_dir_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot load local model|longnovel\\[local\\]"):
        transformers_provider.load_local_model(str(tmp_path / "no-model"))


def test_timeout_covers_generation_only(fake_loaded, tmp_path, word_tokenizer, monkeypatch):
    """Only a request's own generation counts toward timeout_s: not loading the model, nor
    queueing for its one thread behind the other requests."""
    import time

    load = transformers_provider.load_local_model
    model = fake_loaded["model"]
    generate = model.generate

    def load_slowly(path):
        time.sleep(0.6)
        return load(path)

    def generate_slowly(input_ids, **kwargs):
        time.sleep(0.2)
        return generate(input_ids, **kwargs)

    monkeypatch.setattr(transformers_provider, "load_local_model", load_slowly)
    model.generate = generate_slowly
    config = ModelConfig(provider="transformers", model="m", max_concurrency=4, timeout_s=0.5)
    with LLMRunner({"local": config}, tmp_path / "c.sqlite", word_tokenizer, "t",
                   progress=False) as runner:  # fmt: skip
        results = runner.run(
            [Request(f"k{i}", "local", [{"role": "user", "content": f"hi {i}"}]) for i in range(4)]
        )
    assert [r.error for r in results] == [None] * 4
