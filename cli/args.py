"""The ARGS forms of the contract: inline JSON, ``@path.json`` or ``-`` for stdin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from .errors import UsageError

# A tool call's arguments are small; a bigger file is almost certainly the wrong file.
MAX_ARGS_BYTES = 32 * 1024 * 1024


def read_args(source: str | None, stdin: TextIO) -> dict[str, Any]:
    """The arguments object given as ``source``; ``None`` or an empty string means ``{}``."""
    if source is None or source.strip() == "":
        return {}
    if source == "-":
        text, origin = stdin.read(MAX_ARGS_BYTES + 1), "ARGS from stdin"
    elif source.startswith("@"):
        path = Path(source[1:])
        origin = f"ARGS file {path}"
        try:
            if path.stat().st_size > MAX_ARGS_BYTES:
                raise UsageError(f"{origin} is larger than {MAX_ARGS_BYTES // (1024 * 1024)} MiB.")
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise UsageError(f"{origin} does not exist.") from None
        except IsADirectoryError:
            raise UsageError(f"{origin} is a directory; give a JSON file.") from None
        except UnicodeDecodeError:
            raise UsageError(f"{origin} is not UTF-8 text.") from None
        except OSError as exc:
            raise UsageError(f"{origin} cannot be read: {exc.strerror}.") from None
    else:
        text, origin = source, "ARGS"
    if len(text) > MAX_ARGS_BYTES:
        raise UsageError(f"{origin} is larger than {MAX_ARGS_BYTES // (1024 * 1024)} MiB.")
    return parse_args_text(text, origin)


def parse_args_text(text: str, origin: str = "ARGS") -> dict[str, Any]:
    if text.strip() == "":
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{origin} is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); "
            'give one JSON object, for example \'{"blockId": "1A2B3C4D"}\'.'
        ) from None
    if not isinstance(value, dict):
        raise UsageError(f"{origin} must be a JSON object (got {type(value).__name__}); wrap arguments in {{...}}.")
    return value
