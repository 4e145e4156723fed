"""Typed, closed configuration (DESIGN.md section 4). Unknown keys are rejected."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from longnovel.errors import ConfigError
from longnovel.llm.config import ModelConfig
from longnovel.taxonomy import TYPE_IDS

# Where ``--config`` is looked for when it is not given, in this order; then the embedded default.
CONFIG_LOOKUP = (Path("longnovel.yaml"), Path("configs/default.yaml"))


def available_cores() -> int:
    """The CPU cores this process may run on: its affinity mask (which ``taskset``, cgroups
    and container limits narrow), else the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CorpusSource(Closed):
    path: str
    format: Literal["dir", "table", "booksum"]
    language: Literal["zh", "en"]
    summary_sources: list[str] | None = None


# A tier or split name becomes a folder and a file name of the release, and the first part of a
# window id ("S:book:1-3"): letters, digits, "_", "-" and "." only.
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def check_names(names, what: str) -> None:
    for name in names:
        if not isinstance(name, str) or not NAME_PATTERN.match(name):
            raise ValueError(f"{what} name {name!r} cannot name a folder or file: use letters, "
                             "digits, '_', '-' and '.' (at most 64, not starting with '.')")


class UnitsConfig(Closed):
    min_tokens: int = Field(2000, ge=0)
    max_tokens: int = Field(6000, gt=0)
    out_of_range: Literal["drop", "keep"] = "drop"
    missing_summary: Literal["error", "drop"] = "error"

    @model_validator(mode="after")
    def _ordered(self):
        if self.min_tokens > self.max_tokens:
            raise ValueError(f"min_tokens ({self.min_tokens}) is above max_tokens "
                             f"({self.max_tokens}): no unit could be kept")
        return self


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


# ``inject.entities`` values that name no model: extractors that run here (``spacy`` needs the
# ``ner`` extra).
LOCAL_EXTRACTORS = ("lexical", "spacy")


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
        check_names(value, "split")
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
    # Processes for work that splits by book; rows are the same for any count, so no
    # fingerprint holds it.
    workers: int = Field(default_factory=available_cores, ge=1)
    _file: Path | None = PrivateAttr(None)
    _written: dict = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _models_exist(self):
        named = list(self.arbitrate.summarizers) + list(self.arbitrate.judges)
        named += [m for m in (self.inject.generator, self.inject.entities)
                  if m not in ("rules", *LOCAL_EXTRACTORS)]
        named += [self.inject.verify] if self.inject.verify else []
        missing = [m for m in named if m not in self.models]
        if missing:
            raise ValueError(f"model(s) {missing} are not defined under models:")
        if not self.tiers:
            raise ValueError("tiers: at least one tier is needed")
        low = min(self.tiers.items(), key=lambda item: item[1])
        if self.window.below >= low[1]:
            raise ValueError(f"window.below ({self.window.below}) must be less than every "
                             f"tier's target (tier {low[0]} is {low[1]}): a window's range "
                             "starts at target - below")
        return self

    @field_validator("tiers")
    @classmethod
    def _tier_names_and_targets(cls, value):
        check_names(value, "tier")
        bad = {name: target for name, target in value.items() if target <= 0}
        if bad:
            name, target = next(iter(bad.items()))
            raise ValueError(f"tier {name}'s target must be a positive number of tokens, "
                             f"got {target}")
        return value


    def select_tiers(self, names: list[str] | None = None) -> dict[str, int]:
        """Tier name -> target of the configured tiers, limited to ``names`` when given, in
        config order; an unknown name is a user error."""
        unknown = [t for t in names or [] if t not in self.tiers]
        if unknown:
            raise ConfigError(f"unknown tier(s) {unknown}; the config defines {list(self.tiers)}")
        return {name: t for name, t in self.tiers.items() if not names or name in names}

    @property
    def file(self) -> Path | None:
        """The config file this config was read from (None when built in code)."""
        return self._file

    def as_written(self) -> dict:
        """The config as JSON data with its paths as the file wrote them (relative ones stay
        relative), for dataset cards and anything shown to others; without ``workers``, a
        setting of the machine that builds, not of the data."""
        data = self.model_dump(mode="json", exclude={"workers"})
        data.update({k: v for k, v in self._written.items() if k != "corpus"})
        for source, path in zip(data["corpus"], self._written.get("corpus", []), strict=False):
            source["path"] = path
        return data

    def resolved_paths(self) -> dict:
        """Where this config reads and writes: run dir, LLM cache, corpus sources, tokenizer."""
        return {"config": str(self._file) if self._file else None, "run_dir": self.run_dir,
                "cache": self.cache, "corpus": [s.path for s in self.corpus],
                "tokenizer": self.tokenizer}


def embedded_project() -> Path:
    """The starter project inside the package: ``longnovel.yaml`` (the embedded default) and
    the sample corpus under ``data/raw/sample``; ``longnovel init`` copies it."""
    return Path(__file__).resolve().parent / "project"


def embedded_config() -> Path:
    """The embedded default config (also the repository's ``configs/default.yaml``)."""
    return embedded_project() / "longnovel.yaml"


def is_embedded(path: Path) -> bool:
    """True for the embedded default, wherever the package is (an installed wheel, or a
    checkout reached through the ``configs/default.yaml`` link)."""
    real = Path(path).resolve()
    package = real.parent.parent
    return (real.name == "longnovel.yaml" and real.parent.name == "project"
            and package.name == "longnovel" and (package / "__init__.py").is_file())


def default_config_path() -> Path:
    """The config used without ``--config``: ``longnovel.yaml`` in the current folder, else
    ``configs/default.yaml``, else the embedded default."""
    for candidate in CONFIG_LOOKUP:
        if candidate.is_file():
            return candidate
    return embedded_config()


def resolve_paths(config: Config, path: Path) -> Config:
    """Make the config's relative paths absolute: corpus paths and a tokenizer directory
    against the config file's folder (after following links), ``run_dir`` and ``cache``
    likewise, except for the embedded default, whose run dir and cache go under the current
    folder (the package's own folder is not a place to write)."""
    base = Path(path).resolve().parent
    writable = Path.cwd() if is_embedded(path) else base
    config._file = Path(path).absolute()
    config._written = {"run_dir": config.run_dir, "cache": config.cache,
                       "tokenizer": config.tokenizer,
                       "corpus": [source.path for source in config.corpus]}
    config.run_dir = str(_under(writable, config.run_dir))
    config.cache = str(_under(writable, config.cache))
    for source in config.corpus:
        source.path = str(_under(base, source.path))
    if config.tokenizer != "qwen3":
        config.tokenizer = str(_under(base, config.tokenizer))
    return config


def _under(base: Path, value: str) -> Path:
    """``value`` (``~`` expanded) if absolute, else ``base / value``, with ``..`` folded."""
    path = Path(value).expanduser()
    return Path(os.path.normpath(path if path.is_absolute() else base / path))


class UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping (PyYAML keeps the last
    silently, so a second ``tiers:`` would replace the first without a word)."""

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
                seen.setdefault(key, key_node.start_mark.line)
            except TypeError:  # an unhashable key: SafeLoader reports it
                continue
            if first is not None:
                raise yaml.constructor.ConstructorError(
                    "while reading a mapping", node.start_mark,
                    f"duplicate key {key!r} (first on line {first + 1})", key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


def load_config(path: Path | str | None = None, run_dir: str | None = None) -> Config:
    """Read and validate a YAML config (default: ``default_config_path()``); relative paths
    resolve against the file's folder (see ``resolve_paths``); ``run_dir`` overrides the file's
    ``run_dir`` and is taken relative to the current folder."""
    path = Path(path) if path is not None else default_config_path()
    if not path.is_file():
        raise ConfigError(f"{path}: config file not found")
    from longnovel.config_errors import validation_error, yaml_error

    try:
        text = path.read_text(encoding="utf-8")
        data = yaml.load(text, Loader=UniqueKeyLoader)  # noqa: S506 - a SafeLoader
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(yaml_error(path, exc)) from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of config keys")
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(validation_error(path, text, data, exc, Config)) from exc
    resolve_paths(config, path)
    if run_dir is not None:
        config.run_dir = str(Path(run_dir).expanduser().absolute())
    return config
