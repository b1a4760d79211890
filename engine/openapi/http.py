"""HTTP for OpenAPI tools: one small client seam, credentials that never leave the API's origin.

``HttpClient`` is the seam: anything with ``send(HttpRequest) -> HttpResponse`` works (a host may
pass its own to add proxies or per-user cookies; tests use a real server on 127.0.0.1).
``HttpxClient`` is the default. ``ApiCaller`` binds a client to one API: its base URL and the
credentials given on the command line, which it adds only to requests for that base URL's origin.
Redirects are not followed, so a request never reaches a host the user did not point at.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from ..errors import DeskcheckError, InputError
from ..urls import redact

# A tool result is read by a model; a response past this size is a mistake (or an attack), not data.
MAX_RESPONSE_BYTES = 10 * 1024 * 1024


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

        if self._client is None:
            self._client = deadline_client(self.timeout)
        kwargs: dict[str, Any] = {"headers": request.headers}
        if request.has_body:
            import json

            kwargs["content"] = json.dumps(request.json_body, ensure_ascii=False).encode("utf-8")
        target = shown_url(request.url)
        try:
            with total_deadline(self.timeout), self._client.stream(request.method, request.url, **kwargs) as response:
                chunks: list[bytes] = []
                total = 0
                for chunk in response.iter_bytes():
                    total += len(chunk)
                    if total > self.max_response_bytes:
                        raise RequestFailed(
                            f"the response of {request.method} {target} is larger than "
                            f"{self.max_response_bytes} bytes; narrow the request (fewer rows or fields)."
                        )
                    chunks.append(chunk)
                headers = {k.lower(): v for k, v in response.headers.items()}
                encoding = response.encoding or "utf-8"
        except httpx.TimeoutException:
            raise RequestFailed(
                f"{request.method} {target} timed out after {self.timeout:g} s (the time a whole request may take, "
                "however slowly the server answers)."
            ) from None
        except httpx.HTTPError as exc:
            raise RequestFailed(f"{request.method} {target} could not be sent: {redact(str(exc))}.") from None
        return HttpResponse(response.status_code, headers, b"".join(chunks).decode(encoding, errors="replace"))

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
            pairs.append((name.strip(), value.strip()))
        token = token or os.environ.get("DESKCHECK_TOKEN") or None
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
            headers.update(self.credentials.as_dict())
        return self.client.send(HttpRequest(request.method, request.url, headers, request.json_body, request.has_body))


def same_origin(url: str, base: str) -> bool:
    """Whether ``url`` is on ``base``'s origin (scheme, host, port). A URL whose port cannot be
    read is on no origin."""
    try:
        a, b = urlsplit(url), urlsplit(base)
        return (a.scheme.lower(), a.hostname, a.port) == (b.scheme.lower(), b.hostname, b.port)
    except ValueError:
        return False


def shown_url(url: str) -> str:
    """``url`` as messages show it: without its query (which may carry values a user typed) and
    without the password of a ``user:password@`` part."""
    return redact(url.split("?", 1)[0])
