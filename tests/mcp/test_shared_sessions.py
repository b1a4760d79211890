"""Form sessions are shared between the agent (``deskcheck mcp``) and the developer (``deskcheck
form``, ``deskcheck repl``, each in a process of its own): one store, one session per record and
identity, and saves checked against the source's version (the API's ETag, the file's hash), so
that a save by either side never overwrites the other's unseen."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from deskcheck.samples.records_api import openapi_path
from tests.helpers import run_process
from tests.mcp.support import connected, stdio_client, text_of

pytestmark = pytest.mark.slow

SPEC = str(openapi_path())
GROUP = "sample_dataset_line"
# Over HTTP each client has form sessions of its own unless the server shares them.
SHARE = {"stdio": [], "http": ["--share-sessions"]}
LINE = {"id": "associations", "lineId": "asso-001"}


def api_flags(api, token: str | None = None) -> list[str]:
    return ["--spec", SPEC, "--profile", "write", "--base-url", api.base_url, *(["--token", token] if token else [])]


def developer(api, verb: str, args: dict, *, token: str | None = None, expect: int | None = 0):
    """``deskcheck form VERB --spec ... sample_dataset_line ARGS`` in a process of its own."""
    return run_process("form", verb, *api_flags(api, token), GROUP, json.dumps(args), expect=expect).json


def form_files(folder: Path) -> tuple[Path, Path]:
    schema, data = folder / "event.schema.json", folder / "event.json"
    schema.write_text(
        json.dumps({"type": "object", "properties": {"name": {"type": "string"}, "seats": {"type": "integer"}}})
    )
    data.write_text('{"name": "Launch", "seats": 20}\n')
    return schema, data


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_the_agents_session_is_listed_continued_and_saved_by_the_developer(transport, tmp_path, fresh_sample_api):
    api = fresh_sample_api

    async def scenario():
        async with connected(transport, [*api_flags(api, api.write_token), *SHARE[transport]], tmp_path) as client:
            edit = {**LINE, "path": "/nom", "value": "Voiles de l'agent"}
            assert not (await client.call_tool(f"{GROUP}_setFieldValue", edit)).is_error

            sessions = run_process("form", "sessions").json["result"]
            keys = [(s["key"]["group"], s["key"]["params"], s["modified"]) for s in sessions]
            assert keys == [(GROUP, {**LINE, "api": api.base_url}, True)]
            seen = json.loads(developer(api, "get-data", LINE)["result"])["data"]
            assert seen["nom"] == "Voiles de l'agent"
            developer(api, "set-field-value", {**LINE, "path": "/statut", "value": "en sommeil"})
            repl = run_process(
                "repl", *api_flags(api), GROUP, "id=associations", "lineId=asso-001", stdin="get /nom\nget /statut\n"
            )
            assert "Voiles de l'agent" in repl.stdout and "en sommeil" in repl.stdout

            data = json.loads(text_of(await client.call_tool(f"{GROUP}_getData", LINE)))["data"]
            assert data["statut"] == "en sommeil", "the agent sees the developer's edit"
            saved = developer(api, "save-form", LINE, token=api.write_token)["result"]
            assert saved.startswith('Saved "Edit a dataset record"')
            record = api.get_line("associations", "asso-001")
            assert record["nom"] == "Voiles de l'agent" and record["statut"] == "en sommeil"
            described = text_of(await client.call_tool(f"{GROUP}_describeState", LINE))
            assert "modified" not in described.split("\n", 1)[0]

    anyio.run(scenario)


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_session_the_developer_started_is_continued_and_saved_by_the_agent(transport, tmp_path):
    schema, data = form_files(tmp_path)
    files = ["--schema", str(schema), "--data", str(data)]
    run_process("form", "set-field-value", *files, '{"path": "/seats", "value": 35}')

    async def scenario():
        async with connected(transport, [*files, *SHARE[transport]], tmp_path) as client:
            assert json.loads(text_of(await client.call_tool("form_getData", {})))["data"]["seats"] == 35
            assert not (await client.call_tool("form_setFieldValue", {"path": "/name", "value": "Relaunch"})).is_error
            assert not (await client.call_tool("form_saveForm", {})).is_error

    anyio.run(scenario)
    assert json.loads(data.read_text()) == {"name": "Relaunch", "seats": 35}
    assert [s["modified"] for s in run_process("form", "sessions").json["result"]] == [False]


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_stale_save_of_a_file_is_refused_on_either_side(transport, tmp_path):
    """The agent (identity agent) and the developer edit the same file in sessions of their own:
    whoever saves second is refused (the file's hash changed since that session loaded it), keeps
    its edits, and saves after a reload."""
    schema, data = form_files(tmp_path)
    files = ["--schema", str(schema), "--data", str(data)]

    async def scenario():
        async with connected(transport, [*files, "--identity", "agent"], tmp_path) as client:
            assert not (await client.call_tool("form_setFieldValue", {"path": "/name", "value": "Agent"})).is_error
            run_process("form", "set-field-value", *files, '{"path": "/seats", "value": 30}')
            run_process("form", "save-form", *files, "{}")
            assert json.loads(data.read_text()) == {"name": "Launch", "seats": 30}

            stale = await client.call_tool("form_saveForm", {})
            assert stale.is_error and "form_reloadForm" in text_of(stale)
            assert json.loads(data.read_text()) == {"name": "Launch", "seats": 30}, "the developer's save is kept"
            kept = json.loads(text_of(await client.call_tool("form_getData", {})))["data"]
            assert kept["name"] == "Agent", "the agent's edit is kept in its session"

            assert not (await client.call_tool("form_reloadForm", {})).is_error
            assert not (await client.call_tool("form_setFieldValue", {"path": "/name", "value": "Agent"})).is_error
            # The developer edits too, before the agent saves: the developer's session is the stale one.
            run_process("form", "set-field-value", *files, '{"path": "/seats", "value": 50}')
            assert not (await client.call_tool("form_saveForm", {})).is_error
            assert json.loads(data.read_text()) == {"name": "Agent", "seats": 30}

            refused = run_process("form", "save-form", *files, "{}", expect=1).json
            assert "form_reloadForm" in refused["error"]
            assert json.loads(data.read_text()) == {"name": "Agent", "seats": 30}, "the agent's save is kept"
            # A session without edits of its own just follows the file, and says so.
            run_process("form", "discard", *files)
            run_process("form", "get-data", *files)
            assert not (await client.call_tool("form_setFieldValue", {"path": "/seats", "value": 40})).is_error
            assert not (await client.call_tool("form_saveForm", {})).is_error
            seen = json.loads(run_process("form", "get-data", *files).json["result"])
            assert seen["data"] == {"name": "Agent", "seats": 40} and "changed on disk" in seen["notices"][0]

    anyio.run(scenario)


def test_a_stale_save_of_an_api_record_is_refused_on_either_side(fresh_sample_api, tmp_path):
    """The same over the sample API, where the version is the record's ETag (If-Match, 412)."""
    api = fresh_sample_api

    async def scenario():
        async with stdio_client(*api_flags(api, api.write_token), "--identity", "agent") as client:
            edit = {**LINE, "path": "/nom", "value": "Nom de l'agent"}
            assert not (await client.call_tool(f"{GROUP}_setFieldValue", edit)).is_error
            developer(api, "set-field-value", {**LINE, "path": "/statut", "value": "dissoute"})
            developer(api, "save-form", LINE, token=api.write_token)

            stale = await client.call_tool(f"{GROUP}_saveForm", LINE)
            assert stale.is_error and "412" in text_of(stale) and f"{GROUP}_reloadForm" in text_of(stale)
            assert api.get_line("associations", "asso-001")["statut"] == "dissoute"

            assert not (await client.call_tool(f"{GROUP}_reloadForm", LINE)).is_error
            assert not (await client.call_tool(f"{GROUP}_setFieldValue", edit)).is_error
            assert not (await client.call_tool(f"{GROUP}_saveForm", LINE)).is_error

            developer(api, "set-field-value", {**LINE, "path": "/statut", "value": "active"})
            refused = developer(api, "save-form", LINE, token=api.write_token, expect=1)
            assert "412" in refused["error"]
            record = api.get_line("associations", "asso-001")
            assert record["nom"] == "Nom de l'agent" and record["statut"] == "dissoute"

    anyio.run(scenario)
