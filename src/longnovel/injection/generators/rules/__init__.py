"""The offline ``rules`` generator (``generator.RulesGenerator``), one module per type."""
