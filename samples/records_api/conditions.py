"""HTTP conditional requests (RFC 9110, section 13): entity tags, dates, and the checks the
endpoints make with them.

Reads honour ``If-None-Match`` (304 when the client's copy is current). Writes honour
``If-Match`` (strong comparison) and, when no ``If-Match`` is sent, ``If-Unmodified-Since``;
a failed precondition answers 412 with a message saying to reload.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime

from .messages import ApiError, Request, Response, json_response, not_modified


def make_etag(*parts: str) -> str:
    """A strong entity tag derived from ``parts``."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:20]
    return f'"{digest}"'


def body_etag(body: bytes) -> str:
    return f'"{hashlib.sha256(body).hexdigest()[:20]}"'


def http_date(moment: datetime) -> str:
    return format_datetime(moment.astimezone(UTC).replace(microsecond=0), usegmt=True)


def parse_http_date(value: str) -> datetime | None:
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if parsed is None:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def parse_etags(header: str) -> list[str]:
    """The entity tags of an If-Match / If-None-Match header, ``["*"]`` for a star. A bare token
    without quotes (a common client mistake) is accepted as if it were quoted."""
    if header.strip() == "*":
        return ["*"]
    tags = []
    for raw in _split_tags(header):
        tag = raw.strip()
        if not tag:
            continue
        weak = tag.startswith("W/")
        opaque = tag[2:] if weak else tag
        if not (opaque.startswith('"') and opaque.endswith('"') and len(opaque) >= 2):
            opaque = f'"{opaque}"'
        tags.append(("W/" if weak else "") + opaque)
    return tags


def _split_tags(header: str) -> list[str]:
    # Commas may appear inside quoted tags, so split only outside quotes.
    parts, current, quoted = [], [], False
    for char in header:
        if char == '"':
            quoted = not quoted
        if char == "," and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def _opaque(tag: str) -> str:
    return tag[2:] if tag.startswith("W/") else tag


def none_match(request: Request, current_etag: str) -> bool:
    """True when the client's If-None-Match already names the current representation (weak
    comparison, as RFC 9110 requires for this header): the answer is then 304."""
    header = request.header("If-None-Match")
    if header is None:
        return False
    tags = parse_etags(header)
    return tags == ["*"] or any(_opaque(tag) == _opaque(current_etag) for tag in tags)


def check_write_preconditions(request: Request, *, etag: str | None, last_modified: datetime | None) -> None:
    """Raise 412 when the client's copy is not the current one. ``etag`` and ``last_modified``
    are None when the target does not exist."""
    if_match = request.header("If-Match")
    if if_match is not None:
        tags = parse_etags(if_match)
        if etag is None:
            raise ApiError(412, "This record does not exist any more, so the If-Match condition cannot hold.")
        if tags == ["*"]:
            return
        # Strong comparison: a weak tag never matches.
        if not any(not tag.startswith("W/") and tag == etag for tag in tags):
            raise ApiError(
                412,
                f"This record changed since you read it (your version {if_match}, current {etag}). "
                "Read it again, re-apply your changes, and save with the new ETag.",
                current_etag=etag,
            )
        return
    since_header = request.header("If-Unmodified-Since")
    if since_header is None or last_modified is None:
        return
    since = parse_http_date(since_header)
    if since is None:
        return  # RFC 9110: an invalid date is ignored
    if last_modified.replace(microsecond=0) > since:
        raise ApiError(
            412,
            f"This record was modified at {http_date(last_modified)}, after {since_header}. "
            "Read it again, re-apply your changes, and save with the new Last-Modified date.",
        )


def if_modified_since_hit(request: Request, last_modified: datetime) -> bool:
    """True when a client without If-None-Match already has this version by date (304)."""
    if request.header("If-None-Match") is not None:
        return False  # RFC 9110: If-None-Match takes precedence
    header = request.header("If-Modified-Since")
    since = parse_http_date(header) if header else None
    return since is not None and last_modified.replace(microsecond=0) <= since


def cacheable_json(request: Request, value: object, *, headers: dict[str, str] | None = None) -> Response:
    """A JSON answer with an ETag over its bytes; 304 when the client's If-None-Match names it."""
    response = json_response(value, headers={"Cache-Control": "no-cache", **(headers or {})})
    etag = body_etag(response.body)
    if none_match(request, etag):
        return not_modified(etag, {"Cache-Control": "no-cache"})
    response.headers["ETag"] = etag
    return response
