"""Form sessions over plain functions and files: lifecycle and statuses, the save gate, versions
handed to and adopted from the source, conflicts, saves in flight, reload, discard, expiry into
drafts and restoring them, file saves that keep the format and refuse to overwrite."""

from __future__ import annotations

import json
import threading

import pytest

from deskcheck.engine.errors import DeskcheckError
from deskcheck.engine.forms.sessions.session import FormSession, SessionError, SessionKey, SessionOptions
from deskcheck.engine.forms.sessions.store import SessionStore
from deskcheck.engine.forms.sources.sources import FileSource, FunctionSource, SaveConflict, unwrap_envelope
from deskcheck.engine.forms.tools.session_tools import SessionGroup, file_form_group

CONTACT = {
    "type": "object",
    "required": ["name"],
    "properties": {"name": {"type": "string", "title": "Name"}, "age": {"type": "integer", "title": "Age"}},
}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Backend:
    """A source's functions with a record of what they were asked."""

    def __init__(self, data=None, version=None, schema=CONTACT) -> None:
        self.data = {"name": "Alice", "age": 30} if data is None else data
        self.version = version
        self.schema_doc = schema
        self.loads = 0
        self.saves: list[tuple] = []
        self.fail_with: Exception | None = None
        self.next_version = None

    def load(self):
        self.loads += 1
        return {"data": json.loads(json.dumps(self.data)), "version": self.version} if self.version else self.data

    def schema(self):
        return self.schema_doc

    def save(self, data, version, base):
        self.saves.append((data, version, base))
        if self.fail_with is not None:
            raise self.fail_with
        self.data = data
        return {"version": self.next_version} if self.next_version is not None else None


@pytest.fixture
def store(make_store):
    """A store of each kind in turn (SQLite, PostgreSQL): the session tests run on both."""
    return make_store(clock=Clock(), ttl=600)


def group_of(backend: Backend, store: SessionStore, *, read_only=False, allow_invalid=False) -> SessionGroup:
    source = FunctionSource(
        title="contact",
        load=backend.load,
        schema=backend.schema,
        save=None if read_only else backend.save,
        schema_key="contact-schema",
    )
    return SessionGroup(
        name="contact",
        title="contact",
        source_for=lambda _params: source,
        store=store,
        options=SessionOptions(allow_invalid=allow_invalid),
    )


def tool(group: SessionGroup, verb: str, **args):
    return group.toolset().call(f"contact_{verb}", args)


def test_the_eight_tools_in_order(store):
    names = [t.name for t in group_of(Backend(), store).tools()]
    verbs = ["getData", "setData", "describeState", "setFieldValue", "getFieldSuggestions", "editArray"]
    assert names == [f"contact_{v}" for v in [*verbs, "saveForm", "reloadForm"]]
    guide = group_of(Backend(), store).toolset().instructions
    assert "## Saving" in guide and "contact_reloadForm" in guide


def test_a_session_opens_once_and_resumes_from_the_store(store):
    backend = Backend()
    group = group_of(backend, store)
    session = group.session({})
    assert session.status == "closed"
    assert tool(group, "setFieldValue", path="/name", value="Bob").ok
    assert session.status == "ready" and backend.loads == 1
    # A new group object over the same store (as another process would) sees the edit.
    again = group_of(backend, store)
    assert json.loads(tool(again, "getData").value)["data"] == {"name": "Bob", "age": 30}
    assert backend.loads == 1
    line = next(x for x in tool(again, "describeState").value.splitlines() if "/name " in x)
    assert "modified" in line


def test_close_closes_only_a_store_the_group_opened(store, isolated_state):
    backend = Backend()
    given = group_of(backend, store)
    assert tool(given, "setFieldValue", path="/name", value="Bob").ok
    given.close()
    assert store.get(given.session({}).key.text) is not None  # the giver's store stays open
    own = SessionGroup(name="contact", title="contact", source_for=lambda _params: given.source_for({}))
    assert tool(own, "setFieldValue", path="/name", value="Carol").ok
    own.close()
    assert own.store._db is None
    # Closed is not finished: the next call opens the store again and finds the session.
    assert json.loads(tool(own, "getData").value)["data"]["name"] == "Carol"


def test_save_hands_the_version_and_base_and_adopts_the_reported_version(store):
    backend = Backend(version=7)
    backend.next_version = 8
    group = group_of(backend, store)
    assert tool(group, "setFieldValue", path="/age", value=31).ok
    saved = tool(group, "saveForm")
    assert saved.ok and saved.value == 'Saved "contact" (version 8).'
    data, version, base = backend.saves[-1]
    assert data == {"name": "Alice", "age": 31} and version == "7" and base == {"name": "Alice", "age": 30}
    assert not group.session({}).record().modified
    # A save that reports no version leaves none: the next save sends none (never the old one).
    backend.next_version = None
    assert tool(group, "setFieldValue", path="/age", value=32).ok
    assert tool(group, "saveForm").value == 'Saved "contact".'
    assert tool(group, "setFieldValue", path="/age", value=33).ok
    assert tool(group, "saveForm").ok
    assert [s[1] for s in backend.saves] == ["7", "8", None]


def test_the_save_gate(store):
    closed = tool(group_of(Backend(), store), "saveForm")
    assert not closed.ok and closed.code == "closed" and "not open" in closed.error

    readonly = group_of(Backend(), store, read_only=True)
    assert tool(readonly, "describeState").ok
    refused = tool(readonly, "saveForm")
    assert not refused.ok and refused.code == "readonly" and "read-only" in refused.error

    readonly.session({}).discard()
    backend = Backend(data={})
    invalid = group_of(backend, store)
    assert "valid: false" in tool(invalid, "describeState").value
    result = tool(invalid, "saveForm")
    assert not result.ok and result.code == "invalid"
    assert "/name" in result.error and "contact_describeState" in result.error and "allow invalid" in result.error
    assert backend.saves == []
    assert invalid.session({}).save(allow_invalid=True).version is None
    assert backend.saves[-1][0] == {}


def test_invalid_saves_can_be_allowed_for_a_group(store):
    backend = Backend(data={})
    group = group_of(backend, store, allow_invalid=True)
    assert tool(group, "saveForm").code == "closed"
    assert tool(group, "describeState").ok
    assert tool(group, "saveForm").ok


def test_a_conflict_makes_the_session_stale_and_reload_recovers(store):
    backend = Backend(version="v1")
    group = group_of(backend, store)
    assert tool(group, "setFieldValue", path="/name", value="Local").ok
    backend.fail_with = SaveConflict("the record is at v2")
    result = tool(group, "saveForm")
    assert not result.ok and result.code == "conflict"
    assert "the record is at v2" in result.error and "contact_reloadForm" in result.error
    session = group.session({})
    assert session.status == "stale"
    backend.fail_with = None
    backend.data = {"name": "Server", "age": 40}
    reloaded = tool(group, "reloadForm")
    assert reloaded.ok and "local changes were discarded (/name)" in reloaded.value
    assert session.status == "ready" and backend.loads == 2
    assert json.loads(tool(group, "getData").value)["data"] == {"name": "Server", "age": 40}


def test_a_conflict_code_from_a_function_counts_as_a_conflict(store):
    backend = Backend()
    backend.fail_with = DeskcheckError("precondition failed", code="conflict")
    group = group_of(backend, store)
    assert tool(group, "describeState").ok
    assert tool(group, "saveForm").code == "conflict"
    assert group.session({}).status == "stale"


def test_any_other_failure_is_an_error_that_keeps_the_edits(store):
    backend = Backend()
    backend.fail_with = DeskcheckError("the disk is full")
    group = group_of(backend, store)
    assert tool(group, "setFieldValue", path="/age", value=50).ok
    result = tool(group, "saveForm")
    assert not result.ok and "the disk is full" in result.error and "edits are still in the session" in result.error
    session = group.session({})
    assert session.status == "error" and session.record().message == result.error
    assert json.loads(tool(group, "getData").value)["data"]["age"] == 50
    backend.fail_with = None
    assert tool(group, "saveForm").ok and session.status == "ready"


def test_edits_during_a_save_in_flight_stay_modified_and_a_second_save_is_refused(store, make_store):
    backend = Backend()
    entered, release = threading.Event(), threading.Event()
    original_save = backend.save

    def slow_save(data, version, base):
        entered.set()
        release.wait(5)
        return original_save(data, version, base)

    backend.save = slow_save
    group = group_of(backend, store)
    assert tool(group, "setFieldValue", path="/name", value="Bob").ok
    outcome: list = []
    # One store object per thread (SQLite connections are not shared across threads).
    worker_store = make_store(clock=store.clock, ttl=store.ttl)
    thread = threading.Thread(target=lambda: outcome.append(tool(group_of(backend, worker_store), "saveForm")))
    thread.start()
    assert entered.wait(5)
    assert group.session({}).status == "saving"
    second = tool(group, "saveForm")
    assert not second.ok and second.code == "saving" and "already being saved" in second.error
    assert tool(group, "setFieldValue", path="/age", value=31).ok
    release.set()
    thread.join(5)
    assert outcome[0].ok and "/age" in outcome[0].value and "save again" in outcome[0].value
    assert backend.data == {"name": "Bob", "age": 30}, "the save sent the document as it was when it started"
    lines = tool(group, "describeState").value.splitlines()
    assert "modified" in next(x for x in lines if "/age " in x)
    assert "modified" not in next(x for x in lines if "/name " in x)
    assert group.session({}).status == "ready"


def test_a_save_interrupted_by_a_dead_process_does_not_block_the_next(store):
    backend = Backend()
    group = group_of(backend, store)
    assert tool(group, "setFieldValue", path="/age", value=1).ok
    record = group.session({}).record()
    with store.transaction():
        record.status, record.save_token = "saving", "lost"
        record.save_deadline = store.now() + 60
        record.save_owner = f"{__import__('socket').gethostname()}:999999999"
        store.put(record)
    assert group.session({}).status == "error"
    assert tool(group, "saveForm").ok


def test_discard_then_the_next_call_loads_again(store):
    backend = Backend()
    group = group_of(backend, store)
    assert tool(group, "setFieldValue", path="/name", value="Bob").ok
    dropped = group.session({}).discard()
    assert dropped is not None and dropped.modified
    assert group.session({}).status == "closed"
    assert json.loads(tool(group, "getData").value)["data"]["name"] == "Alice"
    assert backend.loads == 2


def test_an_expired_session_with_edits_becomes_a_draft_that_can_be_restored(store):
    backend = Backend(data={"name": "Alice", "age": 30})
    group = group_of(backend, store)
    assert tool(group, "setFieldValue", path="/age", value=31).ok
    store.clock.now += 599
    assert tool(group, "getData").ok, "an access slides the expiry"
    store.clock.now += 599
    assert group.session({}).status == "ready"
    store.clock.now += 601
    assert group.session({}).status == "closed"
    backend.data = {"name": "Alicia", "age": 30}  # the source moved on meanwhile
    answer = tool(group, "getData")
    assert json.loads(answer.value.split("\n\n")[0])["data"] == {"name": "Alicia", "age": 30}
    assert "expired with unsaved edits" in answer.value and "draft 1" in answer.value
    drafts = group.session({}).drafts()
    assert [(d.id, d.changed) for d in drafts] == [(1, ["/age"])]
    outcome = group.session({}).restore()
    assert outcome.draft == 1 and outcome.changed == ["/age"] and outcome.conflicts == []
    data = json.loads(tool(group, "getData").value)["data"]
    assert data == {"name": "Alicia", "age": 31}, "the draft's change re-applied onto the current copy"
    assert group.session({}).drafts() == []
    assert group.session({}).record().modified


def test_an_expired_session_without_edits_leaves_no_draft(store):
    group = group_of(Backend(), store)
    assert tool(group, "describeState").ok
    store.clock.now += 601
    assert tool(group, "describeState").ok
    assert store.drafts() == []


def test_restore_refuses_over_unsaved_edits_and_reports_conflicts(store):
    backend = Backend(data={"name": "Alice", "age": 30})
    group = group_of(backend, store)
    assert tool(group, "setFieldValue", path="/name", value="Mine").ok
    store.clock.now += 601
    assert tool(group, "setFieldValue", path="/age", value=99).ok  # a new session, edited
    with pytest.raises(SessionError, match="unsaved edits of its own"):
        group.session({}).restore()
    group.session({}).discard()
    backend.data = {"name": "Theirs", "age": 30}
    outcome = group.session({}).restore()
    assert outcome.conflicts == ["/name"]
    assert json.loads(tool(group, "getData").value)["data"]["name"] == "Mine"
    with pytest.raises(SessionError, match="no draft"):
        group.session({}).restore()


def test_session_keys_name_identity_group_and_parameters(store):
    assert SessionKey.of("g", {"id": 1.0}).text == SessionKey.of("g", {"id": "1"}).text
    assert SessionKey.of("g", {"id": "a"}, "alice").text != SessionKey.of("g", {"id": "a"}, "bob").text
    assert SessionKey.of("g", [("id", "a"), ("line", "b")]).describe() == "g id=a line=b"
    backend = Backend()
    group = group_of(backend, store)
    assert group.key({}).text == SessionKey.of("contact").text
    session = FormSession(FunctionSource(title="t", load=dict, schema=lambda: CONTACT), store, SessionKey.of("x"))
    assert session.status == "closed" and session.open().status == "ready"


def test_envelopes_are_recognised_only_with_exactly_two_keys():
    assert unwrap_envelope({"data": {"a": 1}, "version": 3}, "data") == ({"a": 1}, 3)
    assert unwrap_envelope({"data": {"nested": True}}, "data") == ({"data": {"nested": True}}, None)
    assert unwrap_envelope({"data": 1, "version": 2, "x": 3}, "data")[1] is None


# -- files ----------------------------------------------------------------------------------------


def file_tools(tmp_path, data_name: str, text: str | None, schema=CONTACT):
    schema_path = tmp_path / "schema.json"
    schema_path.write_text(json.dumps(schema))
    data_path = tmp_path / data_name
    if text is not None:
        data_path.write_text(text)
    group = file_form_group(schema_path, data_path, store=SessionStore(tmp_path / "s.sqlite3"))
    return group.toolset(), data_path


def test_a_json_save_keeps_indentation_and_final_newline(tmp_path):
    tools, path = file_tools(tmp_path, "r.json", '{\n    "name": "Élodie"\n}')
    assert tools.call("form_setFieldValue", {"path": "/age", "value": 41}).ok
    assert tools.call("form_saveForm", {}).ok
    assert path.read_text() == '{\n    "name": "Élodie",\n    "age": 41\n}'


def test_a_yaml_file_stays_yaml(tmp_path):
    tools, path = file_tools(tmp_path, "r.yml", "name: Zoé\n")
    assert tools.call("form_setFieldValue", {"path": "/age", "value": 7}).ok
    saved = tools.call("form_saveForm", {})
    assert saved.ok and "version sha256:" in saved.value
    assert path.read_text() == "name: Zoé\nage: 7\n"


def test_a_missing_data_file_is_created_on_save(tmp_path):
    tools, path = file_tools(tmp_path, "new.json", None)
    assert tools.call("form_setFieldValue", {"path": "/name", "value": "New"}).ok
    assert not path.exists()
    assert tools.call("form_saveForm", {}).ok
    assert json.loads(path.read_text()) == {"name": "New"} and path.read_text().endswith("\n")


def test_a_file_changed_on_disk_is_a_conflict_not_an_overwrite(tmp_path):
    tools, path = file_tools(tmp_path, "r.json", '{"name": "Ann"}\n')
    assert tools.call("form_setFieldValue", {"path": "/age", "value": 3}).ok
    path.write_text('{"name": "Someone else"}\n')
    result = tools.call("form_saveForm", {})
    assert not result.ok and result.code == "conflict" and "changed on disk" in result.error
    assert path.read_text() == '{"name": "Someone else"}\n'
    path.unlink()
    gone = tools.call("form_saveForm", {})
    assert not gone.ok and "was deleted" in gone.error and not path.exists()
    assert tools.call("form_reloadForm", {}).ok
    assert json.loads(tools.call("form_getData", {}).value)["data"] == {}, "no file: an empty record"


def test_a_failed_write_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    import os

    tools, path = file_tools(tmp_path, "r.json", '{"name": "Ann"}\n')
    assert tools.call("form_setFieldValue", {"path": "/age", "value": 3}).ok

    def no_space(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_space)
    result = tools.call("form_saveForm", {})
    monkeypatch.undo()
    assert not result.ok and "cannot write" in result.error and "No space left" in result.error
    assert path.read_text() == '{"name": "Ann"}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "r.json",
        "s.sqlite3",
        "s.sqlite3-shm",
        "s.sqlite3-wal",
        "schema.json",
    ]
    assert json.loads(tools.call("form_getData", {}).value)["data"]["age"] == 3
    assert tools.call("form_saveForm", {}).ok


def test_a_changed_schema_file_applies_at_the_next_call(tmp_path):
    tools, _ = file_tools(tmp_path, "r.json", '{"name": "Ann"}')
    assert "maxLength" not in tools.call("form_describeState", {"path": "/name"}).value
    assert tools.call("form_setFieldValue", {"path": "/age", "value": 3}).ok
    schema = json.loads(json.dumps(CONTACT))
    schema["properties"]["name"]["maxLength"] = 2
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    described = tools.call("form_describeState", {})
    assert "maxLength=2" in described.value and "valid: false" in described.value
    assert json.loads(tools.call("form_getData", {}).value)["data"] == {"name": "Ann", "age": 3}


def test_bad_files_are_input_errors(tmp_path):
    tools, path = file_tools(tmp_path, "r.json", "{not json")
    result = tools.call("form_describeState", {})
    assert not result.ok and result.input_error and "not valid JSON" in result.error and "line 1" in result.error
    path.write_text("a: [1\n")
    path.rename(tmp_path / "r.yaml")
    yaml_tools, _ = file_tools(tmp_path, "r.yaml", None)
    bad_yaml = yaml_tools.call("form_describeState", {})
    assert not bad_yaml.ok and "not valid YAML" in bad_yaml.error
    assert FileSource(tmp_path / "none.json", path).title == "r.json"


def test_saving_an_expired_session_says_where_its_edits_went(store):
    group = group_of(Backend(), store)
    assert tool(group, "setFieldValue", path="/age", value=5).ok
    store.clock.now += 601
    result = tool(group, "saveForm")
    assert not result.ok and result.code == "closed"
    assert "expired with unsaved edits" in result.error and "draft 1" in result.error
    assert [d.changed for d in store.drafts()] == [["/age"]]
