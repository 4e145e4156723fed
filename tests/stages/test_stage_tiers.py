"""Tiers are the unit of freshness (issue 24, DESIGN.md section 14): a tier's rows and files
depend only on the config, the seed and that tier's windows; building one tier keeps every
other tier's outputs; status after building one tier calls no other tier stale."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
from helpers.builders import english_units, write_config, write_dir_book
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()
TIERS = {"A": 60, "B": 120}


def project(tmp: Path, name: str) -> Path:
    root = tmp / name
    for book in ("ferry", "mill", "quay"):
        write_dir_book(root / "en", book, english_units(12))
    return write_config(root, [{"path": str(root / "en"), "format": "dir", "language": "en"}],
                        tiers=TIERS, inject={"types_per_window": 2})


def cli(*args: str):
    result = runner.invoke(app, [*args])
    assert result.exit_code == 0, result.output
    return result


def release(run_dir: Path, tier: str) -> dict[str, bytes]:
    folder = run_dir / "export" / tier
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def tier_rows(path: Path, tier: str) -> list[dict]:
    return [r for r in pq.read_table(path).to_pylist()
            if r.get("tier", r.get("window_id", "").split(":")[0]) == tier]


def human(run_dir: Path, tier: str) -> list[dict]:
    return [r for split in ("test", "valid")
            for r in tier_rows(run_dir / "export" / tier / f"{split}.parquet", tier)
            if r["source"] == "human"]


def states(config: Path, *tiers: str) -> dict[str, dict]:
    args = ["status", "-c", str(config), "--json"] + [a for t in tiers for a in ("--tier", t)]
    return {r["stage"]: r for r in json.loads(cli(*args).output)}


def test_one_tier_then_another_keeps_both_and_equals_building_both(tmp_path):
    config = project(tmp_path, "p")
    run_dir = config.parent / "run"
    cli("build", "-c", str(config), "--tier", "A", "--no-progress")
    first_a = release(run_dir, "A")
    assert "test.parquet" in first_a and "SHA256SUMS" in first_a
    status = states(config)
    assert {s["state"] for n, s in status.items() if n != "ingest"} == {"missing"}
    assert all("tier B: never built" in s["why"] for n, s in status.items() if n != "ingest")
    assert {s["state"] for s in states(config, "A").values()} == {"fresh"}

    result = cli("build", "-c", str(config), "--tier", "B", "--no-progress")
    assert "(tiers B; others kept)" in result.output
    assert release(run_dir, "A") == first_a  # untouched, byte for byte
    assert {s["state"] for s in states(config).values()} == {"fresh"}
    assert "0 stage(s) run" in cli("build", "-c", str(config), "--no-progress").output

    both = project(tmp_path, "q")
    cli("build", "-c", str(both), "--no-progress")
    other = both.parent / "run"
    for tier in TIERS:
        for rel in ("expand/windows.parquet", "arbitrate/labels.parquet"):
            assert tier_rows(other / rel, tier) == tier_rows(run_dir / rel, tier), (tier, rel)
        assert human(other, tier) == human(run_dir, tier) != []
    card = (run_dir / "export" / "README.md").read_text()
    assert "A/test.parquet" in card and "B/test.parquet" in card
    stats = json.loads((run_dir / "export" / "stats.json").read_text())
    assert set(stats["by_tier"]) == set(TIERS) and all(stats["by_tier"].values())


def test_an_edit_to_one_tier_rebuilds_that_tier_only(tmp_path):
    config = project(tmp_path, "p")
    run_dir = config.parent / "run"
    cli("build", "-c", str(config), "--no-progress")
    before_a = release(run_dir, "A")
    data = config.read_text().replace("B: 120", "B: 130")
    config.write_text(data)
    status = states(config)
    assert status["expand"]["state"] == "stale" and "tier B" in status["expand"]["why"]
    assert states(config, "A")["export"]["state"] == "fresh"
    cli("build", "-c", str(config), "--no-progress")
    assert release(run_dir, "A") == before_a
    manifest = json.loads((run_dir / "expand" / "manifest.json").read_text())
    assert manifest["ran_tiers"] == ["B"] and manifest["tiers"]["B"]["target"] == 130


def test_a_tier_built_alone_exports_what_building_every_tier_exports(tmp_path):
    alone, both = project(tmp_path, "p"), project(tmp_path, "q")
    cli("build", "-c", str(alone), "--tier", "B", "--no-progress")
    cli("build", "-c", str(both), "--no-progress")
    assert release(alone.parent / "run", "B") == release(both.parent / "run", "B")


def test_arbitration_of_a_second_tier_asks_only_for_it_and_keeps_the_first(servers, tmp_path):
    import yaml
    from helpers.arbitration import arbitration_config, total_requests

    def configured(folder: Path) -> Path:
        folder.mkdir()
        config = arbitration_config(folder, servers)
        data = yaml.safe_load(config.read_text())
        data["tiers"] = {"A": 60, "B": 120}
        data["cache"] = str(tmp_path / "cache.sqlite")  # one cache for both projects
        config.write_text(yaml.safe_dump(data))
        return config

    config = configured(tmp_path / "p")
    run_dir = tmp_path / "p" / "run"
    cli("build", "-c", str(config), "--tier", "A", "--no-progress")
    after_a = total_requests(servers)
    first = {name: tier_rows(run_dir / "arbitrate" / name, "A")
             for name in ("summaries.parquet", "judgments.parquet", "labels.parquet")}
    assert all(first.values())
    cli("build", "-c", str(config), "--tier", "B", "--no-progress")
    for name, rows in first.items():
        assert tier_rows(run_dir / "arbitrate" / name, "A") == rows, name
    both = configured(tmp_path / "q")
    before = total_requests(servers)
    cli("build", "-c", str(both), "--no-progress")  # the same cache: every reply is there
    assert total_requests(servers) == before
    for name in first:
        for tier in ("A", "B"):
            assert tier_rows(tmp_path / "q" / "run" / "arbitrate" / name, tier) == \
                tier_rows(run_dir / "arbitrate" / name, tier), (name, tier)
    assert after_a < before  # B's requests were sent by the second build only


def test_a_kept_tier_edited_by_hand_is_dropped_not_carried_along(tmp_path):
    import pyarrow as pa

    config = project(tmp_path, "p")
    run_dir = config.parent / "run"
    cli("build", "-c", str(config), "--tier", "A", "--no-progress")
    path = run_dir / "inject" / "injections.parquet"
    table = pq.read_table(path)
    edited = [s + " EDITED" for s in table.column("summary").to_pylist()]
    pq.write_table(table.set_column(table.schema.get_field_index("summary"), "summary",
                                    pa.array(edited)), path)
    result = cli("build", "-c", str(config), "--tier", "B", "--no-progress")
    assert "inject: tier A's rows in injections.parquet were changed outside longnovel" \
        in result.output
    assert tier_rows(path, "A") == [] and tier_rows(path, "B")
    status = states(config, "A")
    assert status["inject"]["state"] == "missing" and status["export"]["state"] == "stale"
    cli("build", "-c", str(config), "--no-progress")
    assert not any(r["summary"].endswith(" EDITED") for r in tier_rows(path, "A"))
    assert {s["state"] for s in states(config).values()} == {"fresh"}
