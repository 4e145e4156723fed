"""Entity extraction by an LLM (``inject.entities: <model>``): prompt and reply schema."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from longnovel.injection.entities import ENTITY_TYPES, merge_entities
from longnovel.injection.llm_generator import SYSTEM
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
