"""Properties of the length-expansion algorithm (DESIGN.md section 7)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from longnovel.windows import RunLengths, sample_spread, slide


def reference_slide(counts, joins, low, high):
    """A literal transcription of the design's four steps, with lengths summed directly."""
    def length(j, k):
        return sum(counts[j : k + 1]) + sum(joins[j:k])

    out, j, k, n = [], 0, 0, len(counts)
    while j < n:
        size = length(j, k)
        if size < low:
            if k == n - 1:
                break
            k += 1
        elif size <= high:
            out.append((j, k, size))
            j = k + 1
            k = j
        else:
            j += 1
            k = max(k, j)
    return out


runs = st.lists(st.integers(1, 9000), min_size=0, max_size=40)


@settings(max_examples=400, deadline=None)
@given(runs, st.integers(0, 3), st.integers(2000, 20000), st.integers(0, 3000),
       st.integers(0, 6000))
def test_windows_are_in_range_consecutive_and_disjoint(counts, join, target, below, above):
    joins = [join] * len(counts)
    low, high = target - below, target + above
    spans = slide(len(counts), RunLengths(counts, joins), low, high)
    previous_end = -1
    for span in spans:
        assert low <= span.n_tokens <= high
        joins_inside = join * (span.end - span.start)
        assert span.n_tokens == sum(counts[span.start : span.end + 1]) + joins_inside
        assert span.start > previous_end  # no overlap, in order
        previous_end = span.end
    expected = reference_slide(counts, joins, low, high)
    assert [(s.start, s.end, s.n_tokens) for s in spans] == expected


def test_known_example():
    counts = [3000, 3000, 3000, 3000, 3000, 3000, 9000, 25000, 3000, 3000, 3000, 3000, 3000]
    spans = slide(len(counts), RunLengths(counts, [1] * len(counts)), 14000, 20000)
    # five 3000-token units (+4 join tokens) reach 15004; the 25000 unit is skipped whole
    assert [(s.start, s.end, s.n_tokens) for s in spans] == [(0, 4, 15004), (8, 12, 15004)]


def test_sample_spread_is_seeded_and_spreads_across_books():
    items = {"a": list(range(10)), "b": list(range(10, 12)), "c": list(range(20, 30))}
    first = sample_spread(items, 6, random.Random(1))
    again = sample_spread(items, 6, random.Random(1))
    assert first == again and len(first) == 6
    assert {x // 10 for x in first} == {0, 1, 2}  # every book contributes
    assert sample_spread(items, None, random.Random(1)) == [x for v in items.values() for x in v]
