"""Sentence splitting, lexical entities and balanced type assignment."""

from __future__ import annotations

from collections import Counter

from longnovel.injection import assign_types, extract_entities, merge_entities, split_sentences
from longnovel.taxonomy import TYPE_IDS


def test_split_en_handles_abbreviations_and_quotes():
    text = 'Mr. Darcy met Dr. J. Smith at St. Paul\'s. "Go!" she cried. Then he left...\n\nNext'
    assert split_sentences(text, "en") == [
        "Mr. Darcy met Dr. J. Smith at St. Paul's.", '"Go!" she cried.', "Then he left...",
        "Next"]


def test_split_zh_with_closing_quotes():
    text = "宝玉说：“你来了。”黛玉笑了。她走了……然后呢？好！"
    assert split_sentences(text, "zh") == ["宝玉说：“你来了。”", "黛玉笑了。", "她走了……", "然后呢？",
                                           "好！"]


def test_en_entities_filter_sentence_starts_and_type_places():
    text = ("Elizabeth Bennet walked to Netherfield Park. Mr. Darcy was there with Jane. "
            "Later she went to London with her aunt. In London, she met Mr. Darcy again. "
            "However, Jane wrote to Elizabeth from London. Netherfield Park was grand.")
    got = {(e["name"], e["type"]): e["count"] for e in extract_entities(text, "en")}
    assert got[("Mr. Darcy", "person")] == 2
    assert got[("London", "place")] == 3
    assert got[("Netherfield Park", "place")] == 2
    assert not any(name in {"Later", "However", "In"} for name, _ in got)


def test_zh_entities_use_pos_tags_and_lexicon():
    text = "贾宝玉在大观园里遇见了林黛玉。林黛玉哭了。贾宝玉的父亲贾政很生气。贾政的父亲早已去世。"
    got = {(e["name"], e["type"]) for e in extract_entities(text, "zh")}
    assert {("贾宝玉", "person"), ("林黛玉", "person"), ("贾政", "person"),
            ("父亲", "kinship")} <= got


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
