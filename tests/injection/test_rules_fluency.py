"""Edits a fluent reader of the summary would not notice (issue 24): each defect read in the
rules' output on real summaries, held on a crafted sentence by its exact output or refusal."""

from __future__ import annotations

from longnovel.injection.candidate import NotApplicable
from longnovel.injection.generators.rules.generator import RulesGenerator
from longnovel.injection.validate import validate

EN_PEOPLE = [{"name": n, "type": "person", "count": 3}
             for n in ("Wren", "Orrin", "Mabry", "Henry", "Edda", "Pell", "Amsel Vale")]
ZH_PEOPLE = [{"name": n, "type": "person", "count": 3}
             for n in ("小满", "青禾", "韩石", "顾衡山", "孟阿福", "周杏儿")]


def spans(summary: str, type_id: str, language: str = "en", vocabulary=None) -> list[str]:
    """Every hallucinated span the rules offer for ``type_id`` (all attempts), sorted."""
    out = []
    people = ZH_PEOPLE if language == "zh" else EN_PEOPLE
    vocabularies = {"b": vocabulary} if vocabulary is not None else None
    for attempt in range(40):
        generator = RulesGenerator(13, vocabularies)
        candidate = generator.generate(summary, language, people, type_id, attempt, book="b")
        if isinstance(candidate, NotApplicable):
            break
        assert validate(candidate, language) is None, candidate
        out.append(candidate.hallucinated_span)
    return sorted(set(out))


# --- temporal --------------------------------------------------------------------------------

def test_a_sentence_opening_with_a_pronoun_is_not_moved_ahead_of_its_antecedent():
    summary = ("Using the workbook of Amsel Vale, Wren found the moon wheel. "
               "It was bright new brass, while every other wheel was green and grey with salt.")
    assert spans(summary, "temporal") == []
    summary = "当夜三更，小满发现谱房的铜锁没有扣上，便进了谱房。他在东墙离地两尺高处摸到一块松动的砖。"
    assert spans(summary, "temporal", "zh") == []
    # the connective stays, but the moved sentence still leans on the one before
    summary = "第二天，小满和青禾押着刁五下山。顾衡山把刁五关在县学里。随后，他们去了临川府。"
    assert spans(summary, "temporal", "zh") == [
        "顾衡山把刁五关在县学里。第二天，小满和青禾押着刁五下山。"]


def test_a_sentence_pointing_back_is_not_moved_behind_the_next():
    summary = "This angered Orrin, who left the tower at once. Mabry walked home along the quay."
    assert spans(summary, "temporal") == []


def test_a_kept_connective_never_doubles_the_moved_sentences_time():
    summary = ("On the ninth, Wren rang the bell at the tower. "
               "Then Orrin came down the stairs to the quay.")
    assert spans(summary, "temporal") == []


def test_a_plain_pair_is_still_swapped():
    summary = "Wren found the moon wheel in the loft. Then Orrin came down the stairs to the quay."
    assert spans(summary, "temporal") == [
        "Orrin came down the stairs to the quay. Then Wren found the moon wheel in the loft."]
