"""Dates as a date content control shows them: an XML date formatted by a Word date picture.

A date control bound to the data store (``w:date`` in its ``w:sdtPr``) shows the bound value,
an ``xsd:date`` or ``xsd:dateTime``, formatted by its ``w:dateFormat`` picture: ``d``/``dd``
day, ``ddd``/``dddd`` weekday name, ``M``/``MM`` month, ``MMM``/``MMMM`` month name, ``yy`` or
``yyyy`` year, ``h``/``hh``/``H``/``HH`` hour, ``m``/``mm`` minute, ``s``/``ss`` second,
``AM/PM`` or ``am/pm``, text in single quotes as it is, any other character as it is. Names are
English; a caller that knows Word's own rendering of the same date (the control's stored text,
when its ``w:fullDate`` is that date) uses that instead. A value that is not a date is shown as it
is, as Word does.
"""

from __future__ import annotations

import re
from datetime import date, datetime

_VALUE = re.compile(r"\s*(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:\d{2})?\s*")
_TOKEN = re.compile(r"'[^']*'?|d{1,4}|M{1,4}|y+|H{1,2}|h{1,2}|m{1,2}|s{1,2}|AM/PM|am/pm|.", re.DOTALL)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # fmt: skip
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MAX_PICTURE_CHARS = 256


def parse_xml_date(value: str | None) -> datetime | None:
    """An ``xsd:date`` or ``xsd:dateTime`` (time zone ignored, as Word shows the wall time)."""
    match = _VALUE.fullmatch(value or "")
    if match is None:
        return None
    numbers = [int(group) if group else 0 for group in match.groups()]
    try:
        return datetime(*numbers)
    except ValueError:
        return None


def same_day(value: str | None, other: str | None) -> bool:
    """Whether two XML dates name the same day."""
    first, second = parse_xml_date(value), parse_xml_date(other)
    return first is not None and second is not None and first.date() == second.date()


def format_date(moment: datetime | date, picture: str | None) -> str:
    """``moment`` written with Word date ``picture`` (see the module docstring); the ISO date
    when there is no picture."""
    if not picture:
        return moment.strftime("%Y-%m-%d")
    if not isinstance(moment, datetime):
        moment = datetime(moment.year, moment.month, moment.day)
    out = []
    for token in _TOKEN.findall(picture[:MAX_PICTURE_CHARS]):
        out.append(_field(moment, token))
    return "".join(out)


def _field(moment: datetime, token: str) -> str:
    first = token[0]
    if first == "'":
        return token[1:-1] if len(token) > 1 and token.endswith("'") else token[1:]
    if first == "d" and len(token) >= 3:
        name = _DAYS[moment.weekday()]
        return name if len(token) == 4 else name[:3]
    if first == "M" and len(token) >= 3:
        name = _MONTHS[moment.month - 1]
        return name if len(token) == 4 else name[:3]
    if first == "y":
        return f"{moment.year % 100:02d}" if len(token) <= 2 else f"{moment.year:04d}"
    if token in ("AM/PM", "am/pm"):
        marker = "AM" if moment.hour < 12 else "PM"
        return marker if token == "AM/PM" else marker.lower()
    number = {"d": moment.day, "M": moment.month, "H": moment.hour, "h": moment.hour % 12 or 12,
              "m": moment.minute, "s": moment.second}.get(first)  # fmt: skip
    if number is None:
        return token
    return f"{number:02d}" if len(token) == 2 else str(number)
