"""The LLM layer: one runner for every stage, over the openai, zhipuai and transformers providers.

Stages build ``Request`` objects and call ``LLMRunner.run``; they never import an SDK. Names are
loaded lazily so ``import longnovel.llm`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

_EXPORTS = {
    "Request": "longnovel.llm.types",
    "Result": "longnovel.llm.types",
    "MissingKeyError": "longnovel.llm.types",
    "UnknownModelError": "longnovel.llm.types",
    "LLMRunner": "longnovel.llm.runner",
    "parse_json_reply": "longnovel.llm.parsing",
    "strip_think": "longnovel.llm.parsing",
    "ReplyError": "longnovel.llm.parsing",
    "ModelConfig": "longnovel.llm.config",
    "Price": "longnovel.llm.config",
    "run_doctor": "longnovel.llm.doctor",
    "PlannedRequest": "longnovel.llm.plan",
    "estimate": "longnovel.llm.plan",
}

__all__ = [
    "LLMRunner",
    "MissingKeyError",
    "ModelConfig",
    "PlannedRequest",
    "Price",
    "ReplyError",
    "Request",
    "Result",
    "UnknownModelError",
    "estimate",
    "parse_json_reply",
    "run_doctor",
    "strip_think",
]

if TYPE_CHECKING:
    from longnovel.llm.config import ModelConfig, Price
    from longnovel.llm.doctor import run_doctor
    from longnovel.llm.parsing import ReplyError, parse_json_reply, strip_think
    from longnovel.llm.plan import PlannedRequest, estimate
    from longnovel.llm.runner import LLMRunner
    from longnovel.llm.types import MissingKeyError, Request, Result, UnknownModelError


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'longnovel.llm' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
