"""longnovel: build multi-scale hallucination-detection benchmarks from long novels."""

__version__ = "0.1.0"
