"""Reading datasets in the release format: JSON, JSONL, Parquet, our columns, clear errors."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers.evaluation import RELEASE_SAMPLE, TYPES_BY_ID, WordTokenizer, release_rows, write_jsonl

from longnovel.evaluation.datasets import DatasetError, TierRule, load_file

RULE = TierRule({"short": 100, "long": 160}, below=10, above=20)
WORDS = WordTokenizer()  # en articles: 109 and 173 words; the zh article is one "word"


def load(path):
    return load_file(path, RULE, WORDS)


def test_official_fixture_maps_display_names_and_counts_unmapped():
    dataset = load(RELEASE_SAMPLE)
    rows = {r["id"]: r for r in dataset.rows}
    assert len(rows) == 12
    assert {i: r["hallucination_types"] for i, r in rows.items() if r["score"] < 3} == TYPES_BY_ID
    assert {r["score"] for i, r in rows.items() if i.endswith("-0")} == {5}
    assert all(r["hallucination_types"] == [] for i, r in rows.items() if i.endswith("-0"))
    assert dataset.unmapped_types == {"Tone Drift": 1}
    assert rows["rel-en-1-0"]["source"] is None
    # four samples share each article, so each article is one window
    assert len({r["window"] for r in dataset.rows}) == 3


def test_tier_is_derived_from_the_token_count():
    rows = {r["id"]: r for r in load(RELEASE_SAMPLE).rows}
    assert rows["rel-en-1-0"]["n_tokens"] == 109 and rows["rel-en-2-0"]["n_tokens"] == 173
    assert rows["rel-en-1-0"]["tier"] == "short"  # inside [90, 120]
    assert rows["rel-en-2-0"]["tier"] == "long"  # inside [150, 180]
    # 1 is in no range: the nearest target on a log scale
    assert rows["rel-zh-1-0"]["n_tokens"] == 1 and rows["rel-zh-1-0"]["tier"] == "short"


def test_tier_rule_prefers_the_range_then_the_nearest_target():
    rule = TierRule({"S": 16000, "M": 32000, "L": 64000, "XL": 100000})
    assert [rule.tier_of(n) for n in (14000, 20000, 25000, 30000, 104000, 500)] == \
        ["S", "S", "M", "M", "XL", "S"]


def test_json_jsonl_in_json_and_parquet_read_the_same(tmp_path):
    rows = release_rows()
    as_list = tmp_path / "list.json"
    as_list.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    lines_in_json = write_jsonl(tmp_path / "lines.json", rows)
    parquet = tmp_path / "rows.parquet"
    pq.write_table(pa.Table.from_pylist(rows), parquet)
    want = [{k: v for k, v in r.items()} for r in load(RELEASE_SAMPLE).rows]
    for path in (as_list, lines_in_json, parquet):
        assert load(path).rows == want, path


def test_our_own_columns_win_over_output(tmp_path):
    rows = release_rows()[:2]
    rows[0].update(tier="XS", n_tokens=4000, source="human")
    rows[1].update(tier="XS", n_tokens=4000, source="injection", score=1,
                   hallucination_types=["entity"])
    got = load(write_jsonl(tmp_path / "ours.jsonl", rows)).rows
    assert [(r["tier"], r["n_tokens"], r["source"]) for r in got] == \
        [("XS", 4000, "human"), ("XS", 4000, "injection")]
    assert (got[1]["score"], got[1]["hallucination_types"]) == (1, ["entity"])


@pytest.mark.parametrize("change, message", [
    (lambda r: r.pop("output"), "line 3: missing field(s) output"),
    (lambda r: r.update(summary=None, input=None), "line 3: missing field(s) summary, input"),
    (lambda r: r.update(output="{score: two"), "line 3: output is not JSON"),
    (lambda r: r.update(output='["not", "an", "object"]'), "line 3: output is not a JSON object"),
    (lambda r: r.update(output='{"reason": "no score"}'), "line 3: output has no score 0-5"),
    (lambda r: r.update(output='{"score": 9}'), "line 3: output has no score 0-5"),
])
def test_bad_rows_name_the_file_and_row(tmp_path, change, message):
    rows = release_rows()
    change(rows[2])
    path = write_jsonl(tmp_path / "bad.jsonl", rows)
    with pytest.raises(DatasetError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}: {message}")
    assert "\n" not in str(caught.value)


def test_bad_files_are_one_clear_error(tmp_path):
    broken = tmp_path / "broken.jsonl"
    broken.write_text(RELEASE_SAMPLE.read_text(encoding="utf-8") + "{oops\n", encoding="utf-8")
    cases = {broken: "line 13: not valid JSON", tmp_path / "x.csv": "unknown format",
             tmp_path / "missing.json": "no such file"}
    (tmp_path / "x.csv").write_text("id\n", encoding="utf-8")
    (tmp_path / "empty.jsonl").write_text("\n", encoding="utf-8")
    cases[tmp_path / "empty.jsonl"] = "no samples"
    (tmp_path / "bad.parquet").write_bytes(b"not parquet")
    cases[tmp_path / "bad.parquet"] = "not a readable Parquet file"
    (tmp_path / "object.json").write_text('{"id": 1}', encoding="utf-8")
    cases[tmp_path / "object.json"] = "expected a JSON list"
    for path, message in cases.items():
        with pytest.raises(DatasetError, match=message):
            load(path)


def test_select_limits_tiers_and_names_a_missing_one():
    dataset = load(RELEASE_SAMPLE)
    assert {r["tier"] for r in dataset.select(["short"]).rows} == {"short"}
    with pytest.raises(Exception, match=r"no samples for tier\(s\) \['XL'\]"):
        dataset.select(["XL"])
