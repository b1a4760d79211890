"""The session stores: what both do (round trips, atomic transactions, expiry into drafts,
prepared schemas, a stale write refused, versioned migrations, per-session locks), run on SQLite
and on PostgreSQL (the ``make_store`` fixture); and the SQLite file's own behaviour (where it
lives, WAL, a broken file refused with advice)."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from deskcheck.engine.errors import InputError
from deskcheck.engine.forms.sessions.store import (
    KEEP_UNUSED_SCHEMAS,
    MIGRATIONS,
    SessionRecord,
    SessionStore,
    StoreConflict,
    StoreDamaged,
    StoreError,
    default_store_path,
    ttl_from_environment,
)
from deskcheck.engine.forms.sources.sources import DocumentVersion
from tests.postgres import PASSWORD


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


def test_a_record_round_trips(make_store):
    store = make_store(clock=lambda: 5.0)
    with store.transaction():
        store.put(record())
    found = store.get("k")
    assert found.snapshot["data"] == {"a": 1} and found.doc_version == DocumentVersion("etag", '"x"')
    assert found.revision == 1 and found.updated_at == 5.0 and found.params == [["id", "1"]]
    assert found.summary(6.0)["key"] == {"identity": None, "group": "g", "params": {"id": "1"}}


def test_a_failed_transaction_changes_nothing(make_store):
    store = make_store()
    with pytest.raises(RuntimeError), store.transaction():
        store.put(record())
        raise RuntimeError("boom")
    assert store.get("k") is None


def test_expiry_moves_edited_sessions_to_drafts(make_store):
    now = [100.0]
    store = make_store(clock=lambda: now[0])
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


def test_prepared_schemas_in_use_are_kept_and_old_unused_ones_forgotten(make_store):
    clock = [0.0]
    store = make_store(clock=lambda: clock[0])
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


def test_a_stale_write_is_refused_not_merged_nor_lost(make_store):
    """Two processes read revision 1; the first write wins, the second is refused and changes
    nothing (a compare-and-swap on the revision), on either store."""
    first, second = make_store(), make_store()
    with first.transaction():
        first.put(record())
    mine, theirs = first.get("k"), second.get("k")
    mine.snapshot = {"format": 1, "data": {"a": "mine"}, "base": {"a": 0}}
    with first.transaction():
        first.put(mine)
    theirs.snapshot = {"format": 1, "data": {"a": "theirs"}, "base": {"a": 0}}
    with pytest.raises(StoreConflict, match="changed in the store"), second.transaction():
        second.put(theirs)
    assert theirs.revision == 1
    stored = second.get("k")
    assert stored.snapshot["data"] == {"a": "mine"} and stored.revision == 2
    # A record never stored cannot replace one that is.
    with pytest.raises(StoreConflict), second.transaction():
        second.put(record())
    # Nor can one whose session was deleted meanwhile.
    with first.transaction():
        first.delete("k")
    with pytest.raises(StoreConflict), second.transaction():
        second.put(stored)


def test_a_lone_surrogate_is_refused_as_input_not_reported_as_damage(make_store):
    store = make_store()
    bad = record(snapshot={"format": 1, "data": {"name": "\udc80"}, "base": {}})
    with pytest.raises(StoreError) as raised, store.transaction():
        store.put(bad)
    assert isinstance(raised.value, InputError) and not isinstance(raised.value, StoreDamaged)
    assert "U+DC80" in raised.value.message and "nothing was changed" in raised.value.message
    assert store.get("k") is None and store.sessions() == []
    # The store goes on.
    with store.transaction():
        store.put(record())
    assert store.get("k").revision == 1


def test_writers_of_one_session_take_turns_and_lose_nothing(make_store):
    """Eight threads, each with its own store object (its own connection, as eight processes
    would have), add 25 items each to one session in read-modify-write transactions: all 200
    are there."""
    setup = make_store()
    with setup.transaction():
        setup.put(record(snapshot={"format": 1, "data": {"items": []}, "base": {}}))
    errors = []

    def work(worker):
        store = make_store()
        try:
            for n in range(25):
                with store.transaction():
                    current = store.get("k")
                    current.snapshot["data"]["items"].append(f"{worker}-{n}")
                    store.put(current)
        except Exception as exc:  # reported below: a thread's failure must fail the test
            errors.append(exc)
        finally:
            store.close()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    final = setup.get("k")
    assert sorted(final.snapshot["data"]["items"]) == sorted(f"{w}-{n}" for w in range(8) for n in range(25))
    assert final.revision == 201


def test_postgresql_locks_one_session_not_the_whole_store(postgres):
    """A transaction holding session A makes a writer of A wait, and lets a writer of B through
    (SQLite's one write lock would hold both)."""
    from deskcheck.engine.forms.sessions.store_url import open_store

    holder, other = open_store(postgres.url()), open_store(postgres.url())
    with holder.transaction():
        holder.put(record("A"))
        holder.put(record("B"))
    finished: dict[str, float] = {}

    def write(key):
        with other.transaction():
            current = other.get(key)
            other.put(current)
        finished[key] = time.monotonic()

    with holder.transaction():
        holder.get("A")
        writer_b = threading.Thread(target=write, args=("B",))
        writer_b.start()
        writer_b.join(10)
        assert "B" in finished, "a writer of another session went through"
        writer_a = threading.Thread(target=write, args=("A",))
        writer_a.start()
        writer_a.join(0.5)
        assert "A" not in finished, "a writer of the held session waits"
    writer_a.join(10)
    assert "A" in finished and other.get("A").revision == 2


def test_expiry_leaves_a_session_another_transaction_holds(postgres):
    from deskcheck.engine.forms.sessions.store_url import open_store

    holder, sweeper = open_store(postgres.url(), clock=lambda: 100.0), open_store(postgres.url(), clock=lambda: 100.0)
    with holder.transaction():
        holder.put(record("held", expires_at=50.0))
        holder.put(record("idle", expires_at=50.0))
    with holder.transaction():
        holder.get("held")
        with sweeper.transaction():
            assert [key for key, _ in sweeper.expire()] == ["idle"]
    with sweeper.transaction():
        assert [key for key, _ in sweeper.expire()] == ["held"]


def test_an_older_store_is_migrated_in_place_keeping_its_rows(store_url, tmp_path, request):
    """A store written by a deskcheck of format 1 opens with this one: the later migrations are
    applied and its sessions are still there."""
    from deskcheck.engine.forms.sessions import store_postgres
    from deskcheck.engine.forms.sessions.store_base import statements
    from deskcheck.engine.forms.sessions.store_url import open_store

    old_row = ("old", "", "g", "[]", "t", "ready", None, "s", "v1", None, '{"data":{"a":1}}', 1, 1, 0, 1.0, 1.0,
               1e12, 3, 0, None, None, None)  # fmt: skip
    insert = f"INSERT INTO sessions VALUES ({', '.join(['?'] * len(old_row))})"
    if store_url.startswith("sqlite"):
        db = sqlite3.connect(tmp_path / "sessions.sqlite3")
        db.executescript(MIGRATIONS[0])
        db.execute(insert, old_row)
        db.execute("PRAGMA user_version = 1")
        db.commit()
        db.close()
    else:
        import psycopg

        store_url = request.getfixturevalue("postgres").create_database("format_one")
        with psycopg.connect(store_url, autocommit=True) as conn:
            conn.execute("CREATE SCHEMA deskcheck")
            conn.execute("SET search_path TO deskcheck")
            for statement in statements(store_postgres.MIGRATIONS[0]):
                conn.execute(statement)
            conn.execute("CREATE TABLE format (version INTEGER NOT NULL)")
            conn.execute("INSERT INTO format VALUES (1)")
            conn.execute(insert.replace("?", "%s"), old_row)
    store = open_store(store_url)
    [found] = store.sessions(identity="")
    assert found.key == "old" and found.revision == 3 and found.snapshot["data"] == {"a": 1}
    if store_url.startswith("sqlite"):
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) == 2
        names = {row[0] for row in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    else:
        assert store.db.execute("SELECT version FROM format").fetchone()[0] == len(store_postgres.MIGRATIONS) == 2
        names = {row[0] for row in store.db.execute("SELECT indexname FROM pg_indexes WHERE schemaname = 'deskcheck'")}
    assert {"sessions_identity", "drafts_identity"} <= names


def test_a_postgresql_store_of_a_newer_deskcheck_is_refused(postgres):
    import psycopg

    from deskcheck.engine.forms.sessions.store_url import open_store

    url = postgres.create_database("newer")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA deskcheck")
        conn.execute("CREATE TABLE deskcheck.format (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO deskcheck.format VALUES (99)")
    with pytest.raises(StoreError, match="newer deskcheck") as raised:
        open_store(url).sessions()
    assert PASSWORD not in raised.value.message and "deskcheck:***@" in raised.value.message
