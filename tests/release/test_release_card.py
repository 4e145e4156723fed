"""The dataset card: datasets.load_dataset(export_dir) with a default config and one per tier;
the licence from each book's book.yaml."""

from __future__ import annotations

import pyarrow.parquet as pq
import yaml

from longnovel.release.books import books_section, card_license, hub_id
from longnovel.release.review import exported_rows


def header(export) -> dict:
    return yaml.safe_load((export / "README.md").read_text(encoding="utf-8").split("---\n")[1])


def test_load_dataset_reads_every_tier_by_default_and_one_tier_by_name(built_fixture, tmp_path):
    from datasets import load_dataset

    export = built_fixture / "export"
    rows = exported_rows(built_fixture)
    cache = str(tmp_path / "hf-cache")  # not the user's cache: paths under /tmp recur
    everything = load_dataset(str(export), cache_dir=cache)
    assert set(everything) == {r["split"] for r in rows}
    assert sum(everything[s].num_rows for s in everything) == len(rows)
    assert sorted(everything["test"]["id"]) == sorted(r["id"] for r in rows
                                                      if r["split"] == "test")
    for tier in ("XS", "XS2"):
        one = load_dataset(str(export), tier, split="test", cache_dir=cache)
        assert set(one["tier"]) == {tier}
        assert one.num_rows == pq.read_metadata(export / tier / "test.parquet").num_rows
    names = [c["config_name"] for c in header(export)["configs"]]
    assert names == ["default", "XS", "XS2"]


def test_the_licence_comes_from_the_books(built_fixture):
    export = built_fixture / "export"
    assert header(export)["license"] == "cc-by-4.0"  # both sample books say CC-BY-4.0
    card = (export / "README.md").read_text(encoding="utf-8")
    assert ("| salt-clock | The Salt Clock of Harrowmere | en | CC-BY-4.0 | The Salt Clock of "
            "Harrowmere by longnovel contributors (written for the longnovel project) |") in card
    assert "| song-yan-ji | 松烟记 | zh | CC-BY-4.0 |" in card
    assert "### Why `article` is stored twice" in card


def test_card_licence_fields():
    cc = {"title": "A", "license": "CC-BY-4.0"}
    assert card_license({"a": cc, "b": {**cc, "license": "CC BY 4.0"}}) == {
        "license": "cc-by-4.0"}
    assert card_license({"a": cc, "b": {**cc, "license": "CC0-1.0"}}) == {"license": "other"}
    assert card_license({"a": cc, "b": {"title": "B"}}) == {"license": "other"}
    assert card_license({"a": {"title": "A"}}) == {"license": "unknown"}
    assert card_license({"a": {"license": "Public Domain"}}) == {
        "license": "other", "license_name": "Public Domain"}
    assert hub_id("CC BY-SA 4.0") == "cc-by-sa-4.0" and hub_id("GPL") is None
    table = books_section({"b": {"title": "T|x", "license": "MIT", "attribution": "by Me"},
                           "a": {"title": "S", "author": "Ann"}})
    assert table.splitlines()[-2:] == ["| a | S |  | not stated | S by Ann |",
                                       "| b | T\\|x |  | MIT | by Me |"]


def test_ingest_records_each_book_licence(tmp_path):
    import json

    from helpers.builders import english_units, write_config, write_dir_book

    from longnovel.config import load_config
    from longnovel.pipeline import Pipeline

    root = tmp_path / "corpus"
    write_dir_book(root, "a", english_units(2), {"title": "Alpha", "author": "Ann",
                                                 "license": "CC0-1.0"})
    write_dir_book(root, "b", english_units(2), {"title": "Beta", "license": "MIT",
                                                 "attribution": "Beta, MIT, by Bo"})
    write_dir_book(root, "c", english_units(2))
    config = write_config(tmp_path, [{"path": str(root), "format": "dir", "language": "en"}])
    Pipeline(load_config(config), progress=False).run_stage("ingest", log=lambda m: None)
    books = json.loads((tmp_path / "run/ingest/books.json").read_text(encoding="utf-8"))
    assert books == {
        "a": {"title": "Alpha", "language": "en", "author": "Ann", "license": "CC0-1.0"},
        "b": {"title": "Beta", "language": "en", "license": "MIT",
              "attribution": "Beta, MIT, by Bo"},
        "c": {"title": "c", "language": "en"}}
