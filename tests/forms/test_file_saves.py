"""What a file-backed form session writes, through the command line: a save with no change
leaves the file untouched, one changed field changes one value's bytes, and a change that
cannot be written in place is refused with the edits kept."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_cli

WORKFLOW_SCHEMA = {
    "type": "object",
    "required": ["on", "jobs"],
    "properties": {
        "name": {"type": "string"},
        "on": {"type": ["object", "array", "string"]},
        "jobs": {
            "type": "object",
            "properties": {
                "test": {
                    "type": "object",
                    "properties": {"runs-on": {"type": "string"}, "timeout-minutes": {"type": "integer"}},
                }
            },
        },
    },
}

WORKFLOW = """\
# Runs the tests.
name: CI
on:
  push:
    branches: [main]   # release branches too, one day
jobs:
  test:
    runs-on: ubuntu-latest   # the cheapest
    steps:
      - run: |
          pytest -q
"""


def form(tmp_path, verb: str, *args: str, data: str = "ci.yml", expect: int = 0):
    schema = tmp_path / "workflow.schema.json"
    if not schema.exists():
        schema.write_text(json.dumps(WORKFLOW_SCHEMA))
    return run_cli("form", verb, "--schema", str(schema), "--data", str(tmp_path / data), *args, expect=expect)


def test_a_workflow_opens_with_its_on_key_and_a_save_with_no_edit_touches_nothing(tmp_path):
    path = tmp_path / "ci.yml"
    path.write_text(WORKFLOW)
    before = path.stat()
    assert _data(tmp_path)["on"] == {"push": {"branches": ["main"]}}
    assert form(tmp_path, "save-form").json["ok"]
    after = path.stat()
    assert path.read_text() == WORKFLOW
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns), "not even rewritten"


def test_setting_one_field_changes_only_its_value(tmp_path):
    path = tmp_path / "ci.yml"
    path.write_text(WORKFLOW)
    form(tmp_path, "set-field-value", '{"path": "/jobs/test/runs-on", "value": "macos-latest"}')
    form(tmp_path, "set-field-value", '{"path": "/jobs/test/timeout-minutes", "value": 10}')
    assert form(tmp_path, "save-form").json["ok"]
    assert path.read_text() == WORKFLOW.replace("ubuntu-latest", "macos-latest").replace(
        "          pytest -q\n", "          pytest -q\n    timeout-minutes: 10\n"
    )


def test_a_json_record_keeps_its_layout_and_number_spellings(tmp_path):
    schema = {"type": "object", "properties": {"name": {"type": "string"}, "tol": {"type": "number"}}}
    (tmp_path / "workflow.schema.json").write_text(json.dumps(schema))
    path = tmp_path / "r.json"
    text = '{\r\n\t"tol": 1e-9,\r\n\t"scale": 1.0,\r\n\t"tags": ["a", "b"],\r\n\t"name": "x"\r\n}'
    path.write_bytes(text.encode())
    form(tmp_path, "set-field-value", '{"path": "/name", "value": "y"}', data="r.json")
    assert form(tmp_path, "save-form", data="r.json").json["ok"]
    assert path.read_bytes() == text.replace('"x"', '"y"').encode()


def test_a_change_that_cannot_be_written_in_place_is_refused_and_kept(tmp_path):
    path = tmp_path / "ci.yml"
    path.write_text(WORKFLOW)
    # A YAML key longer than 1024 characters needs the explicit "? key" form, which a save does
    # not write: the written text would not read back, so nothing is written.
    long_key = "k" * 1100
    form(tmp_path, "set-data", json.dumps({"data": {**_data(tmp_path), long_key: {"runs-on": "x"}}}))
    result = form(tmp_path, "save-form", expect=1).json
    assert not result["ok"] and "nothing was written" in result["error"]
    assert path.read_text() == WORKFLOW
    assert long_key in _data(tmp_path), "the edit is still in the session"


def _data(tmp_path):
    return json.loads(form(tmp_path, "get-data").json["result"])["data"]


@pytest.mark.slow
def test_ruamel_is_imported_only_for_a_yaml_file(tmp_path, monkeypatch):
    from tests.helpers import probe_process, top_level_modules

    monkeypatch.setenv("DESKCHECK_STATE_DIR", str(tmp_path / "state"))
    schema = tmp_path / "s.json"
    schema.write_text("{}")
    (tmp_path / "r.json").write_text('{"a": 1}')
    (tmp_path / "r.yaml").write_text("a: 1\n")
    for name, imported in (("r.json", False), ("r.yaml", True)):
        report = probe_process("form", "get-data", "--schema", str(schema), "--data", str(tmp_path / name))
        assert report["code"] == 0 and ("ruamel" in top_level_modules(report)) is imported
