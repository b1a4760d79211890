"""Help that teaches (issue 29, item 2): each tool verb's --help lists its JSON argument keys
(type, required, what for) from the tool's input schema and one example that runs; `docx tools
NAME` shows one tool; placeholders name what to give; `openapi rule NAME` explains a rule."""

from __future__ import annotations

import json
import re
import shlex
import shutil

import pytest

from tests.conftest import REPO
from tests.helpers import run_cli

DOCX_VERBS = [
    "read-document", "get-document-outline", "read-section", "list-stories", "read-story", "find-text",
    "read-comments", "read-changes", "compare-versions", "suggest-changes", "add-comment", "reply-comment",
    "resolve-comment", "accept-change", "reject-change",
]  # fmt: skip
FORM_VERBS = [
    "get-data", "set-data", "describe-state", "set-field-value", "get-field-suggestions", "edit-array", "save-form",
    "reload-form",
]  # fmt: skip


def _help(*argv: str) -> str:
    return run_cli(*argv, "--help").stdout


def _docx_schema(tool: str) -> dict:
    from deskcheck.engine.docx.tools.toolset import docx_toolset

    return dict(docx_toolset(None).get(tool).input_schema)


def test_every_docx_tool_has_a_verb_and_an_example():
    from deskcheck.cli.help_examples import DOCX
    from deskcheck.engine.docx.tools.tooldefs import DOCX_TOOL_SPECS

    names = [spec.name for spec in DOCX_TOOL_SPECS]
    assert [name.replace("_", "-") for name in names] == DOCX_VERBS
    assert set(DOCX) == set(names)


@pytest.mark.parametrize("verb", DOCX_VERBS)
def test_a_docx_verb_s_help_lists_its_json_arguments_and_an_example(verb):
    from deskcheck.cli.help_examples import docx_example

    text = _help("docx", verb)
    tool = verb.replace("-", "_")
    schema = _docx_schema(tool)
    arguments = text.split("JSON arguments (ARGS):\n", 1)[1]
    for key in schema["properties"]:
        assert re.search(rf"^  {re.escape(key)} ", arguments, re.MULTILINE), (verb, key)
    for key in schema.get("required", []):
        assert re.search(rf"^  {re.escape(key)} .*required", arguments, re.MULTILINE), (verb, key)
    assert "Example:\n  " + docx_example(tool) in text


def test_the_argument_lines_say_types_and_what_for():
    text = _help("docx", "read-document")
    assert re.search(r"maxBlocks\s+integer 1-2000\. Most blocks to return", text)
    suggest = _help("docx", "suggest-changes")
    assert re.search(r"operations\s+array of objects, required\.", suggest)
    assert re.search(r"replaceInBlock\s+blockId\*, find\*, replace\*, comment", suggest)
    section = _help("docx", "read-section")
    assert re.search(r"headingBlockId\s+string\. Instead of handle", section)


@pytest.mark.parametrize("verb", FORM_VERBS)
def test_a_form_verb_s_help_lists_its_json_arguments_and_an_example(verb):
    from deskcheck.cli.commands.form_verbs import tool_schemas, tool_verbs
    from deskcheck.cli.help_examples import form_example

    tool_verb = tool_verbs()[verb][0]
    text = _help("form", verb)
    schema = tool_schemas()[tool_verb]
    for key in schema["properties"]:
        assert re.search(rf"^  {re.escape(key)} ", text, re.MULTILINE), (verb, key)
    for key in schema.get("required", []):
        assert re.search(rf"^  {re.escape(key)} .*required", text, re.MULTILINE), (verb, key)
    if not schema["properties"]:
        assert "none: give {} or leave ARGS out." in text
    assert "path parameters" in text and "Example:\n  " + form_example(tool_verb, verb) in text


def test_every_example_is_valid_for_its_tool():
    import jsonschema

    from deskcheck.cli.commands.form_verbs import tool_schemas
    from deskcheck.cli.help_examples import DOCX, FORM

    for tool, (_, _, args) in DOCX.items():
        jsonschema.validate(args, _docx_schema(tool))
    schemas = tool_schemas()
    assert set(FORM) == set(schemas)
    for tool_verb, args in FORM.items():
        jsonschema.validate(args, schemas[tool_verb])


def test_the_docx_examples_run_as_written_on_the_shipped_sample(tmp_path, monkeypatch):
    """In the order the table gives them, from a copy of the repository's samples folder."""
    from deskcheck.cli.help_examples import DOCX, docx_example

    (tmp_path / "samples").mkdir()
    shutil.copy(REPO / "samples" / "contract.docx", tmp_path / "samples" / "contract.docx")
    monkeypatch.chdir(tmp_path)
    for tool in DOCX:
        words = shlex.split(docx_example(tool))
        assert words[0] == "deskcheck"
        run = run_cli(*words[1:])
        assert run.json["ok"] is True, (tool, run.stdout)
    assert (tmp_path / "samples" / "contract.docx").read_bytes() == (REPO / "samples" / "contract.docx").read_bytes()


def test_docx_tools_name_prints_one_definition_or_on_a_terminal_its_help(monkeypatch):
    one = json.loads(run_cli("docx", "tools", "read-section").stdout)
    assert one["name"] == "read_section" and "headingBlockId" in one["inputSchema"]["properties"]
    anthropic = json.loads(run_cli("docx", "tools", "find_text", "--format", "anthropic").stdout)
    assert anthropic["name"] == "find_text" and "input_schema" in anthropic
    monkeypatch.setenv("COLUMNS", "100")
    shown = run_cli("docx", "tools", "find-text", "--no-color", terminal=True).stdout
    assert "find_text" in shown and "JSON arguments (ARGS)" in shown and "query" in shown
    assert "deskcheck docx find-text samples/contract.docx" in shown
    unknown = run_cli("docx", "tools", "read-sectoin", expect=2)
    assert unknown.stdout == "" and "Did you mean read_section?" in unknown.stderr


def _all_help_texts() -> dict[str, str]:
    from deskcheck.cli.app import COMMANDS

    texts, todo = {}, [[name] for name in COMMANDS]
    while todo:
        path = todo.pop()
        text = texts[" ".join(path)] = _help(*path)
        listed = re.search(r"\nCommands:\n((?:  .*\n)+)", text)
        for line in listed.group(1).splitlines() if listed else []:
            if re.match(r"  \S", line):
                todo.append([*path, line.split()[0]])
    return texts


def test_placeholders_name_what_to_give_never_a_type():
    texts = _all_help_texts()
    assert len(texts) > 40
    for command, text in texts.items():
        assert not re.search(r"<(str|path|int|float|integer|text|filename)\b", text), command
    assert "--mode tracked-changes|direct" in texts["docx suggest-changes"]
    assert "--format text|json" in texts["docx compare"]
    assert "--script FILE" in texts["repl"]
    assert "--format text|json|github|sarif" in texts["openapi check"]


def test_openapi_rule_explains_a_rule_and_lists_them_all():
    from deskcheck.engine.openapi.rules.rules import RULES

    explained = run_cli("openapi", "rule", "default-invalid").json["result"]
    assert explained["severity"] == "warning" and explained["what"] == RULES["default-invalid"].summary
    assert explained["why"] and explained["fix"]
    listed = run_cli("openapi", "rule").json["result"]
    assert [item["id"] for item in listed] == list(RULES)
    assert all(item["why"] and item["fix"] for item in listed)
    unknown = run_cli("openapi", "rule", "default-invalde", expect=2)
    assert "Did you mean default-invalid?" in unknown.json["error"]
    assert "deskcheck openapi rule" in _help("openapi", "check")


def test_each_rule_says_why_it_matters_and_how_to_fix_it():
    from deskcheck.engine.openapi.rules import rules

    listed = {doc["id"]: doc for doc in run_cli("openapi", "rule").json["result"]}
    assert set(listed) == set(rules.RULES)
    for rule in rules.RULES.values():
        doc = listed[rule.id]
        assert doc["what"] == rule.summary and doc["severity"] == rule.severity
        assert doc["why"].strip() and doc["fix"].strip() and doc["why"] != doc["fix"], rule.id


def test_a_terminal_shows_the_rule_with_its_hint_whole_at_60_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    shown = run_cli("openapi", "rule", "default-invalid", "--no-color", terminal=True).stdout
    plain = re.sub(r"\x1b\[[0-9;]*m", "", shown)
    assert "How to fix it" in plain and "…" not in plain
    assert all(len(line) <= 60 for line in plain.splitlines())
    assert "--severity default-invalid=error|warning|off" in plain.replace("\n", " ")
