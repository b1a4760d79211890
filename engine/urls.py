"""URLs built from values deskcheck does not control, and URLs shown to people.

- ``dot_segment``: whether a value put into a URL path would add a ``.`` or ``..`` segment.
  HTTP clients (httpx, browsers) remove such segments before sending, and many servers and
  proxies decode ``%2E`` / ``%2F`` and then remove them too, so a path parameter of ``..``
  would call another endpoint (with the API's credentials). A value is refused when any of its
  pieces between ``/`` or ``\\`` is ``.`` or ``..``, as written or percent-decoded once, and
  with a ``;parameter`` tail removed (``..;x`` is ``..`` to some servers).
- ``template_url``: a URL template's result (``x-fromUrl``, ``getItems.url``) built from its
  literal pieces and the values it interpolates, each value encoded for the part of the URL it
  stands in, so that a value never changes which path (or which query parameters) is called.
- ``redact``: a URL (or a text holding URLs) with the password of its ``user:password@`` part
  replaced, for messages and for anything stored.
- ``check_http_url``: an http(s) URL with a host and a port written as digits (``+9911`` is a
  port Python's URL parser refuses later, in the middle of a request; an empty one is the
  default port).
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote, urlsplit

from .errors import DeskcheckError, InputError

# Characters a path segment keeps as they are (besides letters, digits and -_.~).
PATH_SAFE = "!*'()"

_PIECES = re.compile(r"[/\\]")
# scheme://user:password@ -> the password is everything up to the last @ before the host.
_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^/?#@\s:]*):[^/?#\s]*@")
_PORT = re.compile(r"\d{1,5}")
_AUTHORITY = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*:)?//[^/?#]*")


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


def template_url(pieces: list[str], values: list[str]) -> str:
    """The URL of a template whose literal ``pieces`` surround ``values`` (``len(pieces) ==
    len(values) + 1``). A value in the path is one encoded path segment; in the query or the
    fragment, one encoded component. A value that starts the template, or stands in its scheme
    and host, is the template's base (an API address the context gives) and is kept as it is:
    where requests may go is checked on the whole URL before any is sent. A value in the path
    or the base that holds a ``.`` or ``..`` segment raises ``UnsafeUrlValue``."""
    url = pieces[0]
    for value, literal in zip(values, pieces[1:], strict=True):
        if "#" in url or "?" in url:
            text = quote(value, safe="")
        else:
            if dot_segment(value):
                shown = value if len(value) <= 60 else value[:57] + "..."
                raise UnsafeUrlValue(
                    f'the URL template puts {shown!r} into the path, and a value there cannot be "." or ".." '
                    "or hold such a segment (it would change which path is called)",
                    code="dotSegment",
                )
            text = value if not url or _AUTHORITY.fullmatch(url) else quote(value, safe=PATH_SAFE)
        url += text + literal
    return url


def redact(text: str) -> str:
    """``text`` with the password of every ``scheme://user:password@host`` in it shown as
    ``***`` (the user name stays: it tells which account was used)."""
    if "@" not in text:
        return text
    return _USERINFO.sub(lambda m: m.group("head") + ":***@", text)


def check_http_url(
    url: str, what: str, *, given: str | None = None, example: str = "http://127.0.0.1:8642/api"
) -> None:
    """Raise ``InputError`` naming ``what`` unless ``url`` is an http(s) URL with a host and,
    if it has a port, one written as 1 to 5 digits up to 65535. Messages quote ``given`` (what
    the user wrote, when ``url`` was made from it) and show ``example``."""
    shown = redact(url if given is None else given)
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
