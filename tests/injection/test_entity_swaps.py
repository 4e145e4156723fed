"""Entity edits name someone who is not the referent, of the slot's type and gender, and keep a
回目 couplet's halves equal (issue 24, "Labels that are right")."""

from __future__ import annotations

import pytest

from longnovel.injection.generators.rules import entity
from longnovel.injection.generators.rules.draft import Draft, couplet_halves
from longnovel.injection.generators.rules.generator import RulesGenerator


def _people(*names, kind="person", **genders):
    return [{"name": n, "type": kind, "count": 5, **({"gender": genders[n]} if n in genders
                                                    else {})} for n in names]


def _changed(edits):
    return sorted((e.subtype, e.hallucinated_span) for e in edits)


@pytest.mark.parametrize("a,b,zh,people,same", [
    ("孙行者", "孙悟空", True, (), True),     # an epithet of the same surname
    ("老孙", "孙悟空", True, (), True),
    ("贾宝玉", "宝玉", True, (), True),
    ("顾衡山", "顾师傅", True, (), True),     # surname + title
    ("柴文焕", "柴文炳", True, (), True),     # a shared given-name character: not told apart
    ("贾宝玉", "林黛玉", True, (), False),
    ("贾雨村", "贾宝玉", True, (), False),
    ("Mr. Darcy", "Darcy", False, (), True),
    ("Captain Ferrant", "Isolde Ferrant", False, (), True),
    ("Fitzwilliam", "Darcy", False, ("Fitzwilliam Darcy",), True),
    ("Elizabeth", "Darcy", False, ("Fitzwilliam Darcy", "Elizabeth Bennet"), False),
    ("Mr. Darcy", "Mr. Bingley", False, (), False),
    # a usual short form of a given name (study, seed 4333: "Gabe" -> "Gabriel Lockard")
    ("Gabe", "Gabriel Lockard", False, (), True),
    ("Nick", "Nicholas", False, (), True),
    ("Gabe", "Nicholas", False, (), False),
])
def test_maybe_same(a, b, zh, people, same):
    assert entity.maybe_same(a, b, zh, list(people)) is same
    assert entity.maybe_same(b, a, zh, list(people)) is same


def test_a_person_is_never_renamed_to_another_name_of_the_same_person():
    # (the stand-in named before, in the scene: one the summary never names stands in for no
    # one)
    draft = Draft("唐僧在山下等着。孙行者打死了白骨精。", "zh",
                  _people("孙行者", "孙悟空", "老孙", "唐僧"))
    assert [c for c in _changed(entity.mismatch_edits(draft)) if "白骨精" in c[1]] == [
        ("mismatch", "唐僧打死了白骨精。")]
    draft = Draft("Bingley waits in the hall. Mr. Darcy writes a letter.", "en",
                  _people("Darcy", "Fitzwilliam Darcy", "Mr. Darcy", "Bingley"))
    assert [c for c in _changed(entity.mismatch_edits(draft)) if "letter" in c[1]] == [
        ("mismatch", "Bingley writes a letter.")]
    alone = Draft("孙行者打死了白骨精。", "zh", _people("孙行者", "孙悟空", "老孙"))
    assert entity.edits(alone) == []
    assert entity.refusal(alone) == "only other names of the same person"


def test_a_person_is_replaced_by_a_person_of_the_same_gender_where_known():
    entities = _people("Orrin", "Mabry", "Jory", "Wren", "Pell",
                       Orrin="m", Mabry="f", Jory="m", Wren="f")
    draft = Draft("Mabry, Jory, Wren and Pell watch the tower. Orrin mends the clock.", "en",
                  entities)
    assert [c for c in _changed(entity.mismatch_edits(draft)) if "clock" in c[1]] == [
        ("mismatch", "Jory mends the clock."), ("mismatch", "Pell mends the clock.")]
    # a pronoun: another of its gender named before it, never the one it finds (the last
    # of its gender named before it), nor one of the other gender or of none known
    draft = Draft("Mabry meets Orrin at the gate. Wren and Pell wait by the wall. She refuses "
                  "the offer.", "en", entities)
    spans = [e.hallucinated_span for e in entity.pronoun_edits(draft)]
    assert spans == ["Mabry refuses the offer."]
    zh = Draft("韩石进了门。鲁三娘和周大有跟在后面。他说饿了。", "zh",
               _people("周大有", "鲁三娘", "韩石", 周大有="m", 鲁三娘="f", 韩石="m"))
    assert [e.hallucinated_span for e in entity.pronoun_edits(zh)] == ["韩石说饿了。"]


def test_role_swap_needs_one_gender_and_no_apposition():
    entities = _people("Orrin", "Wren", "Jory", "Bettany Gallant", Orrin="m", Wren="f",
                       Jory="m", **{"Bettany Gallant": "f"})
    assert entity.role_swap_edits(Draft("Orrin scolds Wren at the tower.", "en", entities)) == []
    assert _changed(entity.role_swap_edits(
        Draft("Orrin scolds Jory at the tower.", "en", entities))) == [
        ("role_swap", "Jory scolds Orrin at the tower.")]
    apposition = Draft("The nurse Bettany Gallant told Wren the news.", "en", entities)
    assert entity.role_swap_edits(apposition) == []
    assert entity.refusal(apposition) == "the names stand in appositions (the nurse X)"


def test_a_place_inside_a_persons_name_is_no_stand_in():
    entities = _people("顾衡山", "蔡三") + _people("松岭", "衡山", "青螺山", kind="place")
    draft = Draft("蔡三上松岭烟房学烧烟。", "zh", entities)
    spans = {e.hallucinated_span for e in entity.mismatch_edits(draft)}
    assert spans == {"蔡三上青螺山烟房学烧烟。"}


def test_a_place_stands_in_only_for_one_of_its_kind():
    """Seed 5040's reading: "kept watch on the first-floor landing of the Bar" (a sandbar for
    the Harbour Tower), "opened The Brass Hour on the Guildhall" (a hall for a street),
    "五月初四傍晚回到临川府" (a town for the bridge they come home over). A place whose name
    tells its kind (Tower, Street, 府, 桥) takes a stand-in of that kind; a town may stand for
    a name that tells none."""
    places = _people("Harbour Tower", "the Bar", "Lantern Street", "Guildhall", "Tarry Lane",
                     "Corrinford", "Dunmore", kind="place")
    draft = Draft("Wren kept watch on the landing of the Harbour Tower. Molly opened the shop "
                  "in Lantern Street. Jory rode to Corrinford.", "en", _people("Wren") + places)
    made = {e.hallucinated_span for e in entity.mismatch_edits(draft)}
    assert not any("of the Bar" in m or "in the Guildhall" in m or "in Guildhall" in m
                   for m in made), made
    assert any("of the Guildhall" in m or "of Guildhall" in m for m in made), made
    assert any("in Tarry Lane" in m for m in made), made
    assert any("rode to Dunmore" in m for m in made), made
    zh = Draft("五月初四傍晚回到落雁桥。", "zh",
               _people("临川府", "落雁桥", "青螺桥", kind="place"))
    assert {e.hallucinated_span for e in entity.mismatch_edits(zh)} == {
        "五月初四傍晚回到青螺桥。"}


COUPLET = "第一回 甄士隐梦幻识通灵 贾雨村风尘怀闺秀"


@pytest.mark.parametrize("sentence,halves", [
    (COUPLET, (8, 8)),
    ("甄士隐梦幻识通灵，贾雨村风尘怀闺秀。", (8, 8)),
    ("第三回 托内兄如海酬训教 接外孙贾母惜孤女", (8, 8)),
    ("甄士隐梦幻识通灵。", None),
    ("甄士隐梦幻识通灵，贾雨村怀闺秀。", None),
])
def test_couplet_halves(sentence, halves):
    assert couplet_halves(sentence) == halves


def test_couplet_edits_keep_the_halves_equal():
    entities = _people("甄士隐", "贾雨村", "英莲", "贾宝玉", "封肃") + _people(
        "姑苏", "大如州", kind="place")
    draft = Draft(COUPLET, "zh", entities)
    got = entity.edits(draft)
    assert got, "a same-length name or a swap of two same-length names is offered"
    assert all(couplet_halves(e.text) == (8, 8) for e in got)
    assert ("role_swap", "第一回 贾雨村梦幻识通灵 甄士隐风尘怀闺秀") in _changed(got)
    assert all("英莲" not in e.text and "封肃" not in e.text for e in got)
    # the generator's candidates too, attempt after attempt
    for attempt in range(4):
        cand = RulesGenerator(3).generate(COUPLET, "zh", entities, "entity", attempt)
        assert couplet_halves(cand.summary) == (8, 8), cand.summary


@pytest.mark.parametrize("summary,swapped", [
    ("Orrin gave Wren the workbook of his great-grandfather Amsel Vale.",
     "Wren gave Orrin the workbook of his great-grandfather Amsel Vale."),
    ("Milo told Vell that Aunt Mabry had changed her figures.",
     "Vell told Milo that Aunt Mabry had changed her figures."),
])
def test_no_role_swap_out_of_an_apposition(summary, swapped):
    # (genders known, and the pair's the same: a "his" or "her" after the pair points at one
    # of them only then, and a swap needs them of one gender)
    entities = _people("Orrin", "Wren", "Amsel Vale", "Milo", "Vell", "Mabry", Orrin="m",
                       Wren="m", Milo="m", Vell="m", Mabry="f")
    got = [e.hallucinated_span for e in entity.role_swap_edits(Draft(summary, "en", entities))]
    assert got == [swapped]


def test_no_part_of_a_longer_name_and_no_article_after_an_article():
    entities = _people("Corra", "Milo", "Pell") + _people("Office", "Guild", kind="org") + \
        _people("Corrinford", "Mole", kind="place")
    draft = Draft("Corra insured the barge with the Lanternwick Insurance Office. Milo told Pell "
                  "that his mother was a Corrinford washerwoman. The Mole was wet.", "en",
                  entities)
    spans = sorted(e.hallucinated_span for e in entity.mismatch_edits(draft))
    assert spans == ["Corrinford was wet."]  # the summary writes it without "the"
    assert entity.inside_longer_name("He met Jory Fenwick there.", 7, 11)
    assert not entity.inside_longer_name("Jory Fenwick met him. Then Mr. Vale came.", 27, 35)
    assert not entity.inside_longer_name("Orrin told Mr. Vale.", 0, 5)


@pytest.mark.parametrize("summary,entities,why", [
    ("孙行者打死了白骨精。", _people("孙行者", "孙悟空", "老孙"),
     "only other names of the same person"),
    ("第一回 甄士隐梦幻识通灵 贾雨村风尘怀闺秀", _people("甄士隐", "英莲"),
     "a name of another length would unbalance the couplet"),
    ("Orrin mends the clock.", _people("Orrin", "Mabry", Orrin="m", Mabry="f"),
     "only characters of the other gender"),
    ("The tide rose over the wall.", _people("Orrin", "Mabry"),
     "no named character or place of the window in the summary"),
])
def test_a_refusal_says_why(summary, entities, why):
    language = "en" if summary.isascii() else "zh"
    outcome = RulesGenerator(1).generate(summary, language, entities, "entity")
    assert outcome.reason.endswith(f"({why})"), outcome.reason


def test_traditional_aliases_and_no_second_name_of_someone_present():
    assert entity.maybe_same("聞太師", "聞仲", True)  # 太師 is a title, written traditional
    entities = _people("子牙", "聞仲", "聞太師", "楊戩")
    got = {e.hallucinated_span
           for e in entity.mismatch_edits(Draft("楊戩先到。子牙劫營破聞仲。", "zh", entities))}
    assert "聞太師劫營破聞仲。" not in got and "楊戩劫營破聞仲。" in got


def test_a_zh_place_stand_in_is_no_persons_name():
    entities = _people("杜少卿") + _people("莫愁湖", "杜少卿", "玄武湖", kind="place")
    got = {e.hallucinated_span for e in entity.mismatch_edits(
        Draft("逞风流高会莫愁湖", "zh", entities))}
    assert got == {"逞风流高会玄武湖"}


PAIR = _people("Carton", "Darnay", "Lucie", "Miss Pross", "Stryver",
               Carton="m", Darnay="m", Lucie="f", **{"Miss Pross": "f"})


@pytest.mark.parametrize("summary,made", [
    # the one man the sentence before names is who "He" now means
    ("Darnay meets Lucie at the gate. Carton takes the key to the bank. Lucie weeps.",
     "He takes the key to the bank."),
    ("Darnay meets Lucie at the gate. Then, Carton's horse runs to the bank. Lucie weeps.",
     "Then, his horse runs to the bank."),
    ("Lucie meets Darnay at the gate. Miss Pross takes the key to the bank. Darnay waits.",
     "She takes the key to the bank."),
])
def test_a_name_made_a_pronoun_points_at_the_one_person_named_before(summary, made):
    edits = entity.edits(Draft(summary, "en", PAIR))
    pronouns = [e for e in entity.preferred(Draft(summary, "en", PAIR), edits)
                if e.subtype == "pronoun"]
    # where a summary offers this direction, the pronoun edits are these (no name where a
    # pronoun was: that direction alone was what readers learned)
    assert [e.hallucinated_span for e in pronouns] == [made]


@pytest.mark.parametrize("summary", [
    "Carton meets Lucie at the gate. Carton takes the key to the bank.",  # still Carton
    "Darnay meets Stryver at the gate. Carton takes the key to the bank.",  # which man?
    "Darnay meets Lucie at the gate.\n\nCarton takes the key to the bank.",  # a new paragraph
    "He tells Darnay about Lucie. Carton takes the key to the bank.",  # "he" is someone else
    "Darnay meets Lucie at the gate. Carton, the lawyer, takes the key.",  # an apposition
    "Darnay meets Lucie at the gate. Carton and Lucie take the key.",  # two subjects
    "Darnay meets Lucie at the gate. Carton gives Darnay the key.",  # both in the sentence
    "Darnay meets Lucie at the gate. Stryver takes the key to the bank.",  # gender unknown
])
def test_no_name_is_made_a_pronoun_that_could_still_mean_them_or_anyone(summary):
    edits = entity.named_as_pronoun_edits(Draft(summary, "en", PAIR))
    assert edits == []


def test_a_zh_name_made_a_pronoun():
    people = _people("周大有", "卜大顺", "柴老太太", 周大有="m", 卜大顺="m", 柴老太太="f")
    summary = "周大有在渡口见到柴老太太。卜大顺把钥匙交给了船夫。"
    made = [e.hallucinated_span for e in entity.named_as_pronoun_edits(Draft(summary, "zh",
                                                                            people))]
    assert made == ["他把钥匙交给了船夫。"]


def test_no_pronoun_made_beside_another_of_its_gender_nor_a_title_written_another_way():
    """Seed 5040's reading: "Syd Palmer is a friend of his" -> "He is a friend of his" (both
    pronouns would be Chip, named before: Chip his own friend); 师父 -> 师傅 (one title
    written two ways, still true)."""
    people = _people("Chip", "Syd Palmer", "Smith", Chip="m", **{"Syd Palmer": "m"})
    draft = Draft("Chip docks at the station. Syd Palmer is a friend of his.", "en", people)
    assert [e.hallucinated_span for e in entity.named_as_pronoun_edits(draft)] == []
    draft = Draft("Chip docks at the station. Syd Palmer is an old trader.", "en", people)
    assert [e.hallucinated_span for e in entity.named_as_pronoun_edits(draft)] == [
        "He is an old trader."]
    titles = _people("顾衡山") + _people("师父", "师傅", "掌柜", kind="title")
    made = {e.hallucinated_span for e in entity.mismatch_edits(Draft(
        "小满跟着师父学制墨。", "zh", titles))}
    assert made == {"小满跟着掌柜学制墨。"}, made
