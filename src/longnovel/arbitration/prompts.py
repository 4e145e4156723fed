"""Prompts of the arbitrate stage, laid out for prefix caching.

Every request about one window starts with the same two things: the constant system message of
the article's language, then the user message's first block, the article. The task (write a
summary, or judge one) comes after it. So a model's summary request and its judgments of the
other models' summaries of that window share the whole article as a token prefix, which vLLM
and SGLang prefix caching (and hosted prompt caching) compute once. In a judgment the reference
summary and the rubric come before the summary under check, so a judge's requests about one
window share those too.

Templates are ``longnovel/prompts/<lang>/arbitrate_*.txt``. The article, the reference and the
summary are pasted between tags (``<article>``, ``<reference>``, ``<summary>``); a tag of those
names inside pasted text is escaped (``&lt;/summary>``), so a summary cannot close its block and
write instructions of its own after it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from longnovel.templates import escape_tags, load_prompt, prompt_language

BLOCK_JOIN = "\n\n"
ARTICLE_FIRST = "article_first"
TASK_FIRST = "task_first"  # the naive layout, kept to measure the difference (bench/prefix.py)
_PLACEHOLDER = re.compile(r"\{(article|reference|summary|target)\}")
_WRAPPER = re.compile(r"^\s*<summary>\s*(.*?)\s*</summary>\s*$", re.DOTALL)
DELIMITERS = ("article", "reference", "summary")  # the tags of the arbitrate_* templates
_LABEL = re.compile(r"^\s*(?:\*\*)?(?:summary|摘要)(?:\*\*)?\s*[:：]\s*", re.IGNORECASE)


def template(name: str, language: str) -> str:
    """The text of ``prompts/<lang>/arbitrate_<name>.txt``."""
    return load_prompt(f"arbitrate_{name}", language)


def fill(text: str, **values: str) -> str:
    """Replace ``{article}``-style placeholders with the values, their tags escaped; other
    braces (the JSON examples) stay."""
    escaped = {name: escape_tags(value, DELIMITERS) for name, value in values.items()}
    return _PLACEHOLDER.sub(lambda m: escaped.get(m.group(1), m.group(0)), text)


@dataclass(frozen=True)
class Prompt:
    """A request's parts: the system message, the shared context and the task blocks."""

    system: str
    context: tuple[str, ...]
    task: tuple[str, ...]

    def messages(self, layout: str = ARTICLE_FIRST) -> list[dict]:
        """Chat messages; ``task_first`` puts the task before the article (the naive layout)."""
        blocks = self.context + self.task if layout == ARTICLE_FIRST else self.task + self.context
        return [{"role": "system", "content": self.system},
                {"role": "user", "content": BLOCK_JOIN.join(blocks)}]


def _article_block(article: str, language: str) -> str:
    return fill(template("article", language), article=article.strip())


def shared_prefix(article: str, language: str) -> tuple[str, str]:
    """(system message, start of the user message) common to every request about a window."""
    return template("system", language), _article_block(article, language) + BLOCK_JOIN


def target_length(reference: str, language: str) -> int:
    """The summary length to ask for: the reference's words (en) or characters (zh), in tens."""
    if prompt_language(language) == "zh":
        size = len(re.sub(r"\s+", "", reference))
    else:
        size = len(reference.split())
    return max(10, round(size / 10) * 10)


def summary_prompt(article: str, reference: str, language: str) -> Prompt:
    """Ask for a summary of the article about as long as the reference summary."""
    task = fill(template("summarize", language), target=str(target_length(reference, language)))
    return Prompt(template("system", language), (_article_block(article, language),), (task,))


def judge_prompt(article: str, summary: str, language: str, reference: str | None) -> Prompt:
    """Ask for a rubric judgment of ``summary``; ``reference`` (when given) is a trusted account."""
    task: tuple[str, ...] = ()
    if reference is not None:
        task += (fill(template("reference", language), reference=reference.strip()),)
    task += (fill(template("judge", language), summary=summary.strip()),)
    return Prompt(template("system", language), (_article_block(article, language),), task)


def clean_summary(text: str) -> str:
    """A summary reply without a ``<summary>`` wrapper or a leading "Summary:" label."""
    text = text.strip()
    wrapped = _WRAPPER.match(text)
    if wrapped:
        text = wrapped.group(1)
    return _LABEL.sub("", text, count=1).strip()
