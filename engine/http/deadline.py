"""A total deadline for each HTTP request, whatever the server does.

httpx's timeouts apply to each network operation: a server that sends one byte every half second
never trips a 3-second read timeout, and kept ``save-form --timeout 3`` waiting for 151 s. Inside
``total_deadline(seconds)``, every socket operation (connect, TLS handshake, each write and each
read, of the headers and of the body) may take at most what remains until the deadline, so the
request as a whole ends in time with httpx's own timeout error.

``deadline_client(timeout)`` is an ``httpx.Client`` whose connection pools use that clock. httpx
has no public seam for it: the pool's network backend (``httpcore``, 1.x) is wrapped, and a test
(tests/openapi/test_deadlines.py) holds a trickling server to it.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

_local = threading.local()


@contextlib.contextmanager
def total_deadline(seconds: float) -> Iterator[None]:
    """Requests made in this block (on this thread, by a ``deadline_client``) end within
    ``seconds`` from now."""
    previous = getattr(_local, "at", None)
    _local.at = time.monotonic() + seconds
    try:
        yield
    finally:
        _local.at = previous


def deadline_client(timeout: float) -> Any:
    """An ``httpx.Client`` (no redirects followed) whose requests keep ``total_deadline``."""
    import httpx

    client = httpx.Client(timeout=timeout, follow_redirects=False, verify=_tls_context())
    for transport in (client._transport, *client._mounts.values()):
        if transport is None:  # a NO_PROXY entry: requests there use the default transport
            continue
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if backend is None:  # pragma: no cover - an httpx/httpcore without the seam
            raise RuntimeError("this httpx version has no network backend to bound requests with")
        pool._network_backend = _Backend(backend)
    return client


_tls_contexts: dict[tuple[str | None, str | None], Any] = {}


def _tls_context() -> Any:
    """The process's TLS context for the CA certificates the environment names (as httpx reads
    them). httpx builds one per client and per proxy, and loading the certificates costs about
    25 ms each time: a REPL, an MCP server or a batch makes a client per call."""
    import httpx

    key = (os.environ.get("SSL_CERT_FILE") or None, os.environ.get("SSL_CERT_DIR") or None)
    context = _tls_contexts.get(key)
    if context is None:
        context = _tls_contexts[key] = httpx.create_ssl_context(verify=True, trust_env=True)
    return context


def _remaining(timeout: float | None, error: str) -> float | None:
    at = getattr(_local, "at", None)
    if at is None:
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        import httpcore

        raise getattr(httpcore, error)("the request's total deadline passed")
    return left if timeout is None else min(timeout, left)


class _Backend:
    """An httpcore network backend whose connections keep the thread's deadline."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, **options: Any) -> _Stream:
        return _Stream(self.inner.connect_tcp(host, port, _remaining(timeout, "ConnectTimeout"), **options))

    def connect_unix_socket(self, path: str, timeout: float | None = None, **options: Any) -> _Stream:
        return _Stream(self.inner.connect_unix_socket(path, _remaining(timeout, "ConnectTimeout"), **options))

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


class _Stream:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self.inner.read(max_bytes, _remaining(timeout, "ReadTimeout"))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        sock = self.inner.get_extra_info("socket") if type(self.inner).__name__ == "SyncStream" else None
        if sock is None:  # a stream layered on another (TLS through a proxy): one bound for the whole
            self.inner.write(buffer, _remaining(timeout, "WriteTimeout"))
            return
        # httpcore's own loop gives each send() the whole timeout: a server that reads a byte at a
        # time would stretch it without end. Each send here gets what remains.
        import httpcore

        view = memoryview(buffer)
        while view:
            sock.settimeout(_remaining(timeout, "WriteTimeout"))
            try:
                sent = sock.send(view)
            except TimeoutError:
                raise httpcore.WriteTimeout("the request's total deadline passed") from None
            except OSError as exc:
                raise httpcore.WriteError(str(exc)) from None
            view = view[sent:]

    def close(self) -> None:
        self.inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> _Stream:
        return _Stream(self.inner.start_tls(ssl_context, server_hostname, _remaining(timeout, "ConnectTimeout")))

    def get_extra_info(self, info: str) -> Any:
        return self.inner.get_extra_info(info)
