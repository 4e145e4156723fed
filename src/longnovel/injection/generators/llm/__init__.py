"""The LLM generator (``generator``) and LLM entity extraction (``entities``)."""
