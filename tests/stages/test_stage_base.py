"""Streamed Parquet outputs: row groups, atomic rename, nothing left by a failed stage, and
reads limited to columns and tiers."""

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from longnovel.config import Config
from longnovel.stages.base import StageContext
from longnovel.state import TableWriter, sha256_file

SCHEMA = pa.schema([("tier", pa.string()), ("n", pa.int64())])


def test_table_writer_writes_row_groups_and_renames_on_commit(tmp_path):
    target = tmp_path / "out" / "t.parquet"
    writer = TableWriter(target, SCHEMA, row_group_size=64)
    writer.write_rows({"tier": "S", "n": i} for i in range(150))
    assert not target.exists()  # nothing in place before the commit
    digest = writer.commit()
    assert digest == sha256_file(target)
    meta = pq.ParquetFile(target).metadata
    assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [64, 64, 22]
    assert pq.read_table(target).column("n").to_pylist() == list(range(150))
    assert list(target.parent.iterdir()) == [target]


def test_discarded_writer_leaves_nothing(tmp_path):
    writer = TableWriter(tmp_path / "t.parquet", SCHEMA)
    writer.write_rows([{"tier": "S", "n": 1}])
    writer.discard()
    assert list(tmp_path.iterdir()) == []


def _ctx(tmp_path: Path) -> StageContext:
    config = Config.model_validate({"run_dir": str(tmp_path),
                                    "corpus": [{"path": "p", "format": "dir", "language": "en"}]})
    return StageContext(config, tmp_path, None, False, stage="export")


def test_read_keeps_only_the_asked_tiers_and_columns(tmp_path):
    rows = [{"window_id": f"{t}:{i}", "tier": t, "article": "x" * 10}
            for t in ("S", "M", "L") for i in range(3)]
    (tmp_path / "expand").mkdir()
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "expand" / "windows.parquet",
                   row_group_size=3)
    table = _ctx(tmp_path).read("expand/windows.parquet", ["window_id", "tier"], tiers=["M", "L"])
    assert table.column_names == ["window_id", "tier"]
    assert table.column("window_id").to_pylist() == ["M:0", "M:1", "M:2", "L:0", "L:1", "L:2"]


def test_a_stage_writer_is_removed_when_the_stage_fails(tmp_path, monkeypatch):
    from longnovel.pipeline import Pipeline
    from longnovel.stages import export

    def failing_run(ctx):
        ctx.writer("S/test.parquet", SCHEMA).write_rows([{"tier": "S", "n": 1}])
        raise RuntimeError("boom")

    monkeypatch.setattr(export, "run", failing_run)
    config = Config.model_validate({"run_dir": str(tmp_path),
                                    "corpus": [{"path": "p", "format": "dir", "language": "en"}]})
    with pytest.raises(RuntimeError, match="boom"):
        Pipeline(config, progress=False).run_stage("export", log=lambda m: None)
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and "export" in p.parts]
