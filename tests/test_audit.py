"""longnovel audit: the article-free baseline, grouped by book, and what the card shows."""

from __future__ import annotations

import json
import random

from typer.testing import CliRunner

from longnovel.audit import audit_table, compute_audit
from longnovel.cli import app

runner = CliRunner()
WORDS = ["river", "lantern", "harbour", "widow", "letter", "orchard", "bell", "tower", "ferry",
         "clerk", "debt", "storm", "mill", "cellar", "ledger", "candle"]


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(8)).capitalize() + "."


def _pairs(books: int, tell: str | None, per_book: int = 12) -> list[dict]:
    """Pairs whose injected summary adds one sentence: ``tell`` in it, or a sentence of the
    same kind as the rest when ``tell`` is None."""
    rng = random.Random(7)
    pairs = []
    for b in range(books):
        for n in range(per_book):
            original = " ".join(_sentence(rng) for _ in range(4))
            added = f"{tell} {_sentence(rng).lower()}" if tell else _sentence(rng)
            pairs.append({"language": "en", "book_id": f"book{b}", "tier": "S",
                          "type": "fabrication" if n % 2 else "causal", "subtype": "continue",
                          "original_summary": original, "summary": original + " " + added,
                          "original_sentence": original.split(". ")[-1], "new_sentence": added})
    return pairs


def test_a_fixed_template_is_found_across_books():
    result = compute_audit(_pairs(4, tell="Because of this, he felt a pang of jealousy."))
    assert result["groups"] == 4 and result["pairs"] == 48
    assert result["summary"]["all"]["pair_accuracy"] == 1.0
    assert result["sentence"]["by_type"]["causal"]["pair_accuracy"] == 1.0
    assert set(result["summary"]["by_subtype"]) == {"causal/continue", "fabrication/continue"}
    top = [g["ngram"] for g in result["shortcuts"]["en"]["injected"][:20]]
    assert any(gram.strip() and gram.strip() in "because of this, pang jealousy" for gram in top)


def test_an_added_sentence_of_the_same_kind_is_near_chance():
    result = compute_audit(_pairs(4, tell=None))
    assert 0.3 <= result["sentence"]["all"]["pair_accuracy"] <= 0.7


def test_one_book_per_language_gives_no_figure():
    result = compute_audit(_pairs(1, tell="Because of this,"))
    assert result["pairs"] == 0 and result["too_few_books"] == {"en": 1}
    assert "too few books" in audit_table(result)


def _states(config) -> dict[str, str]:
    result = runner.invoke(app, ["status", "-c", str(config), "--json"])
    assert result.exit_code == 0, result.output
    return {row["stage"]: row["state"] for row in json.loads(result.output)}


def test_audit_writes_json_rewrites_only_the_card_and_export_stays_fresh(fixture_run):
    make, run_dir = fixture_run
    config = make()
    card_path = run_dir / "export/README.md"
    assert "## Article-free audit" not in card_path.read_text(encoding="utf-8")
    before = {p.name: p.read_bytes() for p in (run_dir / "export").rglob("*") if p.is_file()}
    result = runner.invoke(app, ["audit", "-c", str(config)])
    assert result.exit_code == 0, result.output
    assert "too few books" in result.output  # the fixture holds one book per language
    result = runner.invoke(app, ["audit", "-c", str(config), "--group-by", "window"])
    assert result.exit_code == 0, result.output
    assert "release: wrote the dataset card" in result.output
    audit = json.loads((run_dir / "stats/audit.json").read_text(encoding="utf-8"))
    assert audit["group_by"] == "window" and audit["pairs"] > 0
    assert sum(c["pairs"] for c in audit["summary"]["by_type"].values()) == audit["pairs"]
    assert "type fabrication" in result.output or "type " in result.output
    card = card_path.read_text(encoding="utf-8")
    assert "## Article-free audit" in card
    assert f"| all | {audit['pairs']} | {audit['summary']['all']['pair_accuracy']}" in card
    assert set(_states(config).values()) == {"fresh"}
    text = runner.invoke(app, ["status", "-c", str(config)]).output
    assert "dataset card export/README.md: fresh" in text
    after = {p.name: p.read_bytes() for p in (run_dir / "export").rglob("*") if p.is_file()}
    assert [name for name in before if before[name] != after[name]] == ["README.md"]
    rebuilt = runner.invoke(app, ["build", "-c", str(config)])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "done: 0 stage(s) run" in rebuilt.output and "release:" not in rebuilt.output
    assert card_path.read_text(encoding="utf-8") == card


def test_audit_without_injections_is_a_one_line_error(tmp_path):
    from helpers.builders import release_config

    config = release_config(tmp_path, tmp_path / "empty")
    result = runner.invoke(app, ["audit", "-c", str(config)])
    assert result.exit_code == 1 and "run `longnovel build`" in result.output
