"""What a client learns from ``deskcheck mcp`` holds: every tool's structured result validates
against its output schema, hints say what calls really do, names stay within 64 characters and
every name a text mentions is served, skills and documents are resources, documented arguments
pass the advertised schemas, and relative paths are read beside the served document."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio
import jsonschema
import pytest

from deskcheck.samples.records_api import openapi_path
from tests.docx.builders import HEADING_STYLE, long_document, make_docx, p
from tests.mcp.support import connected, definitions, http_client, http_server, json_of, stdio_client, text_of

pytestmark = pytest.mark.slow

SPEC = str(openapi_path())
LINE = {"id": "associations", "lineId": "asso-001"}
NEW_RECORD = {
    "statut": "active",
    "date_creation": "2024-09-01",
    "departement": {"code": "29", "nom": "Finistère"},
    "bureau": [{"nom": "Anne Guivarc'h", "fonction": "présidence"}],
}


def contract(path: Path) -> Path:
    return make_docx(path, p("The Supplier shall deliver the goods.", para_id="0A000001") + p("Payment in 30 days."))


def test_every_tool_answers_what_its_output_schema_describes(tmp_path, fresh_sample_api):
    """The SDK client validates each structured result against the tool's output schema (it
    raises otherwise), and the test checks it again: every tool the server lists is called at
    least once (a new tool without a call here fails the test)."""
    api = fresh_sample_api
    docx = make_docx(
        tmp_path / "contract.docx",
        p("Delivery", ppr=HEADING_STYLE)
        + p("The Supplier shall deliver the goods.", para_id="0A000001")
        + p("Payment in 30 days."),
    )
    shutil.copy(docx, tmp_path / "v1.docx")
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(
        json.dumps(
            {
                "type": "object",
                "properties": {
                    "seats": {"type": "integer"},
                    "plan": {"type": "string", "enum": ["basic", "pro"]},
                    "contacts": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"name": {"type": "string"}}},
                    },
                },
            }
        )
    )
    data.write_text('{"seats": 2, "contacts": [{"name": "Ann"}]}')
    args = ["--docx", str(docx), "--spec", SPEC, "--profile", "write", "--base-url", api.base_url]
    args += ["--token", api.write_token, "--schema", str(schema), "--data", str(data)]
    big = long_document(tmp_path / "long.docx", 3_000)
    new_line = {"id": "associations"}

    async def scenario():
        async with stdio_client(*args, "--max-result-chars", "2000") as client:
            listed = {d["name"]: d for d in definitions(await client.list_tools())}
            assert all("outputSchema" in d and d.get("title") for d in listed.values())
            called: set[str] = set()

            async def check(name: str, call_args: dict) -> dict:
                result = await client.call_tool(name, call_args)
                assert not result.is_error, (name, text_of(result))
                jsonschema.validate(result.structured_content, listed[name]["outputSchema"])
                called.add(name)
                return result.structured_content

            outline = await check("get_document_outline", {})
            stories = await check("list_stories", {})
            await check("add_comment", {"blockId": "0A000001", "text": "Which goods?"})
            comment_id = (await check("read_comments", {}))["comments"][0]["id"]
            edit = {"type": "replaceInBlock", "blockId": "0A000001", "find": "goods", "replace": "software"}
            calls = [
                ("read_document", {}),
                ("find_text", {"query": "Supplier"}),
                ("read_story", {"handle": stories["stories"][0]["handle"]}),
                ("reply_comment", {"commentId": comment_id, "text": "The software."}),
                ("resolve_comment", {"commentId": comment_id}),
                ("suggest_changes", {"operations": [edit]}),
                ("compare_versions", {"previous": "v1.docx"}),
                ("compare_versions", {"previous": "v1.docx", "format": "json"}),
                ("sample_list_datasets", {}),
                ("sample_describe_dataset", {"datasetId": "associations"}),
                ("sample_search_records", {"datasetId": "associations", "query": "voiles"}),
                ("sample_get_record", {"datasetId": "associations", "lineId": "asso-001"}),
                ("sample_dataset_line_getData", LINE),
                ("sample_dataset_line_describeState", LINE),
                ("sample_dataset_line_getFieldSuggestions", {**LINE, "path": "/departement", "query": "gironde"}),
                ("sample_dataset_line_setFieldValue", {**LINE, "path": "/email", "value": "a@b.fr"}),
                ("sample_dataset_line_setData", {**LINE, "data": {"email": "c@d.fr"}}),
                ("sample_dataset_line_editArray", {**LINE, "path": "/bureau", "action": "remove"}),
                ("sample_dataset_line_saveForm", LINE),
                ("sample_dataset_line_reloadForm", LINE),
                ("sample_dataset_new_line_describeState", new_line),
                ("sample_dataset_new_line_getData", new_line),
                (
                    "sample_dataset_new_line_getFieldSuggestions",
                    {**new_line, "path": "/departement", "query": "gironde"},
                ),
                ("sample_dataset_new_line_setFieldValue", {**new_line, "path": "/email", "value": "e@f.fr"}),
                ("sample_dataset_new_line_setData", {**new_line, "data": {"email": "g@h.fr"}}),
                ("sample_dataset_new_line_editArray", {**new_line, "path": "/bureau", "action": "add"}),
                ("sample_dataset_new_line_reloadForm", new_line),
                ("form_getData", {}),
                ("form_setFieldValue", {"path": "/seats", "value": 3}),
                ("form_getFieldSuggestions", {"path": "/plan"}),
                ("form_setData", {"data": {"plan": "pro"}}),
                ("form_editArray", {"path": "/contacts", "action": "add"}),
                ("form_describeState", {}),
                ("form_saveForm", {}),
                ("form_reloadForm", {}),
            ]
            calls.append(("read_section", {"handle": outline["sections"][0]["handle"]}))
            for name, call_args in calls:
                await check(name, call_args)
            changes = (await check("read_changes", {}))["changes"]
            await check("accept_change", {"changeIds": [changes[0]["id"]]})
            await check("suggest_changes", {"operations": [{**edit, "find": "Supplier", "replace": "Vendor"}]})
            pending = (await check("read_changes", {}))["changes"]
            await check("reject_change", {"changeIds": [pending[0]["id"]]})
            # A result over the cap (2,000 characters here) is paged: the continuation tool too.
            paged = await check("compare_versions", {"previous": str(big), "format": "json"})
            await check("continue_result", {"continuation": paged["paged"]["continuation"]})
            line = await check("sample_get_record", {"datasetId": "associations", "lineId": "asso-002"})
            assert line
            await check("sample_delete_record", {"datasetId": "associations", "lineId": "asso-002"})
            # The new line's save creates a record; it is the last call of that group.
            await check("sample_dataset_new_line_setData", {**new_line, "data": {"nom": "Club", **NEW_RECORD}})
            await check("sample_dataset_new_line_saveForm", new_line)
            got = json_of(await client.call_tool("form_getData", {}))
            assert got["data"]["seats"] == 3, "getData answers its JSON, not text"
            assert called == set(listed), f"tools never called: {sorted(set(listed) - called)}"

    anyio.run(scenario)


def test_hints_say_what_each_family_really_does(tmp_path):
    docx = contract(tmp_path / "contract.docx")

    async def hints(*args: str) -> dict[str, dict]:
        async with stdio_client(*args) as client:
            return {d["name"]: d["annotations"] for d in definitions(await client.list_tools())}

    tracked = anyio.run(hints, "--docx", str(docx))
    direct = anyio.run(hints, "--docx", str(docx), "--mode", "direct")
    api = anyio.run(hints, "--spec", SPEC, "--profile", "write")
    assert tracked["suggest_changes"]["destructiveHint"] is False, "tracked changes can be rejected"
    assert direct["suggest_changes"]["destructiveHint"] is True, "direct mode rewrites text for good"
    assert tracked["resolve_comment"]["idempotentHint"] is True and tracked["read_document"]["readOnlyHint"]
    assert all(not h["openWorldHint"] for h in tracked.values()), "a .docx is a closed world"
    assert all(h["openWorldHint"] for name, h in api.items() if "_dataset_" in name), "form tools reach the API"
    assert api["sample_list_datasets"]["openWorldHint"] is False, "the document's own annotation wins"
    assert api["sample_dataset_line_saveForm"]["destructiveHint"] is True, "a PUT replaces the whole record"
    assert api["sample_delete_record"]["destructiveHint"] is True
    assert api["sample_list_datasets"]["readOnlyHint"] is True


def test_two_specs_get_names_of_64_characters_at_most_and_texts_name_the_served_tools(tmp_path):
    first = tmp_path / "records_api_production_environment.json"
    second = tmp_path / "records_api_staging_environment.json"
    shutil.copy(SPEC, first)
    shutil.copy(SPEC, second)

    async def scenario():
        async with stdio_client("--spec", str(first), "--spec", str(second), "--profile", "write") as client:
            listed = definitions(await client.list_tools())
            names = {d["name"] for d in listed}
            assert max(len(name) for name in names) <= 64
            prefixed = [name for name in names if name.endswith("_dataset_new_line_getFieldSuggestions")]
            assert len(prefixed) == 2 and all(name.split("_")[0] == "records" for name in prefixed)
            texts = [d["description"] for d in listed] + [client.instructions or ""]
            failed = await client.call_tool(sorted(prefixed)[0], {"id": "x"})
            texts.append(text_of(failed))
            return names, texts

    names, texts = anyio.run(scenario)
    import re

    mentioned = {m for text in texts for m in re.findall(r"[A-Za-z0-9_]*sample_dataset_[A-Za-z_]+", text)}
    # Every mention of a tool is a name served, prefix and all (never the bare one).
    assert mentioned and all(m.rstrip("_") in names or m.endswith("_") for m in mentioned), mentioned - names
    bare = [m for text in texts for m in re.findall(r"(?<![A-Za-z0-9_])sample_dataset_line_reloadForm\b", text)]
    assert not bare, "a text names a tool this server does not serve"


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_skills_and_the_document_are_resources_and_prompts(transport, tmp_path):
    async def scenario():
        async with connected(transport, ["--spec", SPEC, "--profile", "write"], tmp_path) as client:
            resources = {str(r.uri): r for r in (await client.list_resources()).resources}
            skill = resources["deskcheck://skills/editing-records"]
            body = (await client.read_resource(str(skill.uri))).contents[0].text
            document = next(uri for uri in resources if uri.startswith("deskcheck://documents/"))
            served = (await client.read_resource(document)).contents[0].text
            prompts = {prompt.name for prompt in (await client.list_prompts()).prompts}
            prompt = await client.get_prompt("editing-records")
            return body, served, prompts, prompt, client.instructions

    body, served, prompts, prompt, instructions = anyio.run(scenario)
    document = json.loads(Path(SPEC).read_text())
    skill = next(s for s in document["x-agent"]["skills"] if s["name"] == "editing-records")
    text = skill["body"]["en"] if isinstance(skill["body"], dict) else skill["body"]
    assert text.strip() in body
    assert json.loads(served) == document
    assert "editing-records" in prompts and prompt.messages[0].content.text == body
    assert "deskcheck://skills/editing-records" in instructions or "deskcheck://skills/<id>" in instructions


def test_documented_arguments_pass_the_advertised_schemas(tmp_path):
    """x-agent examples, and the documented null that clears a style, validate against the
    schemas a client sees (clients that validate before sending would refuse them otherwise)."""
    docx = contract(tmp_path / "contract.docx")

    async def scenario():
        async with stdio_client("--docx", str(docx), "--spec", SPEC, "--profile", "write") as client:
            listed = {d["name"]: d for d in definitions(await client.list_tools())}
            checked = 0
            for definition in listed.values():
                for example in definition.get("_meta", {}).get("inputExamples", []):
                    jsonschema.validate(example, definition["inputSchema"])
                    checked += 1
            clear = {"type": "setBlockParagraphProperties", "blockId": "0A000001", "styleId": None}
            jsonschema.validate({"operations": [clear]}, listed["suggest_changes"]["inputSchema"])
            result = await client.call_tool("suggest_changes", {"operations": [clear]})
            return checked, result

    checked, result = anyio.run(scenario)
    assert checked >= 2
    # Understood and checked against the block (which has no style to clear), not refused as input.
    assert not result.is_error or "noopOperation" in result.content[-1].text, result.content


def test_relative_paths_are_read_beside_the_served_document(tmp_path, monkeypatch):
    folder = tmp_path / "review"
    folder.mkdir()
    served = contract(folder / "contract.docx")
    shutil.copy(served, folder / "contract-v1.docx")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)

    async def scenario():
        async with stdio_client("--docx", str(served)) as client:
            beside = await client.call_tool("compare_versions", {"previous": "contract-v1.docx"})
            escaped = await client.call_tool("compare_versions", {"previous": "../secret.docx"})
            return beside, escaped

    beside, escaped = anyio.run(scenario)
    assert not beside.is_error, text_of(beside)
    assert escaped.is_error and str(tmp_path / "secret.docx") in text_of(escaped)


def test_two_http_clients_never_see_each_others_unsaved_edits(tmp_path):
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"name": {"type": "string"}}}))
    data.write_text('{"name": "Launch"}')

    async def scenario():
        files = ["--schema", str(schema), "--data", str(data)]
        with http_server(
            *files, "--http-token", "alice-token", "--http-token", "bob-token", tmp_path=tmp_path
        ) as server:
            async with http_client(server.url, "alice-token") as alice, http_client(server.url, "bob-token") as bob:
                edit = {"path": "/name", "value": "Alice's draft"}
                assert not (await alice.call_tool("form_setFieldValue", edit)).is_error
                seen = json_of(await bob.call_tool("form_getData", {}))["data"]
                assert seen == {"name": "Launch"}, "Bob reads Alice's unsaved edit"
                assert not (await bob.call_tool("form_saveForm", {})).is_error
                assert json.loads(data.read_text()) == {"name": "Launch"}, "Bob's save carried Alice's edit"
                assert json_of(await alice.call_tool("form_getData", {}))["data"] == {"name": "Alice's draft"}

    anyio.run(scenario)
