"""The sentence-level validator on good and bad candidates, and the gold reason."""

from __future__ import annotations

import pytest

from longnovel.injection.candidate import Candidate
from longnovel.injection.reasons import describe
from longnovel.injection.validate import validate

EN = "Mabry walks to the house in the rain. Wren stays at home with her mother."


def cand(summary, hallucinated, original="", type_id="entity", subtype="mismatch",
         base=EN):
    return Candidate(type_id, subtype, base, summary, original, hallucinated, "test")


def test_good_single_sentence_change():
    new = EN.replace("her mother", "her aunt")
    c = cand(new, "Wren stays at home with her aunt.",
             "Wren stays at home with her mother.", "relation", "replace")
    assert validate(c, "en") is None


@pytest.mark.parametrize("summary,span,reason", [
    (EN, "Mabry walks to the house in the rain.", "unchanged"),
    (EN.replace("Mabry", "Orrin").replace("mother", "aunt"), "Orrin walks",
     "not_one_sentence_changed"),
    (EN.replace("Mabry", "Orrin"), "Jory walks", "span_not_in_summary"),
    (EN.replace("Mabry", "Orrin"), "Wren stays at home", "span_not_the_change"),
    (EN + " And then a very long invented paragraph follows here, far longer than the rest.",
     "And then", "length_ratio"),
    ("她在雨中走向那栋房子。女孩和母亲待在家里。", "她在雨中", "language_changed"),
    (EN.replace("Mabry", "Orrin"), "", "empty"),
])
def test_bad_candidates(summary, span, reason):
    assert validate(cand(summary, span), "en") == reason


def test_unknown_subtype_is_rejected():
    c = cand(EN.replace("Mabry", "Orrin"), "Orrin walks to the house in the rain.",
             subtype="made_up")
    assert validate(c, "en") == "unknown_subtype"


def test_temporal_swap_rules():
    a, b = "Mabry walks to the house in the rain.", "Wren stays at home with her mother."
    good = Candidate("temporal", "swap", EN, f"{b} {a}", EN, f"{b} {a}", "t")
    assert validate(good, "en") is None
    one = Candidate("temporal", "swap", EN, f"{a} Wren stays home.", EN, "Wren", "t")
    assert validate(one, "en") == "not_a_swap"


def test_fabrication_adds_exactly_one_sentence():
    added = "Mabry secretly feels ashamed."
    good = cand(f"{EN} {added}", added, "", "fabrication", "continue")
    assert validate(good, "en") is None
    two = cand(EN.replace("Mabry", "Orrin") + f" {added}", added, "", "fabrication", "continue")
    assert validate(two, "en") == "not_one_sentence_added"
    changed = cand(EN.replace("the rain.", "the rain, secretly ashamed."),
                   "Mabry walks to the house in the rain, secretly ashamed.", "",
                   "fabrication", "continue")
    assert validate(changed, "en") == "not_one_sentence_added"
    changed.subtype = "psychology"
    assert validate(changed, "en") is None


def test_zh_candidate():
    base = "小满骗了韩石。青禾在房中哭泣。"
    c = Candidate("entity", "role_swap", base, "韩石骗了小满。青禾在房中哭泣。", "小满骗了韩石。",
                  "韩石骗了小满。", "rules")
    assert validate(c, "zh") is None
    c.summary = "Han Shi tricked Xiaoman. 青禾在房中哭泣。"
    assert validate(c, "zh") == "language_changed"


def test_a_reason_without_an_article_sets_the_change_against_the_reference_summary():
    """Without an article passage a reason never claims what the article says."""
    c = Candidate("entity", "role_swap", "小满骗了韩石。", "韩石骗了小满。", "小满骗了韩石。",
                  "韩石骗了小满。", "rules")
    assert describe(c, "zh") == "实体错误：摘要称“韩石骗了小满。”，而参考摘要是“小满骗了韩石。”。"
    e = cand(EN.replace("Mabry", "Orrin"), "Orrin walks to the house in the rain.",
             "Mabry walks to the house in the rain.")
    text = describe(e, "en")
    assert text == ('Entity error: The summary says "Orrin walks to the house in the rain.", '
                    'whereas the reference summary says "Mabry walks to the house in the rain.".')
    added = cand(EN + " X.", "X.", "", "fabrication", "continue")
    assert describe(added, "en").endswith('adds "X.", which the article does not tell.')


ARTICLE = ("The wind rose at noon. Mabry put on her coat and walked to the house through the "
           "rain, and the dog followed her. Orrin stayed by the fire all evening.")


def test_a_reason_quotes_the_article_passage_the_original_sentence_rests_on():
    from longnovel.injection.evidence import ArticleIndex
    from longnovel.injection.reasons import gold

    e = cand(EN.replace("Mabry", "Orrin"), "Orrin walks to the house in the rain.",
             "Mabry walks to the house in the rain.")
    found = gold(e, "en", ArticleIndex(ARTICLE, "en"))
    passage = ("Mabry put on her coat and walked to the house through the rain, and the dog "
               "followed her.")
    assert found.evidence == passage == ARTICLE[found.evidence_start:found.evidence_end]
    assert found.reason == ('Entity error: The summary says "Orrin walks to the house in the '
                            f'rain.", but the article says "{passage}".')


def test_a_timeline_reason_quotes_the_articles_own_passages_in_its_order():
    """Seed 4838's reading: the timeline reason said '(the article: "...")' around the
    reference summary's sentences, which the article does not contain. It now quotes the
    article's two passages, the first as the evidence; without them, the reference summary,
    named as such."""
    from longnovel.injection.evidence import ArticleIndex
    from longnovel.injection.reasons import gold

    swapped = "Wren stays at home with her mother. Mabry walks to the house in the rain."
    e = cand(swapped, swapped, EN, "temporal", "swap")
    article = ARTICLE + " Later Wren stayed at home with her mother and sewed."
    found = gold(e, "en", ArticleIndex(article, "en"))
    first = ("Mabry put on her coat and walked to the house through the rain, and the dog "
             "followed her.")
    assert found.reason == (f'Timeline error: The summary tells these events in the order '
                            f'"{swapped}", but the article tells "{first}" first and "Later '
                            f'Wren stayed at home with her mother and sewed." after it.')
    assert article[found.evidence_start:found.evidence_end] == found.evidence == first
    alone = gold(e, "en", ArticleIndex(ARTICLE, "en"))  # the article never tells the second
    assert alone.reason.endswith(f'(the reference summary: "{EN}").')
    assert "the article" not in alone.reason


def test_a_passage_that_shares_only_names_is_no_evidence():
    """Seed 4838's reading: a letter's heading ("MISS CLARISSA HARLOWE, TO MISS HOWE") quoted
    as what the article says of a sentence about a prohibition, found by its names alone. A
    passage that shares a word of what is done is still quoted."""
    from longnovel.injection.evidence import ArticleIndex
    from longnovel.injection.reasons import gold

    base = "Wren writes to Mabry. Orrin waits."
    e = cand("Wren writes to Kit. Orrin waits.", "Wren writes to Kit.", "Wren writes to Mabry.",
             base=base)
    heading = "WREN TO MABRY. The wind rose at noon. Kit sold three lamps in the market."
    found = gold(e, "en", ArticleIndex(heading, "en"))
    assert "the article" not in found.reason and found.evidence == ""
    told = heading + " That evening Wren writes a long letter to Mabry."
    found = gold(e, "en", ArticleIndex(told, "en"))
    assert found.evidence == "That evening Wren writes a long letter to Mabry.", found


def test_a_timeline_reason_quotes_no_heading_found_by_names():
    """Each of a swap's two passages must tell its event as a quoted passage must (review of
    the fourth session: "the article tells "COLONEL MORDEN, TO JOHN BELFORD, ESQ." first")."""
    from longnovel.injection.evidence import ArticleIndex
    from longnovel.injection.reasons import gold

    base = "Wren writes to Mabry. Wren stays at home with her mother."
    swapped = "Wren stays at home with her mother. Wren writes to Mabry."
    e = cand(swapped, swapped, base, "temporal", "swap", base=base)
    article = ("WREN TO MABRY. The wind rose at noon. Later Wren writes a letter and stays at "
               "home with her mother, and the dog sleeps.")
    found = gold(e, "en", ArticleIndex(article, "en"))
    assert "WREN TO MABRY" not in found.reason
    assert found.reason.endswith(f'(the reference summary: "{base}").')


def test_a_reason_quotes_nothing_when_no_passage_tells_the_original():
    from longnovel.injection.evidence import ArticleIndex
    from longnovel.injection.reasons import gold

    e = cand(EN.replace("Mabry", "Orrin"), "Orrin walks to the house in the rain.",
             "Mabry walks to the house in the rain.")
    found = gold(e, "en", ArticleIndex("Kit sold three lamps in the market. It was cold.", "en"))
    assert "article says" not in found.reason and "reference summary says" in found.reason
    assert (found.evidence, found.evidence_start, found.evidence_end) == ("", -1, -1)


def test_split_edited_is_split_sentences_of_the_new_text():
    """The validator re-splits only the lines an edit touches; the result must be exactly the
    full split, whatever the edit (a word, a sentence joined or added, a line break)."""
    import random
    from pathlib import Path

    from longnovel.injection.nlp.sentences import split_edited, split_sentences

    root = Path(__file__).resolve().parents[2] / "data/raw/sample"
    rng = random.Random(5)
    for language in ("en", "zh"):
        files = sorted((root / language).rglob("*.summary.txt"))[:6]
        old = "\n\n".join(f.read_text(encoding="utf-8") for f in files)
        for _ in range(60):
            a = rng.randrange(len(old))
            b = min(len(old), a + rng.choice((0, 1, 5, 40, 200)))
            new = old[:a] + rng.choice(("", "x", ". Then ", "。然后", "\n", " Mr. Vale ", "；")) \
                + old[b:]
            assert split_edited(old, new, language) == split_sentences(new, language), (a, b)
        assert split_edited(old, old, language) == split_sentences(old, language)


def test_the_evidence_rests_on_the_sentence_that_was_changed_by_a_few_words():
    """"can" -> "can't" inserts characters inside a sentence: the original sentence is that
    one, not the sentence before it (a whole added sentence is placed after that one)."""
    from longnovel.injection.reasons import changed_sentences

    base = "Dorr leaves the ship. Asa knows that Dorr can come back later."
    c = Candidate("polarity", "negate", base, base.replace("can", "can't"),
                  "Asa knows that Dorr can come back later.",
                  "Asa knows that Dorr can't come back later.", "rules")
    assert changed_sentences(c, "en") == ("Asa knows that Dorr can come back later.",
                                          "Asa knows that Dorr can't come back later.")
    added = Candidate("fabrication", "continue", base, base + " Asa sleeps.", "",
                      "Asa sleeps.", "rules")
    assert changed_sentences(added, "en") == ("Asa knows that Dorr can come back later.",
                                              "Asa sleeps.")


def test_an_added_sentence_is_itself_even_where_it_shares_words_with_the_next():
    from longnovel.injection.reasons import changed_sentences

    base = "Iris obeys Jupiter. Apollo reinspires Hector."
    new = "Iris obeys Jupiter. Apollo encourages Aeneas. Apollo reinspires Hector."
    added = Candidate("fabrication", "continue", base, new, "", "Apollo encourages Aeneas.",
                      "rules")
    assert changed_sentences(added, "en") == ("Iris obeys Jupiter.", "Apollo encourages Aeneas.")


def test_a_quoted_passage_holds_what_the_edit_changed():
    """Seed 5040's reading: "买了十五斤牛皮" set against a passage that stops before "三十斤
    牛皮", "not said 'still fine'" against one without what was said, "two young men" against
    one with no count: the reason said "but the article says X" of an X that says nothing of
    the change. The quoted passage holds the count, the negation taken out or the word
    changed; where no passage near the top does, the reason names the reference summary."""
    from longnovel.injection.evidence import ArticleIndex
    from longnovel.injection.reasons import gold

    base = "韩石嫌鹿角胶太贵，去镇东的皮货铺买了三十斤牛皮熬胶。青禾在家等他。"
    article = ("韩石说小墨都用鹿角胶熬胶太贵了，鹿角胶一斤要一两银子，不如去镇东的皮货铺看看牛皮。"
               "青禾点了点头。天下起了雨。于是韩石去了皮货铺，买了三十斤牛皮，扛回墨坊。")
    e = cand(base.replace("三十斤", "十五斤"),
             "韩石嫌鹿角胶太贵，去镇东的皮货铺买了十五斤牛皮熬胶。",
             "韩石嫌鹿角胶太贵，去镇东的皮货铺买了三十斤牛皮熬胶。", "number", "quantity",
             base=base)
    found = gold(e, "zh", ArticleIndex(article, "zh"))
    assert "三十斤牛皮" in found.evidence, found
    assert found.evidence == article[found.evidence_start:found.evidence_end]
    alone = gold(e, "zh", ArticleIndex(article.split("天下起了雨。")[0], "zh"))
    assert "参考摘要" in alone.reason and alone.evidence == "", alone

    base = "Wren did not tell Orrin about the bell. Mabry walks home."
    e = cand(base.replace("did not tell", "told"), "Wren told Orrin about the bell.",
             "Wren did not tell Orrin about the bell.", "polarity", "affirm", base=base)
    article = ("Wren thought about the bell and about Orrin all day long. It rained. Wren said "
               "nothing to Orrin of the bell that night.")
    found = gold(e, "en", ArticleIndex(article, "en"))
    assert found.evidence == "Wren said nothing to Orrin of the bell that night.", found
    # a count is read whole: "two hundred" is not the "two" of another sentence
    base = "Milo wound the weight, two hundred turns. Mabry walks home."
    e = cand(base.replace("two hundred", "one hundred"), "Milo wound the weight, one hundred "
             "turns.", "Milo wound the weight, two hundred turns.", "number", "quantity",
             base=base)
    article = ("Milo wound the striking weight at the top of the tower, and two of them "
               "watched. Wren did the going weight. Milo gave the striking weight its two "
               "hundred turns.")
    found = gold(e, "en", ArticleIndex(article, "en"))
    assert found.evidence == "Milo gave the striking weight its two hundred turns.", found
    # a passage with the name and nothing else of what the sentence says is no evidence
    base = "顾衡山说这五百锭废了。青禾哭了。"
    e = cand(base.replace("顾衡山", "韩石"), "韩石说这五百锭废了。", "顾衡山说这五百锭废了。",
             base=base)
    article = "“这五百锭，”他说，“废了。”青禾哭了。第二天，顾衡山说，五钱重的小锭，二十天就干透了。"
    found = gold(e, "zh", ArticleIndex(article, "zh"))
    assert "参考摘要" in found.reason and found.evidence == "", found


def test_an_added_sentence_carries_evidence_only_where_the_article_tells_what_it_follows():
    """Seed 5141's reading: fabrication rows carried "your wits?" and "柴文焕说。" as
    evidence, the best passage of a poor lot for the sentence the invention follows. The
    passage goes with the row only when it tells that sentence as a quoted passage must."""
    from longnovel.injection.evidence import ArticleIndex
    from longnovel.injection.reasons import gold

    added = "Orrin sells the old clock at the fair."
    e = cand(EN.replace("rain.", "rain. " + added), added, "", "fabrication", "continue")
    found = gold(e, "en", ArticleIndex(ARTICLE, "en"))
    assert found.evidence.startswith("Mabry put on her coat"), found
    found = gold(e, "en", ArticleIndex("Your wits? Mabry laughed. The house was cold.", "en"))
    assert (found.evidence, found.evidence_start) == ("", -1), found
    assert found.reason.endswith("which the article does not tell.")
