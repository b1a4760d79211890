"""The socket side: an HTTP/1.1 request handler (keep-alive safe) and a threading server that
can close its open connections when it stops.

Keep-alive safety: every response has a Content-Length (none for 204/304); a request body is
always read whole before answering, so an early error (401, 404) never leaves unread bytes on
the connection; when the body cannot be read (too large, bad length) the answer closes the
connection. Chunked request bodies are decoded.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from .app import RecordsApp
from .messages import JSON_TYPE, MAX_BODY_BYTES, ApiError, Request, Response, origin_for

# An idle keep-alive connection is closed after this many seconds.
IDLE_TIMEOUT_SECONDS = 30.0


class _BodyError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "deskcheck-sample-api"
    sys_version = ""
    timeout = IDLE_TIMEOUT_SECONDS
    # Headers and body go out in two writes; without TCP_NODELAY, Nagle's algorithm and the
    # client's delayed ACK add ~40 ms to every answer on a kept-alive connection.
    disable_nagle_algorithm = True
    error_content_type = JSON_TYPE
    server: SampleHttpServer

    def handle(self) -> None:
        # The client went away or the server is stopping: there is nobody left to answer.
        with contextlib.suppress(OSError):
            super().handle()

    def _serve(self) -> None:
        try:
            body = self._read_body()
        except _BodyError as error:
            self.close_connection = True
            self._send(ApiError(error.status, error.message).to_response())
            return
        except (ConnectionError, TimeoutError):
            self.close_connection = True
            return
        parts = urlsplit(self.path)
        request = Request(
            method=self.command,
            path=parts.path or "/",
            query=parse_qs(parts.query, keep_blank_values=True),
            headers=self.headers,
            body=body,
            origin=origin_for(self.headers.get("Host"), self.server.origin),
        )
        self._send(self.server.app.handle(request))

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _serve

    def _read_body(self) -> bytes:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            return self._read_chunked()
        length_header = self.headers.get("Content-Length")
        if length_header is None:
            return b""
        try:
            length = int(length_header)
            if length < 0:
                raise ValueError
        except ValueError:
            raise _BodyError(400, f"Content-Length must be a number of bytes, not {length_header!r}.") from None
        if length > MAX_BODY_BYTES:
            raise _BodyError(413, f"The body is {length} bytes; this API accepts at most {MAX_BODY_BYTES}.")
        body = self.rfile.read(length)
        if len(body) < length:
            raise ConnectionError("the client closed the connection in the middle of the body")
        return body

    def _read_chunked(self) -> bytes:
        chunks, total = [], 0
        while True:
            size_line = self.rfile.readline(1024).split(b";")[0].strip()
            try:
                size = int(size_line, 16)
            except ValueError:
                raise _BodyError(400, "The chunked body is malformed.") from None
            if size == 0:
                break
            total += size
            if total > MAX_BODY_BYTES:
                raise _BodyError(413, f"The body is larger than {MAX_BODY_BYTES} bytes, the most this API accepts.")
            chunk = self.rfile.read(size)
            if len(chunk) < size:
                raise ConnectionError("the client closed the connection in the middle of the body")
            chunks.append(chunk)
            self.rfile.readline(1024)  # the CRLF after each chunk
        while self.rfile.readline(1024).strip():
            pass  # trailers are ignored
        return b"".join(chunks)

    def _send(self, response: Response) -> None:
        status = response.status
        has_body = status not in (204, 304) and status >= 200
        try:
            self.send_response(status)
            for name, value in response.headers.items():
                self.send_header(name, value)
            if has_body:
                self.send_header("Content-Length", str(len(response.body)))
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            if has_body and self.command != "HEAD":
                self.wfile.write(response.body)
        except (ConnectionError, TimeoutError):
            self.close_connection = True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Errors found while parsing the request line or headers, answered as JSON too."""
        self.close_connection = True
        # An unreadable request line leaves the version at HTTP/0.9, which would suppress the
        # status line and headers; answer as HTTP/1.1 so that clients can read the status.
        self.request_version = self.protocol_version
        phrase = message or HTTPStatus(code).phrase
        self._send(ApiError(code, f"The request could not be read: {phrase}.").to_response())

    def log_message(self, format: str, *args: object) -> None:
        if self.server.request_log is not None:
            self.server.request_log(f"{self.address_string()} {format % args}")


class SampleHttpServer(ThreadingHTTPServer):
    """A thread per connection; remembers its connections so that ``close_connections`` can end
    idle keep-alive ones (and waiting faults) when the server stops."""

    daemon_threads = True
    block_on_close = False

    def __init__(
        self,
        address: tuple[str, int],
        app: RecordsApp,
        *,
        request_log: Callable[[str], None] | None = None,
    ) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.app = app
        self.request_log = request_log
        self._connections: dict[socket.socket, threading.Thread] = {}
        self._connections_lock = threading.Lock()
        super().__init__(address, RequestHandler)
        host, port = self.server_address[:2]
        self.origin = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"

    def process_request(self, request, client_address) -> None:
        thread = threading.Thread(
            target=self.process_request_thread,
            args=(request, client_address),
            name=f"sample-api-connection-{client_address[1]}",
            daemon=True,
        )
        with self._connections_lock:
            self._connections[request] = thread
        thread.start()

    def shutdown_request(self, request) -> None:
        with self._connections_lock:
            self._connections.pop(request, None)
        super().shutdown_request(request)

    def handle_error(self, request, client_address) -> None:
        # A connection-level failure is the client's business; keep stderr clean.
        if self.request_log is not None:
            self.request_log(f"{client_address[0]} connection error")

    def close_connections(self, timeout: float) -> None:
        """End every open connection (waking handlers blocked on a read) and wait for their
        threads, up to ``timeout`` seconds in all."""
        with self._connections_lock:
            connections = list(self._connections.items())
        for sock, _thread in connections:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        deadline = time.monotonic() + timeout
        for _sock, thread in connections:
            thread.join(max(0.0, deadline - time.monotonic()))
