"""``inject.entities: spacy``: spaCy's English recogniser with the lexical evidence (the ``ner``
extra). Tests that run the pipeline skip when it is not installed; the config and the error
for a missing pipeline are tested everywhere."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest
from helpers.builders import build, write_config, write_dir_book
from helpers.injection import NOVEL

from longnovel.config import load_config
from longnovel.errors import ConfigError
from longnovel.injection.nlp.en import ner
from longnovel.injection.nlp.entities import extract_entities


def _installed() -> bool:
    try:
        return ner.available()
    except Exception:  # noqa: BLE001  (a broken install is a missing one here)
        return False


needs_spacy = pytest.mark.skipif(not _installed(), reason="the ner extra is not installed")


def _typed(text: str) -> dict[str, str]:
    return {e["name"]: e["type"] for e in extract_entities(text, "en", backend="spacy")
            if e["type"] in ("person", "place", "org")}


@needs_spacy
def test_spacy_with_the_lexical_evidence():
    got = _typed(NOVEL)
    assert got["Lucy"] == "person" and got["Arthur"] == "person"
    assert got["Herr Vogel"] == "person"
    assert got["Piccadilly"] == "place" and got["Montanvert"] == "place"
    assert not {"Herr", "Madame", "Lives", "Count"} & set(got)


@needs_spacy
def test_spacy_names_own_words_and_initials():
    got = _typed("Wren walked down Cinder Row with Edda. Cinder Row was empty. J.F. signed "
                 "the paper and J.F. left. The Tidewardens' Guild met. The Tidewardens' Guild "
                 "voted.")
    assert got.get("Cinder Row") == "place"
    assert got.get("Tidewardens' Guild") == "org"
    assert "J.F" not in got and "J.F." not in got


@needs_spacy
def test_build_with_spacy_entities(tmp_path):
    text = ("Lucy Marsh walked to Piccadilly with her brother Arthur. Lucy said she was tired. "
            "Arthur said he would fetch a cab. In Piccadilly the crowd was thick. ") * 6
    summary = "Lucy walks to Piccadilly with Arthur. She is tired. He fetches a cab."
    root = tmp_path / "corpus"
    write_dir_book(root, "marsh", {1: (text, summary), 2: (text, summary)})
    config = write_config(tmp_path, [{"path": str(root), "format": "dir", "language": "en"}],
                          tiers={"T": 400}, window={"below": 300, "above": 600},
                          inject={"entities": "spacy", "types": ["entity"]})
    build(config, until="inject")
    rows = pq.read_table(tmp_path / "run" / "inject" / "entities.parquet").to_pylist()
    typed = {(r["name"], r["type"]) for r in rows}
    assert {("Lucy", "person"), ("Arthur", "person"), ("Piccadilly", "place")} <= typed
    assert not any(name == "Piccadilly" and kind == "person" for name, kind in typed)


def test_spacy_is_an_extractor_not_a_model(tmp_path):
    config = write_config(tmp_path, [{"path": str(tmp_path), "format": "dir", "language": "en"}],
                          inject={"entities": "spacy"})
    assert load_config(config).inject.entities == "spacy"
    other = write_config(tmp_path, [{"path": str(tmp_path), "format": "dir", "language": "en"}],
                         inject={"entities": "spacey"})
    with pytest.raises(ConfigError, match="spacey"):
        load_config(other)


def test_a_missing_pipeline_is_a_config_error(monkeypatch):
    monkeypatch.setattr(ner, "PIPELINES", ("no_such_pipeline_installed",))
    ner.pipeline.cache_clear()
    try:
        with pytest.raises(ConfigError, match=r"pip install 'longnovel\[ner\]'"):
            ner.pipeline()
        assert ner.available() is False
    finally:
        ner.pipeline.cache_clear()
