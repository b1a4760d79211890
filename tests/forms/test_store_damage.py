"""A damaged session store (issue 15 item 9): every command that touches it says so plainly and
exits 2, and `deskcheck form recover-store` keeps every session and draft that can still be
read. Also: the store holds record data, so it is private to its owner (0600 in a 0700 folder)."""

from __future__ import annotations

import json
import os
import random
import secrets
import sqlite3
import stat

import pytest

from deskcheck.engine.forms.sessions.store import SessionRecord, SessionStore, StoreDamaged
from deskcheck.engine.forms.sessions.store_recovery import recover_store
from tests import absent
from tests.helpers import expire_the_only_session, run_cli, run_process

PAGE = 4096
# Random damage is drawn afresh in local runs and fixed in CI, as the property tests' examples are
# (a red CI run is then a change, not a new draw); a failure names the seed that replays it.
SEED = int(os.environ.get("DESKCHECK_DAMAGE_SEED") or (0 if absent.in_ci() else secrets.randbits(32)))
REPLAY = f"\n(random damage drawn with DESKCHECK_DAMAGE_SEED={SEED}; set it to draw the same bytes)"


def noise(size: int, where: int) -> bytes:
    """``size`` random bytes for the place ``where``, the same for one seed."""
    return random.Random(f"{SEED}:{where}").randbytes(size)


@pytest.fixture
def form(tmp_path):
    schema = tmp_path / "s.json"
    schema.write_text('{"type": "object", "properties": {"name": {"type": "string"}}}')
    data = tmp_path / "d.json"
    data.write_text('{"name": "Ada"}')
    return ["--schema", str(schema), "--data", str(data)]


def edit(form, value="Grace"):
    run_cli("form", "set-field-value", *form, f'{{"path": "/name", "value": "{value}"}}')


def store_file(state) -> str:
    return str(state / "sessions.sqlite3")


def checkpoint(path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def damage_header(path) -> None:
    with open(path, "r+b") as handle:
        handle.write(b"garbage" * 20)


def damage_pages(path) -> None:
    """Overwrite every page after the first (the schema) but the last: the tables' contents."""
    checkpoint(path)
    size = os.path.getsize(path)
    with open(path, "r+b") as handle:
        for page in range(1, size // PAGE - 1):
            handle.seek(page * PAGE + 8)
            handle.write(noise(PAGE - 16, page))


def damage_a_row(path) -> None:
    db = sqlite3.connect(path)
    db.execute("UPDATE sessions SET snapshot = '{broken'")
    db.commit()
    db.close()


COMMANDS = [
    ["form", "sessions"],
    ["form", "sessions", "--drafts"],
    ["form", "describe-state", "{form}"],
    ["form", "set-field-value", "{form}", '{"path": "/name", "value": "x"}'],
    ["form", "discard", "{form}"],
    ["form", "restore", "{form}"],
    ["form", "discard", "--draft", "1"],
    ["call", "{form}", "form_getData"],
    ["repl", "{form}", "--script", "-"],
]


def expand(argv, form):
    out = []
    for arg in argv:
        out.extend(form if arg == "{form}" else [arg])
    return out


@pytest.mark.parametrize("damage", [damage_header, damage_pages, damage_a_row])
@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:3]))
@pytest.mark.slow
def test_every_command_says_the_store_is_damaged_and_how_to_recover(isolated_state, form, damage, argv):
    """A file that is not a database fails every command; a damaged page or row fails those that
    read it (one that only reads intact rows, like listing drafts past a broken session, works)."""
    edit(form)
    damage(store_file(isolated_state))
    run = run_process(*expand(argv, form), expect=None, stdin="show\n")
    said = run.stdout + run.stderr + REPLAY
    assert "Traceback" not in run.stderr and "bug in deskcheck" not in said, said
    if damage is damage_header or "is damaged" in said:
        assert run.exit_code == 2, said
        assert "is damaged" in said and "deskcheck form recover-store" in said
    else:
        assert run.exit_code in (0, 1, 2) and '"ok": false, "error": "the session store' not in said, said


# What random page damage once produced (a CI-like run listed sessions with a traceback): a value
# of another type, or NULL, in a column that decodes without error. SQLite types values, not
# columns, so any column can hold anything after damage.
WRONG_VALUES = [
    ("params", "'5'"),
    ("params", "'[[1, 2]]'"),
    ("snapshot", "'[1, 2]'"),
    ("snapshot", """'{"data": {"x": []}, "baseFromData": [[["x", 3], 1]]}'"""),
    ("created_at", "'yesterday'"),
    ("title", "x'00ff'"),
    ("revision", "NULL"),
]


@pytest.mark.parametrize(("column", "value"), WRONG_VALUES, ids=lambda v: str(v))
@pytest.mark.slow
def test_a_value_of_another_type_in_a_column_is_damage_not_a_traceback(isolated_state, form, column, value):
    edit(form)
    db = sqlite3.connect(store_file(isolated_state))
    # Columns are NOT NULL: damage does not ask, so the table is rebuilt without the constraint.
    db.execute("PRAGMA writable_schema = ON")
    for kind in ("REAL", "INTEGER"):
        db.execute(
            "UPDATE sqlite_schema SET sql = replace(sql, ?, ?) WHERE name = 'sessions'",
            (f"{column} {kind} NOT NULL", f"{column} {kind}"),
        )
    db.commit()
    db.close()
    db = sqlite3.connect(store_file(isolated_state))
    db.execute(f"UPDATE sessions SET {column} = {value}")
    db.commit()
    db.close()
    for argv in (["form", "sessions"], ["form", "describe-state", *form]):
        run = run_process(*argv, expect=2)
        said = run.stdout + run.stderr
        assert "Traceback" not in said and "bug in deskcheck" not in said
        assert "is damaged" in said and "deskcheck form recover-store" in said, said


@pytest.mark.parametrize("damage", [damage_pages, damage_a_row])
@pytest.mark.slow
def test_reading_the_damaged_session_says_so(isolated_state, form, damage):
    edit(form)
    damage(store_file(isolated_state))
    run = run_process("form", "describe-state", *form, expect=2)
    assert "is damaged" in run.json["error"]


@pytest.mark.slow
def test_batch_reports_it_on_each_line(isolated_state, form):
    edit(form)
    damage_header(store_file(isolated_state))
    stdin = '{"id": 1, "tool": "form_getData", "args": {}}\n{"id": 2, "tool": "form_getData", "args": {}}\n'
    answers = run_process("batch", *form, stdin=stdin, expect=1).json_lines
    assert [a["id"] for a in answers] == [1, 2] and all("recover-store" in a["error"] for a in answers)


def many_sessions(path, count: int) -> None:
    store = SessionStore(path)
    for number in range(count):
        record = SessionRecord(
            f"key-{number}", "", "form", [["n", str(number)]], f"record {number}", "open", "schema", "v1",
            {"data": {"text": "x" * 400}, "base": {}}, modified=True, expires_at=1e12,
        )  # fmt: skip
        with store.transaction():
            store.put(record)
            if number % 10 == 0:
                store.add_draft(record, 1.0)
    store.close()
    checkpoint(path)


def test_a_read_whose_lengths_are_absurd_is_damage_and_a_write_too_big_is_not(tmp_path):
    """SQLite says "string or blob too big" when a damaged record header claims a length past
    its limit (a CI run of the test below hit it with random bytes): when reading, that is
    damage. Here the limit is lowered instead of damaging bytes, for the same error on a read."""
    path = tmp_path / "sessions.sqlite3"
    many_sessions(path, 3)
    store = SessionStore(path)
    store.db._db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 200)
    with pytest.raises(StoreDamaged, match="too big"):
        store.sessions()
    record = SessionRecord("key-big", "", "form", [], "big", "open", "schema", "v1", {"data": {"text": "y" * 500}})
    with pytest.raises(sqlite3.DataError), store.transaction():  # going in: not a damaged file
        store.put(record)
    store.close()


def test_recovery_keeps_every_row_that_can_be_read(tmp_path):
    path = tmp_path / "sessions.sqlite3"
    many_sessions(path, 300)
    size = os.path.getsize(path)
    with open(path, "r+b") as handle:  # three pages in the middle of the sessions table
        for page in (20, 21, 22):
            handle.seek(page * PAGE + 100)
            handle.write(noise(1_900, page))
    with pytest.raises(StoreDamaged):
        SessionStore(path).sessions()
    report = recover_store(path)
    assert report["damaged"] and os.path.exists(report["movedTo"]) and os.path.getsize(report["movedTo"]) == size
    fresh = SessionStore(path)
    sessions, drafts = fresh.sessions(), fresh.drafts()
    assert 250 <= len(sessions) < 300, "the rows after the damaged pages are found too" + REPLAY
    assert report["recovered"]["sessions"] == len(sessions) and len(drafts) == 30
    assert {r.key for r in sessions} >= {"key-0", "key-299"}
    assert f"{len(sessions)} session(s)" in report["message"]


def test_a_row_that_does_not_decode_is_skipped_and_counted(tmp_path):
    path = tmp_path / "sessions.sqlite3"
    many_sessions(path, 5)
    db = sqlite3.connect(path)
    db.execute("UPDATE sessions SET snapshot = 'not json' WHERE key = 'key-3'")
    db.commit()
    db.close()
    report = recover_store(path)
    assert report["recovered"]["sessions"] == 4 and report["unreadable"]["sessions"] == 1


def test_an_intact_store_is_left_alone(tmp_path):
    path = tmp_path / "sessions.sqlite3"
    many_sessions(path, 3)
    before = path.read_bytes()
    report = recover_store(path)
    assert not report["damaged"] and "not damaged" in report["message"]
    assert path.read_bytes() == before and list(tmp_path.glob("*damaged*")) == []


def test_the_command_recovers_and_the_session_is_usable_again(isolated_state, form):
    edit(form)
    run_cli("form", "sessions")
    expire_the_only_session(isolated_state)  # a draft, kept in its own table
    edit(form, "Edsger")
    damage_a_row(store_file(isolated_state))
    run_cli("form", "sessions", expect=2)
    report = run_cli("form", "recover-store").json["result"]
    assert report["damaged"] and report["recovered"]["sessions"] == 0 and report["recovered"]["drafts"] == 1
    assert len(run_cli("form", "sessions", "--drafts").json["result"]) == 1
    assert "Ada" in run_cli("form", "get-data", *form).json["result"]


def test_the_store_is_private_to_its_owner(isolated_state, tmp_path, monkeypatch, form):
    edit(form)
    assert stat.S_IMODE(os.stat(store_file(isolated_state)).st_mode) == 0o600
    folder = tmp_path / "fresh" / "state"
    monkeypatch.setenv("DESKCHECK_STATE_DIR", str(folder))
    edit(form)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in ("sessions.sqlite3", "sessions.sqlite3-wal", "sessions.sqlite3-shm"):
        if (folder / name).exists():
            assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name


def test_an_existing_world_readable_store_is_tightened(tmp_path):
    path = tmp_path / "sessions.sqlite3"
    many_sessions(path, 1)
    path.chmod(0o644)
    SessionStore(path).sessions()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize("kind", ["fifo", "device"])
@pytest.mark.slow
def test_a_store_that_is_a_fifo_or_a_device_exits_2_and_is_left_alone(isolated_state, form, kind):
    """Issue 26: the store's path naming a FIFO or a device was exit 1 (and a link to /dev/null
    had its permissions changed); it is bad input, refused before anything is touched."""
    path = isolated_state / "sessions.sqlite3"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        os.symlink(os.devnull, path)
    before = os.stat(path).st_mode
    for argv in (["form", "describe-state", *form], ["form", "sessions"]):
        run = run_process(*argv, expect=2, timeout=30)
        said = run.stdout + run.stderr
        assert ("is a FIFO" if kind == "fifo" else "is a device") in said and "not a regular file" in said
        assert "Traceback" not in said
    assert os.stat(path).st_mode == before


@pytest.mark.slow
def test_a_lone_surrogate_value_is_refused_and_the_store_is_not_called_damaged(isolated_state, form):
    """Issue 26: a lone surrogate as a form value reported "the session store is damaged"; the
    value is refused (exit 2), the session keeps its edits, and the store goes on."""
    edit(form, "Grace")
    run = run_process("form", "set-field-value", *form, '{"path": "/name", "value": "\\udc80"}', expect=2)
    # Refused where it comes in (ARGS) or, from an entry point that lets it through, by the store.
    assert "damaged" not in run.json["error"] and ("U+DC80" in run.json["error"] or "\\udc80" in run.json["error"])
    got = run_process("form", "get-data", *form).json
    assert json.loads(got["result"])["data"]["name"] == "Grace"
    assert SessionStore(store_file(isolated_state)).integrity() == "ok"


@pytest.mark.slow
def test_a_record_holding_a_lone_surrogate_is_refused_not_called_damage(isolated_state, tmp_path):
    """The same value arriving from the record file (a JSON escape), which no argument check sees:
    the store refuses it as input (exit 2), and says nothing of damage."""
    schema = tmp_path / "s.json"
    schema.write_text('{"type": "object", "properties": {"name": {"type": "string"}}}')
    data = tmp_path / "d.json"
    data.write_text('{"name": "\\udc80"}')
    run = run_process("form", "describe-state", "--schema", str(schema), "--data", str(data), expect=2)
    assert "damaged" not in run.json["error"] and "U+DC80" in run.json["error"]
    assert "nothing was changed" in run.json["error"]
    assert run_process("form", "sessions").json["result"] == []
