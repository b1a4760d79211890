"""A private PostgreSQL server for the tests: ``initdb`` into a temporary folder, a free port on
127.0.0.1, its unix socket in that folder, started once per test session and stopped at its end.

PostgreSQL refuses to run as root, and CI runs as root: then the server runs as the ``postgres``
user (which Debian's package creates), or ``nobody``, owning the temporary folder. Password
authentication over TCP (scram-sha-256) so that the URLs the tests give carry a password, which
no output may show. Absent PostgreSQL is a skip with the reason locally, a failure in CI
(``tests/absent.py``); ``.ci/run`` installs it from Debian's packages.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from tests import absent

PASSWORD = "pg-s3cret-Pw"
USER = "deskcheck"
INSTALL_HINT = "PostgreSQL's server is not installed (apt-get install postgresql, or put initdb on PATH)"


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on PATH, or Debian's newest under /usr/lib/postgresql."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


def psycopg_missing() -> str | None:
    import importlib.util

    if importlib.util.find_spec("psycopg") is None or importlib.util.find_spec("psycopg_pool") is None:
        return "psycopg is not installed (pip install -e '.[test]')"
    return None


class Cluster:
    """A running private server; ``url(database)`` names a database on it."""

    def __init__(self) -> None:
        self.bin = binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="deskcheck-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.run_as: tuple[int, int] | None = None
        if os.geteuid() == 0:
            import pwd

            for name in ("postgres", "nobody"):
                with contextlib.suppress(KeyError):
                    entry = pwd.getpwnam(name)
                    self.run_as = (entry.pw_uid, entry.pw_gid)
                    break
            os.chown(self.folder, *self.run_as)
        os.chmod(self.folder, 0o700)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        user = {"user": self.run_as[0], "group": self.run_as[1], "extra_groups": []} if self.run_as else {}
        return subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            check=check,
            cwd=self.folder,
            timeout=120,
            env={**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"},
            **user,
        )

    def start(self) -> Cluster:
        pwfile = self.folder / "pw"
        pwfile.write_text(PASSWORD)
        if self.run_as:
            os.chown(pwfile, *self.run_as)
        self._run(
            "initdb", "-D", str(self.data), "-U", USER, "-E", "UTF8", "--no-sync", "--auth-local=trust",
            "--auth-host=scram-sha-256", f"--pwfile={pwfile}",
        )  # fmt: skip
        self.pg_ctl("start")
        with self.admin() as conn:
            conn.execute(f'CREATE DATABASE "{USER}"')
        return self

    def pg_ctl(self, action: str, mode: str = "fast") -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c max_connections=200"
        )
        args = ["pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-t", "60"]
        if action == "stop":
            self._run(*args, "-m", mode, "stop")
        else:
            self._run(*args, "-o", options, *(["-m", mode] if action == "restart" else []), action)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = USER, *, password: bool = True) -> str:
        secret = f":{PASSWORD}" if password else ""
        return f"postgresql://{USER}{secret}@127.0.0.1:{self.port}/{database}"

    def admin(self):
        import psycopg

        return psycopg.connect(self.url("postgres"), autocommit=True)

    def create_database(self, name: str) -> str:
        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def reset(self, database: str = USER) -> None:
        """Empty deskcheck's tables in ``database`` (between tests), keeping its format."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            if conn.execute("SELECT to_regclass('deskcheck.sessions')").fetchone()[0] is None:
                return
            conn.execute(
                "TRUNCATE deskcheck.sessions, deskcheck.drafts, deskcheck.schemas, deskcheck.schema_tags, "
                "deskcheck.counters, deskcheck.writer_locks, deskcheck.damaged_rows RESTART IDENTITY"
            )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def require() -> None:
    """Skip (fail in CI) unless a private server can be started here."""
    reason = psycopg_missing() or (INSTALL_HINT if binaries() is None else None)
    if reason:
        absent.skip_or_fail(reason)
