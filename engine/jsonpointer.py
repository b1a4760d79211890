"""JSON Pointers (RFC 6901): the addresses of form fields, schema nodes and findings.

Pointers are strings (``/items/0/name``) on the wire and token lists inside. ``~0`` and ``~1``
escape ``~`` and ``/``; array indices are decimal without leading zeros, and ``-`` names the
position after the last item (only meaningful when adding).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .errors import DeskcheckError


class PointerError(DeskcheckError):
    """A pointer that is malformed or leads nowhere in the document."""


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def split(pointer: str) -> list[str]:
    """The tokens of ``pointer``; ``""`` is the whole document."""
    if pointer == "":
        return []
    if not isinstance(pointer, str) or not pointer.startswith("/"):
        raise PointerError(f"{pointer!r} is not a JSON pointer: it must be empty or start with '/'.")
    return [unescape(token) for token in pointer[1:].split("/")]


def join(tokens: Iterable[str | int]) -> str:
    return "".join("/" + escape(str(token)) for token in tokens)


def append(pointer: str, *tokens: str | int) -> str:
    return pointer + join(tokens)


def parent(pointer: str) -> tuple[str, str]:
    """``(parent pointer, last token)``; the root has no parent."""
    tokens = split(pointer)
    if not tokens:
        raise PointerError("the root of the document has no parent.")
    return join(tokens[:-1]), tokens[-1]


def array_index(token: str, length: int, *, allow_end: bool = False) -> int:
    """The list index a token names, checked against ``length``."""
    if token == "-" and allow_end:
        return length
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PointerError(f"{token!r} is not an array index (a non-negative integer without leading zeros).")
    index = int(token)
    limit = length if allow_end else length - 1
    if index > limit:
        raise PointerError(f"index {index} is out of range: the array has {length} item(s).")
    return index


def resolve(document: Any, pointer: str | Sequence[str]) -> Any:
    """The value at ``pointer``; a ``PointerError`` says which step failed."""
    tokens = split(pointer) if isinstance(pointer, str) else list(pointer)
    node = document
    for depth, token in enumerate(tokens):
        if isinstance(node, dict):
            if token not in node:
                raise PointerError(f"{join(tokens[: depth + 1])} does not exist.")
            node = node[token]
        elif isinstance(node, list):
            node = node[array_index(token, len(node))]
        else:
            raise PointerError(f"{join(tokens[:depth])} is a value, not an object or array; it has no {token!r}.")
    return node


def exists(document: Any, pointer: str | Sequence[str]) -> bool:
    try:
        resolve(document, pointer)
    except PointerError:
        return False
    return True
