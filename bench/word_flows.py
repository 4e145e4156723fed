"""Which words one type's edits take out of the summaries and put in, and how far the two
differ: a word that comes in more often than it goes out is what a word-counting reader
learns as the mark of an edit.

    python bench/word_flows.py RUN_DIR TYPE [--top 12]

Over the valid rows of ``RUN_DIR/inject/injections.parquet`` of type ``TYPE``, per language:
the words each edit removes and adds (``longnovel.injection.nlp.text.word_change``), the net
flow per word (in minus out), the sum of its absolute values against the number of words
moved (0 when every word comes in as often as it goes out), and the commonest pairs.
"""

from __future__ import annotations

import argparse
from collections import Counter

import pyarrow.parquet as pq

from longnovel.injection.nlp.text import word_change


def flows(rows: list[dict], zh: bool) -> tuple[Counter, Counter, Counter]:
    """(words taken out, words put in, (out, in) pairs) over ``rows``."""
    out, put_in, pairs = Counter(), Counter(), Counter()
    for row in rows:
        removed, added = word_change(row["original_span"], row["hallucinated_span"], zh)
        out.update(removed)
        put_in.update(added)
        pairs[" ".join(removed), " ".join(added)] += 1
    return out, put_in, pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir")
    parser.add_argument("type")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    table = pq.read_table(f"{args.run_dir}/inject/injections.parquet").to_pylist()
    for language in ("en", "zh"):
        rows = [r for r in table if r["valid"] and r["type"] == args.type
                and r["language"] == language]
        if not rows:
            continue
        out, put_in, pairs = flows(rows, language == "zh")
        net = {w: put_in[w] - out[w] for w in set(out) | set(put_in)}
        moved = sum(out.values()) + sum(put_in.values())
        print(f"{language}: {len(rows)} rows; |in - out| summed over words "
              f"{sum(abs(v) for v in net.values())} of {moved} words moved")
        print("  net:", sorted(net.items(), key=lambda kv: (-abs(kv[1]), kv[0]))[:args.top])
        print("  pairs:", pairs.most_common(args.top))


if __name__ == "__main__":
    main()
