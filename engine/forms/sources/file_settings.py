"""Settings of file-backed forms from a project's configuration file (``config_file``)::

    # .deskcheck.toml (or [tool.deskcheck.form] in pyproject.toml)
    [form]
    yaml-version = "1.1"    # read YAML data files as YAML 1.1, as Ansible does

The file that applies to a data file is the nearest one from the data file's folder up to the
repository root (``config_file.search_path``). An
option given on the command line (``--yaml-version``) wins over the file. An unknown key or
value is refused, naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ...config_file import deskcheck_tables, find_config
from ...errors import InputError
from ...textdoc import YAML_VERSIONS

_KEYS = ("yaml-version",)


class FormSettings(NamedTuple):
    yaml_version: str | None = None
    path: Path | None = None  # the file they came from


def form_settings(data_path: Path) -> FormSettings:
    """The settings that apply to ``data_path`` (none when no configuration file does)."""
    folder = Path(data_path).absolute().parent
    config = find_config(folder) if folder.is_dir() else None
    if config is None:
        return FormSettings()
    tables, prefix = deskcheck_tables(config)
    section = tables.get("form")
    if section is None:
        return FormSettings(path=config)
    where = f"[{prefix}form] in {config}"
    if not isinstance(section, dict):
        raise InputError(f"{where} must be a table.")
    unknown = sorted(set(section) - set(_KEYS))
    if unknown:
        raise InputError(f"{where} has unknown key(s) {', '.join(unknown)}; it takes {', '.join(_KEYS)}.")
    version = section.get("yaml-version")
    if version is not None and version not in YAML_VERSIONS:
        raise InputError(f'{where}: yaml-version must be "1.1" or "1.2" (a string), not {version!r}.')
    return FormSettings(version, config)
