"""An LLM candidate passes the checks of every rule edit (``wordcheck.fault``): a non-word
(a real 1.5B model's "opportely"), a broken contraction ("lost't"), a change inside a
quotation or inside the writer's commentary is rejected with its reason and retried; a good
reply still passes. Through the real LLM layer against the local fake server."""

from __future__ import annotations

import json

from helpers.injection import ask, good_reply, injections, make_ctx, runner_for, windows_table

from longnovel.injection.generators.llm.generator import Target, targets
from longnovel.stages import inject

QUOTED = 'Carton tells Lucie, "I won the wager." Darnay wins the race. Lucie smiles.'
SAID = len('Carton tells Lucie, "I won the wager."')


def reply(sentence: str) -> str:
    return json.dumps({"sentence": sentence}, ensure_ascii=False)


def test_a_non_word_is_rejected_and_a_good_reply_passes(llm_server, tmp_path):
    summary = "Carton won the case. Darnay walks home to his small house by the river."
    target = Target("event", "outcome", 0, len("Carton won the case."), focus="won")
    cand, reason = ask(llm_server, tmp_path / "bad", summary, "en", target,
                       reply("Carton opportely lost the case."))
    assert reason == "nonword: opportely"
    assert cand.hallucinated_span == "Carton opportely lost the case."
    cand, reason = ask(llm_server, tmp_path / "good", summary, "en", target,
                       reply("Carton lost the case against the gallery."))
    assert reason is None and cand.summary.startswith("Carton lost the case against")


def test_a_broken_contraction_is_rejected(llm_server, tmp_path):
    summary = "Carton won't like his choice. Darnay walks home."
    target = Target("event", "outcome", 0, len("Carton won't like his choice."), focus="won't")
    _, reason = ask(llm_server, tmp_path, summary, "en", target,
                    reply("Carton lost't like his choice."))
    assert reason == "broken_contraction: lost't"
    cand, reason = ask(llm_server, tmp_path / "ok", summary, "en", target,
                       reply("Carton doesn't like his choice."))
    assert reason is None and cand.hallucinated_span == "Carton doesn't like his choice."


def test_a_change_inside_a_quotation_is_rejected(llm_server, tmp_path):
    target = Target("event", "outcome", 0, SAID)
    _, reason = ask(llm_server, tmp_path / "in", QUOTED, "en", target,
                    reply('Carton tells Lucie, "I lost the wager."'))
    assert reason == "inside_quote"
    cand, reason = ask(llm_server, tmp_path / "out", QUOTED, "en", target,
                       reply('Darnay tells Lucie, "I won the wager."'))
    assert reason is None and cand.summary.startswith('Darnay tells Lucie, "I won the wager."')


def test_a_swapped_pair_keeps_its_quotations(llm_server, tmp_path):
    end = QUOTED.index("Lucie smiles.") - 1
    target = Target("temporal", "swap", 0, end)
    cand, reason = ask(llm_server, tmp_path / "kept", QUOTED, "en", target,
                       reply('Darnay wins the race. Carton tells Lucie, "I won the wager."'))
    assert reason is None and cand.summary.startswith("Darnay wins the race. Carton tells")
    _, reason = ask(llm_server, tmp_path / "changed", QUOTED, "en", target,
                    reply('Darnay wins the race. Carton tells Lucie, "I lost the wager."'))
    assert reason == "inside_quote"


def test_a_zh_quotation_and_commentary_are_checked_but_not_the_lexicon(llm_server, tmp_path):
    summary = "顾青禾对韩石说：“我明天进城。”韩石答应了。本章写顾青禾的朋友进城。"
    said = summary.index("韩石答应")
    _, reason = ask(llm_server, tmp_path / "q", summary, "zh",
                    Target("number", "time", 0, said), reply("顾青禾对韩石说：“我后天进城。”"))
    assert reason == "inside_quote"
    start = summary.index("本章")
    _, reason = ask(llm_server, tmp_path / "c", summary, "zh",
                    Target("relation", "replace", start, len(summary)),
                    reply("本章写顾青禾的表兄进城。"))
    assert reason == "commentary"
    cand, reason = ask(llm_server, tmp_path / "ok", summary, "zh",
                       Target("polarity", "negate", said, start), reply("韩石没有答应。"))
    assert reason is None and cand.hallucinated_span == "韩石没有答应。"


def test_commentary_is_neither_rewritten_nor_written(llm_server, tmp_path):
    commentary = "The novel follows four high school friends going to college."
    summary = f"{commentary} Carton writes to his friend Darnay. Lucie refuses the offer."
    _, reason = ask(llm_server, tmp_path / "in", summary, "en",
                    Target("relation", "replace", 0, len(commentary)),
                    reply("The novel follows four high school cousins going to college."))
    assert reason == "commentary"
    start = len(commentary) + 1
    end = summary.index(" Lucie")
    _, reason = ask(llm_server, tmp_path / "new", summary, "en",
                    Target("relation", "replace", start, end),
                    reply("The author shows Carton writing to his cousin Darnay."))
    assert reason == "commentary"
    people = [{"name": n, "type": "person", "count": 3} for n in ("Carton", "Darnay", "Lucie")]
    found = {type_id: targets(summary, "en", people, type_id)
             for type_id in ("relation", "entity", "event", "fabrication", "polarity")}
    assert [t.focus for t in found["event"]] == ["writes to", "refuses"]
    for type_id, places in found.items():
        assert all(t.start >= start for t in places), type_id  # no place in the commentary


def test_no_target_points_inside_a_quotation():
    people = [{"name": n, "type": "person", "count": 3} for n in ("Carton", "Darnay", "Lucie")]
    found = targets(QUOTED, "en", people, "event")
    assert [(t.focus, t.start >= SAID) for t in found] == [("wins", True)]  # not "won"


def _spoiled(retries: list):
    """A model that puts "opportely" after the first word of a good reply (test_inject_llm's)
    on its first try at an en sentence, and replies well when told it was refused (the
    retries' prompts go in ``retries``)."""
    def answer(messages) -> str:
        content = messages[-1]["content"]
        if "Your previous answer was rejected" in content:  # (requests arrive concurrently)
            retries.append(content)
            return good_reply(messages)
        if "任务" in content:
            return good_reply(messages)
        good = json.loads(good_reply(messages))
        if "words" in good:  # words for a blank: "Pell opportely"
            return json.dumps({"words": f"{good['words']} opportely"})
        first, _, rest = good["sentence"].partition(" ")
        return reply(f"{first} opportely {rest}")

    return answer


def _run(llm_server, tmp_path, max_retries: int):
    retries: list[str] = []
    llm_server.reply = _spoiled(retries)
    ctx = make_ctx(windows_table(), runner=runner_for(llm_server, tmp_path), generator="m",
                   max_retries=max_retries, types=["entity", "fabrication"],
                   types_per_window=2, _models={"m": {"provider": "openai", "model": "fake",
                                                      "base_url": llm_server.base_url}})
    result = inject.run(ctx)
    rows = [r for r in injections(ctx).to_pylist() if r["language"] == "en"]
    return result, rows, retries


def test_a_non_word_is_recorded_in_the_rows_and_the_manifest(llm_server, tmp_path):
    result, rows, retries = _run(llm_server, tmp_path, max_retries=0)
    assert len(rows) == 4 and not retries
    assert [(r["valid"], r["reject_reason"]) for r in rows] == \
        [(False, "nonword: opportely")] * 4, [
            (r["window_id"], r["type"], r["subtype"], r["original_span"], r["hallucinated_span"])
            for r in rows]
    assert all(" opportely " in r["hallucinated_span"] for r in rows)
    assert result.dropped["nonword"] == 4  # (zh rows have no lexicon check)


def test_a_rejected_non_word_is_retried_and_the_retry_accepted(llm_server, tmp_path):
    result, rows, retries = _run(llm_server, tmp_path, max_retries=1)
    assert len(rows) == 4 and all(r["valid"] and r["reject_reason"] == "" for r in rows)
    assert not any("opportely" in r["summary"] for r in rows)
    assert len(set(retries)) == 2, ([r[-300:] for r in retries], [
        (r["window_id"], r["type"], r["subtype"], r["hallucinated_span"]) for r in rows])
    assert all("Your previous answer was rejected (nonword: opportely)." in c for c in retries)
    assert "nonword" not in result.dropped
