"""Entity typing and entity edits, measured (issue 24).

    python bench/entities.py typing NOVEL.txt [--backend lexical|spacy]
        the people and places the extractor finds in a plain-text novel, its chapters split on
        "CHAPTER <roman>" lines and merged the way a window merges its units, and how a few
        words are typed (--word Piccadilly --word Herr ...)
    python bench/entities.py edits RUN_DIR [--language zh] [--show]
        a built run's entity rows: valid ones by sub-type, the 回目 couplets among the edited
        sentences and how many an edit left with unequal halves, the refusals by reason
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path


def typing(path: Path, backend: str, words: list[str]) -> None:
    from longnovel.injection.nlp.entities import extract_entities, merge_entities

    text = path.read_text(encoding="utf-8", errors="replace")
    chapters = re.split(r"\n\s*CHAPTER [IVXLC]+\.?\s*\n", text)[1:] or [text]
    options = {"backend": backend} if backend != "lexical" else {}  # older code: no backend
    merged = merge_entities([extract_entities(c, "en", **options) for c in chapters])
    for kind in ("person", "place"):
        rows = [e for e in merged if e["type"] == kind]
        print(f"{kind}: {len(rows)}")
        print("  " + ", ".join(f"{e['name']} {e['count']}" for e in rows[:80]))
    for word in words:
        print(f"  {word}: " + (", ".join(f"{e['type']} {e['count']}" for e in merged
                                         if e["name"] == word) or "no entity"))


def edits(run: Path, language: str | None, show: bool) -> None:
    import pyarrow.parquet as pq

    from longnovel.injection.generators.rules.draft import couplet_halves

    rows = [r for r in pq.read_table(run / "inject" / "injections.parquet").to_pylist()
            if r["type"] == "entity" and (language is None or r["language"] == language)]
    valid = [r for r in rows if r["valid"]]
    print(f"entity rows {len(rows)}, valid {len(valid)}:",
          dict(Counter(f"{r['language']}/{r['subtype']}" for r in valid)))
    couplets = [r for r in valid if couplet_halves(r["original_span"])]
    broken = [r for r in couplets
              if couplet_halves(r["hallucinated_span"]) != couplet_halves(r["original_span"])]
    print(f"couplet edits {len(couplets)}, halves made unequal {len(broken)}")
    reasons = Counter(m.group(1) if (m := re.search(r"\(([^()]*)\)$", r["reject_reason"]))
                      else r["reject_reason"][:60] for r in rows if not r["valid"])
    for reason, n in reasons.most_common():
        print(f"  {n:5d}  {reason}")
    for r in valid if show else []:
        print(f"- {r['window_id']} {r['subtype']}\n    {r['original_span']}\n"
              f"    {r['hallucinated_span']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("typing")
    t.add_argument("novel", type=Path)
    t.add_argument("--backend", default="lexical", choices=["lexical", "spacy"])
    t.add_argument("--word", action="append", default=[])
    e = sub.add_parser("edits")
    e.add_argument("run", type=Path)
    e.add_argument("--language", choices=["en", "zh"])
    e.add_argument("--show", action="store_true")
    args = parser.parse_args()
    if args.command == "typing":
        typing(args.novel, args.backend, args.word)
    else:
        edits(args.run, args.language, args.show)


if __name__ == "__main__":
    main()
