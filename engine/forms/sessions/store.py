"""The embedded session store: SQLite in the user state directory, shared by every deskcheck
process of one machine, so that one process can set a field and the next one save it (the
statements and the guarantees are ``store_base``'s; ``store_postgres`` is the store a fleet
shares).

One file, ``sessions.sqlite3`` under ``state_dir()`` (``DESKCHECK_STATE_DIR`` overrides it), in
WAL mode (readers never wait for a writer), with versioned migrations (``PRAGMA user_version``).

Writers serialise with ``BEGIN IMMEDIATE`` (the write lock, waited for up to ``BUSY_SECONDS``),
so two processes writing one session never lose a write; a process killed mid-write leaves the
file as it was before that transaction (SQLite's journal). Credentials are never written here:
a session row holds documents, versions and statuses only.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...state_dir import state_dir
from .store_base import (
    BUSY_SECONDS,
    DEFAULT_TTL_SECONDS,
    DRAFT_COLUMNS,
    KEEP_UNUSED_SCHEMAS,
    BaseStore,
    Draft,
    SessionRecord,
    StoreConflict,
    StoreDamaged,
    StoreError,
    StoreInputError,
    UnstorableValue,
    statements,
    ttl_from_environment,
)

__all__ = [
    "BUSY_SECONDS",
    "DEFAULT_TTL_SECONDS",
    "KEEP_UNUSED_SCHEMAS",
    "MIGRATIONS",
    "STORE_FILE",
    "Draft",
    "SessionRecord",
    "SessionStore",
    "StoreConflict",
    "StoreDamaged",
    "StoreError",
    "StoreInputError",
    "default_store_path",
    "is_damage",
    "ttl_from_environment",
]

STORE_FILE = "sessions.sqlite3"

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
    # 2: listing one identity's sessions (`deskcheck form sessions --identity`) reads an index.
    """
    CREATE INDEX sessions_identity ON sessions (identity, updated_at);
    CREATE INDEX drafts_identity ON drafts (identity)
    """,
)


# SQLite's primary result codes for a damaged file: SQLITE_CORRUPT and SQLITE_NOTADB.
_DAMAGE_CODES = (11, 26)
# SQLITE_TOOBIG: going in, a value over SQLite's length limit (refused, not damage); coming out
# of a read, a record header whose lengths a damaged page made absurd.
_TOOBIG = 18


def is_damage(exc: BaseException, *, reading: bool = False) -> bool:
    """Whether ``exc`` (raised by sqlite3 or while decoding a row) means the file is damaged;
    ``reading``: it came from a statement that only reads."""
    if isinstance(exc, UnicodeEncodeError):  # a value going in that is not text: refused, not damage
        return False
    if isinstance(exc, ValueError | TypeError | KeyError):  # a row whose JSON or shape does not decode
        return True
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and (code & 0xFF in _DAMAGE_CODES or (reading and code & 0xFF == _TOOBIG)):
        return True
    text = str(exc)
    return type(exc) is sqlite3.DatabaseError or "no such table" in text or "no such column" in text


@contextlib.contextmanager
def _reporting_damage(path: Path, *, reading: bool = False) -> Iterator[None]:
    try:
        yield
    except StoreError:
        raise
    except UnicodeEncodeError as exc:
        raise UnstorableValue(exc) from None
    except (sqlite3.DatabaseError, ValueError, TypeError, KeyError) as exc:
        if not is_damage(exc, reading=reading):
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
        with _reporting_damage(self._path, reading=sql.lstrip()[:6].upper() == "SELECT"):
            return _Rows(self._db.execute(sql, parameters))

    @property
    def in_transaction(self) -> bool:
        return self._db.in_transaction

    def begin(self) -> None:
        """Take the write lock (``BEGIN IMMEDIATE``), waiting up to ``BUSY_SECONDS``."""
        try:
            self.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(
                f"the session store {self._path} stayed locked by another process for {BUSY_SECONDS:g} s ({exc}); "
                "try again."
            ) from None

    def commit(self) -> None:
        self.execute("COMMIT")

    def rollback(self) -> None:
        self._db.execute("ROLLBACK")

    def close(self) -> None:
        self._db.close()


def default_store_path() -> Path:
    """``sessions.sqlite3`` in the state directory (``DESKCHECK_STATE_DIR``, else the platform's)."""
    return state_dir() / STORE_FILE


class SessionStore(BaseStore):
    """The SQLite store at ``path`` (default: ``default_store_path()``), opened on first use.

    ``ttl`` is the sliding expiry in seconds (default: ``DESKCHECK_SESSION_TTL`` or 30 minutes);
    ``clock`` gives the time (tests pass their own). One store object per thread."""

    def __init__(self, path: str | Path | None = None, *, ttl: float | None = None, clock=time.time) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self.ttl = float(ttl) if ttl is not None else ttl_from_environment()
        self.clock = clock
        self._db: _Connection | None = None

    @property
    def location(self) -> str:
        return str(self.path)

    @property
    def db(self) -> _Connection:
        if self._db is None:
            self._db = _Connection(self._open(), self.path)
        return self._db

    def _open(self) -> sqlite3.Connection:
        private_store_file(self.path)
        try:
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
                for statement in statements(MIGRATIONS[number]):
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

    def _insert_draft(self, values: tuple[Any, ...]) -> int:
        marks = ", ".join("?" * len(values))
        rows = self.db.execute(f"INSERT INTO drafts ({DRAFT_COLUMNS}) VALUES (NULL, {marks})", values)
        return int(rows.lastrowid or 0)

    def integrity(self) -> str:
        return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])


def private_store_file(path: Path) -> None:
    """Make sure the store file exists, is a regular file, and only its owner can read it (0600:
    it holds record data), in a folder only its owner can enter (0700) when deskcheck creates
    that folder or it is the platform's state directory, which is deskcheck's own. SQLite gives
    its -wal and -shm files the database file's permissions. A FIFO, a device or a folder in
    its place is refused (exit 2) before anything is changed."""
    folder = path.parent
    try:
        created = not folder.exists()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if created or (os.environ.get("DESKCHECK_STATE_DIR") is None and folder == default_store_path().parent):
            _tighten(folder, 0o700)
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise StoreError(
            f"the session store {path} cannot be opened ({exc.strerror or exc}); check that its folder is writable, "
            "or point DESKCHECK_STATE_DIR somewhere else."
        ) from None
    if not stat.S_ISREG(mode):
        raise StoreInputError(
            f"the session store {path} is {_kind(mode)}, not a regular file; remove it, or point DESKCHECK_STATE_DIR "
            "(or --store) somewhere else.",
            code="storeNotAFile",
        )
    if not path.is_symlink():  # a link's target is managed by whoever made the link
        _tighten(path, 0o600)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def _tighten(path: Path, mode: int) -> None:
    """Remove the permissions of ``path`` beyond ``mode`` (left alone when it is not ours)."""
    with contextlib.suppress(OSError):
        info = path.stat()
        current = info.st_mode & 0o777
        owner = os.geteuid() if hasattr(os, "geteuid") else info.st_uid
        if current & ~mode and info.st_uid == owner:
            os.chmod(path, current & mode)
