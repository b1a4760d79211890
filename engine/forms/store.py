"""The persistent session store: SQLite in the user state directory, shared by every deskcheck
process, so that one process can set a field and the next one save it.

One file, ``sessions.sqlite3`` under ``state_dir()`` (``DESKCHECK_STATE_DIR`` overrides it), in
WAL mode (readers never wait for a writer), with versioned migrations (``PRAGMA user_version``).
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

Writers serialise with ``BEGIN IMMEDIATE`` (the write lock, waited for up to ``BUSY_SECONDS``),
so two processes writing one session never lose a write; a process killed mid-write leaves the
file as it was before that transaction (SQLite's journal). Credentials are never written here:
a session row holds documents, versions and statuses only.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import DeskcheckError, InputError
from ..state_dir import state_dir
from .sources import DocumentVersion

STORE_FILE = "sessions.sqlite3"
# How long a writer waits for another process's transaction; saves hold no lock during their
# request, so a wait is a few milliseconds unless the disk is very slow.
BUSY_SECONDS = 30.0
DEFAULT_TTL_SECONDS = 30 * 60
# Prepared schemas kept besides those sessions and drafts use (most recently used first).
KEEP_UNUSED_SCHEMAS = 32

MIGRATIONS: tuple[str, ...] = (
    # 1: the first layout.
    """
    CREATE TABLE sessions (
        key TEXT PRIMARY KEY,
        identity TEXT NOT NULL,
        tool_group TEXT NOT NULL,
        params TEXT NOT NULL,
        title TEXT NOT NULL,
        status TEXT NOT NULL,
        message TEXT,
        schema_key TEXT NOT NULL,
        schema_version TEXT NOT NULL,
        doc_version TEXT,
        snapshot TEXT NOT NULL,
        modified INTEGER NOT NULL DEFAULT 0,
        valid INTEGER NOT NULL DEFAULT 0,
        error_count INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        generation INTEGER NOT NULL DEFAULT 0,
        save_token TEXT,
        save_deadline REAL,
        save_owner TEXT
    );
    CREATE INDEX sessions_expiry ON sessions (expires_at);
    CREATE TABLE drafts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key TEXT NOT NULL,
        identity TEXT NOT NULL,
        tool_group TEXT NOT NULL,
        params TEXT NOT NULL,
        title TEXT NOT NULL,
        schema_version TEXT NOT NULL,
        doc_version TEXT,
        snapshot TEXT NOT NULL,
        changed TEXT NOT NULL,
        valid INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        expired_at REAL NOT NULL
    );
    CREATE INDEX drafts_key ON drafts (key);
    CREATE TABLE schemas (
        version TEXT PRIMARY KEY,
        prepared TEXT NOT NULL,
        stored_at REAL NOT NULL,
        used_at REAL NOT NULL
    );
    CREATE TABLE schema_tags (
        schema_key TEXT PRIMARY KEY,
        version TEXT NOT NULL,
        etag TEXT,
        checked_at REAL NOT NULL
    );
    CREATE TABLE counters (
        name TEXT PRIMARY KEY,
        value INTEGER NOT NULL
    );
    """,
)


class StoreError(DeskcheckError):
    """The store cannot be opened or written (a folder that cannot be created, a newer format)."""


class StoreDamaged(StoreError, InputError):
    """The store's file is damaged (not a database, a corrupt page, a row that does not decode).
    An ``InputError``: nothing that needs the store can run until it is recovered (exit 2)."""

    def __init__(self, path: Path, detail: str) -> None:
        self.detail = detail
        super().__init__(
            f"the session store {path} is damaged ({detail}). `deskcheck form recover-store` moves it aside "
            "and keeps the sessions and drafts that can still be read; until then nothing can use it.",
            code="storeDamaged",
        )


# SQLite's primary result codes for a damaged file: SQLITE_CORRUPT and SQLITE_NOTADB.
_DAMAGE_CODES = (11, 26)


def is_damage(exc: BaseException) -> bool:
    """Whether ``exc`` (raised by sqlite3 or while decoding a row) means the file is damaged."""
    if isinstance(exc, ValueError | TypeError | KeyError):  # a row whose JSON or shape does not decode
        return True
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _DAMAGE_CODES:
        return True
    text = str(exc)
    return type(exc) is sqlite3.DatabaseError or "no such table" in text or "no such column" in text


@contextlib.contextmanager
def _reporting_damage(path: Path) -> Iterator[None]:
    try:
        yield
    except StoreError:
        raise
    except (sqlite3.DatabaseError, ValueError, TypeError, KeyError) as exc:
        if not is_damage(exc):
            raise
        detail = str(exc) if isinstance(exc, sqlite3.DatabaseError) else f"a stored row does not decode: {exc}"
        raise StoreDamaged(path, detail) from None


class _Rows:
    """A statement's result, fetched at once so that a damaged page is reported here."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self.rows = cursor.fetchall()
        self.rowcount = cursor.rowcount
        self.lastrowid = cursor.lastrowid

    def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[Any]:
        return self.rows

    def __iter__(self) -> Iterator[Any]:
        return iter(self.rows)


class _Connection:
    """The store's connection: any sign of a damaged file, wherever it surfaces (preparing,
    stepping, fetching), becomes ``StoreDamaged``; a busy database stays an OperationalError."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self._db, self._path = db, path

    def execute(self, sql: str, parameters: Any = ()) -> _Rows:
        with _reporting_damage(self._path):
            return _Rows(self._db.execute(sql, parameters))

    def close(self) -> None:
        self._db.close()


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


_SESSION_COLUMNS = (
    "key, identity, tool_group, params, title, status, message, schema_key, schema_version, doc_version, "
    "snapshot, modified, valid, error_count, created_at, updated_at, expires_at, revision, generation, "
    "save_token, save_deadline, save_owner"
)
_DRAFT_COLUMNS = (
    "id, key, identity, tool_group, params, title, schema_version, doc_version, snapshot, changed, valid, "
    "created_at, expired_at"
)


def default_store_path() -> Path:
    """``sessions.sqlite3`` in the state directory (``DESKCHECK_STATE_DIR``, else the platform's)."""
    return state_dir() / STORE_FILE


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


class SessionStore:
    """The store at ``path`` (default: ``default_store_path()``), opened on first use.

    ``ttl`` is the sliding expiry in seconds (default: ``DESKCHECK_SESSION_TTL`` or 30 minutes);
    ``clock`` gives the time (tests pass their own). One store object per thread."""

    def __init__(self, path: str | Path | None = None, *, ttl: float | None = None, clock=time.time) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self.ttl = float(ttl) if ttl is not None else ttl_from_environment()
        self.clock = clock
        self._db: _Connection | None = None

    # -- connection ---------------------------------------------------------------------------

    @property
    def db(self) -> _Connection:
        if self._db is None:
            self._db = _Connection(self._open(), self.path)
        return self._db

    def _open(self) -> sqlite3.Connection:
        try:
            private_store_file(self.path)
            db = sqlite3.connect(str(self.path), timeout=BUSY_SECONDS, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(
                f"the session store {self.path} cannot be opened ({exc}); check that its folder is writable, "
                "or point DESKCHECK_STATE_DIR somewhere else."
            ) from None
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            self._migrate(db)
        except sqlite3.DatabaseError as exc:
            db.close()
            if is_damage(exc):
                raise StoreDamaged(self.path, str(exc)) from None
            raise StoreError(f"the session store {self.path} is not usable ({exc}).") from None
        return db

    def _migrate(self, db: sqlite3.Connection) -> None:
        current = db.execute("PRAGMA user_version").fetchone()[0]
        if current == len(MIGRATIONS):
            return
        if current > len(MIGRATIONS):
            raise StoreError(
                f"the session store {self.path} was written by a newer deskcheck (format {current}); "
                "upgrade deskcheck, or point DESKCHECK_STATE_DIR somewhere else."
            )
        db.execute("BEGIN IMMEDIATE")
        try:
            current = db.execute("PRAGMA user_version").fetchone()[0]  # another process may have migrated
            for number in range(current, len(MIGRATIONS)):
                for statement in _statements(MIGRATIONS[number]):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The write lock for the duration of the block (``BEGIN IMMEDIATE``); committed at the
        end, rolled back if the block raises."""
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(
                f"the session store {self.path} stayed locked by another process for {BUSY_SECONDS:g} s ({exc}); "
                "try again."
            ) from None
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def now(self) -> float:
        return float(self.clock())

    def _decoded(self, decode: Any, row: Any) -> Any:
        """``decode(row)``; a row that does not decode means a damaged store."""
        with _reporting_damage(self.path):
            return decode(row)

    # -- sessions -----------------------------------------------------------------------------

    def get(self, key: str) -> SessionRecord | None:
        row = self.db.execute(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE key = ?", (key,)).fetchone()
        return self._decoded(_record, row) if row else None

    def put(self, record: SessionRecord) -> None:
        """Insert or replace ``record`` (inside a transaction); its revision is bumped."""
        record.revision += 1
        record.updated_at = self.now()
        self.db.execute(
            f"INSERT OR REPLACE INTO sessions ({_SESSION_COLUMNS}) VALUES ({', '.join('?' * 22)})",
            (
                record.key,
                record.identity,
                record.group,
                json.dumps(record.params, ensure_ascii=False),
                record.title,
                record.status,
                record.message,
                record.schema_key,
                record.schema_version,
                json.dumps(record.doc_version.as_json()) if record.doc_version else None,
                json.dumps(record.snapshot, ensure_ascii=False, separators=(",", ":")),
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
            ),
        )

    def touch(self, record: SessionRecord) -> None:
        """Slide the expiry of a session that was only read."""
        record.expires_at = self.now() + self.ttl
        self.db.execute("UPDATE sessions SET expires_at = ? WHERE key = ?", (record.expires_at, record.key))

    def delete(self, key: str) -> bool:
        return self.db.execute("DELETE FROM sessions WHERE key = ?", (key,)).rowcount > 0

    def sessions(self, identity: str | None = None) -> list[SessionRecord]:
        sql = f"SELECT {_SESSION_COLUMNS} FROM sessions"
        args: tuple[Any, ...] = ()
        if identity is not None:
            sql += " WHERE identity = ?"
            args = (identity,)
        return [self._decoded(_record, row) for row in self.db.execute(sql + " ORDER BY updated_at DESC", args)]

    def expire(self) -> list[tuple[str, int | None]]:
        """Move every expired session out (inside a transaction): one with unsaved edits becomes
        a draft, one without is dropped. Returns ``(key, draft id or None)`` per expired one."""
        now = self.now()
        rows = self.db.execute(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE expires_at < ?", (now,)).fetchall()
        expired = []
        for row in rows:
            record = self._decoded(_record, row)
            draft_id = self.add_draft(record, now) if record.modified else None
            self.delete(record.key)
            expired.append((record.key, draft_id))
        return expired

    # -- drafts -------------------------------------------------------------------------------

    def add_draft(self, record: SessionRecord, when: float, changed: list[str] | None = None) -> int:
        cursor = self.db.execute(
            f"INSERT INTO drafts ({_DRAFT_COLUMNS}) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.key,
                record.identity,
                record.group,
                json.dumps(record.params, ensure_ascii=False),
                record.title,
                record.schema_version,
                json.dumps(record.doc_version.as_json()) if record.doc_version else None,
                json.dumps(record.snapshot, ensure_ascii=False, separators=(",", ":")),
                json.dumps(changed if changed is not None else _changed_pointers(record.snapshot)),
                int(record.valid),
                record.created_at,
                when,
            ),
        )
        return int(cursor.lastrowid or 0)

    def drafts(self, key: str | None = None, identity: str | None = None) -> list[Draft]:
        sql, args = f"SELECT {_DRAFT_COLUMNS} FROM drafts", []
        conditions = []
        if key is not None:
            conditions.append("key = ?")
            args.append(key)
        if identity is not None:
            conditions.append("identity = ?")
            args.append(identity)
        if conditions:
            sql += " WHERE " + " AND ".join(conditions)
        return [self._decoded(_draft, row) for row in self.db.execute(sql + " ORDER BY id DESC", args)]

    def draft(self, draft_id: int) -> Draft | None:
        row = self.db.execute(f"SELECT {_DRAFT_COLUMNS} FROM drafts WHERE id = ?", (draft_id,)).fetchone()
        return self._decoded(_draft, row) if row else None

    def delete_draft(self, draft_id: int) -> bool:
        return self.db.execute("DELETE FROM drafts WHERE id = ?", (draft_id,)).rowcount > 0

    # -- schemas ------------------------------------------------------------------------------

    def prepared_schema(self, version: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT prepared FROM schemas WHERE version = ?", (version,)).fetchone()
        return self._decoded(json.loads, row[0]) if row else None

    def has_schema(self, version: str) -> bool:
        return self.db.execute("SELECT 1 FROM schemas WHERE version = ?", (version,)).fetchone() is not None

    def put_schema(self, version: str, prepared: dict[str, Any]) -> None:
        now = self.now()
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO schemas (version, prepared, stored_at, used_at) VALUES (?, ?, ?, ?)",
                (version, json.dumps(prepared, ensure_ascii=False, separators=(",", ":")), now, now),
            )
            self._count(db, "schemaPrepared")
            self._forget_unused_schemas(db)

    def count(self, name: str) -> None:
        with self.transaction() as db:
            self._count(db, name)

    def _count(self, db: sqlite3.Connection, name: str) -> None:
        db.execute(
            "INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1",
            (name,),
        )

    def counters(self) -> dict[str, int]:
        return dict(self.db.execute("SELECT name, value FROM counters").fetchall())

    def schema_tag(self, schema_key: str) -> tuple[str, str | None] | None:
        row = self.db.execute("SELECT version, etag FROM schema_tags WHERE schema_key = ?", (schema_key,)).fetchone()
        return (row[0], row[1]) if row else None

    def put_schema_tag(self, schema_key: str, version: str, etag: str | None) -> None:
        now = self.now()
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO schema_tags (schema_key, version, etag, checked_at) VALUES (?, ?, ?, ?)",
                (schema_key, version, etag, now),
            )
            db.execute("UPDATE schemas SET used_at = ? WHERE version = ?", (now, version))

    def _forget_unused_schemas(self, db: sqlite3.Connection) -> None:
        db.execute(
            """DELETE FROM schemas WHERE version NOT IN (SELECT schema_version FROM sessions)
               AND version NOT IN (SELECT schema_version FROM drafts)
               AND version NOT IN (SELECT version FROM schemas ORDER BY used_at DESC LIMIT ?)""",
            (KEEP_UNUSED_SCHEMAS,),
        )

    def integrity(self) -> str:
        return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])


def private_store_file(path: Path) -> None:
    """Make sure the store file exists and only its owner can read it (0600: it holds record
    data), in a folder only its owner can enter (0700) when deskcheck creates that folder or it
    is the platform's state directory, which is deskcheck's own. SQLite gives its -wal and -shm
    files the database file's permissions."""
    folder = path.parent
    created = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if created or (os.environ.get("DESKCHECK_STATE_DIR") is None and folder == default_store_path().parent):
        _tighten(folder, 0o700)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        _tighten(path, 0o600)


def _tighten(path: Path, mode: int) -> None:
    """Remove the permissions of ``path`` beyond ``mode`` (left alone when it is not ours)."""
    with contextlib.suppress(OSError):
        current = path.stat().st_mode & 0o777
        if current & ~mode:
            os.chmod(path, current & mode)


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]


# Columns stored as JSON text, and columns stored as 0/1.
_JSON_COLUMNS = {"params", "doc_version", "snapshot", "changed"}
_BOOLEAN_COLUMNS = {"modified", "valid"}


def _decode(row: tuple[Any, ...], columns: str) -> dict[str, Any]:
    """A row as keyword arguments of ``SessionRecord`` or ``Draft``."""
    out: dict[str, Any] = {}
    for name, value in zip((c.strip() for c in columns.split(",")), row, strict=True):
        if name in _JSON_COLUMNS and value is not None:
            value = json.loads(value)
        elif name in _BOOLEAN_COLUMNS:
            value = bool(value)
        out["group" if name == "tool_group" else name] = value
    out["doc_version"] = DocumentVersion.from_json(out.get("doc_version"))
    return out


def _record(row: tuple[Any, ...]) -> SessionRecord:
    return SessionRecord(**_decode(row, _SESSION_COLUMNS))


def _draft(row: tuple[Any, ...]) -> Draft:
    return Draft(**_decode(row, _DRAFT_COLUMNS))


def _changed_pointers(snapshot: dict[str, Any]) -> list[str]:
    from .rebase import changed_pointers

    return changed_pointers(snapshot.get("base"), snapshot.get("data"))
