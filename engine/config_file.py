"""A project's deskcheck configuration file: ``.deskcheck.toml`` (tables at its top level) or
``pyproject.toml`` (the same tables under ``[tool.deskcheck]``), the nearest one from a folder
up to the repository root (``.deskcheck.toml`` first in each folder; a ``pyproject.toml`` counts
only when it has a ``[tool.deskcheck]`` table). ``openapi check`` reads its ``[openapi.check]``
table, file-backed forms their ``[form]`` table.

The search stops at the repository root, the nearest folder holding ``.git`` (a folder, or a file
in a worktree or submodule); outside a repository only the starting folder is searched. A file
above the repository is not the project's: on a shared machine or a CI runner anyone who can
write to ``/tmp`` or the workspace's parent could otherwise change what deskcheck does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import InputError
from .files import read_regular_file

CONFIG_FILES = (".deskcheck.toml", "pyproject.toml")
# A configuration names a few settings; a pyproject.toml holds a project's whole setup.
MAX_CONFIG_BYTES = 4 * 1024 * 1024


def find_config(start: Path) -> Path | None:
    """The configuration file that applies in ``start`` (a directory): the nearest one, going up
    to the repository root (``search_path``)."""
    for directory in search_path(start):
        for name in CONFIG_FILES:
            candidate = directory / name
            if candidate.is_file() and (name != "pyproject.toml" or _mentions_deskcheck(candidate)):
                return candidate
    return None


def search_path(start: Path) -> list[Path]:
    """The folders searched from ``start``: up to and including the nearest one that holds
    ``.git``; ``start`` alone when none does."""
    directories = []
    for directory in (start, *start.parents):
        directories.append(directory)
        if (directory / ".git").exists():
            return directories
    return [start]


def deskcheck_tables(path: Path) -> tuple[dict[str, Any], str]:
    """The deskcheck settings of ``path`` and the prefix their tables are named with in it
    (``tool.deskcheck.`` in a pyproject.toml); an ``InputError`` names what is wrong."""
    import tomllib

    raw = read_regular_file(path, MAX_CONFIG_BYTES, subject=f"the configuration file {path}", wanted="a TOML file")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"the configuration file {path} is not valid TOML: {exc}.") from None
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        section = tool.get("deskcheck", {}) if isinstance(tool, dict) else {}
        return (section if isinstance(section, dict) else {}), "tool.deskcheck."
    return data, ""


def _mentions_deskcheck(path: Path) -> bool:
    try:
        text = read_regular_file(path, MAX_CONFIG_BYTES, subject=str(path), wanted="a TOML file").decode("utf-8")
    except (InputError, UnicodeDecodeError):
        return False
    return "tool.deskcheck" in text
