"""The ``format`` values a form checks, with our own small checkers, and how a message names them.

Checked: ``date``, ``date-time``, ``time``, ``email``, ``uri``, ``uuid``, ``ipv4``, ``ipv6``,
``hostname``, ``regex``. Our checkers rather than a validator's built-in ones, so that the answer
does not depend on which validator (or which of its optional extras) is installed. Every other
format a schema names is an annotation and is not checked (``UNCHECKED`` lists the ones validators
know, so they can be told to accept anything).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from functools import cache

# The expressions are compiled on first use: a form whose schema has no such format never pays.
_PATTERNS = {
    "date": (r"^\d{4}-\d{2}-\d{2}$", 0),
    "time": (r"^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$", re.IGNORECASE),
    "date-time": (r"^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))$", re.IGNORECASE),
    "email": (r"^[^@\s]+@[^@\s]+\.[^@\s]+$", 0),
    "uuid": (r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE),
    "hostname": (
        r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$",
        re.IGNORECASE,
    ),
    "scheme": (r"^[a-zA-Z][a-zA-Z0-9+.-]*$", 0),
}


@cache
def _pattern(name: str) -> re.Pattern[str]:
    source, flags = _PATTERNS[name]
    return re.compile(source, flags)


FORMAT_HINTS = {
    "date": "a date such as 2025-06-15",
    "date-time": "a date and time with an offset, such as 2025-06-15T14:30:00Z",
    "time": "a time with an offset, such as 14:30:00+00:00",
    "email": "an email address",
    "uri": "an absolute URI such as https://example.org/page",
    "uuid": "a UUID",
    "ipv4": "an IPv4 address",
    "ipv6": "an IPv6 address",
    "hostname": "a host name",
    "regex": "a regular expression",
}

# Formats JSON Schema validators know besides ours: accepted as they are, as annotations.
UNCHECKED = (
    "duration",
    "idn-email",
    "idn-hostname",
    "iri",
    "iri-reference",
    "uri-reference",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
)


def _check_date(value: str) -> bool:
    if not _pattern("date").match(value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _check_time(value: str) -> bool:
    match = _pattern("time").match(value)
    if not match:
        return False
    hour, minute, second = int(match.group(1)), int(match.group(2)), int(match.group(3))
    return hour < 24 and minute < 60 and second <= 60


def _check_date_time(value: str) -> bool:
    match = _pattern("date-time").match(value)
    return bool(match) and _check_date(match.group(1)) and _check_time(match.group(2))


def _check_uri(value: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
    except ValueError:  # an unbalanced IPv6 bracket, for one
        return False
    return bool(parts.scheme) and _pattern("scheme").match(parts.scheme) is not None and " " not in value


def _check_ip(version: int) -> Callable[[str], bool]:
    def check(value: str) -> bool:
        import ipaddress

        try:
            return ipaddress.ip_address(value).version == version
        except ValueError:
            return False

    return check


def _check_regex(value: str) -> bool:
    try:
        re.compile(value)
    except re.error:
        return False
    return True


CHECKERS: dict[str, Callable[[str], bool]] = {
    "date": _check_date,
    "date-time": _check_date_time,
    "time": _check_time,
    "email": lambda v: bool(_pattern("email").match(v)),
    "uri": _check_uri,
    "uuid": lambda v: bool(_pattern("uuid").match(v)),
    "ipv4": _check_ip(4),
    "ipv6": _check_ip(6),
    "hostname": lambda v: bool(_pattern("hostname").match(v)),
    "regex": _check_regex,
}


def format_functions() -> dict[str, Callable[[str], bool]]:
    """``{format: check}`` for a validator: ours, and the others it knows accepting anything."""
    accept: Callable[[str], bool] = lambda _value: True  # noqa: E731
    return {**dict.fromkeys(UNCHECKED, accept), **CHECKERS}
