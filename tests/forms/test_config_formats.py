"""File-backed form sessions over configuration files in every format people keep them in, each
with the schema its tools publish (tests/fixtures/configs/, see SOURCES.md there): TOML
(pyproject.toml, Cargo.toml, ruff.toml), files without an extension (.prettierrc in JSON and in
YAML, .clang-format), Kubernetes manifests of several documents, Ansible playbooks written for
YAML 1.1. For each: a save with no edit leaves the file byte for byte, one edited field changes
only that value."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import run_cli

CONFIGS = Path(__file__).resolve().parents[1] / "fixtures" / "configs"
SCHEMAS = CONFIGS / "schemas"


def form(verb: str, schema: Path, data: Path, *args: str, expect: int = 0):
    return run_cli("form", verb, "--schema", str(schema), "--data", str(data), *args, expect=expect)


def data_of(schema: Path, data: Path, *args: str):
    return json.loads(form("get-data", schema, data, *args).json["result"])


def copy(tmp_path: Path, relative: str, name: str | None = None) -> Path:
    target = tmp_path / (name or Path(relative).name)
    shutil.copyfile(CONFIGS / relative, target)
    return target


def edit_and_save(schema: Path, data: Path, path: str, value, *args: str) -> None:
    form("set-field-value", schema, data, *args, json.dumps({"path": path, "value": value}))
    assert form("save-form", schema, data, *args).json["ok"]


@pytest.mark.parametrize(
    ("relative", "schema", "field", "value", "old", "new"),
    [
        ("pyproject/poetry-complete.toml", "pyproject.json", "/tool/poetry/version", "9.9.9", '"0.5.0"', '"9.9.9"'),
        ("pyproject/black-examp1.toml", "pyproject.json", "/tool/black/line-length", 100, "98", "100"),
        ("cargo/package-inheritance.toml", "cargo.json", "/package/name", "renamed", '"bar"', '"renamed"'),
        ("ruff/human-readable-rule-selectors.toml", "ruff.json", "/preview", False, "true", "false"),
    ],
)
def test_toml_files_open_valid_and_one_field_changes_one_value(tmp_path, relative, schema, field, value, old, new):
    original = (CONFIGS / relative).read_bytes()
    data = copy(tmp_path, relative, "pyproject.toml" if "pyproject" in relative else None)
    schema_path = SCHEMAS / schema
    answer = json.loads(form("get-data", schema_path, data).json["result"])
    assert answer["valid"] is True, form("describe-state", schema_path, data).json
    assert form("save-form", schema_path, data).json["ok"]
    assert data.read_bytes() == original, "a save with no edit writes nothing"
    edit_and_save(schema_path, data, field, value)
    text = data.read_text()
    lines = [(a, b) for a, b in zip(original.decode().split("\n"), text.split("\n"), strict=True) if a != b]
    assert len(lines) == 1, lines
    if old is not None:
        assert lines[0][1] == lines[0][0].replace(old, new)


def test_extensionless_files_are_read_by_their_content(tmp_path):
    for folder in ("prettier-json", "prettier-yaml"):
        (tmp_path / folder).mkdir()
        data = copy(tmp_path / folder, f"{folder}/.prettierrc")
        original = data.read_text()
        assert data_of(SCHEMAS / "prettierrc.json", data)["valid"] is True
        edit_and_save(SCHEMAS / "prettierrc.json", data, "/tabWidth", 8)
        changed = [line for line in data.read_text().split("\n") if line not in original.split("\n")]
        assert changed == (['  "tabWidth": 8,'] if folder == "prettier-json" else ["tabWidth: 8"])
    data = copy(tmp_path, "clang-format/.clang-format")
    original = data.read_text()
    edit_and_save(SCHEMAS / "clang-format.json", data, "/ColumnLimit", 100)
    assert data.read_text() == original.replace("ColumnLimit: 80", "ColumnLimit: 100")


def test_format_names_how_a_file_is_read(tmp_path):
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"name": {"type": "string"}}}))
    data = tmp_path / "settings"
    data.write_text("a = 1\n")  # TOML by its content, a YAML string when named so
    assert data_of(schema, data)["data"] == {"a": 1}
    assert data_of(schema, data, "--format", "yaml")["data"] == "a = 1"
    new = tmp_path / "new-config"  # no file, no suffix: --format says what to create
    edit_and_save(schema, new, "/name", "x", "--format", "toml")
    assert new.read_text() == 'name = "x"\n'
    bad = run_cli("form", "get-data", "--schema", str(schema), "--data", str(data), "--format", "ini", expect=2)
    assert "Invalid value for '--format': 'ini' is not one of json, yaml, toml" in bad.stderr and not bad.stdout


def test_one_document_of_a_kubernetes_manifest(tmp_path):
    schema = tmp_path / "deployment.schema.json"
    schema.write_text(json.dumps({"$ref": "defs.json#/definitions/io.k8s.api.apps.v1.Deployment"}))
    shutil.copyfile(SCHEMAS / "kubernetes-definitions.json", tmp_path / "defs.json")
    data = copy(tmp_path, "kubernetes/guestbook-all-in-one.yaml")
    original = data.read_text()
    refused = form("get-data", schema, data, expect=2).json
    assert "holds 6 YAML documents" in refused["error"] and "--document N" in refused["error"]
    fourth = data_of(schema, data, "--document", "4")
    assert fourth["valid"] is True and fourth["data"]["metadata"]["name"] == "redis-replica"
    edit_and_save(schema, data, "/spec/replicas", 5, "--document", "4")
    assert data.read_text() == original.replace("  replicas: 2\n", "  replicas: 5\n")
    # Another document is another session, with its own edits.
    form("set-field-value", schema, data, "--document", "6", '{"path": "/spec/replicas", "value": 1}')
    assert data_of(schema, data, "--document", "4")["data"]["spec"]["replicas"] == 5
    assert data_of(schema, data, "--document", "6")["data"]["spec"]["replicas"] == 1
    assert "no document 7" in form("get-data", schema, data, "--document", "7", expect=2).json["error"]


def test_an_ansible_playbook_read_as_yaml_1_1_is_valid_and_stays_so(tmp_path):
    schema = SCHEMAS / "ansible-playbook.json"
    data = copy(tmp_path, "ansible/first-playbook.yml")
    original = data.read_text()
    as_1_2 = data_of(schema, data)
    assert as_1_2["valid"] is False and as_1_2["data"][0]["become"] == "yes"
    as_1_1 = data_of(schema, data, "--yaml-version", "1.1")
    assert as_1_1["valid"] is True and as_1_1["data"][0]["become"] is True
    edit_and_save(schema, data, "/1/become", False, "--yaml-version", "1.1")
    text = data.read_text()
    assert (
        text
        == original[: original.rindex("become: yes")]
        + "become: false"
        + original[original.rindex("become: yes") + len("become: yes") :]
    )
    assert data_of(schema, data, "--yaml-version", "1.1")["valid"] is True


def test_a_project_setting_reads_yaml_as_1_1_and_the_option_wins(tmp_path):
    schema = SCHEMAS / "ansible-playbook.json"
    data = copy(tmp_path, "ansible/provision.yml")
    (tmp_path / "pyproject.toml").write_text('[tool.deskcheck.form]\nyaml-version = "1.1"\n')
    answer = data_of(schema, data)
    assert answer["data"][0]["become"] is True and answer["data"][0]["tasks"][1]["file"]["mode"] == 0o755
    assert data_of(schema, data, "--yaml-version", "1.2")["data"][0]["become"] == "yes"
    (tmp_path / ".deskcheck.toml").write_text("[form]\nyaml-version = 1.1\n")
    refused = run_cli("form", "get-data", "--schema", str(schema), "--data", str(data), expect=2)
    assert 'yaml-version must be "1.1" or "1.2" (a string), not 1.1' in refused.json["error"]
    (tmp_path / ".deskcheck.toml").write_text("[form]\nyaml_version = '1.1'\n")
    refused = run_cli("form", "get-data", "--schema", str(schema), "--data", str(data), expect=2)
    assert "unknown key(s) yaml_version" in refused.json["error"]
