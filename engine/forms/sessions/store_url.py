"""Which session store a process uses, chosen by URL:

- ``sqlite:///absolute/path`` or ``sqlite:relative/path``: the embedded store (``store``), one
  file shared by the processes of one machine. The default: ``sessions.sqlite3`` in the state
  directory.
- ``postgresql://user@host:port/database?sslmode=verify-full&...`` (or ``postgres://``): the
  store a fleet shares (``store_postgres``); libpq's own settings apply too (``PGPASSWORD``,
  ``~/.pgpass``, ``PGSSLMODE``...).

The URL comes from, first to last: the command line (``--store``, which the CLI hands to
``choose_store``), ``DESKCHECK_STORE``, the ``[store] url`` key of the user's configuration file
(``config.toml`` in the platform's configuration folder, or the file ``DESKCHECK_CONFIG`` names).
Only the user's own file is read: a file in a project folder cannot send its record data to
another server. PostgreSQL's modules are imported only for a ``postgresql://`` URL.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ...urls import shown_url
from .store_base import StoreInputError

if TYPE_CHECKING:
    from .store_base import BaseStore

POSTGRES_SCHEMES = ("postgresql", "postgres")
CONFIG_FILE = "config.toml"
# A configuration file names a store and little else.
MAX_CONFIG_BYTES = 64 * 1024

_chosen: str | None = None


def choose_store(url: str | None) -> None:
    """Use ``url`` in this process (the ``--store`` option); None goes back to the environment."""
    global _chosen
    if url is not None:
        check_store_url(url)
    _chosen = url


def chosen_store() -> str | None:
    """What ``choose_store`` set (to put it back after a while on another store)."""
    return _chosen


def store_url(given: str | None = None) -> str | None:
    """The URL of the store to use (None: the default SQLite file)."""
    for candidate in (given, _chosen, os.environ.get("DESKCHECK_STORE")):
        if candidate and candidate.strip():
            return candidate.strip()
    return _configured_url()


def is_postgres(url: str | None) -> bool:
    return url is not None and url.split(":", 1)[0].lower() in POSTGRES_SCHEMES


def shared_store_url(given: str | None = None) -> str | None:
    """The store URL when it is one a fleet shares (PostgreSQL), else None."""
    url = store_url(given)
    return url if is_postgres(url) else None


def open_store(url: str | None = None, *, ttl: float | None = None, clock=time.time) -> BaseStore:
    """The store at ``url`` (default: ``store_url()``), not connected yet."""
    url = store_url(url)
    if url is None:
        from .store import SessionStore

        return SessionStore(ttl=ttl, clock=clock)
    if is_postgres(url):
        from .store_postgres import PostgresStore

        _require_psycopg()
        return PostgresStore(url, ttl=ttl, clock=clock)
    from .store import SessionStore

    return SessionStore(sqlite_path(url), ttl=ttl, clock=clock)


def check_store_url(url: str) -> None:
    """A ``StoreInputError`` unless ``url`` names a store deskcheck can open."""
    if is_postgres(url):
        return
    sqlite_path(url)


def sqlite_path(url: str) -> Path:
    scheme, sep, rest = url.partition(":")
    if not sep or scheme.lower() != "sqlite":
        raise StoreInputError(
            f"the store {shown_url(url)!r} is neither sqlite:///PATH nor postgresql://USER@HOST/DATABASE; give one "
            "of those (--store, DESKCHECK_STORE).",
            code="badStoreUrl",
        )
    path = rest[2:] if rest.startswith("//") else rest
    path = path.split("?", 1)[0]
    if not path or path == "/":
        raise StoreInputError(
            f"the store {url!r} names no file; write sqlite:///absolute/path or sqlite:relative/path."
        )
    return Path(path).expanduser()


def config_file() -> Path:
    override = os.environ.get("DESKCHECK_CONFIG")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("deskcheck", appauthor=False)) / CONFIG_FILE


def _configured_url() -> str | None:
    path = config_file()
    if not path.is_file():
        return None
    import tomllib

    from ...files import read_regular_file

    raw = read_regular_file(path, MAX_CONFIG_BYTES, subject=f"the configuration file {path}", wanted="a TOML file")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise StoreInputError(f"the configuration file {path} is not valid TOML: {exc}.") from None
    section = data.get("store", {})
    if not isinstance(section, dict) or not isinstance(section.get("url", ""), str):
        raise StoreInputError(f'[store] in {path} must be a table with url = "sqlite:///..." or "postgresql://...".')
    url = section.get("url", "").strip()
    if url:
        check_store_url(url)
    return url or None


def _require_psycopg() -> None:
    import importlib.util

    if importlib.util.find_spec("psycopg") is None or importlib.util.find_spec("psycopg_pool") is None:
        raise StoreInputError(
            "a postgresql:// session store needs psycopg 3 and its pool: pip install 'deskcheck[postgresql]'."
        )
