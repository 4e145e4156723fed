"""Entity-referenced hallucination injection (DESIGN.md section 11).

Pure functions and classes, no I/O: sentence splitting, entity extraction, balanced type
assignment, the offline ``rules`` generator, validation and the gold reason. The LLM generator
lives in ``longnovel.injection.llm_generator``; the stage in ``longnovel.stages.inject``.
"""

from longnovel.injection.assign import assign_types
from longnovel.injection.candidate import Candidate, NotApplicable
from longnovel.injection.entities import extract_entities, extract_many, merge_entities
from longnovel.injection.rules import RulesGenerator
from longnovel.injection.text import split_sentences
from longnovel.injection.validate import describe, validate

__all__ = [
    "Candidate", "NotApplicable", "RulesGenerator", "assign_types", "describe",
    "extract_entities", "extract_many", "merge_entities", "split_sentences", "validate",
]
