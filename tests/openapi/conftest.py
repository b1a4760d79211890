"""A scripted HTTP server on 127.0.0.1 for the petstore-shaped plain-tool tests: each test says
what the next answers are and reads back the requests that arrived (method, path with query,
headers, body). The sample records API (tests/conftest.py) covers the realistic API; this one
covers exact URLs, status codes and bodies that a real API rarely produces on demand."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.conftest import OPENAPI_FIXTURES

PETSTORE = OPENAPI_FIXTURES / "petstore.json"
VETSTORE = OPENAPI_FIXTURES / "vetstore.json"
VIEWS = OPENAPI_FIXTURES / "views.json"
DATA_FAIR = OPENAPI_FIXTURES / "data-fair-root.json"
DATA_FAIR_ANNOTATED = OPENAPI_FIXTURES / "data-fair-root.annotated.json"
RENDER_GOLDENS = OPENAPI_FIXTURES / "render"

PET_P1 = {
    "id": "p1",
    "name": "Rex",
    "tags": ["dog", "big"],
    "owner": {"name": "Ann", "email": "ann@example.com"},
    "internalCode": "X-1",
}
PET_P2 = {"id": "p2", "name": "Tom | cat", "owner": {"name": "Bob", "email": "bob@example.com"}, "internalCode": "X-2"}
PET_LIST = {
    "total": 2,
    "results": [PET_P1, PET_P2],
    "next": "https://pets.example/api/pets?after=2",
    "meta": {"hints": ["use q for text search"]},
}


@dataclass
class Answer:
    status: int = 200
    body: str | bytes = ""  # bytes: sent as they are (not UTF-8 text, compressed...)
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)  # sent as Latin-1, as http.server does


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    header_lines: list[tuple[str, str]] = field(default_factory=list)  # as sent, repeats kept


@dataclass
class ScriptedServer:
    url: str
    answers: list[Answer] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)

    def answer(
        self, status: int = 200, body: Any = "", content_type: str = "application/json", headers: dict | None = None
    ) -> None:
        text = body if isinstance(body, (str, bytes)) else json.dumps(body)
        self.answers.append(Answer(status, text, content_type, dict(headers or {})))


@pytest.fixture
def scripted_server():
    state: dict[str, ScriptedServer] = {}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            server = state["server"]
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            lines = list(self.headers.items())
            server.received.append(Received(self.command, self.path, {k.lower(): v for k, v in lines}, body, lines))
            answer = server.answers.pop(0) if server.answers else Answer(500, "no scripted answer", "text/plain")
            data = answer.body if isinstance(answer.body, bytes) else answer.body.encode("utf-8")
            self.send_response(answer.status)
            for name, value in answer.headers.items():
                self.send_header(name, value)
            if answer.status != 204:
                self.send_header("content-type", answer.content_type)
                self.send_header("content-length", str(len(data)))
            self.end_headers()
            if answer.status != 204:
                self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    state["server"] = ScriptedServer(f"http://127.0.0.1:{httpd.server_address[1]}/api")
    try:
        yield state["server"]
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def lookup_form(tmp_path):
    """A file-backed form whose `line` options come from the sample API, under a dataset the
    data names (`ds`): through the old x-fromUrl syntax, a getItems template and an expression."""

    def make(items: dict, ds: str):
        schema = {
            "type": "object",
            "properties": {
                "ds": {"type": "string"},
                "line": {"type": "object", **items},
            },
        }
        (tmp_path / "schema.json").write_text(json.dumps(schema))
        (tmp_path / "data.json").write_text(json.dumps({"ds": ds}))
        return ["--schema", str(tmp_path / "schema.json"), "--data", str(tmp_path / "data.json")]

    return make
