"""The ARGS forms of the contract: inline JSON, ``@path.json`` or ``-`` for stdin.

Both ``@file`` and stdin are read as bytes, at most ``MAX_ARGS_BYTES`` of them, and must be UTF-8;
``@file`` must name a regular file (see ``engine.files.read_regular_file``). The text is parsed by
``engine.json_text.parse_json``, which bounds nesting and numbers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from .errors import UsageError

# A tool call's arguments are small (a record, a batch of 200 operations: well under 1 MiB); a
# bigger input is almost certainly the wrong file, and parsed JSON takes up to 25 times its size
# in memory (8 MiB of "[]," is 200 MB of lists).
MAX_ARGS_BYTES = 8 * 1024 * 1024


def read_args(source: str | None, stdin: TextIO) -> dict[str, Any]:
    """The arguments object given as ``source``; ``None`` or an empty string means ``{}``."""
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.files import describe_size, read_regular_file

    if source is None or source.strip() == "":
        return {}
    too_large = f"is larger than {describe_size(MAX_ARGS_BYTES)}, the most deskcheck reads for a tool's arguments"
    if source == "-":
        origin = "ARGS from stdin"
        binary = getattr(stdin, "buffer", None)
        if binary is None:  # a text stream (a test's StringIO): already decoded
            text = stdin.read(MAX_ARGS_BYTES + 1)
        else:
            data = binary.read(MAX_ARGS_BYTES + 1)
            if len(data) > MAX_ARGS_BYTES:
                raise UsageError(f"{origin} {too_large}.")
            text = decode_utf8(data, origin)
    elif source.startswith("@"):
        origin = f"ARGS file {source[1:]}"
        try:
            data = read_regular_file(Path(source[1:]), MAX_ARGS_BYTES, subject=origin, wanted="a JSON file")
        except InputError as exc:
            raise UsageError(exc.message) from None
        text = decode_utf8(data, origin)
    else:
        text, origin = source, "ARGS"
    if len(text) > MAX_ARGS_BYTES:
        raise UsageError(f"{origin} {too_large}.")
    return parse_args_text(text, origin)


def decode_utf8(data: bytes, origin: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{origin} is not UTF-8 text (byte {exc.start:,}); give UTF-8 JSON.") from None


def parse_args_text(text: str, origin: str = "ARGS") -> dict[str, Any]:
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.json_text import parse_json

    if text.strip() == "":
        return {}
    try:
        value = parse_json(text, origin)
    except InputError as exc:
        hint = ' Give one JSON object, for example \'{"blockId": "1A2B3C4D"}\'.' if exc.code == "badJson" else ""
        raise UsageError(exc.message + hint) from None
    if not isinstance(value, dict):
        raise UsageError(f"{origin} must be a JSON object (got {type(value).__name__}); wrap arguments in {{...}}.")
    return value
