"""Run the real CLI, in-process or as a subprocess, and look at what it printed."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class CliRun:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        """The single JSON envelope printed on stdout."""
        lines = [line for line in self.stdout.splitlines() if line.strip()]
        assert len(lines) == 1, f"expected one JSON line, got {len(lines)}:\n{self.stdout}"
        return json.loads(lines[0])

    @property
    def json_lines(self) -> list[Any]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


class FakeTerminal(io.StringIO):
    """A captured stream that says it is a terminal (its size comes from COLUMNS and LINES)."""

    def isatty(self) -> bool:
        return True


def has_row(text: str, *cells: str) -> bool:
    """Whether one line of ``text`` holds ``cells`` in this order (a row of a drawn table, other
    columns in between allowed)."""
    pattern = ".*".join(re.escape(cell) for cell in cells)
    return re.search(pattern, text) is not None


def run_cli(*args: str, stdin: str = "", expect: int | None = 0, monkeypatch=None, terminal: bool = False) -> CliRun:
    """Run ``deskcheck ARGS`` in this process with captured streams (stdout is not a terminal,
    so output is JSON, unless ``terminal``). Fails loudly on an unexpected exit code unless
    ``expect`` is None."""
    from deskcheck.cli import env as cli_env
    from deskcheck.cli.main import run

    out, err = (FakeTerminal() if terminal else io.StringIO()), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        code = run(list(args))
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        cli_env.set_global_flags(cli_env.GlobalFlags())
    result = CliRun(code, out.getvalue(), err.getvalue())
    if expect is not None:
        assert code == expect, f"exit {code}, expected {expect}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result


def run_process(
    *args: str,
    stdin: str = "",
    expect: int | None = 0,
    env: dict | None = None,
    cwd: str | None = None,
    timeout: float = 120,
) -> CliRun:
    """Run the installed ``deskcheck`` console script as a separate process."""
    full_env = {**os.environ, **(env or {})}
    proc = subprocess.run(
        [deskcheck_executable(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd,
        timeout=timeout,
    )
    result = CliRun(proc.returncode, proc.stdout, proc.stderr)
    if expect is not None:
        assert proc.returncode == expect, (
            f"exit {proc.returncode}, expected {expect}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
        )
    return result


# Runs ``deskcheck ARGV`` in a fresh interpreter (nothing imported by the tests) and prints, as one
# JSON line, its exit code, what it printed on stdout and every module the process loaded.
PROBE = """
import io, json, sys, contextlib
from deskcheck.cli.main import run
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
    code = run({argv!r})
print(json.dumps({{"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}}))
"""


def probe_process(*argv: str) -> dict[str, Any]:
    """``{"code", "out", "modules"}`` of ``deskcheck ARGV`` run in a fresh interpreter (``PROBE``):
    for checking what a command imports."""
    proc = subprocess.run(
        [sys.executable, "-c", PROBE.format(argv=list(argv))], capture_output=True, text=True, check=True
    )
    return json.loads(proc.stdout)


def top_level_modules(report: dict[str, Any]) -> set[str]:
    """The top-level packages among a ``probe_process`` report's modules (``lxml`` for ``lxml.etree``)."""
    return {name.split(".")[0] for name in report["modules"]}


def deskcheck_executable() -> str:
    candidate = os.path.join(os.path.dirname(sys.executable), "deskcheck")
    return candidate if os.path.exists(candidate) else "deskcheck"


def expire_the_only_session(state_dir) -> None:
    """Let the one open form session in ``state_dir``'s store expire now, leaving its draft (what
    the session TTL does to an idle session)."""
    from deskcheck.engine.forms.sessions.store import SessionStore

    store = SessionStore(state_dir / "sessions.sqlite3")
    with store.transaction():
        [record] = store.sessions()
        record.expires_at = 0
        store.put(record)
        store.expire()


def see_this_environment(python: Path) -> None:
    """Let the virtual environment of ``python`` import what this test environment has installed
    (a path entry in its site-packages): packages install into it offline, finding their
    dependencies already there."""
    import sysconfig

    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "this-test-environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
