"""Sentence splitting, lexical entities and balanced type assignment."""

from __future__ import annotations

from collections import Counter

from longnovel.injection.assign import assign_types
from longnovel.injection.nlp.entities import extract_entities, merge_entities
from longnovel.injection.nlp.sentences import split_sentences
from longnovel.taxonomy import TYPE_IDS


def _counts(text: str, language: str) -> dict[tuple[str, str], int]:
    """{(name, type): count} of the lexical entities of ``text``."""
    return {(e["name"], e["type"]): e["count"] for e in extract_entities(text, language)}


def test_split_en_handles_abbreviations_and_quotes():
    text = 'Mr. Vale met Dr. J. Tolley at St. Brennan\'s. "Go!" she cried. Then he left...\n\nNext'
    assert split_sentences(text, "en") == [
        "Mr. Vale met Dr. J. Tolley at St. Brennan's.", '"Go!" she cried.', "Then he left...",
        "Next"]


def test_split_en_after_closing_emphasis():
    assert split_sentences("She read *He says leave it.* Somebody knew.", "en") == [
        "She read *He says leave it.*", "Somebody knew."]


def test_split_zh_with_closing_quotes():
    text = "小满说：“你来了。”青禾笑了。她走了……然后呢？好！"
    assert split_sentences(text, "zh") == ["小满说：“你来了。”", "青禾笑了。", "她走了……",
                                           "然后呢？", "好！"]


def test_en_entities_filter_sentence_starts_and_type_places():
    text = ("Wren Halloway walked to Lantern Street. Mr. Vale was there with Mabry. "
            "Later she went to Harrowmere with her aunt. In Harrowmere, she met Mr. Vale again. "
            "However, Mabry wrote to Wren from Harrowmere. Lantern Street was busy.")
    got = _counts(text, "en")
    assert got[("Mr. Vale", "person")] == 2
    assert got[("Harrowmere", "place")] == 3
    assert got[("Lantern Street", "place")] == 2
    assert not any(name in {"Later", "However", "In"} for name, _ in got)


def test_en_entities_possessives_dates_and_things():
    text = ("On the fifth of Ashmonth, Orrin's shop opened late. Wren saw Orrin's hands shake. "
            "By the twelfth of Ashmonth the Long Tide was near. Pell said the Long Tide frightened "
            "him. Wren walked along the North Mole to Netters' Row. She waited on the North Mole "
            "and then went home to Netters' Row. Pell's mother said, \"Keep away from it.\" "
            "Wren said, \"Keep the key.\" Wren's Aunt Mabry laughed; Aunt Mabry knew.")
    got = _counts(text, "en")
    assert got[("Orrin", "person")] == 2
    assert got[("North Mole", "place")] == 2 and got[("Netters' Row", "place")] == 2
    assert got[("Aunt Mabry", "person")] == 2
    names = {name for name, _ in got}
    assert not names & {"Orrin's", "Ashmonth", "Long Tide", "Keep", "Wren's Aunt Mabry"}


def test_zh_entities_find_invented_names():
    """None of these names is in jieba's dictionary: they are found as a common surname with a
    given name, given names used alone, and a surname with a title."""
    text = ("船夫周大有把外甥沈小满送到青砚镇。沈小满给师父顾衡山磕了头。顾衡山的女儿顾青禾管账。"
            "青禾说：“你来了。”小满笑了。青禾问小满饿不饿。周大有说要回白鹭河。小满明白舅舅的意思。"
            "第二天，小满和青禾去了青砚镇的西街。陆先生在西街等着小满。陆先生说墨不够用。顾衡山明白了。")
    got = _counts(text, "zh")
    people = {name for name, kind in got if kind == "person"}
    assert people == {"周大有", "沈小满", "顾衡山", "小满", "青禾", "陆先生"}
    assert got[("小满", "person")] == 5 and got[("顾衡山", "person")] == 3
    assert {("青砚镇", "place"), ("西街", "place"), ("先生", "title")} <= set(got)
    assert not {name for name, _ in got} & {"明白", "衡山", "白鹭"}


def test_zh_entities_full_names_with_kinship():
    text = ("沈小满在松岭遇见了顾青禾。顾青禾哭了。沈小满的父亲早已去世。"
            "顾衡山很生气，顾衡山的父亲也早已去世。")
    got = set(_counts(text, "zh"))
    assert {("沈小满", "person"), ("顾青禾", "person"), ("顾衡山", "person"),
            ("父亲", "kinship")} <= got
    assert not any(kind == "place" for _, kind in got)  # 衡山 inside 顾衡山 is no mountain


def test_zh_compound_surname_aliases_and_titles_counted_once():
    text = ("林晓梅推开门，看见欧阳明正坐在窗前。欧阳明说：“你终于来了。”"
            "林晓梅笑了笑，把信放在桌上。"
            "第二天一早，晓梅去了北门街的药铺。药铺的孟掌柜告诉她，欧阳明昨夜去了江州城。"
            "晓梅问孟掌柜：“他一个人去的？”孟掌柜点头。晓梅心里很不安，她决定去江州城找他。"
            "她在江州城的客栈里等了三天，才见到欧阳明。欧阳明说他在找他的哥哥。"
            "林晓梅高兴地说：“我陪你去。”两人一起离开了江州城。晓梅说她明白了。")
    got = _counts(text, "zh")
    people = {name: n for (name, kind), n in got.items() if kind == "person"}
    assert people == {"欧阳明": 5, "晓梅": 4, "林晓梅": 3, "孟掌柜": 3}
    assert got[("江州城", "place")] == 4


def test_zh_common_words_are_not_names():
    """Common words that start with a surname character or that jieba tags as names."""
    text = ("他明白了。她也明白了。大家都很高兴。孩子们很高兴。谢谢你。谢谢大家。"
            "他把纸条塞进了口袋。她把钱塞进了箱子。每三天上山一次。他们上山砍柴。")
    assert [e for e in extract_entities(text, "zh") if e["type"] in ("person", "place")] == []


def test_merge_sums_and_sorts():
    merged = merge_entities([[{"name": "A", "type": "person", "count": 2}],
                             [{"name": "A", "type": "person", "count": 3},
                              {"name": "B", "type": "place", "count": 5}]])
    assert merged == [{"name": "A", "type": "person", "count": 5},
                      {"name": "B", "type": "place", "count": 5}]


def test_assign_types_balanced_per_tier_and_language():
    windows = [(f"{t}-{lang}-{i}", t, lang) for t in ("S", "M") for lang in ("zh", "en")
               for i in range(7)]
    assigned = assign_types(windows, TYPE_IDS, 3, seed=4)
    assert all(len(set(v)) == 3 for v in assigned.values())
    for tier in ("S", "M"):
        for lang in ("zh", "en"):
            counts = Counter(t for w, types in assigned.items()
                             if w.startswith(f"{tier}-{lang}-") for t in types)
            assert set(counts) == set(TYPE_IDS)
            assert max(counts.values()) - min(counts.values()) <= 1
    assert assigned == assign_types(list(reversed(windows)), TYPE_IDS, 3, seed=4)


def test_assign_all_types_when_per_window_is_large():
    assigned = assign_types([("w", "S", "en")], ["number", "entity"], 8, seed=1)
    assert sorted(assigned["w"]) == ["entity", "number"]
