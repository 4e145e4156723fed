"""The injection engine: (window, type) jobs run in rounds of generation (the rules or an LLM),
validation and, with ``inject.verify``, verification, each rejected job retried with its reason;
then extra jobs for the slots that final rejections left, so the types stay balanced. No I/O:
the stage hands in the windows, the entities, an LLM runner and a way to read articles, and
writes the rows it gets back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from itertools import accumulate

from longnovel.injection.assign import assign_types, reassign
from longnovel.injection.candidate import Candidate, NotApplicable
from longnovel.injection.evidence import ArticleIndex, content_terms
from longnovel.injection.generators.rules.generator import RulesGenerator
from longnovel.injection.generators.rules.number import values_in
from longnovel.injection.reasons import QUOTE_SUPPORT, changed_sentences, gold
from longnovel.injection.validate import validate
from longnovel.taxonomy import TYPE_IDS
from longnovel.tokenizer import JOIN

RULES_CHUNK_JOBS = 512  # jobs the rules generator runs (and writes) at a time
# Support (see ``evidence``) from which the article is taken to tell an invented sentence
TOLD_SUPPORT = {"en": 0.6, "zh": 0.5}
_LIGHT = ("window_id", "tier", "language", "type", "valid", "reject_reason")


def jobs(windows: list[dict], inject, seed: int) -> list[tuple[dict, str]]:
    """(window, type) for every window and each of its assigned types, in taxonomy order
    (``inject``: the config's ``inject`` section)."""
    assigned = assign_types([(w["window_id"], w["tier"], w["language"]) for w in windows],
                            inject.type_list(), inject.types_per_window, seed)
    return [(w, t) for w in windows for t in sorted(assigned[w["window_id"]], key=TYPE_IDS.index)]


def run_in_chunks(engine: Engine, jobs: list, write: Callable[[list[dict]], None],
                  chunk: int | None) -> list[dict]:
    """Run ``jobs`` a chunk at a time (all at once with a model: one round of requests, one
    batch), handing every row to ``write`` as it comes; returns the rows without their
    summaries (what balancing and the counts need), so memory does not grow with the corpus."""
    size = chunk or max(1, len(jobs))
    light: list[dict] = []
    for start in range(0, len(jobs), size):
        light += light_rows(engine.run(jobs[start : start + size]), write)
    return light


def light_rows(rows: list[dict], write: Callable[[list[dict]], None]) -> list[dict]:
    """``rows`` without their summaries, once handed to ``write``."""
    write(rows)
    return [{k: r[k] for k in _LIGHT} for r in rows]


def book_vocabularies(batches, windows: list[dict]) -> tuple[dict, dict]:
    """(book -> the ``Vocabulary`` of its unit summaries, book -> [(unit index, unit summary)])
    for the books some window is of; ``batches``: record batches of ``book_id, unit_index,
    language, summary`` (``ingest/units.parquet``)."""
    from longnovel.injection.nlp.text import Vocabulary

    books = {w["book_id"] for w in windows}
    vocabularies: dict = {}
    summaries: dict[str, list[tuple[int, str]]] = {}
    for batch in batches:
        for book, index, language, summary in zip(*(c.to_pylist() for c in batch.columns),
                                                  strict=True):
            if book in books:
                vocabularies.setdefault(book, Vocabulary(language == "zh")).add(summary)
                summaries.setdefault(book, []).append((index, summary))
    return vocabularies, summaries


def book_parts(window: dict, summaries: dict) -> tuple[tuple, tuple[int, ...] | None]:
    """The window's book around it, from one pass over the book's unit summaries:
    - (earlier than the window?, summary) of the units it does not cover: the rest of the
      book, where invented content is drawn from;
    - where each of its unit summaries after the first starts in its reference summary
      (None where they do not make it up: the rules then take its blank lines)."""
    start, end = window.get("unit_start"), window.get("unit_end")
    if start is None or end is None:
        return (), None
    outside, parts = [], []
    for index, text in sorted(summaries.get(window["book_id"], ())):
        if start <= index <= end:
            parts.append(text)
        else:
            outside.append((index < start, text))
    starts = None
    if parts and JOIN.join(parts) == window.get("reference_summary"):
        starts = tuple(accumulate(len(text) + len(JOIN) for text in parts[:-1]))
    return tuple(outside), starts


# --- generation, validation, verification -------------------------------------------------


class Engine:
    """Runs (window, type) jobs: rounds of generation (the rules or an LLM), validation and,
    with ``inject.verify``, verification; every job still rejected is tried again, with the
    reason, up to ``inject.max_retries`` times. ``verified`` counts checks per type."""

    VERIFY_WINDOWS = 32  # windows whose articles are in memory at once

    def __init__(self, inject, seed: int, entities, runner=None,
                 vocabularies: dict | None = None, summaries: dict | None = None,
                 articles: Callable[[set[str]], dict[str, str]] | None = None,
                 progress: Callable[..., Iterable] | None = None):
        """``inject``: the config's ``inject`` section; ``entities``: window id -> entities;
        ``runner``: the LLM runner (None for the rules without verification);
        ``vocabularies``: book -> ``Vocabulary`` of its unit summaries; ``summaries``: book ->
        its (unit index, unit summary); ``articles``: window
        ids -> their articles (for verification); ``progress(items, desc=, total=)``: wraps
        the rules' jobs in a progress bar."""
        self.inject, self.seed, self.entities, self.runner = inject, seed, entities, runner
        self.articles = articles
        self.summaries = summaries or {}
        self._parts: dict[str, tuple] = {}
        self.progress = progress or (lambda items, **_: items)
        self.rules = RulesGenerator(seed, vocabularies)
        self.verified: dict[str, Counter] = {}
        # type -> rejected candidates by reason (every attempt's, not only the last)
        self.rejected: dict[str, Counter] = {t: Counter() for t in TYPE_IDS}
        self._indexes: ArticleIndexes | None = None

    def run(self, jobs: list[tuple[dict, str]]) -> list[dict]:
        """One row per job: its last outcome and reason, with the gold reason and evidence of
        a valid one (read from the jobs' articles)."""
        self._indexes = ArticleIndexes(self.articles, {w["window_id"]: w for w, _ in jobs})
        last: dict[int, tuple[object, str | None]] = {}
        tried: dict[int, list[str]] = {}  # the rules' rejected candidates, not offered again
        pending = list(range(len(jobs)))
        for attempt in range(self.inject.max_retries + 1):
            if not pending:
                break
            previous = [last[k][1] if k in last else None for k in pending]
            outcomes = self._generate([jobs[k] for k in pending], attempt, previous,
                                      [tried.get(k, ()) for k in pending])
            for k, outcome in zip(pending, outcomes, strict=True):
                if outcome[1] is None:
                    outcome = (outcome[0], self._label_fault(jobs[k][0], outcome[0]))
                    if outcome[1] is not None:
                        self.rules.withdraw(outcome[0])
                last[k] = outcome
                if outcome[1] is not None:
                    self.rejected[jobs[k][1]][outcome[1].split(":")[0]] += 1
                if self.inject.generator == "rules" and isinstance(outcome[0], Candidate):
                    tried.setdefault(k, []).append(outcome[0].summary)
            if self.inject.verify:
                self._verify(jobs, last, [k for k in pending if last[k][1] is None], attempt)
            pending = [k for k in pending if last[k][1] is not None
                       and not isinstance(last[k][0], NotApplicable)]
        rows = [row(window, type_id, *last[k], self._indexes)
                for k, (window, type_id) in enumerate(jobs)]
        self._indexes = None
        return rows

    def book_parts(self, window: dict) -> tuple:
        """``book_parts`` of ``window``, kept for the window's jobs."""
        key = window["window_id"]
        if key not in self._parts:
            if len(self._parts) > 64:
                self._parts.clear()
            self._parts[key] = book_parts(window, self.summaries)
        return self._parts[key]

    def _label_fault(self, window: dict, candidate) -> str | None:
        """Why a candidate's label would be wrong, read against the article: an invented
        sentence that the article tells is no fabrication; a name put in for another name that
        the article names where the original sentence rests, or for a pronoun that it names
        there or in the three sentences before, may be the true one ("how he may amend his
        wife": the article's passage names the husband)."""
        if not isinstance(candidate, Candidate) or not (
                candidate.type in ("fabrication", "number") or candidate.type == "entity"
                and candidate.subtype in ("pronoun", "mismatch")):
            return None
        index = self._indexes.get(window["window_id"])
        if index is None:
            return None
        language = window["language"]
        original, changed = changed_sentences(candidate, language)
        if candidate.type == "number":
            return _number_may_be_true(index, original, changed, language)
        if candidate.type == "fabrication":
            support = index.told(changed)
            if support >= TOLD_SUPPORT.get(language, 0.5):
                return f"told_in_article: support {support:.2f}"
            return None
        added = set(content_terms(changed, language)) - set(content_terms(original, language))
        passage = index.locate(original)
        if added and passage is not None and passage.support >= QUOTE_SUPPORT.get(language, 0.4) \
                and added & index.terms_around(passage, 3 if candidate.subtype == "pronoun" else 0):
            return "may_be_true: the article names it where the original sentence rests"
        return None

    def _generate(self, jobs, attempt: int, previous: list,
                  tried: list) -> list[tuple[object, str | None]]:
        if self.inject.generator == "rules":
            out = []
            for (window, type_id), before in zip(
                    self.progress(jobs, desc="inject", total=len(jobs)), tried, strict=False):
                outcome = self.rules.generate(window["reference_summary"], window["language"],
                                              self.entities[window["window_id"]], type_id,
                                              attempt, before, window["book_id"],
                                              *self.book_parts(window))
                reason = reject_reason(outcome, window["language"])
                if reason is not None:
                    self.rules.withdraw(outcome)
                out.append((outcome, reason))
            return out
        return self._llm_generate(jobs, attempt, previous)

    def _llm_generate(self, jobs, attempt: int, previous: list) -> list:
        from longnovel.injection.generators.llm.generator import build_messages, choose_target
        from longnovel.llm import Request

        model, seed = self.inject.generator, self.seed
        out: list = [None] * len(jobs)
        asked, requests = [], []
        for i, ((window, type_id), rejected) in enumerate(zip(jobs, previous, strict=False)):
            summary, language = window["reference_summary"], window["language"]
            entities = self.entities[window["window_id"]]
            target = choose_target(summary, language, entities, type_id, seed, attempt)
            if isinstance(target, NotApplicable):
                out[i] = (target, reject_reason(target, language))
                continue
            asked.append((i, target))
            requests.append(Request(
                key=f"{window['window_id']}/{type_id}/{attempt}", model=model,
                messages=build_messages(summary, language, entities, target, rejected),
                group=window["window_id"]))  # no schema: reply_from_result reads any reply
        for (i, target), result in zip(asked, self.runner.run(requests), strict=False):
            out[i] = judge_reply(jobs[i][0], target, result, model)
        return out

    def _verify(self, jobs, last: dict, valid: list[int], attempt: int) -> None:
        """Ask the judge about each valid candidate, a few windows (and articles) at a time."""
        by_window: dict[str, list[int]] = {}
        for k in valid:
            by_window.setdefault(jobs[k][0]["window_id"], []).append(k)
        ids = sorted(by_window)
        for start in range(0, len(ids), self.VERIFY_WINDOWS):
            chunk = ids[start : start + self.VERIFY_WINDOWS]
            articles = self.articles(set(chunk))
            ks = [k for window_id in chunk for k in by_window[window_id]]
            requests = [verify_request(jobs[k], last[k][0], articles, self.inject.verify,
                                        attempt) for k in ks]
            from longnovel.injection.verify import verdict

            for k, result in zip(ks, self.runner.run(requests), strict=False):
                reason = verdict(result)
                counter = self.verified.setdefault(jobs[k][1], Counter())
                counter["checked"] += 1
                counter[reason or "accepted"] += 1
                if reason is not None:
                    self.rules.withdraw(last[k][0])
                last[k] = (last[k][0], reason)


def verify_request(job, candidate, articles: dict, model: str, attempt: int):
    from longnovel.injection.verify import VerifyReply, verify_messages
    from longnovel.llm import Request

    window, type_id = job
    return Request(key=f"verify/{window['window_id']}/{type_id}/{attempt}", model=model,
                   messages=verify_messages(articles[window["window_id"]], candidate,
                                            window["language"]),
                   schema=VerifyReply, group=window["window_id"])


def _number_may_be_true(index: ArticleIndex, original: str, changed: str,
                        language: str) -> str | None:
    """A number put in that the article gives where the original sentence rests: the writer's
    number may be the mistake and the edit the truth ("the two explorers" -> "the three
    explorers", where the book says "the three explorers": study corpus, seed 5646)."""
    zh = language == "zh"
    new = values_in(changed, zh) - values_in(original, zh)
    passage = index.locate(original)
    if new and passage is not None and passage.support >= QUOTE_SUPPORT.get(language, 0.4) \
            and new & values_in(passage.text, zh):
        return "may_be_true: the article gives the new number where the original sentence rests"
    return None


def reject_reason(outcome: Candidate | NotApplicable, language: str) -> str | None:
    if isinstance(outcome, NotApplicable):
        return f"not_applicable: {outcome.reason}"
    return validate(outcome, language)


def row(window: dict, type_id: str, outcome, reason: str | None,
        indexes: ArticleIndexes | None = None) -> dict:
    row = {"window_id": window["window_id"], "tier": window["tier"],
           "language": window["language"], "type": type_id, "subtype": "",
           "original_summary": window["reference_summary"], "summary": "",
           "original_span": "", "hallucinated_span": "", "generator": "",
           "valid": reason is None, "reject_reason": reason or "",
           "reason": "", "evidence": "", "evidence_start": -1, "evidence_end": -1}
    if isinstance(outcome, Candidate):
        row.update(subtype=outcome.subtype, summary=outcome.summary,
                   original_span=outcome.original_span,
                   hallucinated_span=outcome.hallucinated_span, generator=outcome.generator)
        if reason is None:
            index = indexes.get(window["window_id"]) if indexes is not None else None
            found = gold(outcome, window["language"], index)
            row.update(reason=found.reason, evidence=found.evidence,
                       evidence_start=found.evidence_start, evidence_end=found.evidence_end)
    return row


class ArticleIndexes:
    """The ``ArticleIndex`` of each window of a run of jobs, built on first use from the
    articles read once for the whole run (``articles``: window ids -> articles)."""

    def __init__(self, articles: Callable[[set[str]], dict[str, str]] | None,
                 windows: dict[str, dict]):
        self._read, self._windows = articles, windows
        self._texts: dict[str, str] | None = None
        self._built: dict[str, ArticleIndex] = {}

    def get(self, window_id: str) -> ArticleIndex | None:
        if self._read is None:
            return None
        if self._texts is None:
            self._texts = self._read(set(self._windows))
        if window_id not in self._built and window_id in self._texts:
            self._built[window_id] = ArticleIndex(self._texts[window_id],
                                                  self._windows[window_id]["language"])
        return self._built.get(window_id)


def judge_reply(window: dict, target, result, model: str) -> tuple[object, str | None]:
    from longnovel.injection.generators.llm.generator import (
        blanked,
        candidate_fault,
        reply_from_result,
        splice_reply,
    )

    source = window["reference_summary"][target.start:target.end] or target.anchor
    # a plain-text answer is taken as the sentence; an added one need only name something,
    # and the words for a blank need share none
    if blanked(window["reference_summary"], target) is not None:
        source = ""
    reply = reply_from_result(result, source, 0.0 if target.insertion else 0.2)
    if reply is None:
        return None, f"llm_{result.error or 'empty'}"
    try:
        outcome = splice_reply(window["reference_summary"], window["language"], target,
                               reply, model)
    except ValueError:
        return None, "llm_schema"
    return outcome, (reject_reason(outcome, window["language"])
                     or candidate_fault(window["reference_summary"], window["language"],
                                        target, outcome))
# --- balance after rejection ------------------------------------------------------------------


def rebalance(engine: Engine, windows: list[dict], rows: list[dict],
               types: list[str]) -> list[dict]:
    """Extra jobs for the slots that final rejections left, pass after pass, so each tier and
    language ends with its types within one of each other wherever the corpus allows."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for w in windows:
        groups.setdefault((w["tier"], w["language"]), []).append(w)
    by_id = {w["window_id"]: w for w in windows}
    free = Counter((r["tier"], r["language"]) for r in rows if not r["valid"])
    failed = {key: [r["window_id"] for r in rows
                    if not r["valid"] and (r["tier"], r["language"]) == key] for key in groups}
    extra: list[dict] = []
    for _ in range(len(types)):
        jobs = []
        for key, members in sorted(groups.items()):
            seen = [(r["window_id"], r["type"], r["valid"]) for r in rows + extra
                    if (r["tier"], r["language"]) == key]
            planned = reassign([w["window_id"] for w in members], seen, types, free[key],
                               failed[key])
            failed[key] = failed[key][len(planned):]
            jobs += [(by_id[window_id], type_id) for window_id, type_id in planned]
        if not jobs:
            break
        new = engine.run(jobs)
        for row in new:
            if row["valid"]:
                free[(row["tier"], row["language"])] -= 1
        extra += new
    return extra


def balance(rows: list[dict], types: list[str]) -> dict[str, dict]:
    """Valid injections per type in each ``tier/language``, with max, min and max/min."""
    out = {}
    for key in sorted({f"{r['tier']}/{r['language']}" for r in rows}):
        counts = {t: 0 for t in types}
        for r in rows:
            if r["valid"] and f"{r['tier']}/{r['language']}" == key and r["type"] in counts:
                counts[r["type"]] += 1
        top, bottom = max(counts.values()), min(counts.values())
        out[key] = {"types": counts, "max": top, "min": bottom,
                    "max_over_min": round(top / bottom, 3) if bottom else None}
    return out


# --- plan ---------------------------------------------------------------------------------------

def first_candidates(jobs, entities: dict, generator: str,
                     seed: int) -> list[tuple[object, object]]:
    """(target or outcome, candidate to verify) of each job's first attempt, sending nothing:
    an LLM's candidate is stood in for by the rules generator's."""
    from longnovel.injection.generators.llm.generator import choose_target

    rules = RulesGenerator(seed)
    out = []
    for w, type_id in jobs:
        summary, language = w["reference_summary"], w["language"]
        outcome = rules.generate(summary, language, entities[w["window_id"]], type_id, 0)
        ok = outcome if reject_reason(outcome, language) is None else None
        if generator == "rules":
            out.append((outcome, ok))
        else:
            target = choose_target(summary, language, entities[w["window_id"]], type_id,
                                   seed, 0)
            asked = not isinstance(target, NotApplicable) and isinstance(outcome, Candidate)
            out.append((target, outcome if asked else None))
    return out


def planned_generations(jobs, firsts, entities: dict, model: str,
                        count_tokens: Callable[[str], int]) -> list:
    """The first-round requests to the generating ``model`` for ``jobs`` with a target."""
    from longnovel.injection.generators.llm.generator import build_messages
    from longnovel.llm import PlannedRequest

    planned = []
    for (w, _type_id), (target, _) in zip(jobs, firsts, strict=False):
        if isinstance(target, NotApplicable):
            continue
        messages = build_messages(w["reference_summary"], w["language"],
                                  entities[w["window_id"]], target, None)
        span = w["reference_summary"][target.start:target.end] or target.anchor
        planned.append(PlannedRequest("inject", model, messages, count_tokens(span) * 2 + 20))
    return planned


def planned_verifications(jobs, firsts, model: str,
                          articles: Callable[[set[str]], dict[str, str]]) -> list:
    """The requests to the verifying ``model``, one per job with a candidate to verify."""
    from longnovel.injection.verify import verify_messages
    from longnovel.llm import PlannedRequest

    wanted = {w["window_id"] for (w, _), (_, c) in zip(jobs, firsts, strict=False) if c is not None}
    texts = articles(wanted)  # the plan reads only the articles it needs
    return [PlannedRequest("inject", model,
                           verify_messages(texts[w["window_id"]], c, w["language"]), 30)
            for (w, _), (_, c) in zip(jobs, firsts, strict=False) if c is not None]
