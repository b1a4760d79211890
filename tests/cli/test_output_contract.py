"""The README's command-line contract, command by command: what each one prints when piped and
which exit code it gives, on success and on failure (the rule: tool calls and verbs answer with
the envelope; streams with one JSON object per line; exporters of foreign formats with exactly
that format, and nothing on stdout when they fail). One table row per command and outcome."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass

import pytest

from tests.conftest import REPO
from tests.docs import all_text
from tests.helpers import run_cli

CONTRACT = REPO / "samples" / "contract.docx"
SPEC = REPO / "samples" / "records_api" / "openapi.json"
SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}}
KEEP, GONE = "2B165965", "464D8DE6"  # block ids of the sample contract


@dataclass(frozen=True)
class Row:
    name: str
    argv: tuple[str, ...]  # {docx}, {docx2}, {schema}, {data}, {spec}, {queue}, {out} are filled in
    code: int
    shape: str  # envelope, stream, json-export, text, sarif, github, nothing
    stdin: str = ""


def suggest(*ops: dict) -> str:
    return json.dumps({"operations": list(ops)})


DELETE = {"type": "deleteBlock", "blockId": GONE}
MISSING = {"type": "deleteBlock", "blockId": "DEADBEEF"}
ROWS = [
    # tool calls
    Row("call", ("call", "--docx", "{docx}", "read_document", '{"maxBlocks": 1}'), 0, "envelope"),
    Row("call, unknown tool", ("call", "--docx", "{docx}", "no_such_tool"), 2, "envelope"),
    Row("call, tool error", ("call", "--docx", "{docx}", "find_text", '{"query": ""}'), 1, "envelope"),
    Row("docx verb", ("docx", "read-document", "{docx}", '{"maxBlocks": 1}'), 0, "envelope"),
    Row("docx verb, missing file", ("docx", "read-document", "{out}"), 2, "envelope"),
    Row("docx verb, unknown argument key", ("docx", "read-document", "{docx}", '{"maxBlock": 3}'), 2, "envelope"),
    Row("docx verb, bad --mode", ("docx", "suggest-changes", "{docx}", "--mode", "trackd", "{}"), 2, "usage"),
    Row(
        "docx verb, bad --max-operations", ("docx", "suggest-changes", "{docx}", "--max-operations", "abc"), 2, "usage"
    ),
    Row("call, bad --mode", ("call", "--docx", "{docx}", "suggest_changes", "--mode", "trackd"), 2, "usage"),
    Row(
        "form verb, bad --header",
        ("form", "describe-state", "--schema", "{schema}", "--data", "{data}", "-H", "x"),
        2,
        "usage",
    ),
    Row(
        "form verb, unknown argument key",
        ("form", "get-data", "--schema", "{schema}", "--data", "{data}", '{"paht": "/name"}'),
        2,
        "envelope",
    ),
    Row(
        "suggest-changes, all applied",
        ("docx", "suggest-changes", "{docx}", suggest(DELETE), "-o", "{out}"),
        0,
        "envelope",
    ),
    Row(
        "suggest-changes, some skipped",
        ("docx", "suggest-changes", "{docx}", suggest(DELETE, MISSING), "-o", "{out}"),
        3,
        "envelope",
    ),
    Row(
        "suggest-changes, all skipped",
        ("docx", "suggest-changes", "{docx}", suggest(MISSING), "-o", "{out}"),
        1,
        "envelope",
    ),
    Row("form verb", ("form", "describe-state", "--schema", "{schema}", "--data", "{data}"), 0, "envelope"),
    Row(
        "form verb, tool error",
        ("form", "get-data", "--schema", "{schema}", "--data", "{data}", '{"path": "/x/y"}'),
        1,
        "envelope",
    ),
    Row("call --spec, bad arguments", ("call", "--spec", "{spec}", "sample_list_datasets", "[1]"), 2, "envelope"),
    # verbs
    Row("accept-all", ("docx", "accept-all", "{docx}", "--dry-run"), 0, "envelope"),
    Row("reject-all", ("docx", "reject-all", "{docx}", "--dry-run"), 0, "envelope"),
    Row("compare", ("docx", "compare", "{docx}", "{docx2}"), 0, "envelope"),
    Row("compare, unreadable", ("docx", "compare", "{docx}", "{out}"), 2, "envelope"),
    Row("compare --format text", ("docx", "compare", "{docx}", "{docx2}", "--format", "text"), 0, "text"),
    Row("compare --format text, unreadable", ("docx", "compare", "{out}", "{docx2}", "--format", "text"), 2, "nothing"),
    Row(
        "compare --format json, unreadable", ("docx", "compare", "{out}", "{docx2}", "--format", "json"), 2, "envelope"
    ),
    Row("compare, bad format", ("docx", "compare", "{docx}", "{docx2}", "--format", "xml"), 2, "usage"),
    Row("redline", ("docx", "redline", "{docx}", "{docx2}", "-o", "{out}"), 0, "envelope"),
    Row("queue list", ("docx", "queue", "list", "{queue}"), 0, "envelope"),
    Row("queue apply, missing queue", ("docx", "queue", "apply", "{out}", "{docx}"), 2, "envelope"),
    Row("form sessions", ("form", "sessions"), 0, "envelope"),
    Row("form discard", ("form", "discard", "--schema", "{schema}", "--data", "{data}"), 0, "envelope"),
    Row("form restore, no such draft", ("form", "restore", "--draft", "999"), 2, "envelope"),
    Row("openapi check --format json", ("openapi", "check", "{spec}", "--format", "json"), 0, "envelope"),
    Row("openapi check --format json, unreadable", ("openapi", "check", "{docx}", "--format", "json"), 2, "envelope"),
    Row("demo, unusable folder", ("demo", "--output-dir", "{docx}"), 2, "envelope"),
    # streams
    Row("batch", ("batch", "--docx", "{docx}"), 0, "stream", '{"id": 1, "tool": "read_document", "args": {}}\n'),
    Row("batch, a line fails", ("batch", "--docx", "{docx}"), 1, "stream", '{"id": 1, "tool": "nope"}\nnot json\n'),
    Row(
        "batch, a line skips",
        ("batch", "--docx", "{docx}"),
        3,
        "stream",
        json.dumps({"id": 1, "tool": "suggest_changes", "args": json.loads(suggest(DELETE, MISSING))}) + "\n",
    ),
    # exporters and reports in their own format
    Row("docx tools", ("docx", "tools"), 0, "json-export"),
    Row("docx tools --format anthropic", ("docx", "tools", "--format", "anthropic"), 0, "json-export"),
    Row("docx tools, bad format", ("docx", "tools", "--format", "xml"), 2, "usage"),
    Row("docx tools, bad option", ("docx", "tools", "--mode", "sideways"), 2, "usage"),
    Row("docx tools --capabilities", ("docx", "tools", "--capabilities"), 0, "text"),
    Row("openapi tools", ("openapi", "tools", "{spec}"), 0, "json-export"),
    Row("openapi tools --format mcp", ("openapi", "tools", "{spec}", "--format", "mcp"), 0, "json-export"),
    Row("openapi tools, unreadable", ("openapi", "tools", "{docx}"), 2, "nothing"),
    Row("openapi check", ("openapi", "check", "{spec}"), 0, "text"),
    Row("openapi check, unreadable", ("openapi", "check", "{docx}"), 2, "text"),
    Row("openapi check --format sarif", ("openapi", "check", "{docx}", "--format", "sarif"), 2, "sarif"),
    Row("openapi check --format github", ("openapi", "check", "{docx}", "--format", "github"), 2, "github"),
    Row("openapi check, bad format", ("openapi", "check", "{spec}", "--format", "xml"), 2, "usage"),
    Row("openapi tools, bad format", ("openapi", "tools", "{spec}", "--format", "xml"), 2, "usage"),
    Row("--version", ("--version",), 0, "text"),
    # the MCP server: stdout is the protocol's, so a refusal leaves it empty
    Row("mcp, no context", ("mcp",), 2, "nothing"),
    Row("mcp replay, missing log", ("mcp", "replay", "{out}"), 2, "envelope"),
]


@pytest.fixture
def files(tmp_path):
    docx = tmp_path / "contract.docx"
    shutil.copy(CONTRACT, docx)
    docx2 = tmp_path / "contract-v2.docx"
    run_cli("docx", "suggest-changes", str(docx), suggest(DELETE), "--mode", "direct", "-o", str(docx2))
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps(SCHEMA), encoding="utf-8")
    data.write_text('{"name": "Ann"}', encoding="utf-8")
    queue = tmp_path / "queue.jsonl"
    run_cli("docx", "suggest-changes", str(docx), suggest(DELETE), "--queue", str(queue))
    names = {"docx": docx, "docx2": docx2, "schema": schema, "data": data, "spec": SPEC, "queue": queue}
    return {name: str(path) for name, path in names.items()} | {"out": str(tmp_path / "out.docx")}


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_each_command_prints_its_documented_shape_and_exit_code(row, files):
    argv = [files.get(word[1:-1], word) if word.startswith("{") and word.endswith("}") else word for word in row.argv]
    run = run_cli(*argv, stdin=row.stdin, expect=row.code)
    out = run.stdout
    if row.shape == "envelope":
        envelope = run.json
        assert envelope["ok"] is (row.code == 0)
        assert set(envelope) <= {"ok", "result", "error"} and ("result" in envelope or "error" in envelope)
        if row.code != 0:
            assert envelope["error"]
        if row.code == 3:
            assert envelope["result"]["applied"] and envelope["result"]["skipped"]
    elif row.shape == "stream":
        lines = run.json_lines
        assert lines and all({"id", "ok"} <= set(line) for line in lines)
        assert all(line["ok"] for line in lines) is (row.code == 0)
    elif row.shape == "json-export":
        exported = json.loads(out)
        assert not (isinstance(exported, dict) and "ok" in exported), "an exporter never wraps its format"
        tools = exported["tools"] if isinstance(exported, dict) else exported
        assert tools and all(("name" in tool) or ("function" in tool) for tool in tools)
    elif row.shape == "nothing":
        assert out == "" and run.stderr.startswith("error: ")
    elif row.shape == "usage":  # a line the parser refuses: the usage on stderr, nothing on stdout
        assert out == "" and run.stderr.startswith("Usage: deskcheck ") and "\nError: " in run.stderr
    elif row.shape == "sarif":
        assert json.loads(out)["version"] == "2.1.0"
    elif row.shape == "github":
        assert out and all(line.startswith("::") for line in out.splitlines())
    else:
        assert out.strip() and not out.lstrip().startswith('{"ok"')
    if row.code != 0:
        # Errors reach stderr in every outcome, also when stdout goes to a file or a pipe.
        assert "error: " in run.stderr or "Error: " in run.stderr


def test_the_json_flag_decodes_a_text_result_that_holds_json(files):
    args = ("form", "get-data", "--schema", files["schema"], "--data", files["data"])
    as_text = run_cli(*args).json["result"]
    assert json.loads(as_text) == {"data": {"name": "Ann"}, "valid": True}, "piped, an agent's text"
    assert run_cli(*args, "--json").json["result"] == {"data": {"name": "Ann"}, "valid": True}
    # Text that is not JSON stays text.
    described = run_cli("form", "describe-state", "--schema", files["schema"], "--data", files["data"], "--json")
    assert isinstance(described.json["result"], str)
    batch = run_cli("--json", "batch", "--schema", files["schema"], "--data", files["data"],
                    stdin='{"id": 1, "tool": "form_getData", "args": {"path": "/name"}}\n')  # fmt: skip
    assert batch.json_lines == [{"id": 1, "ok": True, "result": {"data": "Ann", "valid": True}}]


def test_the_repl_gives_the_same_exit_codes_as_the_cli(files):
    docx = files["docx"]
    # A queued replace that goes stale: the block changes (through `call`) before the batch is sent.
    change_now = "call suggest_changes " + json.dumps(
        {"operations": [{"type": "replaceInBlock", "blockId": KEEP, "find": "invoice", "replace": "bill"}]}
    )
    stale = f"replace {KEEP} thirty => forty\n{change_now}"
    partial = run_cli("repl", "--docx", docx, stdin=f"delete {GONE}\n{stale}\napply\n", expect=3)
    assert "line 4 failed: apply" in partial.stderr
    run_cli("repl", "--docx", docx, stdin=f"revert\n{stale}\napply\n", expect=1)
    called = run_cli(
        "repl", "--docx", docx, stdin=f"revert\ncall suggest_changes {suggest(DELETE, MISSING)}\n", expect=3
    )
    envelope = json.loads(called.stdout.strip().splitlines()[-1])
    assert envelope["ok"] is False and envelope["result"]["skipped"]


def test_every_command_has_a_row():
    from deskcheck.cli.app import COMMANDS

    covered = {row.argv[0] for row in ROWS}
    assert set(COMMANDS) - covered <= {"repl", "sample-api"}  # tested above / below
    readme = all_text()
    for command in COMMANDS:
        assert f"`{command}" in readme or f"deskcheck {command}" in readme


@pytest.mark.slow
def test_sample_api_announces_its_address_as_an_envelope():
    import subprocess

    from tests.helpers import deskcheck_executable

    proc = subprocess.Popen([deskcheck_executable(), "sample-api", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        envelope = json.loads(proc.stdout.readline())
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert envelope["ok"] is True and envelope["result"]["url"].startswith("http://127.0.0.1:")
