"""Requests and responses as plain values, so the endpoints never touch sockets.

Every error the API answers is an ``ApiError``: a status and a plain-language ``message`` (plus
optional extra JSON members), rendered as ``{"status": ..., "message": ...}``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from email.message import Message
from typing import Any

# A larger body is refused before it is read: records are small JSON documents.
MAX_BODY_BYTES = 1024 * 1024

JSON_TYPE = "application/json; charset=utf-8"


class ApiError(Exception):
    """An answer other than success, with a message a client can act on."""

    def __init__(self, status: int, message: str, *, headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}
        self.extra = extra

    def to_response(self) -> Response:
        body = {"status": self.status, "message": self.message, **self.extra}
        return json_response(body, status=self.status, headers=self.headers)


@dataclass(frozen=True)
class Request:
    method: str
    path: str  # the raw path, without the query string
    query: dict[str, list[str]]
    headers: Message
    body: bytes
    origin: str  # scheme://host:port the client addressed, used to build absolute links

    def header(self, name: str) -> str | None:
        value = self.headers.get(name)
        return value.strip() if isinstance(value, str) else None

    def param(self, name: str) -> str | None:
        """The query parameter ``name``; repeated values are joined with commas, as the API's
        array parameters are comma-separated lists."""
        values = self.query.get(name)
        if not values:
            return None
        return ",".join(values)

    def list_param(self, name: str) -> list[str]:
        value = self.param(name)
        if value is None:
            return []
        return [item.strip() for item in value.split(",") if item.strip()]

    def int_param(self, name: str, *, default: int, minimum: int, maximum: int) -> int:
        raw = self.param(name)
        if raw is None or raw == "":
            return default
        try:
            value = int(raw)
        except ValueError:
            raise ApiError(400, f'The query parameter "{name}" must be a whole number, not "{raw}".') from None
        if not minimum <= value <= maximum:
            raise ApiError(400, f'The query parameter "{name}" must be between {minimum} and {maximum}; got {value}.')
        return value

    def bool_param(self, name: str, *, default: bool) -> bool:
        raw = self.param(name)
        if raw is None or raw == "":
            return default
        lowered = raw.lower()
        if lowered in ("true", "1", "yes"):
            return True
        if lowered in ("false", "0", "no"):
            return False
        raise ApiError(400, f'The query parameter "{name}" must be true or false, not "{raw}".')

    def json(self) -> Any:
        """The body parsed as JSON, or a 415/400 saying what is wrong with it."""
        content_type = (self.header("Content-Type") or "").split(";")[0].strip().lower()
        if content_type and content_type != "application/json" and not content_type.endswith("+json"):
            raise ApiError(415, f"Send the body as application/json (got {content_type}).")
        if not self.body.strip():
            raise ApiError(400, "The request body is empty; send the record as a JSON object.")
        try:
            return json.loads(self.body)
        except UnicodeDecodeError:
            raise ApiError(400, "The request body is not UTF-8 text; send the record as JSON.") from None
        except json.JSONDecodeError as exc:
            raise ApiError(
                400, f"The request body is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})."
            ) from None


@dataclass
class Response:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


def json_response(value: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    body = json.dumps(value, ensure_ascii=False).encode("utf-8")
    return Response(status, body, {"Content-Type": JSON_TYPE, **(headers or {})})


def no_content(headers: dict[str, str] | None = None) -> Response:
    return Response(204, b"", dict(headers or {}))


def not_modified(etag: str, extra: dict[str, str] | None = None) -> Response:
    return Response(304, b"", {"ETag": etag, **(extra or {})})


# A Host header we are willing to echo back into absolute URLs (host or [v6], optional port).
_HOST = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$")


def origin_for(host_header: str | None, fallback: str) -> str:
    """The origin the client used (from its Host header), or ``fallback`` when it sent none or
    something that is not a plain host[:port]."""
    if host_header and _HOST.match(host_header.strip()):
        return "http://" + host_header.strip()
    return fallback
