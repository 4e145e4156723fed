"""Built-in detectors (--model baseline:NAME): no server, no key; values checked."""

from __future__ import annotations

import json
import random

import pyarrow.parquet as pq
import pytest
from helpers.evaluation import write_jsonl
from typer.testing import CliRunner

from longnovel.cli import app
from longnovel.evaluation.baselines import lexical
from longnovel.evaluation.baselines.lexical import ArticleIndex, weakest_sentence
from longnovel.evaluation.baselines.scale import best_threshold, score_of
from longnovel.evaluation.baselines.training import fit_folds
from longnovel.evaluation.datasets import dataset_name
from longnovel.taxonomy import TYPE_IDS

runner = CliRunner()
BASELINES = ["baseline:random", "baseline:summary-only", "baseline:lexical"]
ALIEN = {"en": "The zeppelin pilot Quoxley sold nineteen marmalade submarines in Paris.",
         "zh": "飞艇驾驶员库克斯利在巴黎卖掉了十九艘果酱潜水艇。"}


@pytest.fixture
def fixture_build(fixture_run):
    """(config, run dir) of a private copy of the fixture build (tiers XS and XS2)."""
    make, run_dir = fixture_run
    return make(), run_dir


def exported(run_dir) -> list[dict]:
    return [r for f in sorted(run_dir.glob("export/*/test.parquet"))
            for r in pq.read_table(f).to_pylist()]


def predictions(folder) -> list[dict]:
    return [json.loads(line) for line in
            (folder / "predictions.jsonl").read_text(encoding="utf-8").splitlines()]


def test_three_baselines_evaluate_a_build_without_a_server(fixture_build):
    config, run_dir = fixture_build
    args = ["evaluate", "-c", str(config), "--no-progress", "--resamples", "50"]
    result = runner.invoke(app, [*args, *(a for b in BASELINES for a in ("-m", b))])
    assert result.exit_code == 0, result.output
    assert "baseline:lexical fitted on (zh): out of fold: 5 folds grouped by window" in \
        result.stdout
    rows = exported(run_dir)
    out = run_dir / "evaluate/export-test"
    for name in ("baseline_random", "baseline_summary-only", "baseline_lexical"):
        metrics = json.loads((out / name / "metrics.json").read_text(encoding="utf-8"))
        assert metrics["samples"] == len(rows) and metrics["provider"] == "builtin"
        assert metrics["summary"]["all"]["failure_rate"]["mean"] == 0.0
        assert metrics["totals"]["requests"] == 0 and metrics["usage"] == {}
        assert any("fewer than 30 samples" in w and "XS2/en (n=" in w
                   for w in metrics["warnings"])
    # random: the seeded draw of each sample, whatever else is evaluated with it
    random_preds = predictions(out / "baseline_random")
    for pred in random_preds:
        rng = random.Random(f"13:0:{pred['id']}")
        score = rng.randint(0, 5)
        assert pred["score"] == score
        assert pred["types"] == ([rng.choice(TYPE_IDS)] if score < 3 else [])
    again = runner.invoke(app, [*args, "-m", "baseline:random", "--tier", "XS"])
    assert again.exit_code == 0, again.output
    subset = {p["id"]: p["score"] for p in predictions(out / "baseline_random")}
    assert subset == {p["id"]: p["score"] for p in random_preds if p["tier"] == "XS"}
    # summary-only: a probability per sample, out of fold, types only when flagged
    for pred in predictions(out / "baseline_summary-only"):
        chance = json.loads(pred["raw"])["p_hallucinated"]
        assert 0 <= chance <= 1 and (pred["score"] < 3) == (chance > 0.5)
        assert bool(pred["types"]) == (pred["score"] < 3)
    board = runner.invoke(app, ["compare", "-c", str(config)])
    assert board.exit_code == 0, board.output
    ranked = json.loads((run_dir / "compare/export-test/leaderboard.json").read_text())
    assert {r["model"] for r in ranked["runs"]} == set(BASELINES)
    assert "intervals over fewer than 30 samples are rough: " in board.stdout


def test_lexical_flags_the_sentence_the_article_does_not_hold(fixture_build, tmp_path):
    """Every human summary of the fixture build, once as it is and once with a sentence no
    article holds: the lexical baseline flags each changed copy on that very sentence."""
    config, run_dir = fixture_build
    humans = [r for r in exported(run_dir) if r["source"] == "human"]
    rows = []
    for row in humans:
        summary = row["summary"] + ("\n\n" if row["language"] == "zh" else " ")
        summary += ALIEN[row["language"]]
        changed = {**row, "id": row["id"] + "-alien", "summary": summary, "score": 2,
                   "label": "hallucinated", "hallucination_types": ["fabrication"],
                   "source": "injection",
                   "output": json.dumps({"score": 2, "hallucination_types": ["fabrication"]})}
        rows += [row, changed]
    data = write_jsonl(tmp_path / "alien.jsonl", rows)
    result = runner.invoke(app, ["evaluate", "-c", str(config), "--data", str(data),
                                 "-m", "baseline:lexical", "--no-progress", "--resamples", "0"])
    assert result.exit_code == 0, result.output
    folder = run_dir / "evaluate" / dataset_name(data) / "baseline_lexical"
    preds = {p["id"]: p for p in predictions(folder)}
    for row in humans:
        alien = preds[row["id"] + "-alien"]
        evidence = json.loads(alien["raw"])
        assert evidence["weakest_sentence"] == ALIEN[row["language"]]
        assert evidence["support"] < 0.4 and alien["score"] < 3
        assert preds[row["id"]]["score"] > alien["score"]
    metrics = json.loads((folder / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["pair_accuracy"]["all"]["strict"]["mean"] == 1.0


def test_weakest_sentence_and_its_support(monkeypatch):
    article = ("Wren climbed the tower at dawn. She wound the brass clock with her master.\n\n"
               "The ship struck the bar, and fourteen casks of oil were lost.")
    index = ArticleIndex(article, "en")
    found = weakest_sentence(index, "Wren wound the clock. A dragon ate the moon.", "en")
    assert found.sentence == "A dragon ate the moon." and found.suspicion == 1.0
    supported = weakest_sentence(index, "The ship struck the bar and casks were lost.", "en")
    assert supported.suspicion == 0.0
    monkeypatch.setattr(lexical, "PASSAGE_TERMS", 3)  # a passage per sentence
    monkeypatch.setattr(lexical, "TOP_PASSAGES", 1)
    index = ArticleIndex(article, "en")
    # aligned to the ship's sentence; "wren" is used elsewhere, "whale" nowhere
    assert index.support(["ship", "struck", "wren", "whale"]) == (0.625, 2)


def test_threshold_and_score_scale():
    assert best_threshold([0.1, 0.2, 0.8, 0.9], [False, False, True, True]) == 0.5
    assert best_threshold([0.3, 0.3, 0.3], [False, True, True]) < 0.3  # flag all: 0.5 vs 0.5
    assert [score_of(s, 0.4) for s in (0.0, 0.2, 0.4, 0.5, 0.7, 1.0)] == [5, 4, 3, 2, 1, 0]


def test_folds_group_by_book_then_window_and_prefer_other_splits():
    def row(i, book, window, score, language="en"):
        return {"id": str(i), "book_id": book, "window": window, "score": score,
                "language": language}

    two_books = [row(i, f"b{i % 2}", f"w{i}", 2 if i % 3 else 5) for i in range(8)]
    folds, how = fit_folds(two_books, [])
    assert how == {"en": "out of fold: 2 folds grouped by book"}
    for fold in folds:
        tested = {two_books[i]["book_id"] for i in fold.test}
        assert tested.isdisjoint({r["book_id"] for r in fold.train})
    one_book = [row(i, "b", f"w{i // 2}", 2 if i % 2 else 5) for i in range(6)]
    folds, how = fit_folds(one_book, [])
    assert how == {"en": "out of fold: 3 folds grouped by window"}
    assert sorted(i for f in folds for i in f.test) == list(range(6))
    extra = [row(10, "c", "x", 2), row(11, "c", "y", 5)]
    folds, how = fit_folds(one_book, extra)
    assert len(folds) == 1 and folds[0].train == extra and folds[0].test == list(range(6))
    assert how == {"en": "the export's other split(s): 2 samples"}


def test_an_unknown_baseline_is_one_clear_line(fixture_build):
    config, _ = fixture_build
    result = runner.invoke(app, ["evaluate", "-c", str(config), "-m", "baseline:bm25"])
    assert result.exit_code == 1
    assert "--model baseline:bm25: no such built-in detector (built in: baseline:random, " \
           "baseline:summary-only, baseline:lexical)" in result.output


def test_zero_usable_replies_are_said_plainly(fixture_run, llm_server):
    from helpers.evaluation import detector

    make, run_dir = fixture_run
    config = make(models=detector(llm_server))
    llm_server.reply = lambda messages: "I cannot tell."
    result = runner.invoke(app, ["evaluate", "-c", str(config), "-m", "judge", "--no-progress",
                                 "--resamples", "0"])
    assert result.exit_code == 0, result.output
    n = len(exported(run_dir))
    assert f"warning: 0 of {n} replies are usable (no_score {n}): strict metrics count " \
           "every sample as missed" in result.output
    assert "cover one class only" not in result.output
