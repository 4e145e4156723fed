"""English number words through inflect, imported without typeguard's instrumentation."""

from __future__ import annotations

import subprocess
import sys

from longnovel.injection.nlp import numerals


def test_number_words_both_ways():
    assert numerals.int_to_en_words(216) == "two hundred and sixteen"
    assert numerals.int_to_en_words(1216, with_and=False) == "one thousand two hundred sixteen"
    assert numerals.en_words_to_int("fifty-nine") == 59
    assert numerals.en_words_to_int("a hundred") == 100
    assert numerals.en_words_to_int("two three") is None
    assert numerals.indefinite_article("eleven-year-old") == "an"
    assert numerals.indefinite_article("twelve-year-old") == "a"


def test_inflect_is_imported_without_typeguard_instrumentation():
    code = ("import typeguard; before = typeguard.typechecked\n"
            "from longnovel.injection.nlp import numerals\n"
            "print(numerals.int_to_en_words(42))\n"
            "import inflect\n"
            "print(typeguard.typechecked is before)\n"
            "print(sorted(inflect.engine.number_to_words.__code__.co_names))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "forty-two"
    assert out[1] == "True"  # typeguard's decorator is put back
    # an instrumented method calls typeguard's checks (``check_argument_types_internal``)
    assert "typeguard" not in out[2]
    assert "_chunk_num" in out[2]  # the method's own code, read
