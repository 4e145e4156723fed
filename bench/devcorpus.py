"""Build longnovel's development corpus from real, public-domain novels.

The corpus is for benchmarking (speed and behaviour on real, messy text); it is written outside
git, to ``bench/out/corpora/dev`` by default, in longnovel's ``dir`` format::

    <out>/<lang>/<book_id>/NNN.txt  NNN.summary.txt  book.yaml
    <out>/dev.yaml        a longnovel config over it (tiers T8 8000, S 16000, M 32000)

Where the text comes from. The script reads local mirrors of public GitHub repositories with
``git show`` (nothing is downloaded; no network is used). Clone them first into
``bench/out/mirrors/<owner>+<name>/repo`` (``git clone --bare https://github.com/<owner>/<name>
bench/out/mirrors/<owner>+<name>/repo``; a clone with ``repo/.git`` works too), or point
``--mirrors`` at a folder laid out that way:

* ``GITenberg/Oliver-Twist_730``, ``GITenberg/Nicholas-Nickleby_967``,
  ``GITenberg/The-Pickwick-Papers_580``, ``GITenberg/Don-Quixote_996``: Project Gutenberg
  plain-text editions (public domain in the US; the Project Gutenberg header and licence
  footer are cut off).
* ``hrFZxYeN5qv/ebook``: a personal collection of Chinese e-texts of classical novels
  (GB18030 simplified and Big5 traditional files, CRLF, full-width indentation). The novels
  are centuries-old public-domain works; the repository states no licence for its digitisation.

What the summaries are. Every unit's summary is the human-written chapter synopsis that the
book itself carries, which is public domain like the text:

* English: the author's (or the translator's) argument heading of each chapter, e.g. Dickens's
  "Treats of the place where Oliver Twist was born ..." or Cervantes/Ormsby's "Which treats of
  ...". They are short (a line to a paragraph) and sometimes jokey or meta ("A short one").
* Chinese: the chapter's 回目, the couplet that heads each 回 and states its two main events,
  e.g. 王孝廉村学识同科　周蒙师暮年登上第.

The synopsis is removed from the unit text (the "CHAPTER IV" / 第四回 marker line stays), so the
article does not contain its own summary verbatim. Everything else is kept as it is: indentation,
CRLF turned into LF only, traditional characters, web-scrape lines such as 本章字数 or
更新时间, undecodable Big5 bytes (U+FFFD), footnote marks, end-of-part notes.

Units are the chapters. A chapter below ``--min-tokens`` (1500 Qwen3 tokens) is merged with
the following chapters until the group reaches it (a short last group joins the unit before);
their summaries are joined with a newline. Long chapters are kept whole; longnovel's
``units.out_of_range`` decides what ingest does with units outside 2k-6k tokens.

Usage (from the repository root, in its virtualenv)::

    python bench/devcorpus.py                  # writes bench/out/corpora/dev
    python bench/devcorpus.py --out DIR --mirrors MIRRORS
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from longnovel.tokenizer import load_tokenizer

BENCH_OUT = Path(__file__).resolve().parent / "out"  # git-ignored: corpora, mirrors, runs
GUTENBERG_LICENSE = ("Public domain in the USA (Project Gutenberg eBook; PG header and licence "
                     "footer removed)")
ZH_LICENSE = ("Public domain (classical novel, author died before 1920); the digitised e-text "
              "comes from a GitHub repository that states no licence")


@dataclass
class Book:
    lang: str
    book_id: str
    title: str
    author: str
    repo: str                      # owner/name on GitHub
    path: str                      # file inside the repository
    kind: str                      # "en" (CHAPTER + argument heading) or "zh" (第N回 + 回目)
    encoding: str = "utf-8"
    summary_source: str = ""
    license: str = GUTENBERG_LICENSE
    cut: list[str] = field(default_factory=list)   # regexes: a line that ends the current chapter
    zh_head: str = ""              # regex for a Chinese chapter heading (groups: marker, title)


ROMAN = r"[IVXLCDM]+"
EN_HEAD = re.compile(rf"^CHAPTER\s+({ROMAN}|\d+)\.?(?:\s+(.*\S))?\s*$")
ZH_NUM = r"[一二三四五六七八九十百零〇两\d０-９ ]+"

BOOKS: list[Book] = [
    Book("en", "oliver-twist", "Oliver Twist", "Charles Dickens",
         "GITenberg/Oliver-Twist_730", "730.txt", "en",
         summary_source="Dickens's chapter argument headings (in the same PG e-text)"),
    Book("en", "nicholas-nickleby", "Nicholas Nickleby", "Charles Dickens",
         "GITenberg/Nicholas-Nickleby_967", "967-0.txt", "en",
         summary_source="Dickens's chapter argument headings (in the same PG e-text)"),
    Book("en", "pickwick-papers", "The Pickwick Papers", "Charles Dickens",
         "GITenberg/The-Pickwick-Papers_580", "580-0.txt", "en",
         summary_source="Dickens's chapter argument headings (in the same PG e-text)"),
    Book("en", "don-quixote", "Don Quixote (tr. John Ormsby)", "Miguel de Cervantes",
         "GITenberg/Don-Quixote_996", "996.txt", "en",
         summary_source="Cervantes's chapter headings as translated by Ormsby (same PG e-text)",
         cut=[r"^END OF PART I\.\s*$"]),
    Book("zh", "rulin-waishi", "儒林外史", "吴敬梓",
         "hrFZxYeN5qv/ebook", "儒林外史.txt", "zh", "gb18030",
         summary_source="回目 (chapter couplet titles) of the same e-text", license=ZH_LICENSE,
         zh_head=rf"^(\s*正文\s*第{ZH_NUM}回)[\u3000 ]*(.*?)\s*$"),
    Book("zh", "shuihu-zhuan", "水浒传", "施耐庵",
         "hrFZxYeN5qv/ebook", "水浒传.txt", "zh", "gb18030",
         summary_source="回目 (chapter couplet titles) of the same e-text", license=ZH_LICENSE,
         zh_head=rf"^(\s*(?:[上中下]卷\s*)?第{ZH_NUM}回)[\u3000 ]*(.*?)\s*$"),
    Book("zh", "ershinian-muduzhi-guai-xianzhuang", "二十年目睹之怪現狀", "吳趼人",
         "hrFZxYeN5qv/ebook", "中國古典小說名著100套/二十年目睹之怪現狀.txt", "zh", "cp950",
         summary_source="回目 (chapter couplet titles) of the same e-text", license=ZH_LICENSE,
         zh_head=rf"^(\s*第{ZH_NUM}回)[\u3000 ]*(.*?)\s*$"),
    Book("zh", "fengshen-yanyi", "封神演義", "許仲琳",
         "hrFZxYeN5qv/ebook", "中國古典小說名著100套/封神演義.txt", "zh", "cp950",
         summary_source="回目 (chapter titles) of the same e-text", license=ZH_LICENSE,
         zh_head=rf"^(\s*第{ZH_NUM}回)[\u3000 ]*(.*?)\s*$"),
]

MIN_BODY_CHARS = 300   # a "chapter" with less body than this is a table-of-contents entry


def repo_dir(mirrors: Path, repo: str) -> Path:
    """The git directory of a fetched mirror: ``repo`` itself when bare, else ``repo/.git``."""
    base = mirrors / repo.replace("/", "+") / "repo"
    return base / ".git" if (base / ".git").is_dir() else base


def report_missing(mirrors: Path, repos) -> bool:
    """Print the repositories of ``repos`` not fetched under ``mirrors``; True if any."""
    missing = sorted({r for r in repos if not repo_dir(mirrors, r).is_dir()})
    if missing:
        print("These repositories must be fetched first (a git mirror at "
              f"{mirrors}/<owner>+<name>/repo):", file=sys.stderr)
        for repo in missing:
            print(f"  github:{repo}", file=sys.stderr)
    return bool(missing)


def git_show(git_dir: Path, path: str) -> bytes:
    result = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"HEAD:{path}"],
                            capture_output=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{git_dir}: cannot read {path}: {result.stderr.decode().strip()}")
    return result.stdout


def decode(data: bytes, encoding: str) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode(encoding, errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def strip_gutenberg(text: str) -> str:
    start = re.search(r"^\*\*\* ?START OF (THE|THIS) PROJECT GUTENBERG.*$", text, re.MULTILINE)
    end = re.search(r"^\*\*\* ?END OF (THE|THIS) PROJECT GUTENBERG.*$", text, re.MULTILINE)
    if start:
        text = text[start.end():]
        end = re.search(r"^\*\*\* ?END OF (THE|THIS) PROJECT GUTENBERG.*$", text, re.MULTILINE)
    if end:
        text = text[:end.start()]
    end = re.search(r"^End of (the )?Project Gutenberg", text, re.MULTILINE | re.IGNORECASE)
    if end:
        text = text[:end.start()]
    return text


def apply_cuts(body: str, cuts: list[str]) -> str:
    for pattern in cuts:
        match = re.search(pattern, body, re.MULTILINE)
        if match:
            body = body[:match.start()]
    return body


def split_en(text: str, book: Book) -> list[tuple[str, str]]:
    """(summary, text) per chapter: the argument heading is the lines that follow the CHAPTER
    line (or share it) up to the first blank line."""
    lines = text.split("\n")
    heads = [i for i, line in enumerate(lines) if EN_HEAD.match(line)]
    chapters = []
    for k, i in enumerate(heads):
        end = heads[k + 1] if k + 1 < len(heads) else len(lines)
        match = EN_HEAD.match(lines[i])
        marker = f"CHAPTER {match.group(1)}"
        arg = [match.group(2)] if match.group(2) else []
        j = i + 1
        if not arg:
            while j < end and not lines[j].strip():
                j += 1
        while j < end and lines[j].strip():
            arg.append(lines[j].strip())
            j += 1
        summary = " ".join(arg).strip()
        body = apply_cuts("\n".join(lines[j:end]), book.cut).strip("\n")
        chapters.append((roman_or_int(match.group(1)), summary, f"{marker}\n\n{body.rstrip()}"))
    # Runs of chapters numbered from 1 (a part, or a table of contents). A run whose typical
    # "chapter" is a few lines long is a table of contents; its last entry would otherwise
    # swallow the preface that follows it.
    runs: list[list[tuple[int, str, str]]] = []
    for chapter in chapters:
        if not runs or chapter[0] == 1 or chapter[0] != runs[-1][-1][0] + 1:
            runs.append([])
        runs[-1].append(chapter)
    kept = []
    for run in runs:
        sizes = sorted(len(c[2]) for c in run)
        if sizes[len(sizes) // 2] < 2000:
            continue
        kept.extend((summary, body) for _, summary, body in run)
    return kept


def roman_or_int(token: str) -> int:
    if token.isdigit():
        return int(token)
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for a, b in zip(token, token[1:] + " ", strict=True):
        total += -values[a] if b != " " and values[b] > values[a] else values[a]
    return total


def split_zh(text: str, book: Book) -> list[tuple[str, str]]:
    """(回目, text) per 回; text before the first heading (preface, contents) is dropped."""
    head = re.compile(book.zh_head)
    lines = text.split("\n")
    heads = [i for i, line in enumerate(lines) if head.match(line)]
    chapters = []
    for k, i in enumerate(heads):
        end = heads[k + 1] if k + 1 < len(heads) else len(lines)
        match = head.match(lines[i])
        marker, title = match.group(1), match.group(2).strip().strip("\u3000").strip()
        inner = list(re.finditer(rf"第{ZH_NUM}回[\u3000 ]*", title))
        if inner:                         # a contents line glued to the first heading
            marker, title = title[inner[-1].start():inner[-1].end()].strip(), \
                title[inner[-1].end():].strip()
        body = apply_cuts("\n".join(lines[i + 1:end]), book.cut)
        if len(body.strip()) < MIN_BODY_CHARS:
            continue                      # a table-of-contents line
        if not title:                     # 回目 on the next non-blank line
            rest = body.split("\n")
            for n, line in enumerate(rest):
                if line.strip():
                    title, body = line.strip(), "\n".join(rest[n + 1:])
                    break
        chapters.append((title, f"{marker.rstrip()}\n{body.rstrip()}".strip("\n")))
    return chapters


def merge_short(chapters: list[tuple[str, str]], counts: list[int], min_tokens: int):
    """Group consecutive chapters so that each group has at least min_tokens (by the sum of the
    chapters' counts); a short final group joins the group before it."""
    groups: list[list[int]] = []
    current: list[int] = []
    total = 0
    for n, count in enumerate(counts):
        current.append(n)
        total += count
        if total >= min_tokens:
            groups.append(current)
            current, total = [], 0
    if current:
        if groups:
            groups[-1].extend(current)
        else:
            groups.append(current)
    units = []
    for group in groups:
        summary = "\n".join(chapters[n][0] for n in group)
        text = "\n\n".join(chapters[n][1] for n in group)
        units.append((summary, text, [n + 1 for n in group]))
    return units


def write_config(out: Path, name: str = "dev.yaml", languages: tuple[str, ...] = ("zh", "en"),
                 units: dict | None = None, header: str = "", tiers: dict | None = None,
                 window: dict | None = None, run_dir: Path | None = None) -> None:
    """A longnovel config over the corpus under ``out`` (offline: rules, lexical entities, no
    model), written to ``out / name`` with ``header`` comment lines first. ``tiers`` and
    ``window`` (below/above) replace the defaults (T8/S/M, 2000/4000); ``run_dir`` defaults to
    ``run`` beside the config."""
    config = {
        # paths relative to the config file's folder, ``out``; a given run_dir as it is
        "run_dir": str(run_dir) if run_dir else "run",
        "seed": 13,
        "tokenizer": "qwen3",
        "corpus": [{"path": lang, "format": "dir", "language": lang}
                   for lang in languages],
        "units": units or {"min_tokens": 2000, "max_tokens": 6000, "out_of_range": "drop"},
        "tiers": tiers or {"T8": 8000, "S": 16000, "M": 32000},
        "window": {"below": 2000, "above": 4000, **(window or {}), "max_per_tier": None,
                   "max_per_book": None},
        "models": {},
        "arbitrate": {"summarizers": [], "judges": [], "use_reference": True,
                      "rule": "majority", "max_windows_per_tier": None},
        "inject": {"generator": "rules", "entities": "lexical", "types": "all",
                   "types_per_window": 8, "max_retries": 2},
        "export": {"splits": {"test": 0.8, "valid": 0.2}, "mix": None, "max_per_tier": None},
        "cache": "cache/llm.sqlite",
    }
    header = header or ("# Development corpus config (written by bench/devcorpus.py): real "
                        "public-domain\n# novels, chapter units, offline, no API key. Tiers "
                        "T8/S/M.\n")
    (out / name).write_text(header + yaml.safe_dump(config, sort_keys=False,
                                                    allow_unicode=True), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=BENCH_OUT / "corpora" / "dev")
    parser.add_argument("--mirrors", type=Path, default=BENCH_OUT / "mirrors")
    parser.add_argument("--min-tokens", type=int, default=1500,
                        help="merge chapters shorter than this with the next ones")
    args = parser.parse_args(argv)

    if report_missing(args.mirrors, (b.repo for b in BOOKS)):
        return 1

    tokenizer = load_tokenizer("qwen3")
    for lang in ("en", "zh"):
        if (args.out / lang).exists():
            shutil.rmtree(args.out / lang)
    report = []
    for book in BOOKS:
        git_dir = repo_dir(args.mirrors, book.repo)
        raw = git_show(git_dir, book.path)
        text = decode(raw, book.encoding)
        n_bad = text.count("\ufffd")
        if book.kind == "en":
            chapters = split_en(strip_gutenberg(text), book)
        else:
            chapters = split_zh(text, book)
        if not chapters:
            raise SystemExit(f"{book.repo}:{book.path}: no chapters found")
        empty = [n + 1 for n, (s, _) in enumerate(chapters) if not s]
        if empty:
            raise SystemExit(f"{book.book_id}: chapters without a synopsis: {empty[:10]}")
        counts = tokenizer.count_batch([t for _, t in chapters])
        units = merge_short(chapters, counts, args.min_tokens)
        folder = args.out / book.lang / book.book_id
        folder.mkdir(parents=True, exist_ok=True)
        unit_counts = tokenizer.count_batch([t for _, t, _ in units])
        for n, (summary, unit_text, _) in enumerate(units, start=1):
            (folder / f"{n:03d}.txt").write_text(unit_text + "\n", encoding="utf-8")
            (folder / f"{n:03d}.summary.txt").write_text(summary + "\n", encoding="utf-8")
        commit = subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "HEAD"],
                                capture_output=True, text=True, check=False).stdout.strip()
        merged = [u[2] for u in units if len(u[2]) > 1]
        meta = {"title": book.title, "author": book.author,
                "source": f"https://github.com/{book.repo} ({book.path} @ {commit[:12]})",
                "license": book.license, "summary_source": book.summary_source,
                "chapters": len(chapters), "units": len(units),
                "merged_chapters": [f"{g[0]}-{g[-1]}" for g in merged]}
        (folder / "book.yaml").write_text(yaml.safe_dump(meta, sort_keys=False,
                                                         allow_unicode=True), encoding="utf-8")
        in_range = sum(1 for c in unit_counts if 2000 <= c <= 6000)
        report.append((book, len(chapters), len(units), sum(unit_counts), in_range,
                       min(unit_counts), max(unit_counts), len(merged), n_bad))
    write_config(args.out)

    print(f"{'book':40s} {'chap':>5s} {'units':>5s} {'tokens':>9s} {'2k-6k':>6s} "
          f"{'min':>6s} {'max':>6s} {'merged':>6s} {'U+FFFD':>6s}")
    for lang in ("en", "zh"):
        rows = [r for r in report if r[0].lang == lang]
        for book, nch, nun, tok, inr, lo, hi, mg, bad in rows:
            print(f"{lang + '/' + book.book_id:40s} {nch:5d} {nun:5d} {tok:9d} {inr:6d} "
                  f"{lo:6d} {hi:6d} {mg:6d} {bad:6d}")
        print(f"{lang + ' total':40s} {sum(r[1] for r in rows):5d} {sum(r[2] for r in rows):5d} "
              f"{sum(r[3] for r in rows):9d} {sum(r[4] for r in rows):6d}")
    print(f"wrote {args.out} (config: {args.out / 'dev.yaml'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
