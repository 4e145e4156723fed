"""Build a development corpus whose unit summaries are a modern writer's prose retelling.

``bench/devcorpus.py`` pairs chapters with one-line headings and ``bench/prosecorpus.py`` with
the 18th-century synopses the books themselves carry. The summaries that matter most, the
study-guide chapter summaries of BookSum (SparkNotes, Shmoop, GradeSaver, CliffsNotes), are
not openly licensed and no copy of them is reachable here; neither is any Wikibooks or
Wikipedia chapter-by-chapter guide (``SOURCES.md`` lists what was searched). The closest
openly licensed material found is SQuALITY (Wang et al. 2022, github.com/nyu-mll/SQuALITY):
127 public-domain stories from Project Gutenberg (science fiction of the 1950s pulps, 3,300
to 6,300 words; one is the opening chapters of a novel), each retold by four people (writers
hired on Upwork and NYU undergraduates) in answer to "What is the plot of the story?". The
answers are a modern writer's prose, several paragraphs and about 500 words long, in the
register of a study guide's summary section: "The story begins ...", present and past tense
mixed, now and then a quotation from the story or the writer's own aside ("so it's pretty
straightforward"). What they lack is a guide's analysis: they retell, they seldom comment, and
they are not chapters of novels. The summaries are CC BY 4.0, the stories public domain in the
USA (PG e-texts whose copyright was not renewed).

It writes longnovel's ``dir`` format, outside git, to ``bench/out/corpora/study`` by default::

    <out>/en/<book_id>/NNN.txt  NNN.summary.txt  book.yaml
    <out>/study.yaml      a longnovel config over it (tiers T4 4000, T8 8000, S 16000, M 32000;
                          run_dir ``run`` beside it, or --run-dir)
    <out>/SOURCES.md      every source and licence, and what was searched without result

Books and units. A book is one author's stories (SQuALITY has 10 by Keith Laumer, 5 by Jim
Harmon, 4 each by Evelyn E. Smith and Fritz Leiber, 3 each by Ray Bradbury, Nelson S. Bond and
Edward W. Ludwig, 2 by 16 others, 1 by 63 others: 86 books), a unit is one story, in Project
Gutenberg number order, so windows of the S and M tiers run over several stories of one
author, as a collection's chapters would. An author with one story is a book of one unit (T4
and T8 windows only). A story is 4k-10k Qwen3 tokens, so the config keeps units of any length
and its window is [T - 3500, T + 4000] (below 3500 lets the S tier take most pairs of
stories, 12.5k-16k tokens). A unit's text is SQuALITY's plain-text story (``data/v1-3/txt``) as
it is: title, byline, magazine blurb, transcriber's note, the wrapped lines of the e-text.
Its summary is one of the four answers to the plot question, by default the longest
(``--response longest``; or 0-3 for the n-th answer as stored), with only its line ends
normalised; the answers are kept as written, typos and all.

The byline gives the author (``by ... HENRY SLESAR``, ``By ALFRED COPPEL, JR.``); two stories
have none and take the author from their Project Gutenberg record: #47841 (Margaret Sutton,
the first chapters of *The Haunted Fountain*) and #55801 (Richard M. Elam, *Teen-age Super
Science Stories*).

Mirror to clone first (to ``bench/out/mirrors/nyu-mll+SQuALITY/repo``, or ``--mirrors``)::

    github:nyu-mll/SQuALITY

Usage (from the repository root, in its virtualenv)::

    python bench/studycorpus.py                 # writes bench/out/corpora/study
    python bench/studycorpus.py --out DIR --mirrors MIRRORS --response 0
    longnovel ingest -c bench/out/corpora/study/study.yaml
    longnovel expand -c bench/out/corpora/study/study.yaml
    python bench/corpus_stats.py -c bench/out/corpora/study/study.yaml
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from devcorpus import BENCH_OUT, git_show, repo_dir, report_missing, write_config
from prosecorpus import head_commit

from longnovel.injection.nlp.sentences import split_sentences
from longnovel.tokenizer import load_tokenizer

SQUALITY = "nyu-mll/SQuALITY"
DATA_FILES = [f"data/v1-3/txt/{split}.jsonl" for split in ("train", "dev", "test")]
PLOT_QUESTION = "What is the plot of the story?"
STORY_LICENSE = ("Public domain in the USA (Project Gutenberg e-text; the magazine's copyright "
                 "was not renewed), distributed by SQuALITY under the Project Gutenberg licence")
SUMMARY_LICENSE = ("CC BY 4.0 (SQuALITY, Wang, Pang, Chen, Phang and Bowman 2022, "
                   "https://github.com/nyu-mll/SQuALITY, data/LICENSE)")
# stories whose e-text has no byline: the author of their Project Gutenberg record
NO_BYLINE = {"47841": "Margaret Sutton", "55801": "Richard M. Elam"}
SPELLINGS = {"FREDERICK POHL": "FREDERIK POHL"}   # one author, two bylines
BYLINE = re.compile(r"^\s*by\s+(?:\.\.\.\s*)?(\S.*?)\s*$", re.IGNORECASE)
TIERS = {"T4": 4000, "T8": 8000, "S": 16000, "M": 32000}
# a story is 4k-10k tokens and two stories 12k-16k: below 3500 lets S hold most pairs
WINDOW = {"below": 3500, "above": 4000}


@dataclass
class Story:
    pg_id: str
    title: str
    author: str
    text: str
    summary: str
    response_uid: str
    worker_id: str


def byline(document: str) -> str | None:
    """The author named by the first short "By ..." line of the story's opening (or by the
    line after a "By" that stands alone)."""
    lines = [line.strip() for line in document.split("\n")[:80] if line.strip()]
    for n, line in enumerate(lines):
        if line.lower() in ("by", "by ...") and n + 1 < len(lines):
            line = f"by {lines[n + 1]}"
        match = BYLINE.match(line)
        if match and len(match.group(1).split()) <= 6:
            return match.group(1)
    return None


def display_name(name: str) -> str:
    """An upper-case byline in the case a reader writes it: "ROBERT E. McDOWELL" keeps its
    Mc, "ALFRED COPPEL, JR." becomes "Alfred Coppel, Jr."."""
    words = []
    for word in name.split():
        mac = re.match(r"^(Mc|Mac)([A-Z]+)$", word)
        if mac:
            words.append(mac.group(1) + mac.group(2).capitalize())
        elif word.isupper():
            words.append(word.capitalize())
        else:
            words.append(word)
    return " ".join(words)


def author_key(name: str) -> str:
    key = re.sub(r"\s+", " ", name.upper()).strip()
    return SPELLINGS.get(key, key)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def title_of(document: str) -> str:
    return next(line.strip() for line in document.split("\n") if line.strip())


def clean(text: str) -> str:
    """Line ends only: CRLF to LF, no spaces before a line end, no blank lines at either end."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def pick(responses: list[dict], choice: str) -> dict:
    if choice == "longest":
        return max(responses, key=lambda r: (len(r["response_text"].split()), -responses.index(r)))
    return responses[int(choice)]


def read_stories(mirrors: Path, choice: str) -> list[Story]:
    git_dir = repo_dir(mirrors, SQUALITY)
    stories = []
    for path in DATA_FILES:
        for line_no, line in enumerate(git_show(git_dir, path).decode("utf-8").splitlines(), 1):
            if not line.strip():
                continue
            row = json.loads(line)
            pg_id = row["metadata"]["passage_id"]
            plot = [q for q in row["questions"] if q["question_text"] == PLOT_QUESTION]
            if len(plot) != 1 or not plot[0]["responses"]:
                raise SystemExit(f"{SQUALITY}:{path}:{line_no}: story {pg_id} has no plot answer")
            found = byline(row["document"]) or NO_BYLINE.get(pg_id)
            if not found:
                raise SystemExit(f"{SQUALITY}:{path}:{line_no}: story {pg_id} has no byline")
            response = pick(plot[0]["responses"], choice)
            stories.append(Story(pg_id, title_of(row["document"]), found,
                                 clean(row["document"]), clean(response["response_text"]),
                                 response["uid"], str(response["worker_id"])))
    return stories


def group_by_author(stories: list[Story]) -> dict[str, list[Story]]:
    """Author key -> stories in Project Gutenberg number order; authors by their first story."""
    books: dict[str, list[Story]] = {}
    for story in sorted(stories, key=lambda s: int(s.pg_id)):
        books.setdefault(author_key(story.author), []).append(story)
    return books


def author_name(key: str, stories: list[Story]) -> str:
    """The byline as an e-text prints it in mixed case if one does, else the key title-cased."""
    mixed = [s.author for s in stories if display_name(s.author) == s.author]
    spelled = [s.author for s in stories if s.author.upper() == key]   # not a misspelling
    return mixed[0] if mixed else display_name(spelled[0] if spelled else key)


def write_book(folder: Path, name: str, stories: list[Story], commit: str, choice: str) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    for n, story in enumerate(stories, start=1):
        (folder / f"{n:03d}.txt").write_text(story.text + "\n", encoding="utf-8")
        (folder / f"{n:03d}.summary.txt").write_text(story.summary + "\n", encoding="utf-8")
    meta = {
        "title": f"Stories by {name} (SQuALITY)",
        "author": name,
        "source": f"https://github.com/{SQUALITY} ({', '.join(DATA_FILES)} @ {commit[:12]})",
        "license": f"stories: {STORY_LICENSE}; summaries: {SUMMARY_LICENSE}",
        "summary_source": (f"answer to '{PLOT_QUESTION}' ({choice} of the four), written for "
                           "SQuALITY by a hired writer or an NYU undergraduate"),
        "units": [{"unit": n, "gutenberg_id": int(s.pg_id), "title": s.title,
                   "response_uid": s.response_uid, "worker_id": s.worker_id}
                  for n, s in enumerate(stories, start=1)],
    }
    (folder / "book.yaml").write_text(yaml.safe_dump(meta, sort_keys=False, allow_unicode=True),
                                      encoding="utf-8")
    return meta


SEARCHED = """\
## What was searched and not used (2026-12-02)

Study-guide chapter summaries (summary mixed with the guide writer's commentary) under an open
licence, for public-domain novels, in anything `fetch` can bring (GitHub snapshots; files under
4 MiB):

- BookSum (Salesforce): `salesforce/booksum` holds only the alignment files (chapter ids, paths
  and archive.org URLs) and the scraping scripts; the summary texts are on Hugging Face
  (`kmfoda/booksum`, tagged BSD-3-Clause), which is not reachable here. BSD-3 covers
  Salesforce's code and packaging; the texts are SparkNotes', GradeSaver's, CliffsNotes',
  Shmoop's etc., whose rights no licence of Salesforce's clears (the repository's legal note
  leaves them to the user). Searched for copies of the chapter data on GitHub: find_files for
  `finished_summaries/...`, `fixed_chapter_summaries_*`, `chapter_summary_aligned_*` under other
  repositories, find_repos `booksum` / `booksum-` / `-booksum` / `book-sum` /
  `chapter-summ`, find_string for field names (`summary_analysis`, `all_chapterized_books/`)
  and for summary sentences of the HF viewer: none. The one copy found,
  `KyVinhMai/BookSum_NER` (name_replacement_summaries/: the GradeSaver, BookWolf, ... summaries
  of many books, A Study in Scarlet among them), has every character name replaced by a random
  one (Holmes -> "Jackie", "this" -> "Kelin"), so its summaries contradict their books; and it
  is the same copyrighted text.
- `manestay/novel-chapter-dataset` (Ladhak et al. 2020): scrapers only, copyrighted sources.
- Wikibooks literature study guides (CC BY-SA; chapter summaries with analysis exist there for
  several novels): no GitHub repository holds their wikitext or an export of them
  (find_repos `wikibooks` / `enwikibooks` / `studyguide` / `study-guide`; find_string
  `{{BookCat}}`, `[[Category:Book:`, `wikibooks.org/wiki/Jane_Eyre`,
  `wikibooks.org/wiki/Heart_of_Darkness`, `Huckleberry Finn/Chapter`,
  `Great Expectations/Chapter`, `Gatsby/Chapter`; semantic code search for Wikibooks pages of
  Jane Eyre, Wuthering Heights, The Scarlet Letter). The only Wikibooks wikitext in the index
  is of programming books.
- Wikipedia chapter-by-chapter synopses (Alice's Adventures in Wonderland, Through the
  Looking-Glass, Ulysses' episodes): only fragments pasted into unrelated code; no repository
  with the articles' text. The CMU Book Summary corpus and NarrativeQA's Wikipedia summaries
  are one summary per book, and the CMU file is over the 4 MiB snapshot limit.
- Public-domain study material on GITenberg (its repo list, `gitenberg-dev/gitberg`, searched
  for synopsis / key to / outline / study of / commentary / notes / questions): Snider's
  *Homer's Odyssey: A Commentary* (#26275) is book-by-book commentary but ~6,000 words a book,
  an essay rather than a summary; school editions with notes and plans of study are of poems
  (*Evangeline*, #15390). No chapter-by-chapter study guide of a novel was found.
- Repositories of chapter summaries of public-domain novels (`arvintech/amplified-classics`,
  Jane Eyre, Wuthering Heights, Evelina; a Moby-Dick "CraftLit" compilation; the Karamazov
  "chapter summaries" of `nicklausmccain-ux/...`): written by language models or without a
  licence.

Chinese prose synopses or study-guide commentary per 回:
- `FrankMilesFrms/RuLinWaiShi_Quan_Zhu_Hui_Ping`: 儒林外史 in 56 .docx files with the
  collected commentaries (卧闲草堂 1803, 齐省堂, 天目山樵, 黄小田; also 陈美林's modern
  comments, under copyright). The 卧闲草堂 回评 (public domain) is study-guide-like
  commentary, but only 13 of the 56 回 carry it in a form that can be separated (the other
  files are unfinished), other commentators' remarks are inlined into it, and the body text is
  the 2020 人民文学出版社 edition's. Not used.
- Everything listed in the prose corpus's SOURCES.md (bench/prosecorpus.py): no openly
  licensed 各回提要 for 儒林外史, 水浒传, 封神演义, 镜花缘, 老残游记 or 聊斋 stories.
"""


def write_sources(out: Path, commit: str, books: list[dict], choice: str) -> None:
    stories = sum(len(b["units"]) for b in books)
    parts = [
        "# Sources of the study corpus\n",
        "Written by bench/studycorpus.py.\n",
        f"## SQuALITY v1.3 (https://github.com/{SQUALITY} @ {commit[:12]})\n",
        f"- files: {', '.join(DATA_FILES)}",
        (f"- {stories} stories in {len(books)} books (one per author); summary of each: the "
         f"{choice} answer to \"{PLOT_QUESTION}\""),
        f"- stories: {STORY_LICENSE}",
        (f"- summaries: {SUMMARY_LICENSE}; attribution: Alex Wang, Richard Yuanzhe Pang, "
         "Angelica Chen, Jason Phang, Samuel R. Bowman, \"SQuALITY: Building a Long-Document "
         "Summarization Dataset the Hard Way\", arXiv:2205.11465 (2022); the answers' writers "
         "are anonymised (worker ids in each book.yaml)."),
        "- not used: the answers to SQuALITY's four other, question-focused questions.\n",
        "## Books\n",
        "| book | author | stories (Project Gutenberg numbers) |",
        "|---|---|---|",
    ]
    for book in books:
        ids = ", ".join(str(u["gutenberg_id"]) for u in book["units"])
        parts.append(f"| {book['book_id']} | {book['author']} | {len(book['units'])} ({ids}) |")
    parts.append("")
    parts.append(SEARCHED)
    (out / "SOURCES.md").write_text("\n".join(parts), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=BENCH_OUT / "corpora" / "study")
    parser.add_argument("--mirrors", type=Path, default=BENCH_OUT / "mirrors")
    parser.add_argument("--response", default="longest", choices=["longest", "0", "1", "2", "3"],
                        help="which of the four plot answers is a story's summary")
    parser.add_argument("--run-dir", type=Path, default=None,
                        help="the run directory written into study.yaml (default: run, beside it)")
    args = parser.parse_args(argv)

    if report_missing(args.mirrors, [SQUALITY]):
        return 1
    stories = read_stories(args.mirrors, args.response)
    books = group_by_author(stories)
    commit = head_commit(args.mirrors, SQUALITY)
    if (args.out / "en").exists():
        shutil.rmtree(args.out / "en")
    tokenizer = load_tokenizer("qwen3")
    metas = []
    print(f"{'book':28s} {'units':>5s} {'tokens':>8s} {'min':>6s} {'max':>6s} "
          f"{'sum.words(med)':>14s} {'sum.sent(med)':>13s}")
    for key, book_stories in books.items():
        name = author_name(key, book_stories)
        book_id = slug(name)
        meta = write_book(args.out / "en" / book_id, name, book_stories, commit, args.response)
        metas.append({"book_id": book_id, **meta})
        counts = tokenizer.count_batch([s.text for s in book_stories])
        words = statistics.median(len(s.summary.split()) for s in book_stories)
        sents = statistics.median(len(split_sentences(s.summary, "en")) for s in book_stories)
        print(f"{book_id:28s} {len(book_stories):5d} {sum(counts):8d} {min(counts):6d} "
              f"{max(counts):6d} {words:14.0f} {sents:13.0f}")
    write_config(args.out, "study.yaml", ("en",),
                 units={"min_tokens": 2000, "max_tokens": 10000, "out_of_range": "keep"},
                 tiers=TIERS, window=WINDOW, run_dir=args.run_dir,
                 header=("# Study corpus config (written by bench/studycorpus.py): SQuALITY's "
                         "public-domain stories,\n# one book per author, each story's summary "
                         "a person's prose retelling (CC BY 4.0).\n# Offline, no API key. "
                         "Stories of any length are kept (4k-9k tokens).\n"))
    write_sources(args.out, commit, metas, args.response)
    print(f"{len(stories)} stories, {len(books)} books; wrote {args.out} "
          f"(config: {args.out / 'study.yaml'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
