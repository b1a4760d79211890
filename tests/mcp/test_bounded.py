"""``deskcheck mcp`` bounded and cancellable, driven by the official SDK client: a long result
arrives whole through its pages (over HTTP, whose client refuses an event over 1 MiB), long calls
send progress, a cancelled call frees the server at once, and a long call by one client does not
hold up another's read."""

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
import pytest

from tests.docx.builders import long_document
from tests.mcp.support import connected, http_client, http_server, json_of, stdio_client

pytestmark = pytest.mark.slow

LONG = 30_000  # paragraphs: a compare of two such versions takes seconds


@pytest.fixture(scope="module")
def versions(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("versions")
    return long_document(folder / "v1.docx", LONG), long_document(folder / "v2.docx", LONG, edited=True)


async def whole(client, tool: str, args: dict, key: str) -> tuple[dict, list]:
    """The first page of ``tool`` and every item of ``key`` across its pages."""
    first = json_of(await client.call_tool(tool, args))
    page, items = first, list(first[key])
    while "continuation" in page.get("paged", {}):
        page = json_of(await client.call_tool("continue_result", {"continuation": page["paged"]["continuation"]}))
        items += page[key]
    return first, items


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_large_read_and_compare_arrive_whole_through_pages(transport, versions, tmp_path):
    previous, current = versions
    expected_blocks = run_tool(current, "read_document", {"maxBlocks": 2000})

    async def scenario():
        async with connected(transport, ["--docx", str(current), "--max-result-chars", "60000"], tmp_path) as client:
            read = await client.call_tool("read_document", {"maxBlocks": 2000})
            assert len(read.content[0].text) <= 60_000
            first, blocks = await whole(client, "read_document", {"maxBlocks": 2000}, "blocks")
            assert first["paged"]["path"] == "/blocks" and first["paged"]["total"] == 2000
            assert blocks == expected_blocks["blocks"]
            # The native continuation of a page does not skip what the page left out.
            assert first["nextAfterBlockId"] == first["blocks"][-1]["blockId"]
            compared, changes = await whole(
                client, "compare_versions", {"previous": previous.name, "format": "json"}, "changes"
            )
            return compared, changes

    compared, changes = anyio.run(scenario)
    full = run_tool(current, "compare_versions", {"previous": str(previous), "format": "json"})
    assert changes == full["changes"] and compared["summaryCounts"] == full["summaryCounts"]


def run_tool(docx: Path, tool: str, args: dict) -> dict:
    from deskcheck.engine.docx.tools.toolset import docx_toolset

    return docx_toolset(docx).call(tool, args).value


def test_progress_is_sent_and_a_cancelled_compare_frees_the_server(versions):
    previous, current = versions
    seen: list[tuple[float, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, message))

    async def scenario():
        async with stdio_client("--docx", str(current), "--readers", "1") as client:
            args = {"previous": previous.name, "format": "json"}
            done = await client.call_tool("compare_versions", args, progress_callback=progress)
            assert not done.is_error
            assert len(seen) >= 3 and [v for v, _ in seen] == sorted({v for v, _ in seen})
            assert any("comparing paragraphs" in (m or "") for _, m in seen)

            # One reader: while the compare runs nothing else could read, unless cancelling frees it.
            with anyio.move_on_after(1.0):
                await client.call_tool("compare_versions", args)
            started = time.monotonic()
            read = await client.call_tool("read_document", {"maxBlocks": 1})
            return time.monotonic() - started, read

    waited, read = anyio.run(scenario)
    assert not read.is_error
    assert waited < 2.0, f"the read waited {waited:.1f} s behind a cancelled compare"


def test_a_long_call_by_one_client_does_not_hold_up_another_clients_read(versions, tmp_path):
    previous, current = versions

    async def scenario():
        with http_server("--docx", str(current), "--http-no-auth", tmp_path=tmp_path) as server:
            async with http_client(server.url) as slow, http_client(server.url) as quick:
                finished: dict[str, float] = {}

                async def compare():
                    await slow.call_tool("compare_versions", {"previous": previous.name, "format": "json"})
                    finished["compare"] = time.monotonic()

                async def read():
                    await anyio.sleep(0.5)  # the compare is under way
                    assert not (await quick.call_tool("read_document", {"maxBlocks": 1})).is_error
                    finished["read"] = time.monotonic()

                async with anyio.create_task_group() as group:
                    group.start_soon(compare)
                    group.start_soon(read)
                return finished

    finished = anyio.run(scenario)
    assert finished["read"] < finished["compare"], "the read waited for the other client's compare"


def test_a_text_result_is_paged_at_a_line_break(tmp_path):
    schema, data = tmp_path / "big.schema.json", tmp_path / "big.json"
    properties = {f"field{n:03d}": {"type": "string", "title": f"Field number {n}"} for n in range(400)}
    schema.write_text(json.dumps({"type": "object", "properties": properties}))
    data.write_text(json.dumps({name: "value " * 8 for name in properties}))

    async def scenario():
        async with stdio_client("--schema", str(schema), "--data", str(data), "--max-result-chars", "4000") as client:
            full_text, continuation = "", None
            page = await client.call_tool("form_describeState", {})
            while True:
                text = page.content[0].text
                assert len(text) <= 4000 and page.structured_content == {"text": text}
                body, _, last = text.rpartition("\n")
                if "continue_result" not in last:
                    return full_text + text
                full_text += body
                continuation = json.loads(last.split("continue_result ", 1)[1].split("}", 1)[0] + "}")
                page = await client.call_tool("continue_result", continuation)

    described = anyio.run(scenario)
    assert described.count("field") >= 400
