"""URLs built from values deskcheck does not control, and URLs shown to people.

- ``dot_segment``: whether a value put into a URL path would add a ``.`` or ``..`` segment.
  HTTP clients (httpx, browsers) remove such segments before sending, and many servers and
  proxies decode ``%2E`` / ``%2F`` and then remove them too, so a path parameter of ``..``
  would call another endpoint (with the API's credentials). A value is refused when any of its
  pieces between ``/`` or ``\\`` is ``.`` or ``..``, as written or percent-decoded once, and
  with a ``;parameter`` tail removed (``..;x`` is ``..`` to some servers).
- ``path_separator``: the ``/`` or ``\\`` a value put into a URL path would carry, in any
  spelling a server may turn into one before it routes the request: as written, percent-encoded
  (once or several times, ``%2F``, ``%252F``, ``%u2215``, overlong UTF-8 such as ``%C0%AF``), in
  a compatibility form that Unicode normalisation (NFKC) maps to it (full-width ``／``, ``＼``,
  ``℅``), or as one of the look-alike symbols that Windows "best fit" conversion and Unicode's
  confusables list map to it (``∕`` division slash, ``⁄`` fraction slash, ``∖`` set minus...).
  Letters that merely resemble a slash (Katakana ``ノ``) are not refused: no server maps them.
- ``template_url``: a URL template's result (``x-fromUrl``, ``getItems.url``) built from its
  literal pieces and the values it interpolates, each value encoded for the part of the URL it
  stands in, so that a value never changes which path (or which query parameters) is called.
- ``redact``: a URL (or a text holding URLs) with the password of its ``user:password@`` part
  replaced, for messages and for anything stored; ``shown_url``: a URL as messages show it.
- ``check_http_url``: an http(s) URL with a host and a port written as digits (``+9911`` is a
  port Python's URL parser refuses later, in the middle of a request; an empty one is the
  default port).
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote, unquote, unquote_to_bytes, urlsplit

from .errors import DeskcheckError, InputError

# Characters a path segment keeps as they are (besides letters, digits and -_.~).
PATH_SAFE = "!*'()"

_PIECES = re.compile(r"[/\\]")
# scheme://user:password@ -> the password is everything up to the last @ before the host.
_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^/?#@\s:]*):[^/?#\s]*@")
_PORT = re.compile(r"\d{1,5}")
_AUTHORITY = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*:)?//[^/?#]*")
# Symbols (not letters) that look like a separator and that servers or their platforms are known
# to map to one: Windows' best-fit tables, and the symbols Unicode's confusables list gives as
# "/" or "\\" that NFKC leaves alone.
_LOOKALIKES = {
    **dict.fromkeys("\u2215\u2044\u2041\u1735\u2571\u27cb\u29f8\U0001d23a", "/"),
    **dict.fromkeys("\u2216\u27cd\u29f5\u29f9\U0001d20f\U0001d23b", "\\"),
}
# Overlong UTF-8 spellings of "/" and "\\" that old decoders (and some still) accept.
_OVERLONG = {b"\xc0\xaf": "/", b"\xe0\x80\xaf": "/", b"\xc1\x9c": "\\", b"\xe0\x81\x9c": "\\"}
_PERCENT_U = re.compile(r"%u([0-9a-fA-F]{4})")
# Rounds of percent-decoding looked through (%25252F is three): more than any server applies.
_DECODE_ROUNDS = 4


class UnsafeUrlValue(DeskcheckError):
    """A value would change which path a URL calls."""


def dot_segment(text: str) -> bool:
    """Whether ``text`` (a value about to become part of a URL path) holds a ``.`` or ``..``
    segment, as written or once percent-decoded."""
    for candidate in {text, unquote(text)}:
        for piece in _PIECES.split(candidate):
            if piece.split(";", 1)[0] in (".", ".."):
                return True
    return False


def path_separator(text: str) -> str | None:
    """``/`` or ``\\`` when ``text`` (a value about to become one path segment) holds one in any
    spelling a server may decode or normalise into it (see the module docstring), else None."""
    for _ in range(_DECODE_ROUNDS):
        for form in (text, unicodedata.normalize("NFKC", text)):
            for char in form:
                if char in "/\\":
                    return char
                if char in _LOOKALIKES:
                    return _LOOKALIKES[char]
        if "%" not in text:
            return None
        raw = unquote_to_bytes(_PERCENT_U.sub(lambda m: chr(int(m.group(1), 16)), text))
        for spelling, char in _OVERLONG.items():
            if spelling in raw:
                return char
        decoded = raw.decode("utf-8", errors="replace")
        if decoded == text:
            return None
        text = decoded
    return None


def template_url(pieces: list[str], values: list[str]) -> str:
    """The URL of a template whose literal ``pieces`` surround ``values`` (``len(pieces) ==
    len(values) + 1``). A value in the path is one encoded path segment; in the query or the
    fragment, one encoded component. A value that starts the template, or stands in its scheme
    and host, is the template's base (an API address the context gives) and is kept as it is:
    where requests may go is checked on the whole URL before any is sent. A value in the path
    or the base that holds a ``.`` or ``..`` segment raises ``UnsafeUrlValue``, and so does a
    value in the path that holds a ``/`` or ``\\`` in any spelling (``path_separator``)."""
    url = pieces[0]
    for value, literal in zip(values, pieces[1:], strict=True):
        shown = value if len(value) <= 60 else value[:57] + "..."
        if "#" in url or "?" in url:
            text = quote(value, safe="")
        elif not url or _AUTHORITY.fullmatch(url):
            _refuse_dot_segment(value, shown)
            text = value
        else:
            _refuse_dot_segment(value, shown)
            separator = path_separator(value)
            if separator is not None:
                raise UnsafeUrlValue(
                    f"the URL template puts {shown!r} into the path, and a value there cannot hold {separator!r} "
                    "(as written, encoded, or as a character servers read as one): it would change which path is "
                    "called",
                    code="pathSeparator",
                )
            text = quote(value, safe=PATH_SAFE)
        url += text + literal
    return url


def _refuse_dot_segment(value: str, shown: str) -> None:
    if dot_segment(value):
        raise UnsafeUrlValue(
            f'the URL template puts {shown!r} into the path, and a value there cannot be "." or ".." '
            "or hold such a segment (it would change which path is called)",
            code="dotSegment",
        )


def redact(text: str) -> str:
    """``text`` with the password of every ``scheme://user:password@host`` in it shown as
    ``***`` (the user name stays: it tells which account was used)."""
    if "@" not in text:
        return text
    return _USERINFO.sub(lambda m: m.group("head") + ":***@", text)


def shown_url(url: str) -> str:
    """``url`` as messages show it: without its query (which may carry values a user typed) and
    without the password of a ``user:password@`` part."""
    return redact(url.split("?", 1)[0])


def check_http_url(
    url: str, what: str, *, given: str | None = None, example: str = "http://127.0.0.1:8642/api"
) -> None:
    """Raise ``InputError`` naming ``what`` unless ``url`` is an http(s) URL with a host and,
    if it has a port, one written as 1 to 5 digits up to 65535. Messages quote ``given`` (what
    the user wrote, when ``url`` was made from it) and show ``example``."""
    shown = redact(url if given is None else given)
    from .json_text import lone_surrogate

    if lone_surrogate(url):
        raise InputError(f"{what} {shown!r} is not UTF-8 text (it holds {lone_surrogate(url)}); give the URL as text.")
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # an unbalanced IPv6 bracket
        raise InputError(f"{what} {shown!r} is not a URL ({exc}).") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise InputError(f"{what} must be an http(s) URL with a host, not {shown!r}.")
    hostport = parts.netloc.rpartition("@")[2]
    port: str | None = None
    if hostport.startswith("["):
        end = hostport.find("]")
        rest = hostport[end + 1 :] if end >= 0 else ""
        if end < 0 or (rest and not rest.startswith(":")):
            raise InputError(f"{what} {shown!r} has a malformed IPv6 address; write it as http://[::1]:8080/.")
        host, port = hostport[: end + 1], rest[1:] if rest else None
    else:
        host, sep, after = hostport.partition(":")
        port = after if sep else None
    if not host.strip("[]"):
        raise InputError(f"{what} {shown!r} has no host name.")
    if port and not (_PORT.fullmatch(port) and 0 < int(port) <= 65535):
        raise InputError(
            f"{what} {shown!r} has the port {port!r}: a port is written as digits only, from 1 to 65535 "
            f"(for example {example})."
        )


def password_of(url: str | None) -> str | None:
    """The password a store URL carries (``user:password@``, or ``?password=``), to redact it."""
    if not url:
        return None
    from urllib.parse import parse_qs, unquote, urlsplit

    try:
        parts = urlsplit(url)
        secret = parts.password or (parse_qs(parts.query).get("password") or [None])[0]
    except ValueError:
        return None
    return unquote(secret) if secret else None
