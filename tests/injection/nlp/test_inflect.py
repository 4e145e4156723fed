"""English verb forms and a clause's tense (lemminflect's dictionary)."""

from __future__ import annotations

import pytest

from longnovel.injection.nlp import inflect


@pytest.mark.parametrize(("clause", "tense"), [
    ("Wren rang the tide bell", "past"),
    ("Wren rings the tide bell", "present"),
    ("the ships were late", "past"),
    ("Orrin cannot swim", "present"),
    # the verb of an aside a relative word opens is not the clause's
    ("Wren, who began as an apprentice herself, now hands the clock to a girl", "present"),
    ("Wren, who keeps the clock, rang the bell", "past"),
    ("the harbour at dawn", None),
])
def test_clause_tense_reads_the_clauses_own_first_finite_verb(clause, tense):
    assert inflect.clause_tense(clause) == tense


def test_forms_come_from_the_dictionary():
    assert inflect.past_tense("ride") == "rode"
    assert inflect.third_person("have") == "has"
    assert inflect.past_participle("rode") == "ridden"
    assert inflect.past_tense("and") is None
