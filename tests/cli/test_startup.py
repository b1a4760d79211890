"""Start-up stays light: --version and --help import none of the heavy libraries."""

from __future__ import annotations

import json

import pytest

# PROBE is imported from here by tests/samples/test_cli.py.
from tests.helpers import PROBE, probe_process, top_level_modules  # noqa: F401

# Each case starts a fresh interpreter: left out of the quick loop (pytest -m "not slow").
pytestmark = pytest.mark.slow

HEAVY = ("lxml", "docx", "httpx", "jsonschema", "yaml", "ruamel", "prompt_toolkit")
# The MCP SDK and what it brings: only a starting `deskcheck mcp` server imports them.
MCP_SDK = ("mcp", "mcp_types", "pydantic", "starlette", "uvicorn", "anyio")


@pytest.mark.parametrize(
    "argv",
    [
        ["--version"],
        ["--help"],
        ["call", "--help"],
        ["batch", "--help"],
        ["docx", "--help"],
        ["docx", "compare", "--help"],
        ["docx", "redline", "--help"],
        ["docx", "suggest-changes", "--help"],
        ["docx", "tools", "--help"],
        ["docx", "queue", "--help"],
        ["docx", "queue", "apply", "--help"],
        ["openapi", "--help"],
        ["openapi", "check", "--help"],
        ["openapi", "tools", "--help"],
        ["sample-api", "--help"],
        ["form", "--help"],
        ["form", "set-field-value", "--help"],
        ["repl", "--help"],
        ["demo", "--help"],
        ["mcp", "--help"],
        ["mcp", "replay", "--help"],
    ],
)
def test_no_heavy_imports(argv):
    report = probe_process(*argv)
    assert report["code"] == 0
    loaded = top_level_modules(report)
    assert not loaded & {*HEAVY, *MCP_SDK}, f"{argv} imported {sorted(loaded & {*HEAVY, *MCP_SDK})}"


def test_only_the_invoked_command_is_loaded():
    """Commands are imported on demand: running `call` builds neither the docx nor the openapi
    sub-application."""
    modules = set(probe_process("call", "--help")["modules"])
    assert "deskcheck.cli.commands.call" in modules
    assert not {"deskcheck.cli.commands.docx", "deskcheck.cli.commands.openapi"} & modules


def test_a_form_verb_runs_without_typer(tmp_path):
    """A form tool verb's plain line (what scripts repeat once per edit) is read without Typer
    (cli.form_line) and prints without rich when stdout is not a terminal."""
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"name": {"type": "string"}}}))
    data.write_text('{"name": "Ada"}\n')
    argv = ["form", "set-field-value", "--schema", str(schema), "--data", str(data), '{"path": "/name", "value": "B"}']
    report = probe_process(*argv)
    assert report["code"] == 0
    loaded = top_level_modules(report)
    unwanted = {"typer", "click", "rich", *HEAVY, *MCP_SDK}
    assert not loaded & unwanted, sorted(loaded & unwanted)
    assert json.loads(data.read_text()) == {"name": "Ada"}  # edited in the session, not saved yet


def test_the_postgresql_driver_is_imported_only_for_a_postgresql_store(tmp_path):
    """A form verb on the default (SQLite) store imports neither psycopg nor the PostgreSQL
    store; the same verb with a postgresql:// store that cannot be reached does (and exits 2)."""
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text('{"type": "object", "properties": {"name": {"type": "string"}}}')
    data.write_text('{"name": "Ada"}')
    files = ["--schema", str(schema), "--data", str(data)]
    local = probe_process("form", "set-field-value", *files, '{"path": "/name", "value": "Grace"}')
    assert local["code"] == 0
    assert not {"psycopg", "psycopg_pool"} & top_level_modules(local)
    assert "deskcheck.engine.forms.sessions.store_postgres" not in local["modules"]
    unreachable = "postgresql://u:pw@127.0.0.1:9/d?connect_timeout=2"
    shared = probe_process("form", "describe-state", *files, "--store", unreachable)
    assert shared["code"] == 2 and "psycopg" in top_level_modules(shared)
