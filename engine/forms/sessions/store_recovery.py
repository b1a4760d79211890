"""Recovering a damaged session store: keep what can still be read, start a fresh store with it.

A store is damaged when its file is not a database, when a page is corrupt, or when a row no
longer decodes (``store.StoreDamaged``). ``recover_store`` then:

1. moves the file aside (with its ``-wal`` and ``-shm`` companions, which may hold its latest
   writes) as ``sessions.sqlite3.damaged-<time>``, so nothing is deleted;
2. reads, from that copy, every row of each table that can still be read: a whole-table scan
   first, then, when the scan stops at a damaged page, one lookup per row id, which reaches the
   rows stored after the damage;
3. keeps the rows that decode as sessions, drafts and prepared schemas, and writes them into a
   fresh store at the original path.

A store that is not damaged is left alone. The report says what was kept and what was lost.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from .store import SessionStore, default_store_path
from .store_base import DRAFT_COLUMNS, SESSION_COLUMNS, StoreDamaged, StoreError, draft_of, record_of

# Tables copied, with their columns and how a row is checked before it is kept.
_TABLES: dict[str, tuple[str, Any]] = {
    "sessions": (SESSION_COLUMNS, record_of),
    "drafts": (DRAFT_COLUMNS, draft_of),
    "schemas": ("version, prepared, stored_at, used_at", lambda row: json.loads(row[1])),
    "schema_tags": ("schema_key, version, etag, checked_at", None),
}


def recover_store(path: str | os.PathLike[str] | None = None, *, clock=time.time) -> dict[str, Any]:
    """Recover the store at ``path`` (default: the user's). Returns the report."""
    path = Path(path) if path is not None else default_store_path()
    if not path.exists():
        return {"store": str(path), "damaged": False, "message": f"there is no session store at {path}; nothing to do."}
    problem = _problem(path)
    if problem is None:
        return _not_damaged(str(path))
    aside = _move_aside(path, clock())
    kept, unreadable = _read_rows(aside)
    fresh = SessionStore(path)
    try:
        with fresh.transaction() as db:
            for table, rows in kept.items():
                columns = _TABLES[table][0]
                marks = ", ".join("?" * len(columns.split(",")))
                for row in rows:
                    db.execute(f"INSERT OR REPLACE INTO {table} ({columns}) VALUES ({marks})", row)
    finally:
        fresh.close()
    counts = {table: len(rows) for table, rows in kept.items()}
    lost = {table: count for table, count in unreadable.items() if count}
    message = (
        f"the session store {path} was damaged ({problem}); it was moved to {aside.name} and a fresh store "
        f"holds what could be read: {counts['sessions']} session(s) and {counts['drafts']} draft(s)"
        + (f"; unreadable rows skipped: {', '.join(f'{n} {t}' for t, n in lost.items())}" if lost else "")
        + "."
    )
    return {
        "store": str(path),
        "damaged": True,
        "problem": problem,
        "movedTo": str(aside),
        "recovered": counts,
        "unreadable": unreadable,
        "message": message,
    }


def _problem(path: Path) -> str | None:
    """What is wrong with the store at ``path``, or None when it reads whole."""
    store = SessionStore(path)
    try:
        result = store.integrity()
        if result != "ok":
            return f"integrity check: {result}"
        store.sessions()
        store.drafts()
        for (version,) in store.db.execute("SELECT version FROM schemas"):
            store.prepared_schema(version)
    except StoreDamaged as exc:
        return exc.detail
    except StoreError:
        raise
    finally:
        store.close()
    return None


def _move_aside(path: Path, now: float) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    for suffix in ("-wal", "-shm"):  # first, so the main file never sits beside a stranger's log
        companion = Path(str(path) + suffix)
        if companion.exists():
            os.replace(companion, Path(str(aside) + suffix))
    os.replace(path, aside)
    return aside


def _read_rows(path: Path) -> tuple[dict[str, list[tuple]], dict[str, int]]:
    """The readable rows of each table of the damaged file at ``path``, and how many rows were
    found but did not decode."""
    kept: dict[str, list[tuple]] = {table: [] for table in _TABLES}
    unreadable = dict.fromkeys(_TABLES, 0)
    db = _open_read_only(path)
    if db is None:
        return kept, unreadable
    try:
        for table, (columns, check) in _TABLES.items():
            for row in _rows(db, table, columns):
                try:
                    if check is not None:
                        check(row)
                except (ValueError, TypeError, KeyError):
                    unreadable[table] += 1
                    continue
                kept[table].append(row)
    finally:
        db.close()
    return kept, unreadable


def _open_read_only(path: Path) -> sqlite3.Connection | None:
    # immutable: read the file as it is, without replaying or creating a log beside it.
    for options in ("mode=ro", "immutable=1"):
        with contextlib.suppress(sqlite3.Error):
            db = sqlite3.connect(f"{path.resolve().as_uri()}?{options}", uri=True)
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return db
    return None


def _rows(db: sqlite3.Connection, table: str, columns: str) -> list[tuple]:
    """Every row of ``table`` that can be read: a scan in row-id order which, when it breaks on a
    damaged page, carries on from the next row a scan can start at."""
    found: list[tuple] = []
    after, skip = 0, 0
    while True:
        start = after
        try:
            for row in db.execute(f"SELECT rowid, {columns} FROM {table} WHERE rowid > ? ORDER BY rowid", (after,)):
                found.append(row[1:])
                after = row[0]
            return found
        except sqlite3.DatabaseError as exc:
            if "no such table" in str(exc):
                return found
        # A scan that broke without reading a row skips one more row id past the break each time.
        skip = skip + 1 if after == start else 0
        resume = _next_readable(db, table, columns, after + skip)
        if resume is None:
            return found
        after = resume - 1


def _next_readable(db: sqlite3.Connection, table: str, columns: str, after: int) -> int | None:
    """The smallest row id past ``after`` whose row reads (None when no row past it does):
    steps of doubling length past the damage, then a bisection back to its end."""

    def first_from(rowid: int) -> int | bool | None:  # the row id read, None past the end, False: damaged
        try:
            sql = f"SELECT rowid, {columns} FROM {table} WHERE rowid >= ? ORDER BY rowid LIMIT 1"
            row = db.execute(sql, (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            return False
        return None if row is None else row[0]

    failed, step = after, 1
    while True:
        probe = after + step
        if probe > _MAX_ROWID:
            return None
        found = first_from(probe)
        if found is not False:
            break
        failed, step = probe, step * 2
    while probe - failed > 1:  # the smallest start in (failed, probe] that reads
        middle = (failed + probe) // 2
        answer = first_from(middle)
        if answer is False:
            failed = middle
        else:
            probe, found = middle, answer
    return found


_MAX_ROWID = 2**63 - 1


def recover_rows(store: Any) -> dict[str, Any]:
    """Recover a PostgreSQL store (``store_postgres.PostgresStore``): every session, draft and
    prepared schema whose row does not decode is moved into the table ``damaged_rows`` (nothing
    is deleted) and the rest stays where it is. The database's own integrity is the server's."""
    moved: dict[str, int] = {}
    problems: list[str] = []
    with store.transaction() as db:
        for table in ("sessions", "drafts", "schemas"):
            columns, check = _TABLES[table]
            moved[table] = 0
            for row in db.execute(f"SELECT {columns} FROM {table}").fetchall():
                try:
                    check(row)
                except (ValueError, TypeError, KeyError) as exc:
                    store.move_aside(table, row[0], list(row), str(exc))
                    moved[table] += 1
                    problems.append(f"{table} {row[0]}: {exc}")
    where = store.location
    if not problems:
        return _not_damaged(where)
    return {
        "store": where,
        "damaged": True,
        "problem": "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else ""),
        "movedTo": "deskcheck.damaged_rows",
        "moved": moved,
        "message": (
            f"the session store {where} had {len(problems)} row(s) that do not decode; they were moved to the table "
            f"deskcheck.damaged_rows (nothing was deleted): "
            + ", ".join(f"{count} {table}" for table, count in moved.items() if count)
            + ". Every other session and draft is usable again."
        ),
    }


def _not_damaged(where: str) -> dict[str, Any]:
    message = f"the session store {where} is not damaged; nothing was changed."
    return {"store": where, "damaged": False, "message": message}
