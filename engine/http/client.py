"""HTTP for OpenAPI tools: one small client seam, credentials that never leave the API's origin.

``HttpClient`` is the seam: anything with ``send(HttpRequest) -> HttpResponse`` works (a host may
pass its own to add proxies or per-user cookies; tests use a real server on 127.0.0.1).
``HttpxClient`` is the default: it reads an answer within bounds (``responses``: its size once
decoded, one content coding) and never sends a header value that is not printable ASCII (httpx
would raise in the middle of a request). ``ApiCaller`` binds a client to one API: its base URL and
the credentials given on the command line, which it adds only to requests for that base URL's
origin, in place of any header of the same name. Redirects are not followed, so a request never
reaches a host the user did not point at, and credentials never follow one.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from ..errors import DeskcheckError, InputError
from ..urls import redact, shown_url

# A tool result is read by a model; a response past this size is a mistake (or an attack), not data.
MAX_RESPONSE_BYTES = 10 * 1024 * 1024
# What a header value may hold: printable ASCII and tab (RFC 9110 allows other bytes, but no
# client sends them the same way twice).
_HEADER_TEXT = re.compile(r"[\t\x20-\x7e]*")
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


class RequestFailed(DeskcheckError):
    """The request could not be sent or answered (connection refused, timeout, too large)."""


@dataclass(frozen=True)
class HttpRequest:
    method: str  # uppercase
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    json_body: Any = None
    has_body: bool = False


@dataclass(frozen=True)
class HttpResponse:
    status: int
    headers: dict[str, str]  # lowercase names
    text: str
    # Where the body did not decode as the charset it declares (None: it did); ``text`` then
    # holds U+FFFD in those places, fine for a message, never for a record.
    decode_error: str | None = None

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


class HttpClient(Protocol):
    def send(self, request: HttpRequest) -> HttpResponse: ...


class HttpxClient:
    """The default client: httpx, imported on first use, one connection pool per client.
    ``timeout`` bounds each request as a whole, a slow trickle of bytes included (``deadline``)."""

    def __init__(self, *, timeout: float = 30.0, max_response_bytes: int = MAX_RESPONSE_BYTES) -> None:
        self.timeout = timeout
        self.max_response_bytes = max_response_bytes
        self._client: Any = None

    def send(self, request: HttpRequest) -> HttpResponse:
        import httpx

        from .deadline import deadline_client, total_deadline
        from .responses import ACCEPT_ENCODING, BoundedBody, ResponseError, decode_text

        target = shown_url(request.url)
        headers = dict(request.headers)
        if not any(name.lower() == "accept-encoding" for name in headers):
            headers["accept-encoding"] = ACCEPT_ENCODING
        for name, value in headers.items():
            if not _HEADER_NAME.fullmatch(name):
                raise RequestFailed(
                    f"{request.method} {target} was not sent: {name!r} is not a header name (letters, digits and "
                    "-!#$%&'*+.^_`|~ only)."
                )
            problem = header_value_problem(value)
            if problem:
                raise RequestFailed(f"{request.method} {target} was not sent: its {name} header {problem}.")
        if self._client is None:
            self._client = deadline_client(self.timeout)
        kwargs: dict[str, Any] = {"headers": headers}
        if request.has_body:
            import json

            kwargs["content"] = json.dumps(request.json_body, ensure_ascii=False).encode("utf-8")
        what = f"the response of {request.method} {target}"
        try:
            with total_deadline(self.timeout), self._client.stream(request.method, request.url, **kwargs) as response:
                encoding = response.headers.get("content-encoding")
                body = BoundedBody(encoding, self.max_response_bytes, what, "narrow the request (fewer rows or fields)")
                for chunk in response.iter_raw():
                    body.feed(chunk)
                data = body.finish()
                response_headers = {k.lower(): v for k, v in response.headers.items()}
                charset = response.charset_encoding
        except ResponseError as exc:
            raise RequestFailed(exc.message, code=exc.code) from None
        except httpx.TimeoutException:
            raise RequestFailed(
                f"{request.method} {target} timed out after {self.timeout:g} s (the time a whole request may take, "
                "however slowly the server answers)."
            ) from None
        except httpx.HTTPError as exc:
            raise RequestFailed(f"{request.method} {target} could not be sent: {redact(str(exc))}.") from None
        text, problem = decode_text(data, charset)
        return HttpResponse(response.status_code, response_headers, text, problem)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


@dataclass(frozen=True)
class Credentials:
    """Headers that authenticate to the API. Their values are never shown: ``repr`` lists names."""

    headers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_options(cls, header_lines: tuple[str, ...] | list[str] = (), token: str | None = None) -> Credentials:
        """From ``--header 'Name: value'`` lines and a bearer token (``--token`` or
        ``DESKCHECK_TOKEN``)."""
        pairs: list[tuple[str, str]] = []
        for line in header_lines:
            name, sep, value = line.partition(":")
            if not sep or not name.strip():
                raise InputError(f"a header must look like 'Name: value'; this one has no colon or no name: {name!r}.")
            if not _HEADER_NAME.fullmatch(name.strip()):
                raise InputError(f"the header name {name.strip()!r} holds characters a header name cannot have.")
            problem = header_value_problem(value.strip())
            if problem:  # the value is a secret: named, never shown
                raise InputError(f"the value of the --header {name.strip()} {problem}.")
            pairs.append((name.strip(), value.strip()))
        token = token or os.environ.get("DESKCHECK_TOKEN") or None
        problem = header_value_problem(token) if token else None
        if problem:
            raise InputError(f"the token (--token or DESKCHECK_TOKEN) {problem}.")
        if token and not any(name.lower() == "authorization" for name, _ in pairs):
            pairs.append(("Authorization", f"Bearer {token}"))
        return cls(tuple(pairs))

    def __repr__(self) -> str:
        return f"Credentials({', '.join(name for name, _ in self.headers) or 'none'})"

    def as_dict(self) -> dict[str, str]:
        return dict(self.headers)


class ApiCaller:
    """Sends requests to one API: the base URL's origin gets the credentials, nothing else does."""

    def __init__(
        self, base_url: str | None, *, client: HttpClient | None = None, credentials: Credentials | None = None
    ) -> None:
        self.base_url = base_url
        self.client = client if client is not None else HttpxClient()
        self.credentials = credentials or Credentials()

    def send(self, request: HttpRequest) -> HttpResponse:
        headers = dict(request.headers)
        if self.base_url and same_origin(request.url, self.base_url):
            # Header names are case-insensitive: a request header spelled otherwise must not go
            # out beside the credential (servers differ on which of two they read).
            own = self.credential_names()
            headers = {name: value for name, value in headers.items() if name.lower() not in own}
            headers.update(self.credentials.as_dict())
        return self.client.send(HttpRequest(request.method, request.url, headers, request.json_body, request.has_body))

    def credential_names(self) -> set[str]:
        """The lowercase names of the credential headers."""
        return {name.lower() for name, _ in self.credentials.headers}


def header_value_problem(text: str) -> str | None:
    """Why ``text`` cannot be sent as a header value (a line break, a control character, a
    character beyond ASCII), or None when it can."""
    if _HEADER_TEXT.fullmatch(text):
        return None
    bad = next(char for char in text if not _HEADER_TEXT.fullmatch(char))
    if bad in "\r\n":
        return "holds a line break, which would start another header"
    if ord(bad) < 0x20 or ord(bad) == 0x7F:
        return f"holds the control character U+{ord(bad):04X}"
    return f"holds {bad!r} (U+{ord(bad):04X}), and a header carries ASCII text only"


def same_origin(url: str, base: str) -> bool:
    """Whether ``url`` is on ``base``'s origin (scheme, host, port). A URL whose port cannot be
    read is on no origin."""
    try:
        a, b = urlsplit(url), urlsplit(base)
        return (a.scheme.lower(), a.hostname, _port(a)) == (b.scheme.lower(), b.hostname, _port(b))
    except ValueError:
        return False


def _port(parts: Any) -> int | None:
    return parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
