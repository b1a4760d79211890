"""A project's deskcheck configuration file: ``.deskcheck.toml`` (tables at its top level) or
``pyproject.toml`` (the same tables under ``[tool.deskcheck]``), the nearest one from a folder
up (``.deskcheck.toml`` first in each folder; a ``pyproject.toml`` counts only when it has a
``[tool.deskcheck]`` table). ``openapi check`` reads its ``[openapi.check]`` table, file-backed
forms their ``[form]`` table.
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
    """The configuration file that applies in ``start`` (a directory): the nearest one, going up."""
    for directory in (start, *start.parents):
        for name in CONFIG_FILES:
            candidate = directory / name
            if candidate.is_file() and (name != "pyproject.toml" or _mentions_deskcheck(candidate)):
                return candidate
    return None


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
