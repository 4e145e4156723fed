"""The release: samples and splits (``samples``), the dataset card (``card``), human review
(``review``)."""
