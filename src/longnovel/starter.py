"""``longnovel init``: a starter project copied from the embedded default."""

from __future__ import annotations

import shutil
from pathlib import Path

from longnovel.config import embedded_config, embedded_project
from longnovel.errors import ConfigError

HEADER = """\
# A longnovel project, written by `longnovel init`. Relative paths below resolve against this
# file's folder, so `longnovel build -c path/to/longnovel.yaml` works from anywhere.
# Add your own novels under corpus: (see README.md); every key is described in the docs'
# config reference.
"""


def project_config_text() -> str:
    """The embedded default's settings under a project's own header comment."""
    body = [line for line in embedded_config().read_text(encoding="utf-8").splitlines()
            if not line.startswith("#")]
    return HEADER + "\n".join(body) + "\n"


def init_project(folder: Path) -> int:
    """Copy the embedded project (config, sample corpus, README) into ``folder``, which must
    be absent or empty; return the number of files written."""
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ConfigError(f"{folder}: already exists and is not empty; pick a new folder")
    source = embedded_project()
    tmp = folder.with_name(f".{folder.name}.init-tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(source, tmp, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp / "longnovel.yaml").write_text(project_config_text(), encoding="utf-8")
    if folder.exists():
        folder.rmdir()
    tmp.rename(folder)  # all or nothing: a failed copy leaves no half-made project
    return sum(1 for p in folder.rglob("*") if p.is_file())
