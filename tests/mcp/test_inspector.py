"""A client nobody here wrote: the MCP Inspector's command-line mode (``npx
@modelcontextprotocol/inspector --cli``, pinned in tests/mcp/inspector/package.json and installed
by ``.ci/run`` with ``npm ci``) lists deskcheck's tools and calls them, over stdio and over
streamable HTTP. Skipped where node or the package is missing, except in CI (CI=true)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.docx.builders import make_docx, p
from tests.helpers import deskcheck_executable
from tests.mcp.support import http_server

pytestmark = pytest.mark.slow

FOLDER = Path(__file__).parent / "inspector"


@pytest.fixture
def inspector() -> list[str]:
    """The command line that starts the Inspector's CLI mode."""
    problem = None
    if shutil.which("npx") is None or shutil.which("node") is None:
        problem = "node and npx are not installed"
    elif not (FOLDER / "node_modules" / "@modelcontextprotocol" / "inspector").is_dir():
        problem = f"the MCP Inspector is not installed: run npm ci --prefix {FOLDER.relative_to(Path.cwd())}"
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{problem} in CI: .ci/run should have installed it")
        pytest.skip(problem)
    return ["npx", "--no-install", "@modelcontextprotocol/inspector", "--cli"]


def run_inspector(command: list[str], *args: str) -> dict:
    proc = subprocess.run([*command, *args], capture_output=True, text=True, cwd=FOLDER, timeout=180)
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return json.loads(proc.stdout)


@pytest.fixture
def contract(tmp_path) -> Path:
    return make_docx(
        tmp_path / "contract.docx",
        p("The Supplier shall deliver the goods.", para_id="0A000001")
        + p("Payment is due in 30 days.", para_id="0A000002"),
    )


def test_the_inspector_lists_and_calls_the_tools_over_stdio(inspector, contract, isolated_state):
    server = ["-e", f"DESKCHECK_STATE_DIR={isolated_state}", deskcheck_executable(), "mcp", "--docx", str(contract)]
    listed = run_inspector(inspector, *server, "--method", "tools/list")
    tools = {tool["name"]: tool for tool in listed["tools"]}
    assert tools["read_document"]["annotations"]["readOnlyHint"] is True
    assert tools["suggest_changes"]["inputSchema"]["properties"]["operations"]["type"] == "array"

    read = run_inspector(
        inspector, *server, "--method", "tools/call", "--tool-name", "read_document", "--tool-arg", "maxBlocks=1"
    )
    assert not read["isError"]
    assert read["structuredContent"]["blocks"][0]["text"] == "The Supplier shall deliver the goods."
    assert json.loads(read["content"][0]["text"]) == read["structuredContent"]

    refused = run_inspector(
        inspector, *server, "--method", "tools/call", "--tool-name", "read_document", "--tool-arg", "maxBlocks=0"
    )
    assert refused["isError"] and "maxBlocks" in refused["content"][0]["text"]


def test_the_inspector_calls_a_tool_over_http(inspector, contract, tmp_path):
    with http_server("--docx", str(contract), "--http-token", "inspector-token", tmp_path=tmp_path) as server:
        common = [server.url, "--transport", "http", "--header", "Authorization: Bearer inspector-token"]
        comment = run_inspector(
            inspector,
            *common,
            "--method",
            "tools/call",
            "--tool-name",
            "add_comment",
            "--tool-arg",
            "blockId=0A000001",
            "--tool-arg",
            "text=Which goods?",
        )
        assert not comment["isError"] and comment["structuredContent"]["status"] == "applied"
