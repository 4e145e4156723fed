"""What a detector is sent: one chat request per sample and repeat, grouped by article.

System message: the sample's ``instruction`` (plus a reasoning request for ``--prompt cot``).
User message: the sample's ``input`` (article, then summary) for ``--order article-first``; for
``--order summary-first`` the summary, then the article (template
``prompts/<lang>/evaluate_summary_first.txt``), the official release's second layout.

Requests go out window by window (every sample of one article together; each repeat in the
same order), so a prefix-caching server prefills each article once per repeat instead of once
per sample.

Repeats. The request cache is keyed by the model's reply-deciding settings and the messages, so
N identical runs would be served from one cached reply. Repeat 0 is the plain request; repeat
r >= 1 differs in what the server sees, reproducibly: for the ``openai`` provider ``seed: r``
is added to the request body (``extra_body``, part of the cache key), the prompt untouched; for
other providers a marker line ``(evaluation run r+1)`` is appended to the system message.
"""

from __future__ import annotations

import re

from longnovel.errors import LongnovelError
from longnovel.templates import load_prompt

PROMPTS = ("plain", "cot")
ORDERS = ("article-first", "summary-first")
EXPECTED_COMPLETION = {"plain": 120, "cot": 600}
REPEAT_ALIAS = "~repeat"  # "<model>~repeat<r>": the model config of repeat r (openai)


def check_modes(prompt: str, order: str, repeats: int) -> None:
    """Stop on a prompt, order or repeat count evaluate does not know."""
    if prompt not in PROMPTS:
        raise LongnovelError(f"--prompt must be one of {', '.join(PROMPTS)}")
    if order not in ORDERS:
        raise LongnovelError(f"--order must be one of {', '.join(ORDERS)}")
    if repeats < 1:
        raise LongnovelError("--repeats must be at least 1")


def run_name(model: str, prompt: str, order: str) -> str:
    """The folder of one (model, prompt, order) run: ``model[+cot][+summary-first]``."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", model)
    return name + ("+cot" if prompt == "cot" else "") + ("+" + order if order != ORDERS[0] else "")


def repeat_models(models: dict, name: str, repeats: int) -> tuple[dict, list[str], bool]:
    """Model configs per repeat: (models with aliases added, alias per repeat, uses markers)."""
    if name not in models:
        known = ", ".join(sorted(models)) or "none"
        raise LongnovelError(f"--model {name}: not configured under models: (configured: {known})")
    base = models[name]
    if base.provider != "openai":
        return dict(models), [name] * repeats, True
    merged, aliases = dict(models), [name]
    for r in range(1, repeats):
        seed = int(base.extra_body.get("seed", 0)) + r
        alias = f"{name}{REPEAT_ALIAS}{r}"
        merged[alias] = base.model_copy(update={"extra_body": {**base.extra_body, "seed": seed}})
        aliases.append(alias)
    return merged, aliases, False


def user_message(row: dict, order: str) -> str:
    """The sample's input, or its summary before its article for ``summary-first``."""
    if order == "article-first":
        return row["input"]
    template = load_prompt("evaluate_summary_first", row["language"])
    return template.replace("{summary}", row["summary"]).replace("{article}", row["article"])


def messages_for(row: dict, prompt: str, order: str, repeat: int, marker: bool) -> list[dict]:
    """System: the instruction (+ reasoning request, + repeat marker); user: the sample."""
    system = row["instruction"]
    if prompt == "cot":
        system += "\n\n" + load_prompt("evaluate_cot", row["language"])
    if marker and repeat:
        system += f"\n\n(evaluation run {repeat + 1})"
    return [{"role": "system", "content": system},
            {"role": "user", "content": user_message(row, order)}]


def by_article(rows: list[dict]) -> list[int]:
    """Row indices with each window's samples together, windows in order of first appearance."""
    first: dict[str, int] = {}
    for i, row in enumerate(rows):
        first.setdefault(row["window"], i)
    return sorted(range(len(rows)), key=lambda i: (first[rows[i]["window"]], i))


def build_requests(rows: list[dict], aliases: list[str], prompt: str, order: str,
                   marker: bool) -> list:
    """Requests keyed ``"<repeat>:<row index>"``, grouped by (repeat, window), in send order."""
    from longnovel.llm import Request

    return [Request(f"{r}:{i}", alias, messages_for(rows[i], prompt, order, r, marker),
                    group=f"r{r}:{rows[i]['window']}")
            for r, alias in enumerate(aliases) for i in by_article(rows)]


def plan_requests(rows: list[dict], models: dict, name: str, repeats: int = 1,
                  prompt: str = "plain", order: str = "article-first") -> list:
    """What ``evaluate`` would send, as PlannedRequests (for ``plan`` and ``--dry-run``)."""
    from longnovel.llm import PlannedRequest

    check_modes(prompt, order, repeats)
    _, aliases, marker = repeat_models(models, name, repeats)
    expected = min(EXPECTED_COMPLETION[prompt], models[name].max_tokens)
    return [PlannedRequest("evaluate", name, request.messages, expected)
            for request in build_requests(rows, aliases, prompt, order, marker)]
