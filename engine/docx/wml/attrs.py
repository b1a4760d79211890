"""Reading WordprocessingML attribute values."""

from __future__ import annotations

from typing import Any

from .ns import W_VAL

_OFF = frozenset({"0", "false", "off", "none"})


def is_on(element: Any | None) -> bool:
    """The value of an on/off property element such as ``<w:vanish/>`` or
    ``<w:vanish w:val="false"/>``: present and not switched off."""
    if element is None:
        return False
    value = element.get(W_VAL)
    return value is None or value.lower() not in _OFF


def int_attr(element: Any | None, name: str, default: int | None = None) -> int | None:
    """An integer attribute, or ``default`` when absent or malformed."""
    if element is None:
        return default
    value = element.get(name)
    if value is None:
        return default
    try:
        return int(value.strip())
    except ValueError:
        return default


def val(element: Any | None) -> str | None:
    """``w:val`` of an element, or None."""
    return None if element is None else element.get(W_VAL)
