"""The session store's file: where it lives, WAL, versioned migrations, a newer or broken file
refused with advice, expiry settings, and the prepared schemas it keeps."""

from __future__ import annotations

import sqlite3

import pytest

from deskcheck.engine.forms.sources import DocumentVersion
from deskcheck.engine.forms.store import (
    KEEP_UNUSED_SCHEMAS,
    MIGRATIONS,
    SessionRecord,
    SessionStore,
    StoreError,
    default_store_path,
    ttl_from_environment,
)


def record(key: str = "k", **changes) -> SessionRecord:
    values = dict(
        key=key,
        identity="",
        group="g",
        params=[["id", "1"]],
        title="thing",
        status="ready",
        schema_key="s",
        schema_version="v1",
        snapshot={"format": 1, "data": {"a": 1}, "base": {"a": 0}},
        doc_version=DocumentVersion("etag", '"x"'),
        modified=True,
        expires_at=10.0,
    )
    values.update(changes)
    return SessionRecord(**values)


def test_the_store_lives_in_the_state_directory(isolated_state):
    assert default_store_path() == isolated_state / "sessions.sqlite3"
    store = SessionStore()
    assert store.path == isolated_state / "sessions.sqlite3"
    assert store.sessions() == [] and store.path.exists()


def test_wal_and_the_current_format(tmp_path):
    store = SessionStore(tmp_path / "s.sqlite3")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    store.close()
    # Opening again does not migrate again.
    again = SessionStore(tmp_path / "s.sqlite3")
    assert again.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_a_record_round_trips(tmp_path):
    store = SessionStore(tmp_path / "s.sqlite3", clock=lambda: 5.0)
    with store.transaction():
        store.put(record())
    found = store.get("k")
    assert found.snapshot["data"] == {"a": 1} and found.doc_version == DocumentVersion("etag", '"x"')
    assert found.revision == 1 and found.updated_at == 5.0 and found.params == [["id", "1"]]
    assert found.summary(6.0)["key"] == {"identity": None, "group": "g", "params": {"id": "1"}}


def test_a_failed_transaction_changes_nothing(tmp_path):
    store = SessionStore(tmp_path / "s.sqlite3")
    with pytest.raises(RuntimeError), store.transaction():
        store.put(record())
        raise RuntimeError("boom")
    assert store.get("k") is None


def test_expiry_moves_edited_sessions_to_drafts(tmp_path):
    now = [100.0]
    store = SessionStore(tmp_path / "s.sqlite3", clock=lambda: now[0])
    with store.transaction():
        store.put(record("edited", expires_at=50.0))
        store.put(record("clean", modified=False, expires_at=50.0))
        store.put(record("alive", expires_at=500.0))
        expired = store.expire()
    assert sorted(expired) == [("clean", None), ("edited", 1)]
    assert [r.key for r in store.sessions()] == ["alive"]
    [draft] = store.drafts()
    assert draft.key == "edited" and draft.changed == ["/a"] and draft.snapshot["data"] == {"a": 1}
    assert draft.summary(110.0)["expiredSecondsAgo"] == 10.0
    with store.transaction():
        assert store.delete_draft(1) and not store.delete_draft(1)


@pytest.mark.parametrize("text, seconds", [("", 1800), ("90", 90), ("45m", 2700), ("2h", 7200), ("1.5s", 1.5)])
def test_the_session_lifetime_comes_from_the_environment(monkeypatch, text, seconds):
    monkeypatch.setenv("DESKCHECK_SESSION_TTL", text)
    assert ttl_from_environment() == seconds


@pytest.mark.parametrize("text", ["soon", "-5", "0"])
def test_a_bad_lifetime_is_refused(monkeypatch, text):
    monkeypatch.setenv("DESKCHECK_SESSION_TTL", text)
    with pytest.raises(StoreError, match="DESKCHECK_SESSION_TTL"):
        ttl_from_environment()


def test_a_store_from_a_newer_deskcheck_is_refused(tmp_path):
    path = tmp_path / "s.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer deskcheck"):
        SessionStore(path).sessions()


def test_a_file_that_is_not_a_database_is_refused_with_advice(tmp_path):
    path = tmp_path / "s.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="recover-store"):
        SessionStore(path).sessions()


def test_a_store_that_cannot_be_created_says_where(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="DESKCHECK_STATE_DIR"):
        SessionStore(blocker / "sub" / "s.sqlite3").sessions()


def test_prepared_schemas_in_use_are_kept_and_old_unused_ones_forgotten(tmp_path):
    clock = [0.0]
    store = SessionStore(tmp_path / "s.sqlite3", clock=lambda: clock[0])
    with store.transaction():
        store.put(record(schema_version="in-use", expires_at=1e12))
    store.put_schema("in-use", {"type": "object"})
    for n in range(KEEP_UNUSED_SCHEMAS + 5):
        clock[0] += 1
        store.put_schema(f"v{n}", {"type": "object", "title": str(n)})
    assert store.has_schema("in-use")
    assert not store.has_schema("v0") and store.has_schema(f"v{KEEP_UNUSED_SCHEMAS + 4}")
    assert store.prepared_schema("v10") == {"type": "object", "title": "10"}
    assert store.counters()["schemaPrepared"] == KEEP_UNUSED_SCHEMAS + 6
    store.put_schema_tag("http://x/schema", "v10", '"etag"')
    assert store.schema_tag("http://x/schema") == ("v10", '"etag"')
