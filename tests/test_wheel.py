"""The wheel as a user installs it: the embedded default ships inside it, so `longnovel build`
works in an empty folder and `longnovel init` copies a project, from the installed package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from helpers.builders import REPO

# Under pytest-xdist, this module's tests share one worker and so one module fixture.
pytestmark = pytest.mark.xdist_group("installed-wheel")


def run(args: list, cwd: Path, timeout: int = 900) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env, check=False)
    assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv holding the wheel built from this checkout (its dependencies are taken
    from the running environment through a .pth line, so nothing is downloaded)."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    shutil.copytree(REPO / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", source, "-w", tmp / "dist"], cwd=tmp)
    wheel = next((tmp / "dist").glob("longnovel-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "longnovel/project/longnovel.yaml" in names
    assert "longnovel/project/data/raw/sample/en/salt-clock/book.yaml" in names
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", venv], cwd=tmp)
    python = venv / "bin" / "python"
    run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel], cwd=tmp)
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
               cwd=tmp).stdout.strip()
    (Path(site) / "deps-from-test-env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    where = run([python, "-c", "import longnovel; print(longnovel.__file__)"], cwd=tmp).stdout
    assert where.startswith(str(venv)), where  # the wheel's copy, not this checkout
    return venv / "bin" / "longnovel"


def test_build_in_an_empty_folder_from_the_installed_wheel(installed, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    done = run([installed, "build", "--tier", "S"], cwd=empty)
    assert "\r" not in done.stderr
    run_dir = empty / "data/processed/default"
    rows = [r for f in sorted((run_dir / "export/S").glob("*.parquet"))
            for r in pq.read_table(f).to_pylist()]
    assert {r["language"] for r in rows} == {"zh", "en"}
    assert {r["source"] for r in rows} == {"human", "injection"}
    assert sorted(p.name for p in empty.iterdir()) == ["data"]
    assert sorted(p.name for p in (empty / "data").iterdir()) == ["processed"]


def test_init_from_the_installed_wheel(installed, tmp_path):
    run([installed, "init", "proj"], cwd=tmp_path)
    project = tmp_path / "proj"
    assert (project / "longnovel.yaml").is_file() and (project / "README.md").is_file()
    assert len(list((project / "data/raw/sample/zh/song-yan-ji").glob("*.summary.txt"))) == 39
    status = run([installed, "status", "-c", project / "longnovel.yaml"], cwd=tmp_path).stdout
    assert f"run dir: {project / 'data/processed/default'}" in status
