"""An API server's answer, however odd, is a clean error naming what the server sent, never "a
bug in deskcheck" (issue 26, item 9): numbers no JSON reader takes, deep nesting, lone surrogates,
bytes that are not the declared text, compression bombs, unknown codings, oversized headers, and
versions (ETag) that cannot be sent back. Plain tools, editor groups and option lists all read
answers through the same bounded reader (``engine.openapi.responses``)."""

from __future__ import annotations

import contextlib
import copy
import gzip
import json
import socket
import threading
import zlib

import pytest

from deskcheck.engine.openapi.tools.load import load_openapi
from tests.helpers import run_cli

THINGS = {
    "openapi": "3.1.0",
    "info": {"title": "Things", "version": "1"},
    "paths": {
        "/things/{id}": {
            "parameters": [{"in": "path", "name": "id", "required": True, "schema": {"type": "string"}}],
            "get": {
                "operationId": "readThing",
                "x-agent": {"name": "get_thing"},
                "responses": {"200": {"description": "a thing", "content": {"application/json": {}}}},
            },
            "put": {
                "operationId": "writeThing",
                "x-agent": {"name": "thing", "editor": {"readOperation": "readThing"}},
                "requestBody": {
                    "content": {
                        "application/json": {"schema": {"type": "object", "properties": {"name": {"type": "string"}}}}
                    }
                },
                "responses": {"200": {"description": "saved"}},
            },
        }
    },
}

HUGE = "7" * 5000


def gzip_bomb() -> bytes:
    """64 MiB of spaces in 64 KB, made when its test runs (a quarter of a second: not at
    collection, in every worker)."""
    bomb = zlib.compressobj(9, zlib.DEFLATED, 31)
    return bomb.compress(b" " * (64 << 20)) + bomb.flush()


def get_thing(server):
    return load_openapi(copy.deepcopy(THINGS), base_url=server.url).toolset.call("get_thing", {"id": "1"})


@pytest.mark.parametrize(
    ("body", "headers", "said"),
    [
        ('{"n": ' + HUGE + "}", {}, "holds an integer of 5,000 digits"),
        ('{"n": NaN}', {}, "holds NaN"),
        ('{"n": 1e999}', {}, "too large for a JSON number"),
        ("[" * 5000 + "]" * 5000, {}, "more than 100 levels deep"),
        ('{"n": "\\ud800"}', {}, "lone surrogate \\ud800"),
        (b'{"n": "caf\xe9"}', {}, "is not UTF-8 text (byte 10"),
        (gzip.compress(gzip.compress(b"{}")), {"content-encoding": "gzip, gzip"}, "stacked content codings"),
        (gzip_bomb, {"content-encoding": "gzip"}, "(once decompressed)"),
        (b"\x00\x01", {"content-encoding": "br"}, "content coding 'br', which deskcheck did not ask for"),
        (b"not gzip", {"content-encoding": "gzip"}, "is not valid gzip data"),
    ],
    ids=["5000-digits", "nan", "infinity", "deep", "surrogate", "latin-1", "gzip-in-gzip", "gzip-bomb", "br", "junk"],
)
def test_a_plain_tool_names_what_the_server_sent(scripted_server, body, headers, said):
    scripted_server.answer(200, body() if callable(body) else body, headers=headers)
    result = get_thing(scripted_server)
    assert not result.ok and said in result.error, result.error
    assert "bug in deskcheck" not in result.error
    assert "/api/things/1" in result.error, "the message names the request"


def test_a_declared_charset_is_read_and_compressed_answers_decode(scripted_server):
    scripted_server.answer(200, '{"n": "caf\u00e9"}'.encode("latin-1"), "application/json; charset=iso-8859-1")
    assert "caf\u00e9" in get_thing(scripted_server).value
    scripted_server.answer(200, gzip.compress(b'{"n": "zipped"}'), headers={"content-encoding": "gzip"})
    assert "zipped" in get_thing(scripted_server).value
    scripted_server.answer(200, zlib.compress(b'{"n": "deflated"}'), headers={"content-encoding": "deflate"})
    assert "deflated" in get_thing(scripted_server).value
    raw = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    scripted_server.answer(200, raw.compress(b'{"n": "raw"}') + raw.flush(), headers={"content-encoding": "deflate"})
    assert "raw" in get_thing(scripted_server).value
    assert scripted_server.received[0].headers["accept-encoding"] == "gzip, deflate"


def test_the_cli_prints_one_clean_envelope(scripted_server, tmp_path):
    spec = tmp_path / "things.json"
    spec.write_text(json.dumps(THINGS))
    scripted_server.answer(200, '{"n": ' + HUGE + "}")
    run = run_cli("call", "--spec", str(spec), "--base-url", scripted_server.url, "get_thing", '{"id": "1"}', expect=1)
    assert "5,000 digits" in run.json["error"] and "bug" not in run.json["error"]


def editor(server, tmp_path, verb="describe-state", args='{"id": "1"}'):
    spec = tmp_path / "things.json"
    spec.write_text(json.dumps(THINGS))
    return run_cli("form", verb, "--spec", str(spec), "--base-url", server.url, "thing", args, expect=None)


@pytest.mark.parametrize(
    ("body", "headers", "said"),
    [
        ('{"name": ' + HUGE + "}", {}, "holds an integer of 5,000 digits"),
        ('{"name": "x"}', {"ETag": '"caf\u00e9"'}, "ETag header that holds '\u00e9' (U+00E9)"),
        ('{"name": "x"}', {"Last-Modified": "Tue, 1 Jan 2030 \u00e0 10:00"}, "Last-Modified header that holds"),
        (b'{"name": "caf\xe9"}', {}, "is not UTF-8 text"),
    ],
    ids=["5000-digits", "etag", "last-modified", "latin-1"],
)
def test_an_editor_group_names_what_the_server_sent(scripted_server, tmp_path, body, headers, said):
    scripted_server.answer(200, body, headers=headers)
    answer = editor(scripted_server, tmp_path).json
    assert not answer["ok"] and said in answer["error"], answer
    assert "bug in deskcheck" not in answer["error"]


def test_an_error_answer_out_of_bounds_is_quoted_as_text(scripted_server, tmp_path):
    scripted_server.answer(409, '{"message": ' + HUGE + "}")
    answer = editor(scripted_server, tmp_path).json
    assert not answer["ok"] and "answered 409" in answer["error"] and "bug" not in answer["error"]


def test_option_lists_name_what_the_server_sent(scripted_server, tmp_path):
    schema = {
        "type": "object",
        "properties": {"pick": {"type": "string", "x-fromUrl": "/items?q={q}", "x-itemsProp": "results"}},
    }
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    (tmp_path / "data.json").write_text("{}")
    form = ["--schema", str(tmp_path / "schema.json"), "--data", str(tmp_path / "data.json")]
    scripted_server.answer(200, '{"results": [' + HUGE + "]}")
    args = ["--base-url", scripted_server.url, '{"path": "/pick"}']
    answer = run_cli("form", "get-field-suggestions", *form, *args, expect=1).json
    assert "could not be read" in answer["error"] and "5,000 digits" in answer["error"]


@pytest.fixture
def raw_server():
    """A socket that answers every connection with the bytes it is given (headers included)."""
    listener = socket.create_server(("127.0.0.1", 0))
    state: dict[str, bytes] = {}

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)
                with contextlib.suppress(OSError):
                    conn.sendall(state["answer"])

    threading.Thread(target=serve, daemon=True).start()
    yield state, f"http://127.0.0.1:{listener.getsockname()[1]}/api"
    listener.close()


@pytest.mark.parametrize(
    ("head", "said"),
    [
        (b"X-Huge: " + b"a" * 200_000 + b"\r\n", "could not be sent"),
        (b"Content-Type: application/json\r\nX-Note: caf\xc3\xa9 \xff\r\n", None),
    ],
    ids=["huge-header", "non-ascii-header"],
)
def test_odd_response_headers(raw_server, head, said):
    state, url = raw_server
    body = b'{"n": 1}'
    state["answer"] = b"HTTP/1.1 200 OK\r\n" + head + b"Content-Length: %d\r\n\r\n" % len(body) + body
    result = load_openapi(copy.deepcopy(THINGS), base_url=url).toolset.call("get_thing", {"id": "1"})
    if said is None:
        assert result.ok and "1" in result.value
    else:
        assert not result.ok and said in result.error and "bug" not in result.error
