"""Reading an OpenAPI document: a file or the one URL the user gave, JSON or YAML.

The result keeps the text's positions (``PositionIndex``) so findings can name a line and column.
Documents are untrusted: sizes are capped, YAML is read with the safe loader (no Python objects)
with a cap on alias expansion, and a URL is fetched once, without following redirects to another
place, with a timeout.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...files import read_regular_file
from ...json_text import check_json_size, check_shape
from ...urls import check_http_url, redact
from .document_error import DocumentError
from .positions import PositionIndex

# The largest published descriptions fit: GitHub's dereferenced (73 MB) and GitHub Enterprise
# Cloud's (78 MB), each one file with every $ref inlined. What a document of this size costs stays
# linear in its size (bench/openapi_limits.py: about 8 MiB and 0.06 s of CPU per MB of JSON).
MAX_DOCUMENT_BYTES = 100 * 1024 * 1024
# Values (objects, arrays, strings, numbers) in one document, YAML aliases counted each time they
# are reached (the "billion laughs" document). GitHub Enterprise Cloud's dereferenced description
# has 1.3 million; the bound keeps a document of tiny values (4 MB of "0,") from costing more.
MAX_YAML_NODES = 2_000_000


@dataclass
class Source:
    """One document as read: its data, its text and where positions are."""

    location: str  # as the user gave it (a path or a URL)
    data: Any
    text: str
    format: str  # "json" or "yaml"
    url: str | None = None  # set when fetched over HTTP
    positions: PositionIndex = field(repr=False, default_factory=PositionIndex)
    values: int = 0  # how many values it holds (objects, arrays, strings, numbers)

    @property
    def display_name(self) -> str:
        return self.location


def is_url(location: str) -> bool:
    return location.startswith(("http://", "https://"))


def read_source(
    location: str,
    *,
    timeout: float = 30.0,
    headers: dict[str, str] | None = None,
    max_bytes: int = MAX_DOCUMENT_BYTES,
    max_values: int = MAX_YAML_NODES,
) -> Source:
    """Read and parse ``location``; an ``InputError`` says why it cannot be read (more than
    ``max_bytes`` of text or ``max_values`` values among the reasons)."""
    if is_url(location):
        check_http_url(location, "the OpenAPI document's URL")
        text, content_type = _fetch(location, timeout=timeout, headers=headers or {}, max_bytes=max_bytes)
        kind = _format_for(location, content_type, text)
        # Shown in messages and reports: without the password of a user:password@ URL.
        return parse_text(text, location=redact(location), format=kind, url=location, max_values=max_values)
    subject, wanted = f"the OpenAPI document {location}", "the OpenAPI document itself (JSON or YAML)"
    data = read_regular_file(Path(location), max_bytes, subject=subject, wanted=wanted)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"the OpenAPI document {location} is not UTF-8 text (byte {exc.start}).") from None
    return parse_text(text, location=location, format=_format_for(location, None, text), max_values=max_values)


def parse_text(
    text: str,
    *,
    location: str = "<document>",
    format: str = "json",
    url: str | None = None,
    max_values: int = MAX_YAML_NODES,
) -> Source:
    """Parse ``text`` as JSON or YAML into a ``Source`` of at most ``max_values`` values."""
    if format == "json":
        from .unrepresentable import Unrepresentable, load_json

        check_json_size(text, location, max_values)
        try:
            data = load_json(text)
        except Unrepresentable as exc:
            raise _unrepresentable(exc, text, location) from None
        except json.JSONDecodeError as exc:
            raise DocumentError(
                f"{location} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.",
                line=exc.lineno,
                column=exc.colno,
            ) from None
        except RecursionError:
            raise InputError(f"{location} is nested too deeply to read.") from None
        values = check_shape(data, location, depth=None, values=max_values)  # the bound YAML documents get
        positions = PositionIndex.for_json(text)
    else:
        from .yaml_source import load_yaml

        data, positions, values = load_yaml(text, location, max_nodes=max_values)
    if not isinstance(data, dict):
        raise InputError(f"{location} is not an OpenAPI document: its top level is not an object.")
    return Source(location, data, text, format, url, positions, values)


def _unrepresentable(exc: Any, text: str, location: str) -> DocumentError:
    """A JSON document refused for a value no output can carry, at the value's line and column."""
    from .positions import LineIndex
    from .unrepresentable import literal_offset

    position = None
    if exc.pointer is not None:
        position = PositionIndex.for_json(text).locate(exc.pointer)
    elif exc.literal is not None:
        offset = literal_offset(text, exc.literal)
        position = LineIndex(text).position(offset) if offset is not None else None
    line, column = position if position is not None else (None, None)
    return DocumentError(exc.message(location, line, column), line=line, column=column)


def _format_for(location: str, content_type: str | None, text: str) -> str:
    lowered = location.lower().split("?", 1)[0]
    if lowered.endswith((".yaml", ".yml")):
        return "yaml"
    if lowered.endswith(".json"):
        return "json"
    if content_type and "json" in content_type:
        return "json"
    if content_type and "yaml" in content_type:
        return "yaml"
    return "json" if text.lstrip()[:1] in ("{", "[") else "yaml"


def _fetch(given: str, *, timeout: float, headers: dict[str, str], max_bytes: int) -> tuple[str, str | None]:
    import httpx

    from ...http.deadline import deadline_client, total_deadline
    from ...http.responses import ACCEPT_ENCODING, BoundedBody, ResponseError

    url = redact(given)  # as messages show it
    request_headers = {
        "accept": "application/json, application/yaml;q=0.9, */*;q=0.5",
        "accept-encoding": ACCEPT_ENCODING,
        **headers,
    }
    try:
        with (
            total_deadline(timeout),
            deadline_client(timeout) as client,
            client.stream("GET", given, headers=request_headers) as response,
        ):
            if response.is_redirect:
                target = redact(response.headers.get("location", "?"))
                raise InputError(
                    f"fetching the OpenAPI document {url} was redirected to {target}; deskcheck does not follow "
                    "redirects. Give the final URL."
                )
            if not response.is_success:
                raise InputError(f"fetching the OpenAPI document {url} failed: HTTP {response.status_code}.")
            # Decoded here, within the limit: a small compressed answer cannot unpack into gigabytes.
            body = BoundedBody(response.headers.get("content-encoding"), max_bytes, f"the OpenAPI document at {url}")
            for chunk in response.iter_raw():
                body.feed(chunk)
            data = body.finish()
            content_type = response.headers.get("content-type")
    except ResponseError as exc:
        raise InputError(exc.message) from None
    except httpx.TimeoutException:
        raise InputError(f"fetching the OpenAPI document {url} timed out after {timeout:g} s.") from None
    except httpx.HTTPError as exc:
        raise InputError(f"fetching the OpenAPI document {url} failed: {redact(str(exc))}.") from None
    try:
        return data.decode("utf-8-sig"), content_type
    except UnicodeDecodeError as exc:
        raise InputError(f"the OpenAPI document at {url} is not UTF-8 text (byte {exc.start}).") from None
