"""Pipeline stages: ingest -> expand -> arbitrate -> inject -> export."""
