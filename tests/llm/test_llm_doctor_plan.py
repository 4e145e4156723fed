import subprocess
import sys

from longnovel.llm import ModelConfig, PlannedRequest, estimate, run_doctor
from longnovel.llm.providers.base import first_line


def test_doctor_sends_one_request_per_model_and_never_prints_keys(llm_server, monkeypatch):
    secret = "sk-doctor-secret-987654321"
    monkeypatch.setenv("DOCTOR_KEY", secret)
    monkeypatch.delenv("DOCTOR_MISSING", raising=False)
    models = {
        "a": ModelConfig(
            provider="openai", model="x", base_url=llm_server.base_url, api_key_env="DOCTOR_KEY"
        ),
        "b": ModelConfig(provider="zhipuai", model="glm", base_url=llm_server.base_url),
        "c": ModelConfig(provider="openai", model="y", api_key_env="DOCTOR_MISSING"),
        "d": ModelConfig(
            provider="openai", model="z", base_url="http://127.0.0.1:9/v1", timeout_s=2
        ),
    }
    llm_server.reply = lambda messages: "OK"
    rows = {row["name"]: row for row in run_doctor(models)}
    assert llm_server.count() == 2
    assert (rows["a"]["key"], rows["a"]["status"], rows["a"]["reply"]) == ("present", "ok", "OK")
    assert rows["a"]["latency_s"] >= 0
    assert (rows["b"]["key"], rows["b"]["status"]) == ("not needed", "ok")
    assert rows["c"]["key"] == "missing" and "DOCTOR_MISSING" in rows["c"]["status"]
    assert rows["d"]["status"].startswith("connection")
    assert secret not in repr(rows)
    assert llm_server.requests[0]["body"]["max_tokens"] == 16


def test_error_lines_mask_the_key_even_where_they_are_cut():
    secret = "sk-0123456789abcdef"
    line = first_line(RuntimeError("x" * 295 + secret + " more\nsecond line"), secret)
    assert line == "x" * 295 + "*** m"  # masked, then cut at 300 characters
    assert first_line(RuntimeError(""), secret) == "RuntimeError"


def test_plan_counts_prompts_in_one_batch_and_prices(word_tokenizer):
    calls = []

    class CountingTokenizer(type(word_tokenizer)):
        def count_batch(self, texts):
            calls.append(len(texts))
            return super().count_batch(texts)

    models = {
        "big": ModelConfig(
            provider="openai",
            model="g",
            max_tokens=100,
            price={"input_per_mtok": 2.5, "output_per_mtok": 10.0},
        ),
        "free": ModelConfig(provider="zhipuai", model="glm"),
    }
    messages = [{"role": "user", "content": "one two three"}]
    planned = [
        PlannedRequest("arbitrate", "big", messages, 50),
        PlannedRequest("arbitrate", "big", messages),
        PlannedRequest("arbitrate", "free", messages, 10),
        PlannedRequest("inject", "big", messages, 20),
    ]
    rows = estimate(planned, models, CountingTokenizer())
    assert calls == [4]
    prompt = 4 + 4 + 3  # "user\none two three", + 4 per message + 3 per prompt (template)
    big = rows[0]
    assert (big["stage"], big["model"], big["requests"]) == ("arbitrate", "big", 2)
    assert (big["prompt_tokens"], big["completion_tokens"]) == (2 * prompt, 150)
    assert big["cost"] == round((2 * prompt * 2.5 + 150 * 10.0) / 1e6, 6)
    assert [(r["stage"], r["model"], r["cost"]) for r in rows[1:]] == [
        ("arbitrate", "free", 0.0),
        ("inject", "big", round((prompt * 2.5 + 200) / 1e6, 6)),
    ]
    assert estimate([], models, word_tokenizer) == []


def test_importing_the_llm_layer_is_cheap():
    code = (
        "import sys, longnovel.llm; from longnovel.llm import Request, ModelConfig;"
        "print(sorted(m for m in ('openai', 'zhipuai', 'transformers', 'tenacity', 'httpx',"
        " 'json_repair', 'aiolimiter', 'tqdm', 'sqlite3') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
