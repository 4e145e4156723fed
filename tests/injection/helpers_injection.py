"""Find the rules generator's candidate of one sub-type by walking through attempts."""

from __future__ import annotations

from longnovel.injection.candidate import Candidate, NotApplicable
from longnovel.injection.generators.rules.generator import RulesGenerator
from longnovel.injection.validate import validate


def candidate_of(summary, language, entities, type_id, subtype, seed=13,
                 outside=()) -> Candidate:
    for attempt in range(40):
        # a new generator each time: the sub-type's seeded place, not one the ledger of the
        # attempts before moved (RulesGenerator.ledger)
        out = RulesGenerator(seed).generate(summary, language, entities, type_id, attempt,
                                            outside=outside)
        assert not isinstance(out, NotApplicable), out
        if out.subtype == subtype:
            assert validate(out, language) is None, validate(out, language)
            return out
    raise AssertionError(f"no {type_id}/{subtype} candidate")


def fabrications(summary, language, entities, outside) -> dict[str, Candidate]:
    """The rules' fabrication of each sub-type for ``summary``, drawn from ``outside`` (the
    book's other units)."""
    return {subtype: candidate_of(summary, language, entities, "fabrication", subtype,
                                  outside=outside)
            for subtype in ("repeat", "continue", "psychology")}
