"""The records a generator returns: a candidate injection, or why none applies."""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass
class Candidate:
    """One injected hallucination: the rewritten summary and the sentence-level change."""

    type: str
    subtype: str
    original_summary: str
    summary: str
    original_span: str
    hallucinated_span: str
    generator: str
    # what the generator recorded of this candidate in its run state (the rules' ledger), so
    # that a candidate the validator or the verifier rejects can be taken back out of it
    trace: object = field(default=None, repr=False, compare=False)


@dataclass
class NotApplicable:
    """The type cannot be injected honestly into this summary (e.g. no number for ``number``)."""

    type: str
    reason: str


@dataclass
class Edit:
    """A replacement of ``summary[start:end]`` by ``text``, with the spans it reports."""

    subtype: str
    start: int
    end: int
    text: str
    original_span: str
    hallucinated_span: str

    def apply(self, summary: str) -> str:
        return summary[: self.start] + self.text + summary[self.end :]

    def shifted(self, offset: int) -> Edit:
        """The same edit, ``offset`` characters further into the text."""
        return replace(self, start=self.start + offset, end=self.end + offset) if offset else self
