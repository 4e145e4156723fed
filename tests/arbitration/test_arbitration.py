"""Aggregation rules, judge-reply parsing and prompt layout, as plain functions."""

from __future__ import annotations

import pytest

from longnovel.arbitration.aggregate import (
    Vote,
    aggregate,
    agreed_types,
    median_score,
    pairwise_agreement,
)
from longnovel.arbitration.judgment import JudgeReply, judgment_fields
from longnovel.arbitration.prompts import (
    TASK_FIRST,
    clean_summary,
    judge_prompt,
    shared_prefix,
    summary_prompt,
    target_length,
)
from longnovel.llm import parse_json_reply


def votes(*specs) -> list[Vote]:
    return [Vote(f"j{i}", score, tuple(types), f"reason {i}")
            for i, (score, types) in enumerate(specs)]


@pytest.mark.parametrize(("scores", "median"), [
    ([2, 3], 2), ([3, 4], 3), ([4, 5], 4), ([1, 2, 4, 5], 3), ([0, 5, 5], 5), ([2], 2)])
def test_median_rounds_half_down(scores, median):
    assert median_score(scores) == median


def test_majority_of_three_and_types_named_twice():
    verdict = aggregate(votes((1, ["entity", "event"]), (2, ["entity", "number"]), (4, [])))
    assert verdict.label == "hallucinated" and verdict.score == 2
    assert verdict.types == ["entity"] and verdict.agreement == pytest.approx(2 / 3)
    assert verdict.reason == "reason 1" and verdict.n_judgments == 3


def test_unanimous_needs_every_judge():
    split = votes((1, ["entity"]), (2, ["entity"]), (4, []))
    verdict = aggregate(split, "unanimous")
    assert verdict.label == "disputed" and verdict.types == []
    assert "j2 4 (consistent)" in verdict.reason
    agreed = aggregate(votes((4, []), (5, []), (3, [])), "unanimous")
    assert (agreed.label, agreed.score, agreed.agreement) == ("consistent", 4, 1.0)


def test_even_split_has_no_majority():
    verdict = aggregate(votes((2, ["number"]), (4, [])))
    assert verdict.label == "disputed" and verdict.agreement == 0.5 and verdict.score == 3


def test_two_to_two_with_four_judges_is_disputed_and_three_to_one_decides():
    assert aggregate(votes((1, []), (2, []), (3, []), (5, []))).label == "disputed"
    three = aggregate(votes((1, ["causal"]), (2, ["causal"]), (0, ["event"]), (5, [])))
    assert (three.label, three.score, three.types) == ("hallucinated", 1, ["causal"])


def test_only_judge_gives_its_types_and_disjoint_types_give_the_representative_s():
    """Judges naming different types: the types of the judge whose score is closest to the
    median (the one whose reason is taken), so a hallucinated label always names a type."""
    assert agreed_types(votes((1, ["temporal", "entity"]))) == ["entity", "temporal"]
    verdict = aggregate(votes((1, ["entity"]), (2, ["number"])))
    assert verdict.label == "hallucinated" and verdict.types == ["entity"]
    verdict = aggregate(votes((2, ["number"]), (1, ["entity"]), (2, ["causal"])))
    assert verdict.score == 2 and verdict.types == ["number"]


def test_judgments_without_a_reason_or_without_types_are_not_usable():
    from longnovel.arbitration.judgment import JudgeReply
    from longnovel.llm.parsing import ReplyError, parse_json_reply

    for reply in ('{"score": 4, "hallucination_types": []}',
                  '{"score": 4, "hallucination_types": [], "reason": "  "}',
                  '{"score": 1, "hallucination_types": [], "reason": "made up"}'):
        with pytest.raises(ReplyError):
            parse_json_reply(reply, JudgeReply)


def test_no_usable_judgment_is_disputed_with_a_reason():
    failed = aggregate([], "majority", expected=2)
    assert failed.label == "disputed" and failed.score is None and failed.agreement is None
    assert "no usable judgment" in failed.reason and "2" in failed.reason
    assert "no judge" in aggregate([], expected=0).reason
    with pytest.raises(ValueError):
        aggregate(votes((4, [])), "plurality")


def test_pairwise_agreement_and_kappa():
    def row(window, author, judge, score, types=()):
        return {"window_id": window, "summary_model": author, "judge_model": judge,
                "score": score, "hallucination_types": list(types), "ok": True}

    rows = [row("w1", "x", "a", 1, ["entity"]), row("w1", "x", "b", 2, ["entity", "event"]),
            row("w2", "x", "a", 4), row("w2", "x", "b", 2, ["number"]),
            row("w3", "x", "a", 5), row("w3", "x", "b", 5),
            {**row("w4", "x", "a", 0), "ok": False}, row("w4", "x", "b", 1, ["event"])]
    (pair,) = pairwise_agreement(rows)
    assert pair["judges"] == ["a", "b"] and pair["n"] == 3
    assert pair["label_agreement"] == pytest.approx(2 / 3, abs=1e-4)
    assert pair["n_both_hallucinated"] == 1 and pair["types_jaccard"] == 0.5
    # observed 2/3; chance = 1/3*2/3 + 2/3*1/3 = 4/9; kappa = (2/3-4/9)/(5/9) = 0.4
    assert pair["kappa"] == pytest.approx(0.4, abs=1e-4)


@pytest.mark.parametrize(("reply", "score", "types", "unknown"), [
    ('{"score": 2, "hallucination_types": ["Entity error", "时间错误"], "reason": "x"}',
     2, ["entity", "number"], []),
    ('```json\n{"score": "1/5", "types": "contradiction, 虚构内容", "reason": "x",}\n```',
     1, ["polarity", "fabrication"], []),
    (('<think>hmm</think>{"score": 2.5, "hallucination_types": [{"type": "timeline"}, "vibes"],'
      ' "reason": "order"}'),
     2, ["temporal", "unknown"], ["vibes"]),
    ('{"score": 4, "hallucination_types": ["entity"], "reason": "fine"}', 4, [], []),
])
def test_judge_replies_are_read_leniently(reply, score, types, unknown):
    fields = judgment_fields(parse_json_reply(reply, JudgeReply))
    assert (fields["score"], fields["hallucination_types"], fields["unknown_types"]) == (
        score, types, unknown)


@pytest.mark.parametrize("reply", ['{"score": 7, "reason": "x"}', '{"reason": "no score"}',
                                   "I would rather not."])
def test_unusable_judge_replies_raise(reply):
    from longnovel.llm import ReplyError

    with pytest.raises(ReplyError):
        parse_json_reply(reply, JudgeReply)


def test_article_comes_first_and_is_shared():
    article, reference = "Wren opened the shop.\n\nOrrin arrived late.", "Wren opens the shop."
    system, start = shared_prefix(article, "en")
    ask = summary_prompt(article, reference, "en").messages()
    judge = judge_prompt(article, "A summary.", "en", reference).messages()
    for messages in (ask, judge):
        assert messages[0] == {"role": "system", "content": system}
        assert messages[1]["content"].startswith(start) and article in start
    assert reference not in ask[1]["content"] and reference in judge[1]["content"]
    naive = summary_prompt(article, reference, "en").messages(TASK_FIRST)
    assert naive[1]["content"].startswith("Task:")
    no_ref = judge_prompt(article, "A summary.", "en", None).messages()[1]["content"]
    assert reference not in no_ref and "<summary>\nA summary.\n</summary>" in no_ref
    zh_system, _ = shared_prefix("渡口。", "zh")
    zh = summary_prompt("渡口。", "渡船来了三次，一共来了三次。", "zh").messages()
    assert zh[0]["content"] == zh_system and "约 10 字" in zh[1]["content"]


def test_target_length_and_summary_cleaning():
    assert target_length("word " * 243, "en") == 240
    assert target_length("字" * 456, "zh") == 460
    assert target_length("short", "en") == 10
    assert clean_summary("<summary>\nIt rains.\n</summary>") == "It rains."
    assert clean_summary("Summary: It rains.") == "It rains."
    assert clean_summary("摘要：下雨了。") == "下雨了。"
    assert clean_summary("It rains. Summary: none.") == "It rains. Summary: none."


def test_window_selection_honours_tiers_and_spreads_the_cap_across_books():
    from pathlib import Path

    import pyarrow as pa

    from longnovel.config import Config
    from longnovel.stages.arbitrate import select_windows
    from longnovel.stages.base import StageContext

    rows = [{"window_id": f"{tier}:{book}:{i}", "tier": tier, "language": "en", "book_id": book,
             "n_tokens": 1, "article": "a", "reference_summary": "r"}
            for tier in ("S", "M") for book in ("x", "y", "z") for i in range(4)]
    config = Config.model_validate({"corpus": [{"path": "p", "format": "dir", "language": "en"}],
                                    "arbitrate": {"max_windows_per_tier": 3}})
    ctx = StageContext(config, Path("unused-run-dir"), ["M"], False, stage="arbitrate")
    chosen, left_out = select_windows(ctx, pa.Table.from_pylist(rows))
    assert {w["tier"] for w in chosen} == {"M"} and left_out == 9
    assert sorted(w["book_id"] for w in chosen) == ["x", "y", "z"]
    assert select_windows(ctx, pa.Table.from_pylist(rows))[0] == chosen
    ctx.tiers = config.select_tiers()
    assert len(select_windows(ctx, pa.Table.from_pylist(rows))[0]) == 6


def test_paper_config_validates_with_the_three_models():
    from helpers.builders import REPO

    from longnovel.config import load_config

    config = load_config(REPO / "configs/paper.yaml")
    providers = {name: (m.provider, m.api_key_env) for name, m in config.models.items()}
    assert providers == {"glm-4-9b-chat": ("zhipuai", "ZHIPUAI_API_KEY"),
                         "qwen3-32b": ("openai", None), "gpt-4o": ("openai", "OPENAI_API_KEY")}
    qwen = config.models["qwen3-32b"]
    assert qwen.base_url == "http://localhost:8000/v1" and qwen.context_window == 131072
    assert qwen.extra_body == {"chat_template_kwargs": {"enable_thinking": False}}
    assert set(config.arbitrate.summarizers) == set(config.arbitrate.judges) == set(providers)
    assert list(config.tiers) == ["S", "M", "L", "XL"] and config.inject.generator == "gpt-4o"
    assert all(m.price.input_per_mtok or name == "qwen3-32b"
               for name, m in config.models.items())


def _hint_setup(models: dict):
    from types import SimpleNamespace

    from longnovel.llm.config import ModelConfig
    from longnovel.stages.arbitrate import judgment_request, summary_requests
    from longnovel.tokenizer import load_tokenizer

    tokenizer = load_tokenizer("qwen3")
    article = "第一回\n\u3000\u3000渡口的船来了。他说：“走吧。”\n\u3000\u3000她没有回答。" * 40
    window = {"window_id": "S:b:1-2", "tier": "S", "language": "zh", "book_id": "b",
              "n_tokens": tokenizer.count(article), "article": article,
              "reference_summary": "船来了，他们走了。"}
    requests = summary_requests([window], ["a", "b"])
    requests.append(judgment_request(window, "船没有来。", "a", "b", use_reference=True))
    config = SimpleNamespace(models={name: ModelConfig(provider="openai", model=name, **kw)
                                     for name, kw in models.items()})
    return requests, window, config, tokenizer


class _NoTokenizer:
    config = None

    @property
    def tokenizer(self):
        raise AssertionError("the tokenizer was loaded although every bound fits")


def test_prompt_hints_reuse_the_window_count_and_match_a_full_count():
    """Where an exact count matters (a tokens-per-minute limit, a tight context window) the
    rest of the prompt is counted, and window count + rest matches a full count."""
    from types import SimpleNamespace

    from longnovel.llm.tokens import count_prompts
    from longnovel.stages.arbitrate import add_prompt_hints

    requests, window, config, tokenizer = _hint_setup(
        {"a": {"tokens_per_minute": 100000}, "b": {"context_window": 1200, "max_tokens": 64}})
    add_prompt_hints(requests, [window], SimpleNamespace(config=config, tokenizer=tokenizer))
    full = count_prompts([r.messages for r in requests], tokenizer)
    for request, n in zip(requests, full, strict=True):
        assert request.prompt_hint_exact
        assert abs(request.prompt_tokens_hint - n) <= 2  # joins at the article's two ends


def test_prompt_hints_bound_the_rest_without_the_tokenizer_when_it_fits():
    from longnovel.llm.tokens import count_prompts
    from longnovel.stages.arbitrate import add_prompt_hints

    requests, window, config, tokenizer = _hint_setup(
        {"a": {"context_window": 131072}, "b": {"context_window": 131072}})
    ctx = _NoTokenizer()
    ctx.config = config
    add_prompt_hints(requests, [window], ctx)
    full = count_prompts([r.messages for r in requests], tokenizer)
    for request, n in zip(requests, full, strict=True):
        assert not request.prompt_hint_exact
        assert n <= request.prompt_tokens_hint < n + 3000  # a bound of the few-hundred-token rest
