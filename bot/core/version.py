"""boardhost's version: the one in ``pyproject.toml`` (``[project] version``), which the changelog names too."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def version() -> str:
    """The version of the code running: a source checkout's ``pyproject.toml`` first (an older install of the
    package may sit beside it), else the installed package's metadata."""
    try:
        found = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
        if isinstance(found, str):
            return found
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        pass
    try:
        return metadata.version("boardhost")
    except metadata.PackageNotFoundError:
        return "unknown"
