"""The command line as a user meets it: version, -h, help without type placeholders, config
mistakes named by file, line and likely key, every missing key at once, doctor's URL."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

from longnovel import __version__
from longnovel.cli import app

runner = CliRunner()
CORPUS = "corpus:\n  - {path: c, format: dir, language: en}\n"


def all_command_paths() -> list[list[str]]:
    root = typer.main.get_command(app)
    paths = [[]]
    for name, command in root.commands.items():
        paths.append([name])
        if hasattr(command, "commands"):
            paths += [[name, sub] for sub in command.commands]
    return paths


def test_version_and_short_help():
    for flag in ("--version", "-V"):
        result = runner.invoke(app, [flag])
        assert result.exit_code == 0 and result.output.strip() == f"longnovel {__version__}"
    short = runner.invoke(app, ["build", "-h"])
    assert short.exit_code == 0 and short.output == runner.invoke(app, ["build", "--help"]).output


def test_help_has_no_type_placeholders_and_wraps_whole_words():
    paths = all_command_paths()
    assert ["review", "import"] in paths and ["init"] in paths
    for path in paths:
        result = runner.invoke(app, [*path, "--help"], terminal_width=100)
        assert result.exit_code == 0, path
        assert "<bool>" not in result.output, path
        heads = [line.strip().split("  ")[0] for line in result.output.splitlines()
                 if line.startswith("  -")]
        assert heads and not [h for h in heads if "<" in h], (path, heads)
        for line in result.output.splitlines():
            assert len(line) <= 100, line
    build = runner.invoke(app, ["build", "--help"], terminal_width=100).output
    assert "-t, --tier TIER" in build and "--force  " in build
    # a docstring paragraph is re-flowed, not cut where the source line ended
    assert "run it again to re-send only those" in " ".join(build.split())


def write(tmp_path, text: str):
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(config) -> str:
    result = runner.invoke(app, ["status", "-c", str(config)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def test_a_key_typo_names_file_line_and_the_likely_key(tmp_path):
    config = write(tmp_path, CORPUS + "inject:\n  generator: rules\n  type_per_window: 2\n")
    assert error_of(config) == (f"error: {config}:5: unknown key 'inject.type_per_window' "
                                "(did you mean 'types_per_window'?)")
    config = write(tmp_path, CORPUS + "models:\n  a: {provider: openai, model: x,\n"
                   "      max_concurency: 3}\n")
    assert error_of(config) == (f"error: {config}:5: unknown key 'models.a.max_concurency' "
                                "(did you mean 'max_concurrency'?)")
    config = write(tmp_path, CORPUS + "zzz: 1\n")
    assert error_of(config) == f"error: {config}:3: unknown key 'zzz'"


def test_an_enum_typo_lists_the_allowed_values(tmp_path):
    config = write(tmp_path, "corpus:\n  - {path: c, format: dirr, language: en}\n")
    assert error_of(config) == (f"error: {config}:2: corpus.0.format: 'dirr' is not allowed; "
                                "use one of: dir, table, booksum")
    config = write(tmp_path, CORPUS + "export:\n  mix: balance\n")
    line = error_of(config)
    assert line.startswith(f"error: {config}:4: export.mix: 'balance' is not allowed")
    assert "balanced" in line and "dict[" not in line and "literal[" not in line
    config = write(tmp_path, CORPUS + "window: {below: many}\n")
    assert error_of(config) == f"error: {config}:3: window.below: expected an integer, got 'many'"


def test_broken_yaml_gives_the_line(tmp_path):
    config = write(tmp_path, CORPUS + "tiers: {S: 16000\nseed: 3\n")
    line = error_of(config)
    assert line.startswith(f"error: {config}:4: not valid YAML: ")
    assert line.endswith("(while parsing a flow mapping opened on line 3)")
    config = write(tmp_path, CORPUS + "seed: 3\nunits: x: y\n")
    assert error_of(config).startswith(f"error: {config}:4: not valid YAML")


def test_every_missing_key_is_named_at_once(fixture_run, monkeypatch):
    make, _ = fixture_run
    monkeypatch.delenv("LN_TEST_KEY_ONE", raising=False)
    monkeypatch.delenv("LN_TEST_KEY_TWO", raising=False)
    models = {name: {"provider": "openai", "model": name, "base_url": "http://127.0.0.1:9/v1",
                     "api_key_env": var}
              for name, var in (("one", "LN_TEST_KEY_ONE"), ("two", "LN_TEST_KEY_TWO"))}
    config = make(models=models, arbitrate={"summarizers": ["one", "two"],
                                            "judges": ["one", "two"]})
    result = runner.invoke(app, ["build", "-c", str(config), "--no-progress"])
    assert result.exit_code == 1
    assert ("error: models 'one', 'two' need API keys: set the environment variables "
            "LN_TEST_KEY_ONE, LN_TEST_KEY_TWO") in result.output


def test_doctor_names_the_url_it_could_not_reach(tmp_path):
    url = "http://127.0.0.1:9/v1"
    config = write(tmp_path, CORPUS + "models:\n  local: {provider: openai, model: m, "
                   f"base_url: '{url}', max_retries: 0, timeout_s: 5}}\n")
    result = runner.invoke(app, ["doctor", "-c", str(config)])
    assert result.exit_code == 1
    row = next(line for line in result.output.splitlines() if "model local" in line)
    assert url in row and "connection" in row.lower()
