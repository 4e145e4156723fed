"""Typed, closed configuration (DESIGN.md section 4). Unknown keys are rejected."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from longnovel.errors import ConfigError
from longnovel.llm.config import ModelConfig
from longnovel.taxonomy import TYPE_IDS

DEFAULT_CONFIG = Path("configs/default.yaml")


class Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CorpusSource(Closed):
    path: str
    format: Literal["dir", "table", "booksum"]
    language: Literal["zh", "en"]
    summary_sources: list[str] | None = None


class UnitsConfig(Closed):
    min_tokens: int = Field(2000, ge=0)
    max_tokens: int = Field(6000, gt=0)
    out_of_range: Literal["drop", "keep"] = "drop"
    missing_summary: Literal["error", "drop"] = "error"


class WindowConfig(Closed):
    below: int = Field(2000, ge=0)
    above: int = Field(4000, ge=0)
    max_per_tier: int | None = Field(None, gt=0)
    max_per_book: int | None = Field(None, gt=0)


class ArbitrateConfig(Closed):
    summarizers: list[str] = []
    judges: list[str] = []
    use_reference: bool = True
    rule: Literal["majority", "unanimous"] = "majority"
    max_windows_per_tier: int | None = Field(None, gt=0)


class InjectConfig(Closed):
    generator: str = "rules"
    entities: str = "lexical"
    types: Literal["all"] | list[str] = "all"
    types_per_window: int = Field(8, ge=1, le=8)
    max_retries: int = Field(2, ge=0)
    verify: str | None = None

    @field_validator("types")
    @classmethod
    def _known_types(cls, value):
        if value == "all":
            return value
        unknown = [t for t in value if t not in TYPE_IDS]
        if unknown:
            raise ValueError(f"unknown type(s) {unknown}; known: {TYPE_IDS}")
        return value

    def type_list(self) -> list[str]:
        return list(TYPE_IDS) if self.types == "all" else list(self.types)


class ExportConfig(Closed):
    splits: dict[str, float] = {"test": 0.8, "valid": 0.2}
    mix: dict[str, float] | Literal["balanced"] | None = "balanced"
    max_per_tier: int | None = Field(None, gt=0)

    @field_validator("mix")
    @classmethod
    def _known_sources(cls, value):
        from longnovel.release.samples import SOURCES

        if not isinstance(value, dict):
            return value
        unknown = sorted(set(value or {}) - set(SOURCES))
        if unknown:
            raise ValueError(f"unknown source(s) {unknown}; use {', '.join(SOURCES)}")
        return value

    @field_validator("splits")
    @classmethod
    def _splits_sum(cls, value):
        if not value or any(v < 0 for v in value.values()) or abs(sum(value.values()) - 1) > 1e-6:
            raise ValueError("split shares must be non-negative and sum to 1")
        return value


class Config(Closed):
    run_dir: str = "data/processed/default"
    seed: int = 13
    tokenizer: str = "qwen3"
    corpus: list[CorpusSource]
    units: UnitsConfig = UnitsConfig()
    tiers: dict[str, int] = {"S": 16000, "M": 32000, "L": 64000, "XL": 100000}
    window: WindowConfig = WindowConfig()
    models: dict[str, ModelConfig] = {}
    arbitrate: ArbitrateConfig = ArbitrateConfig()
    inject: InjectConfig = InjectConfig()
    export: ExportConfig = ExportConfig()
    cache: str = "data/cache/llm.sqlite"

    @model_validator(mode="after")
    def _models_exist(self):
        named = list(self.arbitrate.summarizers) + list(self.arbitrate.judges)
        named += [m for m in (self.inject.generator, self.inject.entities)
                  if m not in ("rules", "lexical")]
        named += [self.inject.verify] if self.inject.verify else []
        missing = [m for m in named if m not in self.models]
        if missing:
            raise ValueError(f"model(s) {missing} are not defined under models:")
        if not self.tiers:
            raise ValueError("tiers: at least one tier is needed")
        return self


    def select_tiers(self, names: list[str] | None = None) -> dict[str, int]:
        """Tier name -> target of the configured tiers, limited to ``names`` when given, in
        config order; an unknown name is a user error."""
        unknown = [t for t in names or [] if t not in self.tiers]
        if unknown:
            raise ConfigError(f"unknown tier(s) {unknown}; the config defines {list(self.tiers)}")
        return {name: t for name, t in self.tiers.items() if not names or name in names}


def _format_error(path: Path, exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    if err["type"] == "extra_forbidden":
        return f"{path}: unknown key '{where}'"
    if err["type"] == "missing":
        return f"{path}: missing key '{where}'"
    return f"{path}: {where}: {err['msg']}"


def load_config(path: Path | str = DEFAULT_CONFIG, run_dir: str | None = None) -> Config:
    """Read and validate a YAML config; ``run_dir`` overrides the file's ``run_dir``."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{path}: config file not found")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid YAML: {str(exc).splitlines()[0]}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of config keys")
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_format_error(path, exc)) from exc
    if run_dir is not None:
        config.run_dir = run_dir
    return config
