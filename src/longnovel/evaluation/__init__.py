"""Evaluation of hallucination detectors on datasets in the release format.

- ``datasets``: a run's export, or a JSON, JSONL or Parquet file with the release's fields;
- ``requests``: what a detector is sent (prompt and order ablations, repeats), grouped by article;
- ``parsing``: detector replies to a score and types;
- ``metrics``, ``bootstrap``, ``report``: usable-only and strict metrics, 95% intervals, pair
  accuracy;
- ``run``: ``longnovel evaluate``; ``compare``: ``longnovel compare``; ``plots``, ``tables``.
"""
