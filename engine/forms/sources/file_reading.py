"""Reading a schema or data file's bytes and parsing them, shared by ``sources`` (a form's own
files) and ``schema_files`` (the files a schema refers to). It sits below both so that neither
needs the other to read a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...files import read_regular_file
from ...json_text import check_json_size, check_shape

# A form edits one record; a file this large is almost certainly the wrong file.
MAX_FILE_BYTES = 32 * 1024 * 1024
SUFFIXES = {".json": "json", ".jsonc": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml"}


def _read_bytes(path: Path, what: str) -> bytes:
    kind = SUFFIXES.get(path.suffix.lower())
    wanted = f"a {kind.upper()} file" if kind else "a JSON, YAML or TOML file"
    return read_regular_file(path, MAX_FILE_BYTES, subject=f"{what} {path}", wanted=wanted)


def _decode(raw: bytes, what: str) -> str:
    from ...textdoc import decode

    return decode(raw, what)


def _parse(raw: bytes, path: Path, what: str) -> Any:
    """A schema file's data (JSON or YAML by its suffix, else by its content)."""
    from ...textdoc import detect_kind, read_document

    where = f"{what} {path}"
    text = _decode(raw, where)
    kind = SUFFIXES.get(path.suffix.lower()) or detect_kind(text)
    if kind == "json":
        check_json_size(text, where)
    value = read_document(text, kind, where)
    # A form session costs about 1 KB and 20 us per value; YAML aliases count each time they are used.
    check_shape(value, where, depth=None)
    return value
