"""Fetching the options of a field whose list is behind a URL (``x-fromUrl``, ``getItems.url``):
the form engine's ``Fetcher``, over the shared HTTP seam (``engine.openapi.http``).

The engine resolves the URL template (other fields' values, ``{q}``), extracts the list from the
answer and builds the options; this module decides whether the URL may be requested at all,
sends it, and remembers answers per resolved URL for the life of the fetcher (one process, one
batch), so a second look at the same list costs nothing.

Where requests may go: a schema is data from whoever wrote it, so it must not be able to make
deskcheck call arbitrary hosts. A URL is allowed when it is on the API's own origin (the
session's base URL: there it also gets the caller's credentials) or on a host the user allowed
(``--allow-host``, which never gets the credentials): ``host:port`` allows that port,
``https://host[:port]`` that scheme too, and a ``host`` alone only the default port of the URL's
scheme (80 or 443), not every port of the host. A relative URL is resolved against the base
URL. Only http and https; redirects are not followed. Messages never show the password of a
``user:password@`` URL.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from ...errors import DeskcheckError, InputError
from ...urls import redact, shown_url
from ..state.suggestions import ItemsRequest

if TYPE_CHECKING:
    from ...http.client import ApiCaller

# Distinct option URLs remembered per fetcher; a batch that searches more drops the oldest.
MAX_CACHED_URLS = 256


class ItemsFetchError(DeskcheckError):
    pass


class RemoteItems:
    """``RemoteItems(caller, allow_hosts=...)`` is a ``Fetcher``: call it with an
    ``ItemsRequest``. ``caller.base_url`` is the API's origin (None: only allowed hosts)."""

    def __init__(self, caller: ApiCaller, *, allow_hosts: Iterable[str] = ()) -> None:
        self.caller = caller
        self.allowed = [parse_allowed_host(entry) for entry in allow_hosts]
        self._cache: dict[str, Any] = {}
        self.requests = 0  # answers actually fetched (not from the cache), for tests and benchmarks

    def __call__(self, request: ItemsRequest) -> Any:
        url = self.resolve(request.url, request.field_path)
        self.check_allowed(url, request.field_path)
        cache_key = json.dumps([url, sorted(request.headers.items())])
        if cache_key in self._cache:
            return self._cache[cache_key]
        from ...http.client import HttpRequest

        headers = {"accept": "application/json", **request.headers}
        response = self.caller.send(HttpRequest("GET", url, headers))
        self.requests += 1
        where = shown_url(url)
        if not response.ok:
            from ...http.responses import server_message

            message = server_message(response)
            raise ItemsFetchError(
                f"the options of {request.field_path} could not be fetched: GET {where} answered {response.status}"
                + (f": {message}" if message else "")
                + ". Write a value with setFieldValue if you know it.",
                code="itemsFetchFailed",
            )
        from ...http.responses import ResponseError, response_json

        try:
            body = response_json(response, f"GET {where}")
        except ResponseError as exc:
            raise ItemsFetchError(
                f"the options of {request.field_path} could not be read: {exc.message}", code="itemsNotJson"
            ) from None
        if len(self._cache) >= MAX_CACHED_URLS:
            self._cache.pop(next(iter(self._cache)))
        self._cache[cache_key] = body
        return body

    def resolve(self, url: str, field_path: str) -> str:
        if url.startswith(("http://", "https://")):
            return url
        base = self.caller.base_url
        if not base:
            raise ItemsFetchError(
                f"the options of {field_path} come from the relative URL {shown_url(url)}, and this "
                "session has no base URL to resolve it against: pass --base-url with the API's address.",
                code="itemsNoBaseUrl",
            )
        if url.startswith("/"):
            parts = urlsplit(base)
            return f"{parts.scheme}://{parts.netloc}{url}"
        return urljoin(base.rstrip("/") + "/", url)

    def check_allowed(self, url: str, field_path: str) -> None:
        parts = urlsplit(url)
        try:
            port = parts.port
        except ValueError:  # "+9911", "99999": no port a request can go to
            port = -1
        if parts.scheme not in ("http", "https") or not parts.hostname or port == -1:
            raise ItemsFetchError(
                f"the options of {field_path} point to {shown_url(url)}, which is not an http(s) URL "
                "with a valid port; deskcheck will not request it.",
                code="itemsHostRefused",
            )
        from ...http.client import same_origin

        base = self.caller.base_url
        if base and same_origin(url, base):
            return
        if any(_matches(parts.scheme, parts.hostname, port, entry) for entry in self.allowed):
            return
        own = f" (this API is at {_origin(base)})" if base else ""
        host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
        exact = f"{host}:{port or _DEFAULT_PORTS[parts.scheme]}"
        raise ItemsFetchError(
            f"the options of {field_path} come from {_origin(url)}, which is not this API's origin{own}. "
            f"deskcheck only calls hosts you point it at: pass --allow-host {exact} to allow it (that port only), "
            "or write a value with setFieldValue.",
            code="itemsHostRefused",
        )


class LazyRemoteItems:
    """A ``RemoteItems`` made on the first request (most calls fetch nothing, and a command-line
    call should not pay for the HTTP layer then): ``LazyRemoteItems(lambda: RemoteItems(...))``."""

    def __init__(self, factory: Callable[[], RemoteItems]) -> None:
        self._factory = factory
        self._fetcher: RemoteItems | None = None

    def __call__(self, request: ItemsRequest) -> Any:
        if self._fetcher is None:
            self._fetcher = self._factory()
        return self._fetcher(request)


_DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_allowed_host(entry: str) -> tuple[str | None, str, int | None]:
    """``host``, ``host:port``, ``[v6]:port`` or an origin ``https://host[:port]`` -> (scheme,
    host, port); port None is the default port of the scheme. Raises ``InputError`` for an
    entry that names no host or a port that is not 1-65535 written in digits."""
    from ...urls import check_http_url

    text = entry.strip()
    if not text or ("://" in text and text.split("://", 1)[0].lower() not in _DEFAULT_PORTS):
        raise InputError(
            f"--allow-host takes a host, host:port or http(s)://host[:port] (for example api.example.org:8443), "
            f"not {redact(entry)!r}."
        )
    if text.count(":") > 1 and "[" not in text and "://" not in text:
        text = f"[{text}]"  # an IPv6 address without a port
    url = text if "://" in text else "http://" + text
    check_http_url(url, "--allow-host", given=entry, example="api.example.org:8443")
    if "://" in text and urlsplit(url).path not in ("", "/"):
        raise InputError(
            f"--allow-host takes a host, host:port or scheme://host[:port], not a URL with a path: {redact(text)!r}."
        )
    parts = urlsplit(url)
    return (parts.scheme.lower() if "://" in text else None), (parts.hostname or "").lower(), parts.port


def allowed_url(url: str, allowed: Iterable[tuple[str | None, str, int | None]]) -> bool:
    """Whether ``url`` is http(s) on one of the ``allowed`` hosts (as ``parse_allowed_host`` gives them)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    return any(_matches(parts.scheme, parts.hostname, parts.port, entry) for entry in allowed)


def _matches(scheme: str, host: str, port: int | None, entry: tuple[str | None, str, int | None]) -> bool:
    allowed_scheme, allowed_host, allowed_port = entry
    if allowed_host != host.lower():
        return False
    if allowed_scheme is not None and allowed_scheme != scheme:
        return False
    default = _DEFAULT_PORTS[scheme]
    return (port or default) == (allowed_port or default)


def _origin(url: str | None) -> str:
    if not url:
        return ""
    parts = urlsplit(url)
    return redact(f"{parts.scheme}://{parts.netloc}")
