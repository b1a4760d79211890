"""Start-up stays light: --version and --help import none of the heavy libraries."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("lxml", "docx", "httpx", "jsonschema", "yaml", "prompt_toolkit")

PROBE = """
import io, json, sys, contextlib
from deskcheck.cli.main import run
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = run({argv!r})
print(json.dumps({{"code": code, "modules": sorted(sys.modules)}}))
"""


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
    ],
)
def test_no_heavy_imports(argv):
    proc = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True, text=True, check=True)
    report = json.loads(proc.stdout)
    assert report["code"] == 0
    loaded = {name.split(".")[0] for name in report["modules"]}
    assert not loaded & set(HEAVY), f"{argv} imported {sorted(loaded & set(HEAVY))}"


def test_only_the_invoked_command_is_loaded():
    """Commands are imported on demand: running `call` builds neither the docx nor the openapi
    sub-application."""
    proc = subprocess.run(
        [sys.executable, "-c", PROBE.format(argv=["call", "--help"])], capture_output=True, text=True, check=True
    )
    modules = set(json.loads(proc.stdout)["modules"])
    assert "deskcheck.cli.commands.call" in modules
    assert not {"deskcheck.cli.commands.docx", "deskcheck.cli.commands.openapi"} & modules


def test_a_form_verb_runs_without_typer(tmp_path):
    """A form tool verb's plain line (what scripts repeat once per edit) is read without Typer
    (cli.form_line) and prints without rich when stdout is not a terminal."""
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"name": {"type": "string"}}}))
    data.write_text('{"name": "Ada"}\n')
    argv = ["form", "set-field-value", "--schema", str(schema), "--data", str(data), '{"path": "/name", "value": "B"}']
    proc = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True, text=True, check=True)
    report = json.loads(proc.stdout)
    assert report["code"] == 0
    loaded = {name.split(".")[0] for name in report["modules"]}
    assert not loaded & {"typer", "click", "rich", *HEAVY}, sorted(loaded & {"typer", "click", "rich", *HEAVY})
    assert json.loads(data.read_text()) == {"name": "Ada"}  # edited in the session, not saved yet
