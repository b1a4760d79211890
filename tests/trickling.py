"""A hostile HTTP server on 127.0.0.1 that answers some requests one byte at a time.

``TricklingServer(upstream)`` forwards every request to ``upstream`` (the sample API) and sends
its answer back, except requests whose method is in ``methods``: those get, after their body
has been read, either a ``200`` whose ``Content-Length`` promises 100,000 bytes sent one byte
every ``interval`` seconds (``mode="body"``), or the status line and headers themselves one byte
at a time (``mode="headers"``). ``strip`` names request headers not forwarded. ``stop()``
closes every connection, which ends any trickle."""

from __future__ import annotations

import contextlib
import socket
import socketserver
import threading

import httpx


class TricklingServer:
    def __init__(self, upstream: str, *, methods=("PUT",), mode: str = "body", interval: float = 0.2, strip=()) -> None:
        self.upstream = upstream.rstrip("/")
        self.strip = {name.lower() for name in strip}
        self.methods = set(methods)
        self.mode = mode
        self.interval = interval
        self.trickled: list[str] = []  # "METHOD path" of each request answered by trickling
        self._stopping = threading.Event()
        self._sockets: set[socket.socket] = set()
        outer = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                outer._sockets.add(self.request)
                try:
                    outer._serve(self.request)
                except OSError:
                    pass
                finally:
                    outer._sockets.discard(self.request)

        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> TricklingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._stopping.set()
        for sock in list(self._sockets):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self._server.shutdown()
        self._server.server_close()

    def _serve(self, sock: socket.socket) -> None:
        reader = sock.makefile("rb")
        request_line = reader.readline().decode("latin-1").strip()
        if not request_line:
            return
        method, target, _ = request_line.split(" ", 2)
        headers: dict[str, str] = {}
        while True:
            line = reader.readline().decode("latin-1")
            if line in ("\r\n", "\n", ""):
                break
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        body = reader.read(int(headers.get("content-length") or 0))
        if method in self.methods:
            self.trickled.append(f"{method} {target}")
            self._trickle(sock)
            return
        dropped = {"host", "content-length", "connection", *self.strip}
        forwarded = {k: v for k, v in headers.items() if k not in dropped}
        answer = httpx.request(method, self.upstream + target, headers=forwarded, content=body, timeout=30)
        head = [f"HTTP/1.1 {answer.status_code} {answer.reason_phrase}"]
        for name, value in answer.headers.items():
            if name.lower() not in ("content-length", "connection", "transfer-encoding", "content-encoding"):
                head.append(f"{name}: {value}")
        head += [f"Content-Length: {len(answer.content)}", "Connection: close", "", ""]
        sock.sendall("\r\n".join(head).encode("latin-1") + answer.content)

    def _trickle(self, sock: socket.socket) -> None:
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
        if self.mode == "body":
            sock.sendall(head)
            payload = b" " * 100_000
        else:
            payload = head + b" " * 100_000
        for index in range(len(payload)):
            if self._stopping.wait(self.interval):
                return
            sock.sendall(payload[index : index + 1])
