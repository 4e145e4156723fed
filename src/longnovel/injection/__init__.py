"""Entity-referenced hallucination injection (DESIGN.md section 11), in layers; a module
imports only from the layers below its own, and this file imports nothing, so importing one
module never loads the rest.

- ``lexicon``: word lists, one module per language (data only);
- ``nlp``: sentences, words, inflection, scripts, numerals and lexical entities of both
  languages; it knows nothing of injection;
- ``candidate``, ``assign``, ``validate``, ``reasons``, ``verify``: the records a generator
  returns, the balanced assignment of types, the structural checks of a candidate, its gold
  reason and the prompt and verdict of a verifying model;
- ``generators.rules`` (the offline generator, one module per type) and ``generators.llm``
  (a model rewrites the place the rules choose);
- ``entities`` (a window's entities, lexical or from a model) and ``engine`` (jobs, rounds of
  generation, validation and verification, rebalancing): no I/O, the stage
  ``longnovel.stages.inject`` reads and writes.
"""
