"""bench/ can be re-run by anyone: committed configs with relative paths, no machine-local
paths in the scripts or bench/README.md, and every config the README names exists."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from helpers.builders import REPO

from longnovel.config import load_config

BENCH = REPO / "bench"
MACHINE_LOCAL = re.compile(r"(?<![\w.])/(work|tmp|home|root|Users)/")


def test_bench_configs_load_with_paths_relative_to_themselves():
    configs = sorted((BENCH / "configs").glob("*.yaml"))
    assert len(configs) >= 7
    for path in configs:
        written = yaml.safe_load(path.read_text(encoding="utf-8"))
        paths = [written["run_dir"], written["cache"]] + [s["path"] for s in written["corpus"]]
        assert not [p for p in paths if Path(p).is_absolute()], path
        loaded = load_config(path)
        for resolved in [loaded.run_dir, loaded.cache] + [s.path for s in loaded.corpus]:
            assert Path(resolved).is_relative_to(REPO), (path, resolved)


def test_no_machine_local_paths_in_bench():
    for path in [BENCH / "README.md", *sorted(BENCH.glob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        found = [line for line in text.splitlines() if MACHINE_LOCAL.search(line)]
        assert not found, (path.name, found[:3])


def test_every_config_the_bench_readme_names_exists():
    text = (BENCH / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"bench/configs/([\w.-]+\.yaml)", text))
    assert {"sample-t4.yaml", "dev-many.yaml", "prose-many.yaml", "plan-dev.yaml"} <= named
    assert not [n for n in named if not (BENCH / "configs" / n).is_file()]
