"""``deskcheck mcp`` driven by the official SDK's client over stdio and over streamable HTTP:
the tool list is the exporters' (names, definitions, annotations), the instructions are the
families', each family's tools work, and failures are tool errors carrying the CLI's message."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from deskcheck.engine.docx.tools.tooldefs import DOCX_INSTRUCTIONS, UNSUPPORTED_TOOLS
from deskcheck.samples.records_api import openapi_path
from tests.docx.builders import make_docx, p
from tests.helpers import run_cli, run_process
from tests.mcp.support import connected, definitions, json_of, stdio_client, text_of

pytestmark = pytest.mark.slow

SPEC = str(openapi_path())
LINE = {"id": "associations", "lineId": "asso-001"}
SCHEMA = {
    "type": "object",
    "title": "Event",
    "required": ["name"],
    "properties": {"name": {"type": "string", "title": "Name"}, "seats": {"type": "integer", "minimum": 1}},
}


def contract(path: Path) -> Path:
    return make_docx(
        path,
        p("The Supplier shall deliver the goods.", para_id="0A000001")
        + p("Payment is due in 30 days.", para_id="0A000002"),
    )


def form_files(folder: Path) -> tuple[Path, Path]:
    schema, data = folder / "event.schema.json", folder / "event.json"
    schema.write_text(json.dumps(SCHEMA))
    data.write_text('{"name": "Launch", "seats": 20}\n')
    return schema, data


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_every_family_listed_as_exported_and_called(transport, tmp_path, fresh_sample_api):
    api = fresh_sample_api
    docx = contract(tmp_path / "contract.docx")
    schema, data = form_files(tmp_path)
    api_flags = ["--profile", "write", "--base-url", api.base_url, "--token", api.write_token]
    args = ["--docx", str(docx), "--spec", SPEC, *api_flags, "--schema", str(schema), "--data", str(data)]

    exported_docx = json.loads(run_cli("docx", "tools", "--format", "mcp").stdout)
    exported_api = json.loads(run_cli("openapi", "tools", SPEC, "--profile", "write", "--format", "mcp").stdout)
    form_tools = run_cli("call", "--schema", str(schema), "--data", str(data), "nope", "{}", expect=2).json["error"]

    async def scenario():
        async with connected(transport, args, tmp_path) as client:
            assert client.server_info.name == "deskcheck"
            listed = definitions(await client.list_tools())
            examples = {d["name"]: d.pop("_meta")["inputExamples"] for d in listed if "_meta" in d}
            assert examples["sample_search_records"][0] == {"datasetId": "associations", "query": "voile"}
            assert listed.pop()["name"] == "continue_result"
            names = [d["name"] for d in listed]
            assert listed[: len(exported_docx)] == exported_docx
            assert listed[len(exported_docx) : len(exported_docx) + len(exported_api)] == exported_api
            form_names = names[len(exported_docx) + len(exported_api) :]
            assert form_names and all(name.startswith("form_") and name in form_tools for name in form_names)
            by_name = {d["name"]: d for d in listed}
            assert by_name["read_document"]["annotations"]["readOnlyHint"] is True
            assert by_name["sample_delete_record"]["annotations"]["destructiveHint"] is True
            assert by_name["form_saveForm"]["annotations"]["idempotentHint"] is True
            instructions = client.instructions or ""
            assert f"# contract.docx (a .docx review)\n\n{DOCX_INSTRUCTIONS}" in instructions
            assert f"# {SPEC} (an annotated OpenAPI document)" in instructions
            assert "# event.json (a file-backed form)" in instructions and "form_saveForm" in instructions

            # docx: a read answers JSON, as text and as structured content; an edit lands in the file.
            read = await client.call_tool("read_document", {"maxBlocks": 1})
            assert json_of(read)["blocks"][0]["text"] == "The Supplier shall deliver the goods."
            assert read.structured_content == json_of(read)
            edit = {"type": "replaceInBlock", "blockId": "0A000002", "find": "30 days", "replace": "45 days"}
            assert json_of(await client.call_tool("suggest_changes", {"operations": [edit]}))["status"] == "applied"
            changes = run_process("docx", "read-changes", str(docx)).json["result"]["changes"]
            assert [(c["type"], c["text"]) for c in changes] == [("deletion", "30"), ("insertion", "45")]

            # openapi: a plain tool, then an editor group's form over the sample API.
            listed_datasets = await client.call_tool("sample_list_datasets", {})
            assert not listed_datasets.is_error and "associations" in text_of(listed_datasets)
            described = await client.call_tool("sample_dataset_line_describeState", LINE)
            assert "Les Voiles de l'Iroise" in text_of(described)
            renamed = {**LINE, "path": "/nom", "value": "Voiles"}
            assert not (await client.call_tool("sample_dataset_line_setFieldValue", renamed)).is_error
            saved = await client.call_tool("sample_dataset_line_saveForm", LINE)
            assert not saved.is_error and text_of(saved).startswith('Saved "Edit a dataset record"')
            assert api.get_line("associations", "asso-001")["nom"] == "Voiles"

            # form: set a field, save, the data file is written.
            assert not (await client.call_tool("form_setFieldValue", {"path": "/seats", "value": 40})).is_error
            assert not (await client.call_tool("form_saveForm", {})).is_error
            assert json.loads(data.read_text()) == {"name": "Launch", "seats": 40}

            # A failure is a tool error with the message the CLI prints.
            failed = await client.call_tool("form_setFieldValue", {"path": "/seats", "value": 0})
            assert failed.structured_content == {"text": text_of(failed)} and "not valid" in text_of(failed)
            refused = await client.call_tool("read_document", {"maxBlocks": 0})
            assert refused.is_error
            cli = run_cli("call", "--docx", str(docx), "read_document", '{"maxBlocks": 0}', expect=None).json
            assert text_of(refused) == cli["error"]

    anyio.run(scenario)


def test_errors_carry_the_cli_messages(tmp_path):
    """Unknown tools, unsupported names, bad arguments and failed edits: each a tool error whose
    text is the CLI's error for the same call."""
    docx = contract(tmp_path / "contract.docx")
    calls = [
        ("read_documnt", {}),
        ("read_document", {"bogus": 1}),
        ("add_comment", {"blockId": "0A000001"}),
        ("suggest_changes", {"operations": [{"type": "deleteBlock"}]}),
    ]
    calls += [(name, {}) for name in sorted(UNSUPPORTED_TOOLS)[:1]]

    partly = {"operations": [{"type": "deleteBlock", "blockId": "0A000002"}, {"type": "deleteBlock", "blockId": "FF"}]}

    async def scenario():
        answers = []
        async with stdio_client("--docx", str(docx)) as client:
            for name, args in calls:
                answers.append(await client.call_tool(name, args))
            return answers, await client.call_tool("suggest_changes", partly)

    answers, partial = anyio.run(scenario)
    for (name, args), answer in zip(calls, answers, strict=True):
        cli = run_cli("call", "--docx", str(docx), name, json.dumps(args), expect=None).json
        assert not cli["ok"], (name, cli)
        assert answer.is_error and text_of(answer) == cli["error"], name
    assert "Did you mean read_document," in text_of(answers[0])

    # A call that skipped some of its operations fails as the CLI's does (exit 3 there), and keeps
    # the result: what was applied, and why the rest was skipped.
    message, result = (block.text for block in partial.content)
    assert partial.is_error and message.startswith("1 of 2 operations were skipped") and "applied" in message
    assert json.loads(result) == partial.structured_content
    assert len(partial.structured_content["applied"]) == 1 and len(partial.structured_content["skipped"]) == 1


def test_two_documents_get_prefixes_and_their_own_files(tmp_path):
    first, second = contract(tmp_path / "contract.docx"), contract(tmp_path / "nda.docx")
    schema, data = form_files(tmp_path)

    args = ["--docx", str(first), "--docx", str(second), "--schema", str(schema), "--data", str(data)]

    async def scenario():
        async with stdio_client(*args) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            assert "contract_read_document" in names and "nda_read_document" in names
            assert "read_document" not in names and "form_getData" in names, "only clashing contexts are prefixed"
            assert "prefix `nda_`" in (client.instructions or "")
            comment = {"blockId": "0A000001", "text": "Only in the NDA."}
            assert not (await client.call_tool("nda_add_comment", comment)).is_error
            unknown = await client.call_tool("read_document", {})
            hint = text_of(unknown).split("Did you mean ", 1)[1].split("?", 1)[0]
            assert unknown.is_error and {"contract_read_document", "nda_read_document"} <= set(hint.split(", "))

    anyio.run(scenario)
    assert run_cli("docx", "read-comments", str(second)).json["result"]["comments"]
    assert not run_cli("docx", "read-comments", str(first)).json["result"]["comments"]


def test_a_served_document_is_written_as_each_change_is_made(tmp_path):
    """`deskcheck docx read-changes` in another process sees each change while the server runs."""
    docx = contract(tmp_path / "contract.docx")

    async def scenario():
        async with stdio_client("--docx", str(docx), "--author", "Agent") as client:
            for number, (find, replace) in enumerate((("30 days", "45 days"), ("goods", "software")), start=1):
                block = "0A000002" if number == 1 else "0A000001"
                edit = {"type": "replaceInBlock", "blockId": block, "find": find, "replace": replace}
                assert not (await client.call_tool("suggest_changes", {"operations": [edit]})).is_error
                changes = run_process("docx", "read-changes", str(docx)).json["result"]["changes"]
                assert len(changes) == 2 * number and {c["author"] for c in changes} == {"Agent"}

    anyio.run(scenario)


def test_compare_versions_reads_only_beside_the_served_documents(tmp_path):
    """A document under review may ask the agent to read another file: over MCP, compare_versions
    takes only files in the folders of the served documents."""
    from deskcheck.cli.context import ContextOptions
    from deskcheck.cli.mcp.catalogue import contexts_from_flags, open_catalogue

    served = contract(tmp_path / "contract.docx")
    beside = contract(tmp_path / "contract-v1.docx")
    (tmp_path / "private").mkdir()
    elsewhere = contract(tmp_path / "private" / "salaries.docx")
    catalogue = open_catalogue(contexts_from_flags(ContextOptions(), [served], None, None, None))

    assert catalogue.call("compare_versions", {"previous": str(beside)}).ok
    for args in ({"previous": str(elsewhere)}, {"previous": str(beside), "current": str(elsewhere)}):
        refused = catalogue.call("compare_versions", args)
        assert not refused.ok and refused.code == "outsideServedFolders"
        assert str(tmp_path) in refused.error and "deskcheck docx compare" in refused.error
