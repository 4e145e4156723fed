"""Entity extraction by an LLM (``inject.entities: <model>``): prompt, reply schema and the
requests of a set of units."""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import BaseModel, ConfigDict

from longnovel.injection.generators.llm.generator import SYSTEM
from longnovel.injection.nlp.entities import ENTITY_TYPES, extract_entities, merge_entities
from longnovel.templates import load_prompt


class EntityItem(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str
    type: Literal[ENTITY_TYPES]
    count: int = 1


class EntityReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    entities: list[EntityItem]


def entity_messages(article: str, language: str) -> list[dict]:
    """Messages asking for the article's entities (the article first, then the task)."""
    lang = "zh" if language == "zh" else "en"
    header = "文章：\n" if lang == "zh" else "Article:\n"
    user = header + article.strip() + "\n\n" + load_prompt("inject_entities", lang)
    return [{"role": "system", "content": SYSTEM[lang]}, {"role": "user", "content": user}]


def entities_from_reply(parsed: EntityReply | dict, article: str) -> list[dict]:
    """Entities named in the reply that really occur in the article, with their counts there."""
    reply = parsed if isinstance(parsed, EntityReply) else EntityReply.model_validate(parsed)
    rows = [{"name": e.name.strip(), "type": e.type, "count": article.count(e.name.strip())}
            for e in reply.entities if e.name.strip()]
    return merge_entities([[r for r in rows if r["count"] > 0]])


def entity_requests(units: dict, model: str, schema=None) -> list:
    """One request per unit of ``units`` ((book, index) -> (text, language)) asking ``model``
    for its entities."""
    from longnovel.llm import Request

    return [Request(key=f"entities/{book}/{index}", model=model,
                    messages=entity_messages(text, language), schema=schema,
                    group=f"{book}/{index}")
            for (book, index), (text, language) in units.items()]


def model_unit_entities(units: dict, model: str, runner) -> tuple[dict, Counter]:
    """Entities per unit of ``units`` ((book, index) -> (text, language)) as ``model``
    replies through ``runner``, and the failures by reason; a failed or empty extraction
    falls back to the lexical one."""
    requests = entity_requests(units, model, EntityReply)
    failures: Counter = Counter()
    out = {}
    for (key, (text, language)), result in zip(units.items(), runner.run(requests), strict=False):
        found = entities_from_reply(result.parsed, text) if result.ok else []
        if not found:
            failures[f"entities_{result.error or 'empty'}"] += 1
            found = extract_entities(text, language)
        out[key] = found
    return out, failures
