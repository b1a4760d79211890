"""A file-backed session tells the truth about its file: it notices at every call when the file
changed on disk (a session without edits shows the new file, one with edits keeps them and
offers a reload that re-applies them), it says once when the file writes a key twice, a change
to a value the file shares through YAML anchors is made in every copy and written once, and a
save writes the file the user named through links, keeping its links, mode and owner."""

from __future__ import annotations

import json
import os
import stat

from tests.helpers import run_cli

ENV = {"type": "object", "additionalProperties": {"type": "string"}}
SERVICE = {"type": "object", "properties": {"image": {"type": "string"}, "env": ENV, "extra": ENV}}
SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "port": {"type": "integer"},
        "base": SERVICE,
        "web": SERVICE,
        "worker": SERVICE,
    },
}


def form(tmp_path, verb: str, *args: str, data: str = "app.yaml", expect: int = 0):
    schema = tmp_path / "app.schema.json"
    if not schema.exists():
        schema.write_text(json.dumps(SCHEMA))
    return run_cli("form", verb, "--schema", str(schema), "--data", str(tmp_path / data), *args, expect=expect)


def answer(tmp_path, verb: str, *args: str, **kwargs) -> str:
    result = form(tmp_path, verb, *args, **kwargs).json
    return result["result"] if result["ok"] else result["error"]


def test_a_session_without_edits_shows_the_file_as_it_is_now(tmp_path):
    path = tmp_path / "app.yaml"
    path.write_text("name: a\nport: 1\n")
    assert json.loads(answer(tmp_path, "get-data", '{"path": "/port"}'))["data"] == 1
    path.write_text("name: a\nport: 2  # changed in another editor\n")
    read = json.loads(answer(tmp_path, "get-data", '{"path": "/port"}'))
    assert read["data"] == 2, "getData stays JSON: what the session says is under notices"
    [notice] = read["notices"]
    assert "app.yaml changed on disk since this session loaded it" in notice and "(/port)" in notice
    assert "changed on disk" not in answer(tmp_path, "describe-state"), "said once, when it happened"
    assert form(tmp_path, "save-form").json["ok"]
    assert path.read_text() == "name: a\nport: 2  # changed in another editor\n"


def test_a_session_with_edits_keeps_them_and_a_reload_can_re_apply_them(tmp_path):
    path = tmp_path / "app.yaml"
    path.write_text("name: a\nport: 1\n")
    form(tmp_path, "set-field-value", '{"path": "/name", "value": "mine"}')
    path.write_text("name: a\nport: 2\n")
    for verb in ("describe-state", "get-data"):  # every call says so
        text = answer(tmp_path, verb)
        text = "\n".join(json.loads(text)["notices"]) if verb == "get-data" else text
        assert "app.yaml changed on disk since this session loaded it" in text
        assert "unsaved edits are kept (/name)" in text and '{"keepEdits": true}' in text
    assert json.loads(answer(tmp_path, "get-data"))["data"] == {"name": "mine", "port": 1}
    sessions = json.loads(run_cli("form", "sessions").stdout)["result"]
    assert [s["status"] for s in sessions] == ["stale"]
    refused = form(tmp_path, "save-form", expect=1).json["error"]
    assert "changed at its source" in refused and "keepEdits" in refused
    assert path.read_text() == "name: a\nport: 2\n", "nothing overwritten"
    text = answer(tmp_path, "reload-form", '{"keepEdits": true}')
    assert text == 'Reloaded "app.yaml" from its source and re-applied your edits (/name). They are not saved yet.'
    assert json.loads(answer(tmp_path, "get-data"))["data"] == {"name": "mine", "port": 2}
    assert form(tmp_path, "save-form").json["ok"]
    assert path.read_text() == "name: mine\nport: 2\n"


def test_a_reload_that_keeps_edits_names_the_fields_both_sides_changed(tmp_path):
    path = tmp_path / "app.yaml"
    path.write_text("name: a\nport: 1\n")
    form(tmp_path, "set-field-value", '{"path": "/port", "value": 3}')
    path.write_text("name: b\nport: 2\n")
    text = answer(tmp_path, "reload-form", '{"keepEdits": true}')
    assert "re-applied your edits (/port)" in text and "your value was kept: /port" in text
    assert json.loads(answer(tmp_path, "get-data"))["data"] == {"name": "b", "port": 3}
    bad = form(tmp_path, "reload-form", '{"keepEdits": "yes"}', expect=1).json["error"]
    assert "keepEdits must be true or false" in bad


def test_a_deleted_file_is_said_to_be_deleted(tmp_path):
    path = tmp_path / "app.yaml"
    path.write_text("name: a\n")
    form(tmp_path, "set-field-value", '{"path": "/name", "value": "b"}')
    path.unlink()
    assert "app.yaml was deleted since this session loaded it" in answer(tmp_path, "describe-state")


def test_keys_written_twice_follow_one_rule_said_once(tmp_path):
    cases = (("app.yaml", "name: a\nport: 1\nname: b\n", 3), ("app.json", '{"name": "a",\n"port": 1,\n"name": "b"}', 3))
    for name, text, line in cases:
        path = tmp_path / name
        path.write_text(text)
        first = json.loads(answer(tmp_path, "get-data", data=name))
        assert first["data"] == {"name": "b", "port": 1}
        [notice] = first["notices"]
        assert f'{path} writes the key "name" twice in one object (lines 1 and {line}): the last one counts' in notice
        assert "notices" not in json.loads(answer(tmp_path, "get-data", data=name)), "said once, when it opens"
        form(tmp_path, "set-field-value", '{"path": "/name", "value": "c"}', data=name)
        assert form(tmp_path, "save-form", data=name).json["ok"]
        assert path.read_text() == text.replace('"b"', '"c"').replace("name: b", "name: c")


def test_a_change_to_a_shared_value_is_made_in_every_copy_and_written_once(tmp_path):
    path = tmp_path / "app.yaml"
    text = "base: &base\n  image: app:1\n  env: &env {LEVEL: info}\nweb: *base\nworker:\n  <<: *base\n  extra: *env\n"
    path.write_text(text)
    said = answer(tmp_path, "set-field-value", '{"path": "/web/env/LEVEL", "value": "debug"}')
    assert "/web is one value that app.yaml writes once and uses again" in said
    assert "the change was made at /base too" in said
    assert "/base/env is one value" in said and "/worker/extra" in said and "/worker/env" in said
    data = json.loads(answer(tmp_path, "get-data"))["data"]
    assert data["base"]["env"] == data["web"]["env"] == data["worker"]["env"] == data["worker"]["extra"]
    assert data["base"]["env"] == {"LEVEL": "debug"}
    assert form(tmp_path, "save-form").json["ok"]
    assert path.read_text() == text.replace("{LEVEL: info}", "{LEVEL: debug}")


def test_writing_in_place_of_an_alias_replaces_that_alias_only(tmp_path):
    path = tmp_path / "app.yaml"
    path.write_text("base: &b {image: x}\nweb: *b\nworker: *b\n")
    said = answer(tmp_path, "set-field-value", '{"path": "/web", "value": {"image": "y"}}')
    assert "writes once" not in said
    form(tmp_path, "save-form")
    assert path.read_text() == 'base: &b {image: x}\nweb:\n  image: "y"\nworker: *b\n'  # (y is yes to YAML 1.1)


def test_a_save_through_a_symbolic_link_writes_its_target(tmp_path):
    real_folder = tmp_path / "real"
    real_folder.mkdir()
    real = real_folder / "app.yaml"
    real.write_text("name: a\n")
    real.chmod(0o600)
    (tmp_path / "app.yaml").symlink_to(real)
    form(tmp_path, "set-field-value", '{"path": "/name", "value": "b"}')
    assert form(tmp_path, "save-form").json["ok"]
    assert (tmp_path / "app.yaml").is_symlink() and real.read_text() == "name: b\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600


def test_a_save_keeps_hard_links(tmp_path):
    path = tmp_path / "app.yaml"
    path.write_text("name: a\n")
    os.link(path, tmp_path / "copy.yaml")
    form(tmp_path, "set-field-value", '{"path": "/name", "value": "b"}')
    assert form(tmp_path, "save-form").json["ok"]
    assert (tmp_path / "copy.yaml").read_text() == "name: b\n" and path.stat().st_nlink == 2
