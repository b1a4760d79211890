"""Reading the words of a REPL line: pure functions over strings, shared by the commands and the
completion logic.

A word is either a run of non-blank characters or a double-quoted JSON string (``"/first name"``,
``"a => b"``), so a path or a text with blanks can be given as one word. Values follow one rule
(``value``): text that looks like JSON must be valid JSON; anything else is a string.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import UsageError

# A double-quoted JSON string (possibly unterminated while it is being typed) or a bare word.
WORD = re.compile(r'"(?:[^"\\]|\\.)*"?|\S+')
ARROW = "=>"


def words(text: str) -> list[str]:
    """The words of ``text`` as typed (quotes kept)."""
    return WORD.findall(text)


def unquote(word: str) -> str:
    """A word's text: a complete JSON string is decoded, anything else is taken as it is."""
    if len(word) >= 2 and word.startswith('"') and word.endswith('"'):
        try:
            decoded = json.loads(word)
        except json.JSONDecodeError:
            return word
        if isinstance(decoded, str):
            return decoded
    return word


def quote_if_needed(text: str) -> str:
    """``text`` as one word: quoted as a JSON string when it has blanks or starts with a quote."""
    if text and not any(c.isspace() for c in text) and not text.startswith('"'):
        return text
    return json.dumps(text, ensure_ascii=False)


def split_first(text: str) -> tuple[str, str]:
    """``(first word decoded, the rest with its leading blanks removed)``; ``("", "")`` for blank."""
    stripped = text.lstrip()
    match = WORD.match(stripped)
    if match is None:
        return "", ""
    return unquote(match.group(0)), stripped[match.end() :].lstrip()


def take_words(text: str, count: int, usage: str) -> tuple[list[str], str]:
    """``count`` leading words (decoded) and the rest; a usage error names ``usage`` when a word
    is missing."""
    found: list[str] = []
    rest = text
    for _ in range(count):
        word, rest = split_first(rest)
        if not word:
            raise UsageError(f"usage: {usage}")
        found.append(word)
    return found, rest


def text_arg(text: str) -> str:
    """A free text argument: the rest of the line, or one JSON string when it is quoted as a
    whole (to keep blanks at the ends, or to give an empty text as ``""``)."""
    return unquote(text.strip())


def split_arrow(text: str, usage: str) -> tuple[str, str]:
    """``LEFT => RIGHT``. LEFT may be a JSON string (to contain ``=>`` itself); both sides follow
    ``text_arg``. A usage error when there is no arrow."""
    stripped = text.strip()
    if stripped.startswith('"'):
        try:
            left, end = json.JSONDecoder().raw_decode(stripped)
        except json.JSONDecodeError:
            left, end = None, 0
        if isinstance(left, str):
            rest = stripped[end:].lstrip()
            if rest.startswith(ARROW):
                return left, text_arg(rest[len(ARROW) :])
    left_text, arrow, right_text = stripped.partition(ARROW)
    if not arrow:
        raise UsageError(f"usage: {usage} (the two texts are separated by {ARROW})")
    return text_arg(left_text), text_arg(right_text)


def value(text: str) -> Any:
    """A field value: JSON when the text is JSON (``12``, ``true``, ``null``, ``["a"]``,
    ``"12"``); text that starts like a JSON object, array or string must be valid JSON; any
    other text is taken as a string (``Ada Lovelace``)."""
    stripped = text.strip()
    if not stripped:
        raise UsageError('a value is missing: give JSON (12, true, null, ["a"], {"k": 1}) or a plain word.')
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.json_text import parse_json

    try:
        return parse_json(stripped, "the value")
    except InputError as exc:
        if exc.code != "badJson":
            raise UsageError(exc.message) from None
        if stripped[0] in '{["':
            raise UsageError(f"{exc.message[:-1]}; fix it, or give a plain word.") from None
    return stripped


def json_object(text: str, what: str) -> dict[str, Any]:
    """A JSON object argument (``{}`` when blank)."""
    stripped = text.strip()
    if not stripped:
        return {}
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.json_text import parse_json

    try:
        parsed = parse_json(stripped, what)
    except InputError as exc:
        raise UsageError(exc.message) from None
    if not isinstance(parsed, dict):
        raise UsageError(f"{what} must be a JSON object, for example {{}}.")
    return parsed


def integer(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise UsageError(f"{what} must be a whole number, not {word!r}.") from None
