"""The ``deskcheck mcp`` command line: usage errors before anything is served (on stderr, exit 2,
nothing on stdout, which belongs to the protocol), the HTTP server's address and bearer token,
and the SDK imported lean and only by this command."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import httpx
import pytest

from tests.docx.builders import make_docx, p
from tests.helpers import run_process
from tests.mcp.support import http_client, http_server

pytestmark = pytest.mark.slow


@pytest.fixture
def docx(tmp_path):
    return make_docx(tmp_path / "contract.docx", p("The Supplier shall deliver the goods.", para_id="0A000001"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "no context: give --docx FILE, --spec SPEC, or --schema SCHEMA --data FILE"),
        (["--schema", "s.json"], "each --schema needs its --data"),
        (["--docx", "missing.docx"], "missing.docx does not exist"),
        (["--docx", "{docx}", "--http", "here"], "--http takes HOST:PORT or PORT"),
        (["--docx", "{docx}", "--http", "0.0.0.0:0"], "give --http-token TOKEN"),
        (["--docx", "{docx}", "--http-token", "secret"], "give --http HOST:PORT too"),
        (["--docx", "{docx}", "--operation-types", "nonsense"], "is not a suggest_changes operation type"),
        (["--spec", "missing.yaml"], "missing.yaml does not exist"),
        (["--spec", "plain.json"], "plain.json gives no tools in the loaded profiles"),
        (["--docx", "{docx}", "--docx", "{docx}"], "contract.docx is given twice"),
    ],
)
def test_usage_errors_are_told_on_stderr_before_serving(argv, message, docx, tmp_path):
    (tmp_path / "plain.json").write_text('{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}')
    argv = [arg.replace("{docx}", str(docx)) for arg in argv]
    run = run_process("mcp", *argv, expect=2, cwd=str(tmp_path))
    assert run.stdout == ""
    # A bad option value is refused by the parser, with the usage (as every command does).
    assert message in run.stderr and run.stderr.startswith(("error: ", "Usage: deskcheck mcp"))


def test_the_http_server_needs_its_bearer_token(docx, tmp_path):
    with http_server("--docx", str(docx), "--http-token", "s3cret-token", tmp_path=tmp_path) as server:
        assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/mcp")
        initialize = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic s3cret-token"}):
            answer = httpx.post(server.url, json=initialize, headers=headers, timeout=30)
            assert answer.status_code == 401 and answer.headers["www-authenticate"] == "Bearer"

        async def listed():
            async with http_client(server.url, token="s3cret-token") as client:
                return [tool.name for tool in (await client.list_tools()).tools]

        assert "read_document" in anyio.run(listed)


def test_a_foreign_host_header_is_refused_on_loopback(docx, tmp_path):
    """DNS rebinding: a page served from elsewhere cannot reach the local server through its name."""
    with http_server("--docx", str(docx), tmp_path=tmp_path) as server:
        answer = httpx.post(
            server.url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers={"Host": "evil.example"}, timeout=30
        )
        assert answer.status_code in (400, 403, 421)


def test_the_sdk_is_imported_lean_and_only_by_the_server():
    code = (
        "import sys\n"
        "from deskcheck.cli.mcp.sdk import load\n"
        "sdk = load()\n"
        "print(json.dumps({'lean': sdk.lean, 'client': 'mcp.client' in sys.modules, "
        "'mcpserver': 'mcp.server.mcpserver' in sys.modules}))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", "import json\n" + code], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(proc.stdout) == {"lean": True, "client": False, "mcpserver": False}
