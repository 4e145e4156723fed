"""Human review round-trip: export a sheet, edit it, import it; the next export applies it and
every later re-run keeps it. Bad files give row-numbered errors and record nothing."""

from __future__ import annotations

import csv
import io
import json

import pyarrow.parquet as pq
from typer.testing import CliRunner

from longnovel.cli import app

runner = CliRunner()


def invoke(*args):
    result = runner.invoke(app, [*args])
    assert result.exit_code == 0, result.output
    return result


def read_sheet(path):
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # BOM: spreadsheets read the Chinese text right
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def write_sheet(path, rows):
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    path.write_bytes(buffer.getvalue().encode("utf-8-sig"))


def exported(run_dir):
    return {r["id"]: r for f in run_dir.glob("export/*/*.parquet")
            for r in pq.read_table(f).to_pylist()}


def edited_sheet(tmp_path, config, run_dir):
    sheet = tmp_path / "sheet.csv"
    invoke("review", "export", "-c", str(config), "--tier", "XS", "--split", "test",
           "--out", str(sheet))
    rows = read_sheet(sheet)
    assert {r["tier"] for r in rows} == {"XS"} and len(rows) == len(
        [r for r in exported(run_dir).values() if r["tier"] == "XS" and r["split"] == "test"])
    human = next(r for r in rows if r["source"] == "human" and r["language"] == "zh")
    injected = next(r for r in rows if r["source"] == "injection" and r["changed_span"])
    confirmed = next(r for r in rows if r["source"] == "injection" and r is not injected)
    human.update(corrected_score="1", corrected_label="hallucinated",
                 corrected_types="实体错误, fabrication", note="名字写错了")
    injected.update(corrected_summary="A corrected summary.", corrected_reason="Fixed text.",
                    reviewer="ana")
    confirmed.update(reviewer="ana")
    write_sheet(sheet, rows)
    return sheet, human["id"], injected["id"], confirmed["id"], injected


def test_review_round_trip_survives_every_rerun(fixture_run, tmp_path):
    make, run_dir = fixture_run
    config = make()
    sheet, human, injected, confirmed, injected_row = edited_sheet(tmp_path, config, run_dir)
    article = exported(run_dir)[injected]["article"]
    assert injected_row["excerpt"].strip("…")[:200] in article
    result = invoke("review", "import", str(sheet), "-c", str(config), "--reviewer", "bo")
    assert "recorded 3 review(s)" in result.output
    status = json.loads(invoke("status", "-c", str(config), "--json").output)
    assert {r["stage"]: r["state"] for r in status}["export"] == "stale"
    invoke("build", "-c", str(config), "--no-progress")
    for rerun in ([], ["--force"]):
        if rerun:
            invoke("build", "-c", str(config), "--no-progress", *rerun)
        rows = exported(run_dir)
        h = rows[human]
        assert (h["score"], h["label"], h["hallucination_types"]) == \
            (1, "hallucinated", ["entity", "fabrication"])
        assert h["reviewed"] and h["review_note"] == "名字写错了" and h["reason"] == "名字写错了"
        assert json.loads(h["output"])["hallucination_types"] == ["entity", "fabrication"]
        i = rows[injected]
        assert i["summary"] == "A corrected summary." and i["reviewed"]
        marker = "摘要：\n" if i["language"] == "zh" else "Summary:\n"
        assert i["input"].endswith(marker + "A corrected summary.")
        assert i["reason"] == "Fixed text."
        assert rows[confirmed]["reviewed"] and sum(r["reviewed"] for r in rows.values()) == 3
    records = [json.loads(line) for line in
               (run_dir / "reviews/reviews.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["reviewer"] for r in records} == {"ana", "bo"}
    assert all(r["reviewed_at"] for r in records)
    manifest = json.loads((run_dir / "export/manifest.json").read_text())
    assert manifest["reviews_applied"] == 3
    card_stats = json.loads((run_dir / "export/stats.json").read_text())
    assert card_stats["reviewed"] == 3


def test_bad_review_file_lists_rows_and_records_nothing(fixture_run, tmp_path):
    make, run_dir = fixture_run
    config = make()
    sheet = tmp_path / "sheet.csv"
    invoke("review", "export", "-c", str(config), "-t", "XS", "--out", str(sheet))
    rows = read_sheet(sheet)
    human = [r for r in rows if r["source"] == "human"]
    injected = [r for r in rows if r["source"] == "injection"]
    injected[0].update(id="XS-en-hum-000000000000", note="x")                   # unknown id
    human[0].update(corrected_types="banana")                                    # bad type
    human[1].update(corrected_score="7")                                         # range
    human[2].update(corrected_label="hallucinated")                              # vs score 5
    injected[1].update(note="fine")
    write_sheet(sheet, rows)
    result = runner.invoke(app, ["review", "import", str(sheet), "-c", str(config),
                                 "--reviewer", "bo"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    out = result.output
    line_of = {r["id"]: n for n, r in enumerate(rows, start=2)}
    assert f"row {line_of['XS-en-hum-000000000000']}: unknown id 'XS-en-hum-000000000000'" in out
    assert f"row {line_of[human[0]['id']]}: corrected_types: unknown type(s) banana" in out
    assert f"row {line_of[human[1]['id']]}: corrected_score '7' is out of range" in out
    assert f"row {line_of[human[2]['id']]}: corrected_label 'hallucinated' is inconsistent" in out
    assert "nothing recorded" in out
    assert not (run_dir / "reviews/reviews.jsonl").exists()
    unnamed = runner.invoke(app, ["review", "import", str(sheet), "-c", str(config)])
    assert unnamed.exit_code == 1 and "reviewer" in unnamed.output
