"""The SQLite store behind the sample API: datasets (with their JSON Schema), records ("lines",
as data platforms call them) and referentials (lookup lists such as the French départements).

One connection, shared by the server's threads under a lock: SQLite serialises writers anyway,
and a lock makes read-check-write sequences (If-Match then UPDATE) atomic without retry loops.
Writes also take SQLite's own write lock (``BEGIN IMMEDIATE``) and the database runs in WAL mode,
so a second process on the same file (another ``deskcheck sample-api --db``) stays consistent.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .conditions import make_etag

# Bump with a new step in _MIGRATIONS when the tables change.
SCHEMA_VERSION = 1

# How long a writer waits for another process's write lock before giving up.
BUSY_TIMEOUT_MS = 5000

_MIGRATIONS = {
    1: """
    CREATE TABLE datasets (
        id TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        schema TEXT NOT NULL,
        lookups TEXT NOT NULL,
        extensions TEXT NOT NULL,
        created_at TEXT NOT NULL,
        schema_updated_at TEXT NOT NULL
    );
    CREATE TABLE lines (
        dataset_id TEXT NOT NULL REFERENCES datasets(id),
        id TEXT NOT NULL,
        data TEXT NOT NULL,
        revision INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (dataset_id, id)
    );
    CREATE TABLE referential_items (
        referential TEXT NOT NULL,
        key TEXT NOT NULL,
        position INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (referential, key)
    );
    """,
}


class StoreError(Exception):
    """The database file cannot be used (not SQLite, from a newer version, unwritable)."""


@dataclass(frozen=True)
class Dataset:
    id: str
    title: str
    description: str
    schema: dict[str, Any]
    lookups: list[dict[str, Any]]
    extensions: list[dict[str, Any]]
    created_at: str
    schema_updated_at: str


@dataclass(frozen=True)
class Line:
    dataset_id: str
    id: str
    data: dict[str, Any]
    revision: int
    updated_at: datetime

    @property
    def etag(self) -> str:
        return make_etag(self.dataset_id, self.id, str(self.revision), canonical_json(self.data))

    @property
    def updated_at_text(self) -> str:
        return format_timestamp(self.updated_at)

    def to_json(self) -> dict[str, Any]:
        """The record as the API shows it: its fields, then ``_id`` and ``_updatedAt``."""
        return {**self.data, "_id": self.id, "_updatedAt": self.updated_at_text}


def canonical_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def format_timestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_timestamp(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def next_modification_time(previous: datetime | None, now: datetime | None = None) -> datetime:
    """The modification time of a new version of a record.

    Last-Modified has a resolution of one second, so two writes within the same second would give
    two versions the same date and an If-Unmodified-Since check could miss the second one. Each
    new version is therefore dated at least one whole second after the previous one (which may put
    a record that is written many times per second slightly ahead of the clock)."""
    now = now or datetime.now(UTC)
    if previous is None:
        return now
    floor = previous.replace(microsecond=0) + timedelta(seconds=1)
    return max(now, floor)


class RecordStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        try:
            self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=5.0)
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._conn.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(f"{path} cannot be used as the sample API's database: {exc}") from None

    def close(self) -> None:
        with self._lock:
            conn = getattr(self, "_conn", None)
            if conn is not None:
                conn.close()
                self._conn = None  # type: ignore[assignment]

    # -- schema versions ------------------------------------------------------------------

    def _migrate(self) -> None:
        with self._lock:
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was created by a newer deskcheck (store version {version}, this one knows "
                    f"{SCHEMA_VERSION}); use another --db file or upgrade deskcheck."
                )
            for step in range(version + 1, SCHEMA_VERSION + 1):
                # executescript() would commit on its own; statements one by one keep the step atomic.
                with self.transaction():
                    for statement in _MIGRATIONS[step].split(";"):
                        if statement.strip():
                            self._conn.execute(statement)
                    self._conn.execute(f"PRAGMA user_version = {step}")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A write transaction: holds the in-process lock and SQLite's write lock."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    # -- datasets -------------------------------------------------------------------------

    def is_empty(self) -> bool:
        with self._lock:
            return self._conn.execute("SELECT COUNT(*) FROM datasets").fetchone()[0] == 0

    def add_dataset(self, dataset: Dataset) -> None:
        with self._lock:
            position = self._conn.execute("SELECT COALESCE(MAX(position), 0) + 1 FROM datasets").fetchone()[0]
            self._conn.execute(
                "INSERT INTO datasets VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    dataset.id,
                    position,
                    dataset.title,
                    dataset.description,
                    json.dumps(dataset.schema, ensure_ascii=False),
                    json.dumps(dataset.lookups),
                    json.dumps(dataset.extensions),
                    dataset.created_at,
                    dataset.schema_updated_at,
                ),
            )

    def datasets(self) -> list[Dataset]:
        with self._lock:
            rows = self._conn.execute("SELECT * FROM datasets ORDER BY position").fetchall()
        return [_dataset(row) for row in rows]

    def dataset(self, dataset_id: str) -> Dataset | None:
        with self._lock:
            row = self._conn.execute("SELECT * FROM datasets WHERE id = ?", (dataset_id,)).fetchone()
        return _dataset(row) if row else None

    def set_schema(self, dataset_id: str, schema: dict[str, Any]) -> None:
        with self._lock:
            self._conn.execute(
                "UPDATE datasets SET schema = ?, schema_updated_at = ? WHERE id = ?",
                (json.dumps(schema, ensure_ascii=False), format_timestamp(datetime.now(UTC)), dataset_id),
            )

    def line_stats(self, dataset_id: str) -> tuple[int, str | None]:
        """How many records the dataset has, and when the last one changed."""
        with self._lock:
            count, last = self._conn.execute(
                "SELECT COUNT(*), MAX(updated_at) FROM lines WHERE dataset_id = ?", (dataset_id,)
            ).fetchone()
        return count, last

    # -- lines ----------------------------------------------------------------------------

    def lines(self, dataset_id: str) -> list[Line]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT dataset_id, id, data, revision, updated_at FROM lines WHERE dataset_id = ? ORDER BY rowid",
                (dataset_id,),
            ).fetchall()
        return [_line(row) for row in rows]

    def line(self, dataset_id: str, line_id: str) -> Line | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT dataset_id, id, data, revision, updated_at FROM lines WHERE dataset_id = ? AND id = ?",
                (dataset_id, line_id),
            ).fetchone()
        return _line(row) if row else None

    def insert_line(self, dataset_id: str, line_id: str, data: dict[str, Any], updated_at: datetime) -> Line:
        with self._lock:
            self._conn.execute(
                "INSERT INTO lines (dataset_id, id, data, revision, updated_at) VALUES (?, ?, ?, 1, ?)",
                (dataset_id, line_id, json.dumps(data, ensure_ascii=False), format_timestamp(updated_at)),
            )
        return Line(dataset_id, line_id, data, 1, parse_timestamp(format_timestamp(updated_at)))

    def replace_line(self, current: Line, data: dict[str, Any]) -> Line:
        """Store a new version of ``current`` (call inside ``transaction()``, after checking that
        ``current`` is still the stored version)."""
        updated_at = parse_timestamp(format_timestamp(next_modification_time(current.updated_at)))
        with self._lock:
            self._conn.execute(
                "UPDATE lines SET data = ?, revision = ?, updated_at = ? WHERE dataset_id = ? AND id = ?",
                (
                    json.dumps(data, ensure_ascii=False),
                    current.revision + 1,
                    format_timestamp(updated_at),
                    current.dataset_id,
                    current.id,
                ),
            )
        return Line(current.dataset_id, current.id, data, current.revision + 1, updated_at)

    def delete_line(self, dataset_id: str, line_id: str) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM lines WHERE dataset_id = ? AND id = ?", (dataset_id, line_id))

    # -- referentials ---------------------------------------------------------------------

    def add_referential(self, name: str, key: str, items: list[dict[str, Any]]) -> None:
        with self._lock:
            self._conn.executemany(
                "INSERT INTO referential_items VALUES (?, ?, ?, ?)",
                [
                    (name, item[key], position, json.dumps(item, ensure_ascii=False))
                    for position, item in enumerate(items)
                ],
            )

    def referential(self, name: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT data FROM referential_items WHERE referential = ? ORDER BY position", (name,)
            ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def referential_item(self, name: str, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT data FROM referential_items WHERE referential = ? AND key = ?", (name, key)
            ).fetchone()
        return json.loads(row[0]) if row else None


def _dataset(row: tuple) -> Dataset:
    _id, _position, title, description, schema, lookups, extensions, created_at, schema_updated_at = row
    return Dataset(
        _id, title, description, json.loads(schema), json.loads(lookups), json.loads(extensions), created_at,
        schema_updated_at,
    )  # fmt: skip


def _line(row: tuple) -> Line:
    dataset_id, line_id, data, revision, updated_at = row
    return Line(dataset_id, line_id, json.loads(data), revision, parse_timestamp(updated_at))
