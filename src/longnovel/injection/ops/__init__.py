"""Rule-based edits, one module per hallucination type. Each exposes ``edits(draft)``."""
