"""Stage arbitrate: LLM summaries, cross-model judgments and aggregated labels (DESIGN.md §10).

Without summarizers configured the stage writes the three files empty and says so, and the
rest of the pipeline runs on human and injected samples.
"""

from __future__ import annotations

import pyarrow as pa

from longnovel.config import Config
from longnovel.errors import StageError
from longnovel.stages.base import StageContext, StageResult

NAME = "arbitrate"
UPSTREAM = ["expand"]
READS = ["expand/windows.parquet"]
WRITES = ["summaries.parquet", "judgments.parquet", "labels.parquet"]
CODE_VERSION = "1"

SUMMARIES = pa.schema([("window_id", pa.string()), ("tier", pa.string()), ("model", pa.string()),
                       ("summary", pa.string()), ("usage", pa.string())])
JUDGMENTS = pa.schema([("window_id", pa.string()), ("summary_model", pa.string()),
                       ("judge_model", pa.string()), ("score", pa.int64()),
                       ("hallucination_types", pa.list_(pa.string())), ("reason", pa.string()),
                       ("raw", pa.string()), ("ok", pa.bool_())])
LABELS = pa.schema([("window_id", pa.string()), ("tier", pa.string()),
                    ("summary_model", pa.string()), ("summary", pa.string()),
                    ("label", pa.string()), ("score", pa.int64()),
                    ("hallucination_types", pa.list_(pa.string())), ("reason", pa.string()),
                    ("agreement", pa.float64())])


def config_section(config: Config) -> dict:
    section = config.arbitrate.model_dump()
    used = set(config.arbitrate.summarizers) | set(config.arbitrate.judges)
    section["models"] = {m: config.models[m].fingerprint_fields() for m in sorted(used)}
    return section


def run(ctx: StageContext) -> StageResult:
    windows = ctx.read("expand/windows.parquet")
    if ctx.config.arbitrate.summarizers:
        raise StageError("arbitrate: LLM summarizers are not supported in this version; "
                         "set arbitrate.summarizers: [] to build human and injected samples")
    empty = {"summaries.parquet": SUMMARIES.empty_table(),
             "judgments.parquet": JUDGMENTS.empty_table(), "labels.parquet": LABELS.empty_table()}
    return StageResult(tables=empty, rows_in=windows.num_rows, rows_out=0,
                       extra={"note": "no summarizers configured: arbitration skipped"})


def plan_requests(ctx: StageContext) -> list:
    """The requests this stage would send (for ``longnovel plan``); none without summarizers."""
    return []
