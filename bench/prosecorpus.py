"""Build a development corpus whose unit summaries are prose, from public-domain books.

``bench/devcorpus.py`` pairs each chapter with its one-line argument heading or 回目. This
script pairs each unit with a paragraph-long synopsis written by a person, in the manner of
BookSum's chapter summaries: several sentences that tell what happens in it. It writes the
same ``dir`` format, outside git, to ``bench/out/corpora/prose`` by default::

    <out>/en/<book_id>/NNN.txt  NNN.summary.txt  book.yaml
    <out>/prose.yaml      a longnovel config over it (tiers T8 8000, S 16000, M 32000)
    <out>/SOURCES.md      where every book and summary comes from, with licences

Sources (all Project Gutenberg e-texts, public domain in the USA; the PG header and licence
footer are cut off). They are read from local mirrors of the GITenberg repositories with
``git show`` (no network); clone each one first to
``bench/out/mirrors/<owner>+<name>/repo`` (a bare git dir, or a clone with ``repo/.git``):

* ``clarissa``, Samuel Richardson, *Clarissa; or, the History of a Young Lady* (1748), nine
  volumes, ``GITenberg/Clarissa-Harlowe--or-the-history-of-a-young-lady
  ---Volume-<N>_<id>`` for N = 1..9 (ids 9296 9798 9881 10462 10799 11364 11889 12180 12398).
  Summaries: Richardson's own "Letters of Volume N" / "Contents of Volume N" tables, which give
  every letter (or run of letters) a synopsis of one to ten sentences, e.g. "LETTER VIII. From
  the same.--All her family determined in Solmes's favour. Her aversion to him. She rejects
  him, and is forbid going to church ...". A table entry covers the letters from its first
  number up to the next entry's first number. The text is the letters themselves.
* ``iliad``: Homer's *Iliad*, text in Samuel Butler's prose translation (1898,
  ``GITenberg/The-Iliad_2199``); summaries: the prose "Argument" that Alexander Pope put before
  each book of his verse translation (``GITenberg/The-Iliad_6130``, 6130-0.txt), matched by book
  number (Pope's book I argument summarises book I of the poem, which Butler's book I renders).
* ``odyssey``: Homer's *Odyssey*, text in Butler's prose translation (1900,
  ``GITenberg/The-Odyssey--13-Rendered-into-English-prose-for-the-use-of-those-who-cannot-read-
  the-original_1727``); summaries: the Arguments of Pope's translation
  (``GITenberg/The-Odyssey_3160``).
* ``aeneid``: Virgil's *Aeneid*, text in J. W. Mackail's prose translation (1885,
  ``GITenberg/The-Aeneid-of-Virgil_22456``, 22456-8.txt; his end notes are cut off); summaries:
  "The Argument" before each book of Dryden's translation (``GITenberg/The-Aeneid_228``,
  228-0.txt).
* ``gulliver``: Jonathan Swift, *Gulliver's Travels* (1726), ``GITenberg/Gulliver-s-Travels_829``
  (829-0.txt). Summaries: Swift's synopsis under each chapter heading, two to seven short
  sentences ("The author gives some account of himself and family. His first inducements to
  travel. He is shipwrecked, and swims for his life. ..."), split off as devcorpus.py does;
  the title line of the next part ("PART II. A VOYAGE TO BROBDINGNAG.") is cut from the end of
  a part's last chapter.
* ``roderick-random``: Tobias Smollett, *The Adventures of Roderick Random* (1748),
  ``GITenberg/The-Adventures-of-Roderick-Random_4085`` (4085-0.txt). Summaries: Smollett's
  synopsis under each chapter heading, the narrator's own run of clauses joined by dashes
  ("I make great progress in my Studies--am caressed by Everybody--my female Cousins take
  notice of me--I reject their Invitation--..."), about 50 words, split as for Gulliver.
* ``decameron``: Boccaccio's *Decameron* in John Payne's translation (1886,
  ``GITenberg/The-Decameron-of-Giovanni-Boccaccio_23700``, 23700-8.txt). Summaries: the rubric
  of each of the hundred stories, from the table of contents of the same e-text. These are
  shorter than the others (one to three sentences, about 45 words), but they tell the whole
  plot of the story, e.g. "Master Ciappelletto dupeth a holy friar with a false confession and
  dieth; and having been in his lifetime the worst of men, he is, after his death, reputed a
  saint and called Saint Ciappelletto." The upper-case copy of the rubric under each story's
  heading is removed; the frame text that closes a day stays with its last story, the frame
  that opens a day (before its first story) is left out.

For the three epics the summary and the text are two translations of the same book of the poem:
the events agree, the wording does not (Pope says "the Greeks" where Butler says "the
Achaeans"; Pope and Dryden add a sentence on the time and scene of the book). Each prose
translation's own heading of a book (Butler's dash-separated contents line, Mackail's title) is
a synopsis too, so it is removed from the unit text; the "BOOK I" / "Book I" / "BOOK FIRST"
marker line stays. In *Clarissa* the contents tables are separate from the letters, so the
letter text is left whole, headings, dates and all.

Units: Clarissa's table entries, Gulliver's and Roderick Random's chapters and the Decameron's
stories, merged as in devcorpus.py until a group reaches ``--min-tokens`` (1500 Qwen3 tokens;
the summaries are joined with a newline); the epics' books, each whole (Homer's books run
4k-14k tokens, Virgil's 9k-14k), so the config keeps units of any length
(``units.out_of_range: keep``) and T8 windows hold only the shorter books. Everything else in
the text is kept as it is (footnote marks such as Butler's {3}).

Nothing was found for Chinese: see SOURCES.md for what was searched.

Mirrors to fetch (each as ``github:<repo>``; 18 repositories)::

    GITenberg/Clarissa-Harlowe--or-the-history-of-a-young-lady---Volume-1_9296   (... Volume-9)
    GITenberg/The-Iliad_2199  GITenberg/The-Iliad_6130  GITenberg/The-Odyssey_3160
    GITenberg/The-Odyssey--13-Rendered-into-English-prose-for-the-use-of-those-who-cannot-read-the-original_1727
    GITenberg/The-Aeneid-of-Virgil_22456  GITenberg/The-Aeneid_228
    GITenberg/Gulliver-s-Travels_829  GITenberg/The-Adventures-of-Roderick-Random_4085
    GITenberg/The-Decameron-of-Giovanni-Boccaccio_23700

The script lists the missing ones and stops if any is absent. GITenberg repository names can
be looked up by Gutenberg id in ``gitenberg/data/GITenberg_repo_list.tsv`` of
``gitenberg-dev/gitberg``.

Usage (from the repository root, in its virtualenv)::

    python bench/prosecorpus.py                 # writes bench/out/corpora/prose
    python bench/prosecorpus.py --out DIR --mirrors MIRRORS
    python bench/prosecorpus.py --book iliad    # one book only
    longnovel build --config bench/out/corpora/prose/prose.yaml
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from devcorpus import (
    BENCH_OUT,
    GUTENBERG_LICENSE,
    Book,
    apply_cuts,
    decode,
    git_show,
    merge_short,
    repo_dir,
    report_missing,
    roman_or_int,
    split_en,
    strip_gutenberg,
)
from devcorpus import write_config as write_corpus_config

from longnovel.tokenizer import load_tokenizer

ROMAN = r"[IVXLC]+"
ORDINALS = ["FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH",
            "TENTH", "ELEVENTH", "TWELFTH"]


@dataclass
class Source:
    repo: str
    path: str
    encoding: str = "utf-8"


@dataclass
class ProseBook:
    book_id: str
    title: str
    author: str
    kind: str                      # "letters" (Clarissa), "epic" (argument + prose books),
    #                                "rubrics" (Decameron) or "chapters" (synopsis under CHAPTER)
    texts: list[Source]            # letters: one file per volume; epic: the prose translation
    summaries: Source | None = None   # epic: the translation whose arguments are the summaries
    summary_source: str = ""
    license: str = GUTENBERG_LICENSE
    head: str = ""                 # epic: regex of a book's marker line in the prose text
    cut: list[str] = field(default_factory=list)   # regexes: a line that ends the text
    lang: str = "en"


CLARISSA_IDS = [9296, 9798, 9881, 10462, 10799, 11364, 11889, 12180, 12398]
# Volumes 4-9 exist only as ISO-8859-1 files ("-8"), and volume 3's plain file has one Latin-1
# byte; volumes 1-2 are ASCII.
CLARISSA_FILES = ["9296.txt", "9798.txt", "9881.txt", "10462-8.txt", "10799-8.txt",
                  "11364-8.txt", "11889-8.txt", "12180-8.txt", "12398-8.txt"]

BOOKS: list[ProseBook] = [
    ProseBook(
        "clarissa", "Clarissa; or, the History of a Young Lady", "Samuel Richardson", "letters",
        [Source(f"GITenberg/Clarissa-Harlowe--or-the-history-of-a-young-lady---Volume-{n}_{i}",
                f, "utf-8" if n < 3 else "latin-1")
         for n, (i, f) in enumerate(zip(CLARISSA_IDS, CLARISSA_FILES, strict=True), start=1)],
        summary_source=("Richardson's own synopsis of each letter (or run of letters), from the "
                        "'Letters of Volume N' / 'Contents of Volume N' table at the head of each "
                        "volume of the same e-text"),
        cut=[r"^CONCLUSION\s*\n\s*SUPPOSED TO BE WRITTEN BY MR\. BELFORD",
             r"^POSTSCRIPT\s*\n\s*REFERRED TO IN THE PREFACE"]),
    ProseBook(
        "iliad", "The Iliad (prose tr. Samuel Butler)", "Homer", "epic",
        [Source("GITenberg/The-Iliad_2199", "2199.txt")],
        Source("GITenberg/The-Iliad_6130", "6130-0.txt"),
        summary_source=("the prose Argument before each book of Alexander Pope's verse "
                        "translation of the Iliad (PG #6130), matched by book number"),
        head=rf"^BOOK ({ROMAN})\s*$"),
    ProseBook(
        "odyssey", "The Odyssey (prose tr. Samuel Butler)", "Homer", "epic",
        [Source("GITenberg/The-Odyssey--13-Rendered-into-English-prose-for-the-use-of-those-"
                "who-cannot-read-the-original_1727", "1727.txt")],
        Source("GITenberg/The-Odyssey_3160", "3160.txt"),
        summary_source=("the prose Argument before each book of Alexander Pope's verse "
                        "translation of the Odyssey (PG #3160), matched by book number"),
        head=rf"^Book ({ROMAN})\s*$", cut=[r"^\s*FOOTNOTES\s*$"]),
    ProseBook(
        "aeneid", "The Aeneid (prose tr. J. W. Mackail)", "Virgil", "epic",
        [Source("GITenberg/The-Aeneid-of-Virgil_22456", "22456-8.txt", "latin-1")],
        Source("GITenberg/The-Aeneid_228", "228-0.txt"),
        summary_source=("'The Argument' before each book of John Dryden's verse translation "
                        "of the Aeneid (PG #228), matched by book number"),
        head=rf"^BOOK ({'|'.join(ORDINALS)})\s*$", cut=[r"^NOTES\s*$"]),
    ProseBook(
        "gulliver", "Gulliver's Travels", "Jonathan Swift", "chapters",
        [Source("GITenberg/Gulliver-s-Travels_829", "829-0.txt")],
        summary_source=("Swift's synopsis at the head of each chapter (two to seven sentences) "
                        "in the same e-text"),
        cut=[r"^\s*(PART [IVX]+\.|A VOYAGE TO)"]),
    ProseBook(
        "roderick-random", "The Adventures of Roderick Random", "Tobias Smollett", "chapters",
        [Source("GITenberg/The-Adventures-of-Roderick-Random_4085", "4085-0.txt")],
        summary_source=("Smollett's synopsis under each chapter heading, a run of first-person "
                        "clauses joined by dashes (about 50 words), in the same e-text")),
    ProseBook(
        "decameron", "The Decameron (tr. John Payne)", "Giovanni Boccaccio", "rubrics",
        [Source("GITenberg/The-Decameron-of-Giovanni-Boccaccio_23700", "23700-8.txt",
                "latin-1")],
        summary_source=("Boccaccio's rubric of each story (one to three sentences), as Payne "
                        "translates it in the table of contents of the same e-text"),
        cut=[r"^HERE ENDETH THE TENTH AND LAST DAY"]),
]


def read(mirrors: Path, source: Source) -> str:
    text = git_show(repo_dir(mirrors, source.repo), source.path)
    return strip_gutenberg(decode(text, source.encoding))


def head_commit(mirrors: Path, repo: str) -> str:
    return subprocess.run(["git", f"--git-dir={repo_dir(mirrors, repo)}", "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=False).stdout.strip()


def paragraphs(lines: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        if line.strip():
            current.append(line)
        elif current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def one_line(lines: list[str]) -> str:
    """Join wrapped lines into one; a line ending in a hyphen or a dash ("Hard-" / "hearted",
    "Clarissa to Miss Howe.--" / "Likes ...") joins the next without a space."""
    out = ""
    for line in (line.strip() for line in lines):
        if not line:
            continue
        if out and not re.search(r"[A-Za-z]-$|--$", out):
            out += " "
        out += line
    return re.sub(r"\s+", " ", out).strip()


# --- Clarissa -------------------------------------------------------------------------------

ENTRY = re.compile(rf"^LETTERS? ((?:{ROMAN}\.\s*)+)")
BODY_HEAD = re.compile(rf"^\s*LETTER ({ROMAN})\.?\s*$")


def clarissa_volume(text: str, volume: int, cuts: list[str]) -> tuple[list[tuple[str, str]],
                                                                       list[str]]:
    """(summary, text) per contents entry of one volume, and warnings. An entry's text runs
    from the body heading of its first letter to the heading of the next entry's first
    letter."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines)
                  if re.match(r"^(LETTERS|CONTENTS) OF VOLUME", line)), None)
    if start is None:
        raise SystemExit(f"clarissa volume {volume}: no contents table")
    body = next((i for i in range(start + 1, len(lines))
                 if (m := BODY_HEAD.match(lines[i])) and roman_or_int(m.group(1)) == 1), None)
    if body is None:
        raise SystemExit(f"clarissa volume {volume}: no LETTER I in the body")
    entries: list[tuple[list[int], list[str]]] = []
    for para in paragraphs(lines[start + 1:body]):
        match = ENTRY.match(para[0])
        if match:
            numbers = [roman_or_int(n) for n in re.findall(ROMAN, match.group(1))]
            entries.append((numbers, para))
        elif entries and not is_upper(para):   # not a title such as THE HISTORY / CONCLUSION
            entries[-1][1].extend(para)
    warnings = []
    body_lines = apply_cuts("\n".join(lines[body:]), cuts).split("\n")
    heads: dict[int, int] = {}       # letter number -> line index in body_lines
    previous = 0
    for i, line in enumerate(body_lines):
        match = BODY_HEAD.match(line)
        if not match:
            continue
        number = roman_or_int(match.group(1))
        if number == previous:       # a misprinted heading (volume 2 has two LETTER XVII)
            warnings.append(f"volume {volume}: heading LETTER {match.group(1)} repeated at "
                            f"body line {i}, read as {previous + 1}")
            number = previous + 1
        if number != previous + 1:
            warnings.append(f"volume {volume}: LETTER {number} follows LETTER {previous}")
        heads[number] = i
        previous = number
    firsts = [numbers[0] for numbers, _ in entries]
    if firsts != sorted(firsts) or len(set(firsts)) != len(firsts):
        raise SystemExit(f"clarissa volume {volume}: contents entries out of order: {firsts}")
    units = []
    for k, (numbers, entry_lines) in enumerate(entries):
        first = numbers[0]
        if first not in heads:
            raise SystemExit(f"clarissa volume {volume}: no body heading for letter {first}")
        end_line = len(body_lines)
        if k + 1 < len(entries):
            nxt = entries[k + 1][0][0]
            if nxt not in heads:
                raise SystemExit(f"clarissa volume {volume}: no body heading for letter {nxt}")
            end_line = heads[nxt]
        listed = set(range(first, numbers[-1] + 1))
        covered = {n for n in heads if heads[first] <= heads[n] < end_line}
        if covered - listed:
            warnings.append(f"volume {volume}: letters {sorted(covered - listed)} have no entry "
                            f"of their own; they go with entry {numbers}")
        unit_text = "\n".join(body_lines[heads[first]:end_line]).strip("\n")
        units.append((one_line(entry_lines), unit_text.rstrip()))
    return units, warnings


def build_clarissa(book: ProseBook, mirrors: Path):
    chapters, warnings = [], []
    for volume, source in enumerate(book.texts, start=1):
        units, notes = clarissa_volume(read(mirrors, source), volume, book.cut)
        chapters.extend(units)
        warnings.extend(notes)
    return chapters, warnings


# --- epics ----------------------------------------------------------------------------------

ARG_HEAD = re.compile(rf"^\s*BOOK ({ROMAN})\.?\s*$")


def is_prose(paragraph: list[str]) -> bool:
    """Prose wraps at about 70 columns; the couplets of Pope and Dryden stay under 60."""
    return max(len(line.strip()) for line in paragraph) >= 60


def is_upper(paragraph: list[str]) -> bool:
    letters = [c for c in "".join(paragraph) if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters)


def arguments(text: str) -> dict[int, str]:
    """Book number -> the prose argument that opens it in a verse translation. The argument
    is the prose paragraphs after the BOOK line (skipping an 'ARGUMENT' line and an
    upper-case title) up to the first paragraph of verse."""
    lines = text.split("\n")
    found: dict[int, str] = {}
    for i, line in enumerate(lines):
        match = ARG_HEAD.match(line)
        if not match:
            continue
        block = []
        j = i + 1
        while j < len(lines) and not ARG_HEAD.match(lines[j]) and len(block) < 400:
            block.append(lines[j])
            j += 1
        kept = []
        for para in paragraphs(block):
            if not kept and (re.match(r"^\s*(THE )?ARGUMENT", para[0]) or
                             (is_upper(para) and len(para) <= 3) or
                             (len(para) == 1 and len(para[0].strip()) < 60)):
                continue          # the ARGUMENT line, or a title ("The court of Alcinous.")
            if not is_prose(para):
                break
            kept.append(one_line(para))
        if kept:        # the table of contents has BOOK lines too, with nothing after them
            number = roman_or_int(match.group(1))
            summary = re.sub(r"\s*\(\d+\)", "", "\n".join(kept))   # note marks such as (76)
            found[number] = summary
    return found


def prose_books(text: str, book: ProseBook) -> dict[int, str]:
    """Book number -> unit text: the marker line, then the book without its heading
    synopsis (an indented or upper-case paragraph right after the marker)."""
    text = apply_cuts(text, book.cut)
    head = re.compile(book.head)
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if head.match(line)]
    found: dict[int, str] = {}
    for k, i in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        token = head.match(lines[i]).group(1)
        number = ORDINALS.index(token) + 1 if token in ORDINALS else roman_or_int(token)
        rest = lines[i + 1:end]
        j = 0
        while j < len(rest) and not rest[j].strip():
            j += 1
        first = j
        while j < len(rest) and rest[j].strip():
            j += 1
        opening = rest[first:j]
        if opening and (opening[0].startswith(" ") or is_upper(opening)):
            rest = rest[j:]
        else:
            rest = rest[first:]
        body = "\n".join(rest).strip("\n").rstrip()
        if len(body) < 2000:
            continue                  # a contents line
        if number in found:
            raise SystemExit(f"{book.book_id}: book {number} found twice")
        found[number] = f"{lines[i].strip()}\n\n{body}"
    return found


def build_epic(book: ProseBook, mirrors: Path):
    texts = prose_books(read(mirrors, book.texts[0]), book)
    args = arguments(read(mirrors, book.summaries))
    if sorted(texts) != list(range(1, len(texts) + 1)) or sorted(args) != sorted(texts):
        raise SystemExit(f"{book.book_id}: books in the text {sorted(texts)} and arguments "
                         f"{sorted(args)} do not match")
    return [(args[n], texts[n]) for n in sorted(texts)], []


# --- Decameron ----------------------------------------------------------------------------

STORY_ORD = "FIRST|SECOND|THIRD|FOURTH|FIFTH|SIXTH|SEVENTH|EIGHTH|NINTH|TENTH"
STORY_ENTRY = re.compile(rf"^THE ({STORY_ORD}) STORY\. _")
STORY_HEAD = re.compile(rf"^THE ({STORY_ORD}) STORY\s*$")


def build_rubrics(book: ProseBook, mirrors: Path):
    """(rubric, story) per story. The rubrics come from the table of contents (in mixed case,
    without the page number); each story runs from its heading to the next story's heading or
    to the end of its day ("HERE ENDETH THE ... DAY"), so the day's closing frame and ballad
    stay with the day's last story and the next day's opening frame (with its own theme
    rubric) is left out. The upper-case copy of the rubric under the heading is removed."""
    text = apply_cuts(read(mirrors, book.texts[0]), book.cut)
    lines = text.split("\n")
    body = next(i for i, line in enumerate(lines)
                if line.startswith("HERE BEGINNETH THE BOOK CALLED DECAMERON"))
    rubrics = []
    for para in paragraphs(lines[:body]):
        if STORY_ENTRY.match(para[0]):
            rubric = one_line(para).split("_", 1)[1]
            rubric = re.sub(r"_?\s*\d*\s*$", "", rubric)       # closing _ and page number
            rubrics.append(rubric.replace("_", "").rstrip(" .") + ".")
    heads = [i for i in range(body, len(lines)) if STORY_HEAD.match(lines[i])]
    day_ends = [i for i in range(body, len(lines)) if lines[i].startswith("HERE ENDETH THE")]
    if len(rubrics) != 100 or len(heads) != 100:
        raise SystemExit(f"{book.book_id}: {len(rubrics)} rubrics, {len(heads)} stories")
    stories = []
    for k, i in enumerate(heads):
        end = heads[k + 1] if k + 1 < len(heads) else len(lines)
        end = min([end] + [d for d in day_ends if d > i])
        rest = lines[i + 1:end]
        j = 0
        marker = [lines[i].strip()]
        while j < len(rest) and (not rest[j].strip() or re.match(r"^\[Day the", rest[j])):
            if rest[j].strip():
                marker.append(rest[j].strip())
            j += 1
        start = j
        while j < len(rest) and rest[j].strip():
            j += 1
        rest = rest[j:] if is_upper(rest[start:j]) else rest[start:]
        story = "\n".join(rest).strip("\n").rstrip()
        stories.append((rubrics[k], "\n".join(marker) + "\n\n" + story))
    return stories, []


# --- a synopsis under each CHAPTER line (Gulliver) -----------------------------------------

def build_chapters(book: ProseBook, mirrors: Path):
    """devcorpus.py's English splitter: the synopsis is the paragraph after the CHAPTER line,
    removed from the text; a part's title line at the end of a chapter is cut off."""
    source = book.texts[0]
    text = read(mirrors, source)
    spec = Book(book.lang, book.book_id, book.title, book.author, source.repo, source.path,
                "en", source.encoding, cut=book.cut)
    return [(one_line(summary.split("\n")), body) for summary, body in split_en(text, spec)], []


# --- output ---------------------------------------------------------------------------------

def write_config(out: Path) -> None:
    write_corpus_config(
        out, "prose.yaml", ("en",),
        units={"min_tokens": 1500, "max_tokens": 6000, "out_of_range": "keep"},
        header=("# Prose-summary development corpus (written by bench/prosecorpus.py): "
                "public-domain\n# books whose units carry a paragraph-long human synopsis. "
                "Offline, no API key.\n# Units of any length are kept (the epics' books run "
                "to 14k tokens).\n"))


SEARCHED_ZH = """\
## Searched and not used (2026-12-02)

English:
- GITenberg Paradise Lost (PG #20, #26): both are the 1667 text, without Milton's Arguments;
  Pamela (PG #6124): no letter synopses; Sir Charles Grandison: only volume 4 of 7 in GITenberg.
- manestay/novel-chapter-dataset (scripts that scrape study-guide chapter summaries:
  copyrighted), the CMU Book Summary Corpus (CC BY-SA, Wikipedia plots, but one per book, and
  its 40 MB file is not in any stored snapshot), Wikipedia chapter-by-chapter synopses (e.g.
  Alice's Adventures in Wonderland): only fragments pasted into unrelated repositories.

Chinese: nothing usable found. Searched for per-回 prose synopses under an open licence or in
the public domain:
- the code index (search, find_string) for 每回/各回 概要, 内容提要, 本回提要, 本回讲述,
  这一回写, 此回叙, 回目及梗概, 第一回梗概, per-chapter summaries of 水浒传 / 阿Q正传: only
  LLM-prompt code, novel-writing tools and machine-written 红楼梦 summaries;
- the stored web pages for Chinese Wikipedia articles with 各回内容: none held;
- repositories named *wikisource* / *zhwiki*: tools and word lists, no article text;
- the docs corpus for Chinese chapter-summary datasets: yuyijiong/Book_Summary_Chinese
  (Hugging Face, CC BY-NC 4.0: not open, and not reachable here), c00k1ez/summarization
  (no licence);
- the file list of hrFZxYeN5qv/ebook (the devcorpus Chinese source): no edition with 提要,
  评 or 批 per 回 (its 儒林外史 has no 卧闲草堂 回评, its 水浒传 no 金圣叹 总评).
"""


def write_sources(out: Path, rows: list[dict]) -> None:
    parts = ["# Sources of the prose-summary corpus\n",
             ("Written by bench/prosecorpus.py. Every text and summary is a Project Gutenberg "
              "e-text read from a GITenberg mirror; all are public domain in the USA.\n")]
    for row in rows:
        parts.append(f"## {row['book_id']}: {row['title']} ({row['author']})\n")
        parts.append(f"- text: {row['source']}")
        if row.get("summary_file"):
            parts.append(f"- summaries: {row['summary_file']}")
        parts.append(f"- summary: {row['summary_source']}")
        parts.append(f"- licence: {row['license']}\n")
    parts.append(SEARCHED_ZH)
    (out / "SOURCES.md").write_text("\n".join(parts), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=BENCH_OUT / "corpora" / "prose")
    parser.add_argument("--mirrors", type=Path, default=BENCH_OUT / "mirrors")
    parser.add_argument("--min-tokens", type=int, default=1500,
                        help="merge Clarissa entries shorter than this with the next ones")
    parser.add_argument("--book", action="append", default=None,
                        help="build only this book id (repeatable)")
    args = parser.parse_args(argv)

    books = [b for b in BOOKS if not args.book or b.book_id in args.book]
    repos = sorted({s.repo for b in books for s in b.texts + ([b.summaries] if b.summaries
                                                                else [])})
    if report_missing(args.mirrors, repos):
        return 1

    tokenizer = load_tokenizer("qwen3")
    report = []
    for book in books:
        folder = args.out / book.lang / book.book_id
        if folder.exists():
            shutil.rmtree(folder)
        if book.kind == "letters":
            chapters, warnings = build_clarissa(book, args.mirrors)
        elif book.kind == "rubrics":
            chapters, warnings = build_rubrics(book, args.mirrors)
        elif book.kind == "chapters":
            chapters, warnings = build_chapters(book, args.mirrors)
        else:
            chapters, warnings = build_epic(book, args.mirrors)
        for warning in warnings:
            print(f"{book.book_id}: {warning}", file=sys.stderr)
        empty = [n + 1 for n, (s, _) in enumerate(chapters) if not s.strip()]
        if empty:
            raise SystemExit(f"{book.book_id}: units without a summary: {empty[:10]}")
        counts = tokenizer.count_batch([t for _, t in chapters])
        if book.kind in ("letters", "rubrics", "chapters"):
            units = merge_short(chapters, counts, args.min_tokens)
        else:
            units = [(s, t, [n + 1]) for n, (s, t) in enumerate(chapters)]
        folder.mkdir(parents=True, exist_ok=True)
        unit_counts = tokenizer.count_batch([t for _, t, _ in units])
        summary_counts = tokenizer.count_batch([s for s, _, _ in units])
        for n, (summary, unit_text, _) in enumerate(units, start=1):
            (folder / f"{n:03d}.txt").write_text(unit_text + "\n", encoding="utf-8")
            (folder / f"{n:03d}.summary.txt").write_text(summary + "\n", encoding="utf-8")
        text_repos = sorted({s.repo for s in book.texts})
        source = "; ".join(f"https://github.com/{r} @ {head_commit(args.mirrors, r)[:12]}"
                           for r in text_repos)
        meta = {"title": book.title, "author": book.author, "source": source,
                "files": [s.path for s in book.texts], "license": book.license,
                "summary_source": book.summary_source}
        if book.summaries:
            meta["summary_file"] = (f"https://github.com/{book.summaries.repo} "
                                    f"({book.summaries.path} @ "
                                    f"{head_commit(args.mirrors, book.summaries.repo)[:12]})")
        meta.update({"sections": len(chapters), "units": len(units),
                     "merged_sections": [f"{g[0]}-{g[-1]}" for _, _, g in units if len(g) > 1]})
        (folder / "book.yaml").write_text(yaml.safe_dump(meta, sort_keys=False,
                                                         allow_unicode=True), encoding="utf-8")
        words = sorted(len(s.split()) for s, _, _ in units)
        report.append((book, len(chapters), len(units), sum(unit_counts), min(unit_counts),
                       sorted(unit_counts)[len(units) // 2], max(unit_counts),
                       words[len(words) // 2], sum(summary_counts) // len(units)))
    write_config(args.out)
    # every book now under <out> (with --book, those built earlier too), in BOOKS order
    metas = [(b.book_id, args.out / b.lang / b.book_id / "book.yaml") for b in BOOKS]
    sources = [{"book_id": book_id, **yaml.safe_load(path.read_text(encoding="utf-8"))}
               for book_id, path in metas if path.is_file()]
    write_sources(args.out, sources)

    print(f"{'book':16s} {'sect':>5s} {'units':>5s} {'tokens':>9s} {'min':>6s} {'median':>6s} "
          f"{'max':>6s} {'sum.words(med)':>14s} {'sum.tok(mean)':>13s}")
    for book, nsec, nun, tok, lo, med, hi, sw, st in report:
        print(f"{book.book_id:16s} {nsec:5d} {nun:5d} {tok:9d} {lo:6d} {med:6d} {hi:6d} "
              f"{sw:14d} {st:13d}")
    print(f"wrote {args.out} (config: {args.out / 'prose.yaml'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
