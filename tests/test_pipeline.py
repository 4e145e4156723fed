"""Expand, export and the staged runner: exact windows, fingerprints, re-runs, status."""

import json
from pathlib import Path

import pyarrow.parquet as pq
import yaml
from helpers.builders import english_units, write_config, write_dir_book
from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.tokenizer import load_tokenizer

runner = CliRunner()


def corpus(tmp: Path) -> list[dict]:
    write_dir_book(tmp / "en", "ferry", english_units(12))
    write_dir_book(tmp / "en", "lighthouse", english_units(7))
    zh = {i: ("他们在渡口等了三天。\n\n“船什么时候来？”她问。" * 3, f"第{i}段摘要。")
          for i in range(1, 9)}
    write_dir_book(tmp / "zh", "dukou", zh)
    return [{"path": str(tmp / "en"), "format": "dir", "language": "en"},
            {"path": str(tmp / "zh"), "format": "dir", "language": "zh"}]


def invoke(*args):
    quiet = [] if args[0] == "status" else ["--no-progress"]
    result = runner.invoke(app, [*args, *quiet])
    assert result.exit_code == 0, result.output
    return result


def snapshot(run_dir: Path) -> dict[str, int]:
    """Modification times of the stage outputs (not the lock and the digest cache)."""
    return {str(p.relative_to(run_dir)): p.stat().st_mtime_ns
            for p in run_dir.rglob("*") if p.is_file() and not p.name.startswith(".")
            and ".state" not in p.parts}


def test_windows_are_exact_in_range_and_disjoint(tmp_path):
    config = write_config(tmp_path, corpus(tmp_path), tiers={"A": 60, "B": 150})
    invoke("build", "-c", str(config), "--until", "expand")
    windows = pq.read_table(tmp_path / "run/expand/windows.parquet").to_pylist()
    tok = load_tokenizer("qwen3")
    assert windows and {w["tier"] for w in windows} == {"A", "B"}
    assert [w["n_tokens"] for w in windows] == tok.count_batch([w["article"] for w in windows])
    for w in windows:
        low, high = w["target_tokens"] - 20, w["target_tokens"] + 40
        assert low <= w["n_tokens"] <= high
    for tier in ("A", "B"):
        seen: dict[str, int] = {}
        for w in (w for w in windows if w["tier"] == tier):
            assert w["unit_start"] > seen.get(w["book_id"], 0)
            seen[w["book_id"]] = w["unit_end"]
    units = pq.read_table(tmp_path / "run/ingest/units.parquet").to_pylist()
    first = windows[0]
    parts = [u for u in units if u["book_id"] == first["book_id"]
             and first["unit_start"] <= u["unit_index"] <= first["unit_end"]]
    assert first["article"] == "\n\n".join(u["text"] for u in parts)
    assert first["reference_summary"] == "\n\n".join(u["summary"] for u in parts)


def test_caps_sample_with_the_seed_across_books(tmp_path):
    config = write_config(tmp_path, corpus(tmp_path),
                          window={"below": 20, "above": 40, "max_per_tier": 4, "max_per_book": 2})
    invoke("build", "-c", str(config), "--until", "expand")
    first = pq.read_table(tmp_path / "run/expand/windows.parquet").to_pylist()
    assert len(first) == 4
    assert max(sum(w["book_id"] == b for w in first) for b in {w["book_id"] for w in first}) <= 2
    invoke("expand", "-c", str(config), "--force")
    again = pq.read_table(tmp_path / "run/expand/windows.parquet").to_pylist()
    assert [w["window_id"] for w in again] == [w["window_id"] for w in first]


def test_rerun_rewrites_nothing_and_edits_rerun_only_what_they_touch(tmp_path):
    config = write_config(tmp_path, corpus(tmp_path))
    invoke("build", "-c", str(config))
    run_dir = tmp_path / "run"
    before = snapshot(run_dir)
    result = invoke("build", "-c", str(config))
    assert snapshot(run_dir) == before
    assert "ingest: fresh, skipped" in result.output
    data = yaml.safe_load(config.read_text())
    data["tiers"] = {"T": 150}  # other windows, so everything after expand re-runs
    config.write_text(yaml.safe_dump(data))
    status = json.loads(invoke("status", "-c", str(config), "--json").output)
    assert {r["stage"]: r["state"] for r in status}["ingest"] == "fresh"
    assert {r["stage"]: r["state"] for r in status}["expand"] == "stale"
    invoke("build", "-c", str(config))
    after = snapshot(run_dir)
    assert after["ingest/manifest.json"] == before["ingest/manifest.json"]
    assert after["ingest/units.parquet"] == before["ingest/units.parquet"]
    assert after["expand/manifest.json"] != before["expand/manifest.json"]
    assert after["export/manifest.json"] != before["export/manifest.json"]
    status = json.loads(invoke("status", "-c", str(config), "--json").output)
    assert {r["state"] for r in status} == {"fresh"}


def test_export_human_samples_splits_by_book_and_stable_ids(tmp_path):
    # no mix: every window's human summary is exported, whether or not an injection pairs it
    # (the rules change no "1" of "crossed 1 times")
    config = write_config(tmp_path, corpus(tmp_path),
                          export={"splits": {"test": 0.5, "valid": 0.5}, "mix": None})
    invoke("build", "-c", str(config))
    export = tmp_path / "run" / "export"
    rows = [r for f in sorted(export.glob("T/*.parquet")) for r in pq.read_table(f).to_pylist()]
    human = [r for r in rows if r["source"] == "human"]
    windows = pq.read_table(tmp_path / "run/expand/windows.parquet").to_pylist()
    assert len(human) == len(windows)
    assert all(r["score"] == 5 and r["label"] == "consistent" for r in human)
    books = {}
    for r in rows:
        assert books.setdefault(r["book_id"], r["split"]) == r["split"]
        marker = "摘要：" if r["language"] == "zh" else "Summary:"
        assert r["input"] == f"{r['article']}\n\n{marker}\n{r['summary']}"
        out = json.loads(r["output"])
        assert out["score"] == r["score"] and out["reason"] == r["reason"]
        assert ("hallucination_types" in out) == (r["score"] < 3)
    assert len({r["id"] for r in rows}) == len(rows)
    stats = json.loads((export / "stats.json").read_text())
    assert stats["samples"] == len(rows)
    card = (export / "README.md").read_text()
    assert card.startswith("---\n") and "config_name: T" in card
    ids = sorted(r["id"] for r in rows)
    invoke("build", "-c", str(config), "--force")
    again = [r["id"] for f in export.glob("T/*.parquet") for r in pq.read_table(f).to_pylist()]
    assert sorted(again) == ids


def test_run_dir_belongs_to_one_config(tmp_path):
    config = write_config(tmp_path, corpus(tmp_path))
    invoke("build", "-c", str(config), "--until", "ingest")
    other = tmp_path / "other.yaml"
    other.write_text(config.read_text())
    result = runner.invoke(app, ["build", "-c", str(other), "--no-progress"])
    assert result.exit_code == 1 and "belongs to config" in result.output
    assert "Traceback" not in result.output


def test_unknown_tier_is_a_one_line_error(tmp_path):
    config = write_config(tmp_path, corpus(tmp_path))
    result = runner.invoke(app, ["build", "-c", str(config), "--tier", "Q"])
    assert result.exit_code == 1 and "unknown tier" in result.output


def test_direct_counting_fallback_gives_the_same_windows(tmp_path, monkeypatch):
    """Tokenizers without Qwen's pre-tokenizer count each candidate window directly."""
    import dataclasses

    from longnovel import tokenizer as tokmod
    from longnovel.config import load_config
    from longnovel.pipeline import Pipeline

    config = write_config(tmp_path, corpus(tmp_path), tiers={"A": 60, "B": 150})
    invoke("build", "-c", str(config), "--until", "expand")
    fast = pq.read_table(tmp_path / "run/expand/windows.parquet").to_pylist()
    slow_tok = dataclasses.replace(load_tokenizer("qwen3"), joins_are_local=False)
    monkeypatch.setattr(tokmod, "load_tokenizer", lambda spec: slow_tok)
    pipeline = Pipeline(load_config(config, str(tmp_path / "slow")), progress=False)
    pipeline.build(until="expand", log=lambda m: None)
    slow = pq.read_table(tmp_path / "slow/expand/windows.parquet").to_pylist()
    assert slow == fast and fast


def test_exported_injections_carry_their_own_summary_and_input(tmp_path):
    """Export keeps an injected sample light (its row number, not its summary) until the row
    is written: what is written must be that row's summary, inside that window's input."""
    config = write_config(tmp_path, corpus(tmp_path), tiers={"A": 60, "B": 150},
                          export={"mix": None})
    invoke("build", "-c", str(config))
    run_dir = tmp_path / "run"
    injected = {(r["window_id"], r["summary"]) for r in
                pq.read_table(run_dir / "inject/injections.parquet").to_pylist() if r["valid"]}
    # (two books of this corpus share their texts: a window is found by book and article)
    by_article = {(w["book_id"], w["article"]): w["window_id"]
                  for w in pq.read_table(run_dir / "expand/windows.parquet").to_pylist()}
    rows = [r for f in sorted((run_dir / "export").glob("*/*.parquet"))
            for r in pq.read_table(f).to_pylist() if r["source"] == "injection"]
    assert len(rows) == len(injected) > 0
    for row in rows:
        window = by_article[(row["book_id"], row["article"])]
        assert row["summary"] and (window, row["summary"]) in injected
        assert row["input"].startswith(row["article"]) and row["input"].endswith(row["summary"])
