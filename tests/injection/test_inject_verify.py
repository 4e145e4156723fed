"""inject.verify (a judge checks each valid candidate against the article), the balance kept
after rejections, through the real LLM layer against the local fake server."""

from __future__ import annotations

import json
import re
from collections import Counter

import pyarrow.parquet as pq
from helpers.injection import (
    EN_ARTICLE,
    TableContext,
    injections,
    make_ctx,
    runner_for,
    windows_table,
)

from longnovel.injection.assign import reassign
from longnovel.stages import inject
from longnovel.taxonomy import TYPE_IDS

MODELS = {"m": {"provider": "openai", "model": "fake", "base_url": "http://127.0.0.1:9/v1"}}


def verify_ctx(tmp_path, runner=None, **config):
    """A context whose windows also sit in ``tmp_path/expand/windows.parquet`` (the stage reads
    articles from there, window by window)."""
    table = windows_table()
    (tmp_path / "expand").mkdir(parents=True, exist_ok=True)
    pq.write_table(table, tmp_path / "expand" / "windows.parquet")
    ctx = make_ctx(table, runner=runner, **config)
    ctx.run_dir = tmp_path
    return ctx


def judge(messages) -> str:
    """Accepts a changed number, finds a changed name disfluent, a negation supported by the
    article, garbles its reply about a swap, and accepts everything else."""
    content = messages[-1]["content"]
    new = re.search(r"<new>(.*?)</new>", content, re.DOTALL).group(1)
    old = re.search(r"<original>(.*?)</original>", content, re.DOTALL).group(1)
    if old and sorted(new.lower().replace(" ", "")) == sorted(old.lower().replace(" ", "")):
        return "I think it is fine"  # a swapped pair: no usable reply
    yes = {"original_supported": "yes", "new_unsupported": "yes", "fluent": "yes"}
    if " not " in new or "没" in new or "不" in new:
        yes["new_unsupported"] = "no"
    return json.dumps(yes)


def test_every_exported_candidate_was_accepted_by_the_judge(llm_server, tmp_path):
    llm_server.reply = judge
    ctx = verify_ctx(tmp_path, runner_for(llm_server, tmp_path), verify="m",
                     _models={"m": {**MODELS["m"], "base_url": llm_server.base_url}})
    result = inject.run(ctx)
    rows = injections(ctx).to_pylist()
    checks = [m for m in llm_server.requests if "<article>" in m["body"]["messages"][-1]["content"]]
    assert checks and all(m["body"]["messages"][-1]["content"].startswith("<article>\n")
                          for m in checks)
    en = [m for m in checks if EN_ARTICLE in m["body"]["messages"][-1]["content"]]
    assert en[0]["body"]["messages"][-1]["content"].startswith(f"<article>\n{EN_ARTICLE}")
    verify = result.extra["verify"]
    reasons = Counter()
    for counts in verify.values():
        reasons.update({k: v for k, v in counts.items() if k.startswith("verify_")})
    assert reasons["verify_supported"] > 0 and reasons["verify_failed"] > 0, verify
    accepted = sum(c.get("accepted", 0) for c in verify.values())
    assert accepted == sum(r["valid"] for r in rows) > 0
    for counts in verify.values():
        assert counts["acceptance"] == round(counts.get("accepted", 0) / counts["checked"], 3)
    for r in rows:
        if r["valid"]:
            assert " not " not in r["hallucinated_span"]


def test_a_candidate_the_judge_rejects_is_taken_out_of_the_ledger(llm_server, tmp_path,
                                                                   monkeypatch):
    """The rules' ledger holds exactly the candidates that end valid: every one the validator
    or the judge rejected was withdrawn (else the rules would balance against edits that
    never reach the dataset)."""
    made = []

    from longnovel.injection import engine as eng

    class Recording(eng.RulesGenerator):
        def generate(self, *args, **kwargs):
            out = super().generate(*args, **kwargs)
            made.append(out)
            return out

    monkeypatch.setattr(eng, "RulesGenerator", Recording)
    llm_server.reply = judge
    ctx = verify_ctx(tmp_path, runner_for(llm_server, tmp_path), verify="m",
                     _models={"m": {**MODELS["m"], "base_url": llm_server.base_url}})
    result = inject.run(ctx)
    rejected_by_judge = sum(v for counts in result.extra["verify"].values()
                            for k, v in counts.items() if k.startswith("verify_"))
    assert rejected_by_judge > 0
    kept = [c for c in made if getattr(c, "trace", None) is not None]
    assert len(kept) == sum(r["valid"] for r in injections(ctx).to_pylist()) > 0


def test_plan_counts_the_verification_requests(tmp_path):
    ctx = verify_ctx(tmp_path, verify="m", types_per_window=3, _models=MODELS)
    ctx.tokenizer = type("T", (), {"count": staticmethod(lambda t: len(t.split())),
                                   "count_batch": staticmethod(lambda ts: [len(t.split())
                                                                           for t in ts])})()
    planned = inject.plan_requests(ctx)
    assert 0 < len(planned) <= 4 * 3 and {p.model for p in planned} == {"m"}
    assert all(p.messages[-1]["content"].startswith("<article>\n") for p in planned)
    assert inject.config_section(ctx.config)["models"].keys() == {"m"}


def test_reassign_fills_freed_slots_with_the_rarest_type():
    windows = ["w1", "w2", "w3"]
    outcomes = [("w1", "a", True), ("w1", "b", False), ("w2", "a", True), ("w2", "c", True),
                ("w3", "b", True), ("w3", "c", False)]
    # counts a=2 b=1 c=1; two slots free (w1's b and w3's c failed): b goes to the only window
    # that has not tried it, c to the failed window w1; a, already the most, gets none
    jobs = reassign(windows, outcomes, ["a", "b", "c"], 2, ["w1", "w3"])
    assert jobs == [("w2", "b"), ("w1", "c")]
    # a type already at the maximum is never added while another is below it
    assert reassign(["w1"], [("w1", "a", True)], ["a", "b"], 1, ["w1"]) == [("w1", "b")]
    assert reassign(["w1"], [("w1", "a", True), ("w1", "b", False)], ["a", "b"], 1, []) == []


def test_rebalance_keeps_each_group_within_one(tmp_path):
    """With one type per window, windows whose type does not apply try another, so the valid
    counts per tier and language stay within one of each other where the text allows."""
    table = windows_table()
    rows = table.to_pylist()
    more = [{**r, "window_id": f"{r['window_id']}-{k}"} for r in rows for k in range(4)]
    import pyarrow as pa

    ctx = TableContext(make_ctx(table).config.model_copy(update={"inject": make_ctx(
        table, types_per_window=1).config.inject}), pa.Table.from_pylist(more))
    result = inject.run(ctx)
    balance = result.extra["balance"]
    for key, cell in balance.items():
        applicable = [t for t in TYPE_IDS if cell["types"][t] > 0]
        assert cell["max"] - min(cell["types"][t] for t in applicable) <= 1, (key, cell)
    out = injections(ctx).to_pylist()
    assert len({(r["window_id"], r["type"]) for r in out}) == len(out)
