"""A tool failure never takes ``deskcheck mcp`` down (issue 26 item 3): whatever a call raises,
``MemoryError`` included, inside the tool (its worker thread) or while its answer is put into
MCP's shape (the event loop), the client gets a tool error and the next call is served.

The failures are injected into a real server process, over stdio, through a ``sitecustomize``
module on its ``PYTHONPATH``: no real input should make a tool raise, and a real out-of-memory
would depend on this machine."""

from __future__ import annotations

import textwrap
from pathlib import Path

import anyio
import pytest

from tests.docx.builders import make_docx, p
from tests.mcp.support import stdio_client, text_of

pytestmark = pytest.mark.slow

FAULTS = textwrap.dedent(
    """
    from deskcheck.cli.mcp import paging
    from deskcheck.engine.docx.tools import compare_tools

    def out_of_memory(*args, **kwargs):
        raise MemoryError

    compare_tools.compare_versions = out_of_memory  # inside the tool, on its worker thread
    bound = paging.Pager.bound

    def failing_bound(self, tool, value, owner):  # after the tool, on the event loop
        if tool == "find_text":
            raise MemoryError
        if tool == "read_comments":
            raise RecursionError("maximum recursion depth exceeded")
        return bound(self, tool, value, owner)

    paging.Pager.bound = failing_bound
    """
)


def test_a_failing_tool_is_a_tool_error_and_the_server_keeps_serving(tmp_path: Path, monkeypatch):
    faults = tmp_path / "faults"
    faults.mkdir()
    (faults / "sitecustomize.py").write_text(FAULTS)
    monkeypatch.setenv("PYTHONPATH", str(faults))
    docx = make_docx(tmp_path / "contract.docx", p("The Supplier shall deliver.", para_id="0A000001"))
    other = make_docx(tmp_path / "other.docx", p("The Supplier delivers.", para_id="0A000001"))
    failing = [  # a tool, its arguments, what its error says
        ("compare_versions", {"previous": str(other)}, "ran out of memory"),
        ("find_text", {"query": "Supplier"}, "ran out of memory"),
        ("read_comments", {}, "failed unexpectedly (RecursionError)"),
    ]

    async def scenario():
        answers = []
        async with stdio_client("--docx", str(docx)) as client:
            for name, args, _ in failing:
                answers.append((await client.call_tool(name, args), await client.call_tool("read_document", {})))
        return answers

    for (name, _, says), (failed, after) in zip(failing, anyio.run(scenario), strict=True):
        assert failed.is_error, name
        assert says in failed.content[0].text, (name, failed.content[0].text)
        assert not after.is_error and "The Supplier shall deliver." in text_of(after), name
