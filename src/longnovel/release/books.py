"""Books of a release: their licences and attributions, as ingest read them from ``book.yaml``.

The card's ``license:`` is the books' common licence as a Hugging Face licence id when every
book names the same one (``CC-BY-4.0`` becomes ``cc-by-4.0``); ``unknown`` when no book names
one; otherwise ``other``, and the card's table gives each book's own.
"""

from __future__ import annotations

import re

# Licence ids the Hugging Face Hub knows, for the ones books are likely to carry.
HUB_LICENSES = frozenset({
    "apache-2.0", "mit", "cc0-1.0", "cc-by-2.0", "cc-by-3.0", "cc-by-4.0", "cc-by-sa-3.0",
    "cc-by-sa-4.0", "cc-by-nc-2.0", "cc-by-nc-3.0", "cc-by-nc-4.0", "cc-by-nc-sa-3.0",
    "cc-by-nc-sa-4.0", "cc-by-nd-4.0", "cc-by-nc-nd-3.0", "cc-by-nc-nd-4.0", "pddl", "odc-by",
    "odbl", "gpl-2.0", "gpl-3.0", "lgpl-3.0", "bsd-2-clause", "bsd-3-clause", "unlicense",
})


def hub_id(license_name: str | None) -> str | None:
    """A licence as written (``CC-BY-4.0``, ``CC BY 4.0``) as a Hub id, None if it is not
    one the Hub knows."""
    if not license_name:
        return None
    slug = re.sub(r"[\s_]+", "-", str(license_name).strip().lower())
    return slug if slug in HUB_LICENSES else None


def card_license(books: dict[str, dict]) -> dict:
    """The card header's licence fields for ``books`` (book id -> metadata)."""
    named = {str(b.get("license") or "").strip() for b in books.values()}
    if not books or named == {""}:
        return {"license": "unknown"}
    ids = {hub_id(name) or name for name in named}  # "CC BY 4.0" and "CC-BY-4.0" agree
    if len(ids) > 1:
        return {"license": "other"}
    only = ids.pop()
    return {"license": only} if only in HUB_LICENSES else {"license": "other",
                                                           "license_name": only}


def attribution(meta: dict) -> str:
    """``attribution`` from book.yaml, else title, author and source put together."""
    if meta.get("attribution"):
        return str(meta["attribution"])
    text = str(meta.get("title") or "")
    if meta.get("author"):
        text += f" by {meta['author']}"
    if meta.get("source"):
        text += f" ({meta['source']})"
    return text


def books_section(books: dict[str, dict]) -> str:
    """The card's table of books: id, title, language, licence and attribution."""
    head = ("## Books and licences\n\nEach book's licence and attribution, from its "
            "`book.yaml` (`license`, `attribution`, else title, author and source). "
            "The header's `license` is theirs when all agree.\n\n"
            "| book | title | language | licence | attribution |\n|---|---|---|---|---|\n")
    if not books:
        return head.split("\n\n|")[0] + "\n\nNo book metadata was recorded by ingest.\n"
    lines = ["| " + " | ".join(_cell(v) for v in (
        book, meta.get("title") or "", meta.get("language") or "",
        meta.get("license") or "not stated", attribution(meta))) + " |"
        for book, meta in sorted(books.items())]
    return head + "\n".join(lines) + "\n"


def _cell(value) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(str(value).split()).replace("|", "\\|")
