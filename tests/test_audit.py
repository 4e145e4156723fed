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


def test_audit_command_writes_json_and_the_card_reports_it(fixture_run):
    make, run_dir = fixture_run
    config = make()
    result = runner.invoke(app, ["audit", "-c", str(config)])
    assert result.exit_code == 0, result.output
    assert "too few books" in result.output  # the fixture holds one book per language
    result = runner.invoke(app, ["audit", "-c", str(config), "--group-by", "window"])
    assert result.exit_code == 0, result.output
    audit = json.loads((run_dir / "stats/audit.json").read_text(encoding="utf-8"))
    assert audit["group_by"] == "window" and audit["pairs"] > 0
    assert sum(c["pairs"] for c in audit["summary"]["by_type"].values()) == audit["pairs"]
    assert "type fabrication" in result.output or "type " in result.output
    status = runner.invoke(app, ["build", "-c", str(config)])
    assert status.exit_code == 0, status.output
    card = (run_dir / "export/README.md").read_text(encoding="utf-8")
    assert "## Article-free audit" in card
    assert f"| all | {audit['pairs']} | {audit['summary']['all']['pair_accuracy']}" in card


def test_audit_without_injections_is_a_one_line_error(tmp_path):
    from helpers.builders import release_config

    config = release_config(tmp_path, tmp_path / "empty")
    result = runner.invoke(app, ["audit", "-c", str(config)])
    assert result.exit_code == 1 and "run `longnovel build`" in result.output
