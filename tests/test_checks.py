"""``doctor`` and ``plan`` through the CLI against the local OpenAI-compatible server."""

import json

from helpers.builders import english_units, write_config, write_dir_book
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()
SECRET = "sk-test-not-a-real-key-4242"


def models_for(server):
    return {
        "alpha": {"provider": "openai", "model": "alpha-1", "base_url": server.base_url,
                  "api_key_env": "LN_TEST_OPENAI_KEY",
                  "price": {"input_per_mtok": 2.0, "output_per_mtok": 8.0}},
        "glm": {"provider": "zhipuai", "model": "glm-test", "base_url": server.base_url,
                "api_key_env": "LN_TEST_ZHIPU_KEY"},
    }


def config_with_models(tmp_path, server, **extra):
    write_dir_book(tmp_path / "en", "ferry", english_units(8))
    corpus = [{"path": str(tmp_path / "en"), "format": "dir", "language": "en"}]
    return write_config(tmp_path, corpus, models=models_for(server), **extra)


def test_doctor_sends_one_request_per_model_and_never_prints_the_key(
        tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("LN_TEST_OPENAI_KEY", SECRET)
    monkeypatch.setenv("LN_TEST_ZHIPU_KEY", SECRET + ".zz")
    config = config_with_models(tmp_path, llm_server)
    result = runner.invoke(app, ["doctor", "-c", str(config)])
    assert result.exit_code == 0, result.output
    assert llm_server.count() == 2
    assert "model alpha" in result.output and "model glm" in result.output
    assert "key present" in result.output and SECRET not in result.output


def test_doctor_with_a_key_unset_exits_1_naming_the_variable(tmp_path, llm_server, monkeypatch):
    monkeypatch.setenv("LN_TEST_OPENAI_KEY", SECRET)
    monkeypatch.delenv("LN_TEST_ZHIPU_KEY", raising=False)
    config = config_with_models(tmp_path, llm_server)
    result = runner.invoke(app, ["doctor", "-c", str(config)])
    assert result.exit_code == 1
    assert "LN_TEST_ZHIPU_KEY" in result.output
    assert llm_server.count() == 1  # only the model whose key is there


def test_plan_estimates_tokens_and_cost_and_sends_nothing(tmp_path, llm_server, monkeypatch):
    monkeypatch.delenv("LN_TEST_OPENAI_KEY", raising=False)
    config = config_with_models(tmp_path, llm_server,
                                inject={"generator": "alpha", "types_per_window": 3})
    result = runner.invoke(app, ["plan", "-c", str(config), "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout[result.stdout.index("["):])
    assert llm_server.count() == 0
    (row,) = rows
    import pyarrow.parquet as pq

    assert not (tmp_path / "run/expand").exists()  # planning writes no stage output
    built = runner.invoke(app, ["build", "-c", str(config), "--until", "expand", "--no-progress"])
    assert built.exit_code == 0, built.output
    windows = pq.read_table(tmp_path / "run/expand/windows.parquet").num_rows
    assert row["stage"] == "inject" and row["model"] == "alpha"
    # one request per (window, type) for which the program finds a sentence to rewrite: the
    # generator never asks about a type that does not apply to the summary
    assert 0 < row["requests"] <= windows * 3 and row["prompt_tokens"] > row["requests"] * 50
    expected = (row["prompt_tokens"] * 2.0 + row["completion_tokens"] * 8.0) / 1e6
    assert abs(row["cost"] - expected) < 1e-6
    table = runner.invoke(app, ["plan", "-c", str(config), "--no-progress"])
    assert table.exit_code == 0 and "total" in table.stdout and llm_server.count() == 0
