"""What every session store does, whatever keeps it: the records, the errors, and the statements
over the five tables, written once for both stores (``store.SessionStore``, SQLite, one file on
one machine; ``store_postgres.PostgresStore``, PostgreSQL, shared by a fleet).

Tables:

- ``sessions``: one row per open session, by key (identity, tool group, path parameters): the
  engine snapshot (data, base copy, variants, suggestion indices, ...), the document version,
  the schema version, the status and its message, a revision bumped by every write, a
  generation bumped by every reload, and the lease of a save in flight;
- ``drafts``: the unsaved edits of sessions that expired, until restored or discarded;
- ``schemas``: prepared schemas by version, so a schema is prepared once for every process;
- ``schema_tags``: per schema request, the last version seen and its ``ETag`` (for a
  conditional request);
- ``counters``: how often schemas were prepared and reused (benchmarks read them).

The guarantees both stores give, and the tests run on both:

- a ``transaction()`` block is atomic (committed at its end, rolled back if it raises) and, for
  every session it reads with ``get``, serialised with every other transaction that reads that
  session: a read-modify-write of one session never interleaves with another's. SQLite gets it
  from its one write lock; PostgreSQL from a lock per session key, so that a fleet editing many
  sessions does not queue on one lock (see ``store_postgres``);
- ``put`` is a compare-and-swap on the revision the record was read at: a write from a stale
  read is refused (``StoreConflict``), never merged and never lost;
- expiry moves a session with unsaved edits into a draft, never drops them;
- a row that does not decode is reported as damage (``StoreDamaged``, exit 2), and each store's
  recovery keeps what can still be read;
- each store has versioned migrations: a newer deskcheck upgrades an older database in place,
  an older deskcheck refuses a newer database.

Statements use ``?`` for parameters and the ``INSERT ... ON CONFLICT`` upsert, which both
engines read; what differs (connections, locks, draft ids) is each store's own.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from ...errors import DeskcheckError, InputError
from ..sources.sources import DocumentVersion
from .store_snapshot import snapshot_text, snapshot_value

# How long a writer waits for another process's transaction; saves hold no lock during their
# request, so a wait is a few milliseconds unless the disk (or the network) is very slow.
BUSY_SECONDS = 30.0
DEFAULT_TTL_SECONDS = 30 * 60
# Prepared schemas kept besides those sessions and drafts use (most recently used first).
KEEP_UNUSED_SCHEMAS = 32


class StoreError(DeskcheckError):
    """The store cannot be opened or written (a folder that cannot be created, a newer format)."""


class StoreInputError(StoreError, InputError):
    """The store given cannot be used as it is (a FIFO or a device, a URL that does not parse,
    a server that cannot be reached at start): exit 2."""


class StoreDamaged(StoreError, InputError):
    """The store is damaged (not a database, a corrupt page, a row that does not decode). An
    ``InputError``: nothing that needs the store can run until it is recovered (exit 2)."""

    def __init__(self, where: str | Path, detail: str) -> None:
        self.detail = detail
        super().__init__(
            f"the session store {where} is damaged ({detail}). `deskcheck form recover-store` moves what is "
            "damaged aside and keeps the sessions and drafts that can still be read; until then nothing can use it.",
            code="storeDamaged",
        )


class StoreConflict(StoreError):
    """A write from a stale read: the session changed (or went) since it was read."""


class UnstorableValue(StoreError, InputError):
    """A value that is not text (a lone surrogate) cannot be stored: the call is refused, and the
    session stays as it was."""

    def __init__(self, exc: UnicodeEncodeError) -> None:
        bad = exc.object[exc.start : exc.end] if isinstance(exc.object, str) else ""
        codes = ", ".join(f"U+{ord(c):04X}" for c in bad[:3]) or "an unpaired surrogate"
        super().__init__(
            f"a value holds {codes}, half of a surrogate pair with no other half: that is not text, so it cannot be "
            "kept in the session; nothing was changed. Write the character itself where the value comes from (the "
            "tool's arguments, or the record: a JSON \\udc80 escape), or both halves of its pair.",
            code="invalidText",
        )


_RECORD_FIELDS = (
    "key",
    "identity",
    "group",
    "params",
    "title",
    "status",
    "schema_key",
    "schema_version",
    "snapshot",
    "doc_version",
    "message",
    "modified",
    "valid",
    "error_count",
    "created_at",
    "updated_at",
    "expires_at",
    "revision",
    "generation",
    "save_token",
    "save_deadline",
    "save_owner",
)


class SessionRecord:
    """One stored session (a plain slotted class: a command-line call defines it at start-up,
    and a dataclass of this size costs more to define than the call spends using it)."""

    __slots__ = _RECORD_FIELDS

    def __init__(
        self,
        key: str,
        identity: str,
        group: str,
        params: list[list[str]],
        title: str,
        status: str,
        schema_key: str,
        schema_version: str,
        snapshot: dict[str, Any],
        doc_version: DocumentVersion | None = None,
        message: str | None = None,
        modified: bool = False,
        valid: bool = False,
        error_count: int = 0,
        created_at: float = 0.0,
        updated_at: float = 0.0,
        expires_at: float = 0.0,
        revision: int = 0,
        generation: int = 0,
        save_token: str | None = None,
        save_deadline: float | None = None,
        save_owner: str | None = None,
    ) -> None:
        self.key, self.identity, self.group, self.params = key, identity, group, params
        self.title, self.status, self.message = title, status, message
        self.schema_key, self.schema_version = schema_key, schema_version
        self.snapshot, self.doc_version = snapshot, doc_version
        self.modified, self.valid, self.error_count = modified, valid, error_count
        self.created_at, self.updated_at, self.expires_at = created_at, updated_at, expires_at
        self.revision, self.generation = revision, generation
        self.save_token, self.save_deadline, self.save_owner = save_token, save_deadline, save_owner

    def __repr__(self) -> str:
        return f"SessionRecord({self.key!r}, status={self.status!r}, revision={self.revision})"

    def summary(self, now: float) -> dict[str, Any]:
        """What ``deskcheck form sessions`` lists."""
        return {
            "key": {"identity": self.identity or None, "group": self.group, "params": dict(self.params)},
            "title": self.title,
            "status": self.status,
            "modified": self.modified,
            "valid": self.valid,
            "errors": self.error_count,
            "version": self.doc_version.value if self.doc_version else None,
            "ageSeconds": round(now - self.created_at, 1),
            "idleSeconds": round(now - self.updated_at, 1),
            "expiresInSeconds": round(self.expires_at - now, 1),
            **({"message": self.message} if self.message else {}),
        }


class Draft(NamedTuple):
    id: int
    key: str
    identity: str
    group: str
    params: list[list[str]]
    title: str
    schema_version: str
    doc_version: DocumentVersion | None
    snapshot: dict[str, Any]
    changed: list[str]
    valid: bool = False
    created_at: float = 0.0
    expired_at: float = 0.0

    def summary(self, now: float) -> dict[str, Any]:
        return {
            "draft": self.id,
            "key": {"identity": self.identity or None, "group": self.group, "params": dict(self.params)},
            "title": self.title,
            "changed": self.changed,
            "valid": self.valid,
            "expiredSecondsAgo": round(now - self.expired_at, 1),
        }


SESSION_COLUMNS = (
    "key, identity, tool_group, params, title, status, message, schema_key, schema_version, doc_version, "
    "snapshot, modified, valid, error_count, created_at, updated_at, expires_at, revision, generation, "
    "save_token, save_deadline, save_owner"
)
DRAFT_COLUMNS = (
    "id, key, identity, tool_group, params, title, schema_version, doc_version, snapshot, changed, valid, "
    "created_at, expired_at"
)
# Every table a store keeps, with its columns and its key, in the order a copy writes them.
TABLES: dict[str, tuple[str, str]] = {
    "schemas": ("version, prepared, stored_at, used_at", "version"),
    "schema_tags": ("schema_key, version, etag, checked_at", "schema_key"),
    "sessions": (SESSION_COLUMNS, "key"),
    "drafts": (DRAFT_COLUMNS, "id"),
    "counters": ("name, value", "name"),
}


def ttl_from_environment(default: float = DEFAULT_TTL_SECONDS) -> float:
    """``DESKCHECK_SESSION_TTL``: seconds, or a number with ``s``, ``m`` or ``h`` (``45m``)."""
    text = os.environ.get("DESKCHECK_SESSION_TTL", "").strip().lower()
    if not text:
        return default
    scale = {"s": 1, "m": 60, "h": 3600}.get(text[-1])
    number = text[:-1] if scale else text
    try:
        value = float(number) * (scale or 1)
    except ValueError:
        raise StoreError(
            f"DESKCHECK_SESSION_TTL={text!r} is not a duration; give seconds or a number with s, m or h (45m)."
        ) from None
    if value <= 0:
        raise StoreError("DESKCHECK_SESSION_TTL must be more than zero.")
    return value


def upsert(table: str, columns: str, key: str) -> str:
    """An insert of every column of ``table`` that replaces the row of the same ``key``."""
    names = [c.strip() for c in columns.split(",")]
    updates = ", ".join(f"{n} = excluded.{n}" for n in names if n != key)
    marks = ", ".join("?" * len(names))
    return f"INSERT INTO {table} ({columns}) VALUES ({marks}) ON CONFLICT ({key}) DO UPDATE SET {updates}"


class BaseStore:
    """The operations of a session store over its database connection ``self.db`` (an object
    with ``execute(sql, parameters)`` answering rows, ``in_transaction``, ``begin``, ``commit``,
    ``rollback`` and ``close``). Subclasses open the connection, migrate, and say how a session
    key is locked and how a draft gets its id.

    ``ttl`` is the sliding expiry in seconds; ``clock`` gives the time (tests pass their own)."""

    ttl: float
    clock: Any

    # -- what each store provides ---------------------------------------------------------------

    @property
    def db(self) -> Any:
        raise NotImplementedError

    @property
    def location(self) -> str:
        """Where the store is, as messages show it (a path, or a URL without its password)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _lock_key(self, key: str) -> None:
        """Serialise the rest of this transaction with every other one that locks ``key``."""

    def _try_lock_key(self, key: str) -> bool:
        """Lock ``key`` for the rest of this transaction if no other transaction holds it."""
        return True

    def _insert_draft(self, values: tuple[Any, ...]) -> int:
        raise NotImplementedError

    # -- transactions ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Any]:
        """One atomic block: committed at the end, rolled back if the block raises. A block
        inside another one is part of it."""
        db = self.db
        if db.in_transaction:
            yield db
            return
        db.begin()
        try:
            yield db
        except BaseException:
            db.rollback()
            raise
        db.commit()

    def now(self) -> float:
        return float(self.clock())

    def _decoded(self, decode: Any, row: Any) -> Any:
        """``decode(row)``; a row that does not decode means a damaged store."""
        try:
            return decode(row)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise StoreDamaged(self.location, f"a stored row does not decode: {exc}") from None

    # -- sessions -------------------------------------------------------------------------------

    def get(self, key: str) -> SessionRecord | None:
        """The session ``key``; inside a transaction, locked for the rest of it (even when there
        is none yet, so that two processes opening it take turns)."""
        if self.db.in_transaction:
            self._lock_key(key)
        row = self.db.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE key = ?", (key,)).fetchone()
        return self._decoded(record_of, row) if row else None

    def put(self, record: SessionRecord) -> None:
        """Store ``record`` (inside a transaction) if the stored session is still at the revision
        it was read at (none stored, for a record never stored); its revision is bumped. A stale
        record raises ``StoreConflict`` and nothing is written."""
        self._lock_key(record.key)
        expected = record.revision
        record.revision += 1
        record.updated_at = self.now()
        values = _session_values(record)
        if expected == 0:
            marks = ", ".join("?" * len(values))
            sql = f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES ({marks}) ON CONFLICT (key) DO NOTHING"
            written = self.db.execute(sql, values).rowcount
        else:
            names = [c.strip() for c in SESSION_COLUMNS.split(",")][1:]
            sql = f"UPDATE sessions SET {', '.join(f'{n} = ?' for n in names)} WHERE key = ? AND revision = ?"
            written = self.db.execute(sql, (*values[1:], record.key, expected)).rowcount
        if written != 1:
            record.revision = expected
            raise StoreConflict(
                f"the session {record.title!r} changed in the store since this process read it (it was at revision "
                f"{expected}); nothing was written. Run the call again: it reads the session as it is now.",
                code="storeConflict",
            )

    def touch(self, record: SessionRecord) -> None:
        """Slide the expiry of a session that was only read."""
        self._lock_key(record.key)
        record.expires_at = self.now() + self.ttl
        self.db.execute("UPDATE sessions SET expires_at = ? WHERE key = ?", (record.expires_at, record.key))

    def delete(self, key: str) -> bool:
        self._lock_key(key)
        return self.db.execute("DELETE FROM sessions WHERE key = ?", (key,)).rowcount > 0

    def sessions(self, identity: str | None = None) -> list[SessionRecord]:
        sql = f"SELECT {SESSION_COLUMNS} FROM sessions"
        args: tuple[Any, ...] = ()
        if identity is not None:
            sql += " WHERE identity = ?"
            args = (identity,)
        return [self._decoded(record_of, row) for row in self.db.execute(sql + " ORDER BY updated_at DESC", args)]

    def expire(self) -> list[tuple[str, int | None]]:
        """Move every expired session out (inside a transaction): one with unsaved edits becomes
        a draft, one without is dropped. Returns ``(key, draft id or None)`` per expired one. A
        session another transaction holds is left to it (it is being used, so it slides)."""
        now = self.now()
        keys = [row[0] for row in self.db.execute("SELECT key FROM sessions WHERE expires_at < ?", (now,)).fetchall()]
        expired = []
        for key in keys:
            if not self._try_lock_key(key):
                continue
            record = self.get(key)
            if record is None or record.expires_at >= now:
                continue
            draft_id = self.add_draft(record, now) if record.modified else None
            self.delete(record.key)
            expired.append((record.key, draft_id))
        return expired

    # -- drafts ---------------------------------------------------------------------------------

    def add_draft(self, record: SessionRecord, when: float, changed: list[str] | None = None) -> int:
        return self._insert_draft(
            (
                record.key,
                record.identity,
                record.group,
                json_text(record.params),
                record.title,
                record.schema_version,
                json_text(record.doc_version.as_json()) if record.doc_version else None,
                json_text(record.snapshot),
                json_text(changed if changed is not None else _changed_pointers(record.snapshot)),
                int(record.valid),
                record.created_at,
                when,
            )
        )

    def drafts(self, key: str | None = None, identity: str | None = None) -> list[Draft]:
        sql, args = f"SELECT {DRAFT_COLUMNS} FROM drafts", []
        conditions = []
        if key is not None:
            conditions.append("key = ?")
            args.append(key)
        if identity is not None:
            conditions.append("identity = ?")
            args.append(identity)
        if conditions:
            sql += " WHERE " + " AND ".join(conditions)
        return [self._decoded(draft_of, row) for row in self.db.execute(sql + " ORDER BY id DESC", args)]

    def draft(self, draft_id: int) -> Draft | None:
        row = self.db.execute(f"SELECT {DRAFT_COLUMNS} FROM drafts WHERE id = ?", (draft_id,)).fetchone()
        return self._decoded(draft_of, row) if row else None

    def delete_draft(self, draft_id: int) -> bool:
        return self.db.execute("DELETE FROM drafts WHERE id = ?", (draft_id,)).rowcount > 0

    # -- schemas --------------------------------------------------------------------------------

    def prepared_schema(self, version: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT prepared FROM schemas WHERE version = ?", (version,)).fetchone()
        return self._decoded(json.loads, row[0]) if row else None

    def has_schema(self, version: str) -> bool:
        return self.db.execute("SELECT 1 FROM schemas WHERE version = ?", (version,)).fetchone() is not None

    def put_schema(self, version: str, prepared: dict[str, Any]) -> None:
        now = self.now()
        with self.transaction() as db:
            db.execute(upsert("schemas", TABLES["schemas"][0], "version"), (version, json_text(prepared), now, now))
            self._count(db, "schemaPrepared")
            self._forget_unused_schemas(db)

    def count(self, name: str) -> None:
        with self.transaction() as db:
            self._count(db, name)

    def _count(self, db: Any, name: str) -> None:
        db.execute(
            "INSERT INTO counters (name, value) VALUES (?, 1) "
            "ON CONFLICT (name) DO UPDATE SET value = counters.value + 1",
            (name,),
        )

    def counters(self) -> dict[str, int]:
        return {name: int(value) for name, value in self.db.execute("SELECT name, value FROM counters").fetchall()}

    def schema_tag(self, schema_key: str) -> tuple[str, str | None] | None:
        row = self.db.execute("SELECT version, etag FROM schema_tags WHERE schema_key = ?", (schema_key,)).fetchone()
        return (row[0], row[1]) if row else None

    def put_schema_tag(self, schema_key: str, version: str, etag: str | None) -> None:
        now = self.now()
        with self.transaction() as db:
            db.execute(upsert("schema_tags", TABLES["schema_tags"][0], "schema_key"), (schema_key, version, etag, now))
            db.execute("UPDATE schemas SET used_at = ? WHERE version = ?", (now, version))

    def _forget_unused_schemas(self, db: Any) -> None:
        db.execute(
            """DELETE FROM schemas WHERE version NOT IN (SELECT schema_version FROM sessions)
               AND version NOT IN (SELECT schema_version FROM drafts)
               AND version NOT IN (SELECT version FROM schemas ORDER BY used_at DESC LIMIT ?)""",
            (KEEP_UNUSED_SCHEMAS,),
        )

    # -- whole tables (copying a store) -----------------------------------------------------------

    def rows(self, table: str) -> list[tuple[Any, ...]]:
        """Every row of ``table`` (one of ``TABLES``), as stored."""
        columns, key = TABLES[table]
        return [tuple(row) for row in self.db.execute(f"SELECT {columns} FROM {table} ORDER BY {key}")]

    def insert_missing(self, table: str, row: tuple[Any, ...]) -> bool:
        """Insert ``row`` (all of ``table``'s columns) unless a row of that key is there; whether
        it was inserted (inside a transaction)."""
        columns, key = TABLES[table]
        if table == "sessions":
            self._lock_key(row[0])
        marks = ", ".join("?" * len(row))
        sql = f"INSERT INTO {table} ({columns}) VALUES ({marks}) ON CONFLICT ({key}) DO NOTHING"
        return self.db.execute(sql, row).rowcount == 1

    def insert_draft_row(self, row: tuple[Any, ...]) -> bool:
        """Insert a draft read from another store (its id left out: this store numbers it) unless
        a draft of the same session that expired at the same time is there."""
        found = self.db.execute(
            "SELECT 1 FROM drafts WHERE key = ? AND expired_at = ? AND created_at = ?", (row[1], row[12], row[11])
        ).fetchone()
        if found is not None:
            return False
        self._insert_draft(row[1:])
        return True


def json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _session_values(record: SessionRecord) -> tuple[Any, ...]:
    return (
        record.key,
        record.identity,
        record.group,
        json_text(record.params),
        record.title,
        record.status,
        record.message,
        record.schema_key,
        record.schema_version,
        json_text(record.doc_version.as_json()) if record.doc_version else None,
        snapshot_text(record.snapshot),
        int(record.modified),
        int(record.valid),
        record.error_count,
        record.created_at,
        record.updated_at,
        record.expires_at,
        record.revision,
        record.generation,
        record.save_token,
        record.save_deadline,
        record.save_owner,
    )


# Columns stored as JSON text, and columns stored as 0/1.
_JSON_COLUMNS = {"params", "doc_version", "snapshot", "changed"}
_BOOLEAN_COLUMNS = {"modified", "valid"}


# The type each column must hold once read. A damaged page can leave a value of another type
# (SQLite types values, not columns) or a NULL where none is written: caught here, at decoding,
# it is "the store is damaged"; left in the record, it was a TypeError wherever it was used.
_NUMBERS = {"created_at", "updated_at", "expires_at", "expired_at", "revision", "generation", "error_count", "id"}
_TEXTS = {"key", "identity", "tool_group", "title", "status", "schema_key", "schema_version"}
_NULLABLE_TEXTS = {"message", "save_token", "save_owner"}


def _checked(name: str, value: Any) -> Any:
    """``value`` of column ``name``; ValueError when its type is not the column's."""
    if name in _NUMBERS:
        ok = type(value) in (int, float)
    elif name in _TEXTS:
        ok = type(value) is str
    elif name in _NULLABLE_TEXTS:
        ok = value is None or type(value) is str
    elif name == "save_deadline":
        ok = value is None or type(value) in (int, float)
    elif name == "params":
        ok = type(value) is list and all(
            type(pair) is list and len(pair) == 2 and all(type(part) is str for part in pair) for pair in value
        )
    elif name == "snapshot":
        ok = type(value) is dict
    elif name == "changed":
        ok = type(value) is list and all(type(pointer) is str for pointer in value)
    else:
        ok = True
    if not ok:
        raise ValueError(f"its {name} column holds {type(value).__name__} {str(value)[:40]!r}")
    return value


def _decode(row: tuple[Any, ...], columns: str) -> dict[str, Any]:
    """A row as keyword arguments of ``SessionRecord`` or ``Draft``."""
    out: dict[str, Any] = {}
    for name, value in zip((c.strip() for c in columns.split(",")), row, strict=True):
        if name in _JSON_COLUMNS and value is not None:
            value = _checked(name, json.loads(value))
            if name == "snapshot":
                value = snapshot_value(value)
        elif name in _BOOLEAN_COLUMNS:
            value = bool(value)
        else:
            value = _checked(name, value)
        out["group" if name == "tool_group" else name] = value
    out["doc_version"] = DocumentVersion.from_json(out.get("doc_version"))
    return out


def record_of(row: tuple[Any, ...]) -> SessionRecord:
    return SessionRecord(**_decode(row, SESSION_COLUMNS))


def draft_of(row: tuple[Any, ...]) -> Draft:
    return Draft(**_decode(row, DRAFT_COLUMNS))


def _changed_pointers(snapshot: dict[str, Any]) -> list[str]:
    from ..state.rebase import changed_pointers

    return changed_pointers(snapshot.get("base"), snapshot.get("data"))


def statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]
