"""Language tools that know nothing of injection: sentences, words, inflection, scripts,
numerals and lexical entities (``en``, ``zh``)."""
