"""The Qwen3 tokenizer loads offline, and exact join arithmetic matches direct counting."""

from hypothesis import given, settings
from hypothesis import strategies as st

from longnovel.tokenizer import (
    JOIN,
    QWEN3_SHA256,
    _has_qwen_pretokenizer,
    corrections_of,
    file_sha256,
    join_probes,
    last_line,
    load_tokenizer,
    packaged_tokenizer_path,
)
from longnovel.windows import RunLengths

TOKENIZER = load_tokenizer("qwen3")
# Characters around which Qwen's pre-tokenizer behaves differently: newlines, spaces, CJK
# punctuation, quotes, digits, apostrophes, a combining accent.
ALPHABET = list("ab Z\n\n\t.。，“”'1中文’!?-") + ["\u0301", "\r", "  ", "'s", "\n "]
# Indentation at line starts as real novels have it: full-width U+3000, ASCII spaces, tabs, and
# other spaces Python and the tokenizer's regex may disagree on.
INDENTED = [*ALPHABET, "\n\u3000\u3000", "\n    ", "\u3000", "\n\t", "\u00a0", "\x0b", "\x1c",
            "\u2028", "\x85", "\n\n\u3000\u3000他说"]
unit_text = st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=40).map(
    lambda parts: "".join(parts).strip()).filter(bool)


def test_packaged_tokenizer_is_the_official_qwen3_file():
    assert file_sha256(packaged_tokenizer_path()) == QWEN3_SHA256
    assert TOKENIZER.joins_are_local
    assert TOKENIZER.count("Hello world") == 2
    assert TOKENIZER.count_batch(["你好", "Hello world", ""]) == [1, 2, 0]
    # the loader trusts the pinned file's pre-tokenizer instead of parsing it on every load
    assert _has_qwen_pretokenizer(packaged_tokenizer_path().read_text(encoding="utf-8"))


indented_text = st.lists(st.sampled_from(INDENTED), min_size=1, max_size=40).map(
    lambda parts: "".join(parts).strip()).filter(bool)


def _join_corrections(texts: list[str]) -> list[int]:
    """What ingest adds per join after a unit, counted as ingest counts it: from each text's
    last line alone (``join_probes``, then ``corrections_of``)."""
    return corrections_of(TOKENIZER.count_batch(join_probes([last_line(t) for t in texts])))


def test_last_line_is_after_the_last_newline_before_text():
    assert last_line("a\nb\n\nccc") == "ccc"
    assert last_line("a\n  b") == "  b"  # indentation belongs to the last line
    assert last_line("第一段。\n\u3000\u3000第二段。") == "\u3000\u3000第二段。"
    assert last_line("a\n\u3000\nb\n  ") == "b\n  "  # a trailing blank line is not one
    assert last_line("one line") == "one line"


def assert_every_run_is_exact(texts: list[str]) -> None:
    """The length of every run of consecutive units, from the units' counts, is the count of
    the joined text."""
    lengths = RunLengths(TOKENIZER.count_batch(texts), _join_corrections(texts))
    for j in range(len(texts)):
        for k in range(j, len(texts)):
            assert lengths(j, k) == TOKENIZER.count(JOIN.join(texts[j : k + 1]))


@settings(max_examples=300, deadline=None)
@given(st.lists(unit_text, min_size=1, max_size=6))
def test_window_length_from_unit_counts_is_exact(texts):
    assert_every_run_is_exact(texts)


@settings(max_examples=300, deadline=None)
@given(st.lists(indented_text, min_size=1, max_size=6))
def test_window_length_is_exact_with_indented_lines(texts):
    assert_every_run_is_exact(texts)


def test_exact_on_indented_novel_paragraphs():
    texts = ["第一回　渡口\n\u3000\u3000他说：“走吧。”\n\u3000\u3000她没有回答。",
             "\u3000\u3000第二天，雨停了。\n\n\u3000\u3000“好。”".strip(),
             "CHAPTER II\n\n    “Why?” asked Mira.\n    No one did.",
             "  Indented 1,204 miles.\n\t\tThen—silence...".strip(), "\u3000\u3000完。".strip()]
    tails = [last_line(t) for t in texts]
    assert all(len(tail) < 30 for tail in tails)  # no unit is re-tokenized whole
    lengths = RunLengths(TOKENIZER.count_batch(texts), _join_corrections(texts))
    for j in range(len(texts)):
        for k in range(j, len(texts)):
            assert lengths(j, k) == TOKENIZER.count(JOIN.join(texts[j : k + 1]))


def test_exact_on_real_prose_joins():
    texts = ["他说：“走吧。”\n\n她没有回答。", "第二天，\n雨停了。",
             "“Why?” asked Mira.\n\nNo one did.",
             "It was 1,204 miles.   Then—silence...", "end'", "'s start"]
    lengths = RunLengths(TOKENIZER.count_batch(texts), _join_corrections(texts))
    assert lengths(0, 5) == TOKENIZER.count(JOIN.join(texts))


def test_local_hugging_face_directory_loads_through_transformers(tmp_path):
    import shutil

    import pytest

    pytest.importorskip("transformers")
    source = packaged_tokenizer_path().parent
    for name in ("tokenizer.json", "tokenizer_config.json", "vocab.json", "merges.txt"):
        shutil.copy(source / name, tmp_path / name)
    local = load_tokenizer(str(tmp_path))
    assert local.joins_are_local  # same pre-tokenizer as Qwen3
    texts = ["渡口的船来了。", "Mira counted 12 gulls.\n\nThen none."]
    assert local.count_batch(texts) == TOKENIZER.count_batch(texts)


def test_bad_tokenizer_setting_is_a_clear_error(tmp_path):
    import pytest

    from longnovel.errors import ConfigError

    with pytest.raises(ConfigError, match="neither 'qwen3' nor a local directory"):
        load_tokenizer(str(tmp_path / "missing"))
