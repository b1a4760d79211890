"""The call log of ``deskcheck mcp --log FILE``: JSON Lines, one event per line, appended as it
happens (a reader can follow it with ``tail -f``), so a developer debugging annotations sees
exactly what the agent asked and what it got.

    {"event": "start", "at": ..., "deskcheck": "0.1.0", "pid": ..., "transport": "stdio",
     "contexts": [{"family": "docx", "docx": "/abs/contract.docx", ...}], "tools": [...]}
    {"event": "call", "seq": 1, "at": ..., "tool": "read_document", "arguments": {...},
     "ok": true, "result": ..., "ms": 12.3, "waitedMs": 0.0, "client": "claude-code 2.1", "session": null}
     (the envelope the CLI prints: "result", "error" and "code", or "error" and "result" both
     for a call that skipped some of its operations)
    {"event": "stop", "at": ..., "calls": 1}

``ms`` is the tool's own time, ``waitedMs`` the time the call waited for an earlier one (calls run
one at a time), ``client`` the client's name and version, ``session`` the HTTP session's id
(none over stdio, or with the 2026 protocol, which has no sessions). Credentials are never
written: the values of ``--token``, ``--header``, ``$DESKCHECK_TOKEN`` and the server's own token
are replaced by ``[redacted]`` wherever they appear, and so is any value under a key that names a
credential (``authorization``, ``password``, ``apiKey``, ...) and the password of a
``user:password@`` URL. The file is created readable by its owner only.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from deskcheck.engine.tools import ToolResult
from deskcheck.engine.urls import redact as redact_urls

from ..errors import UsageError
from ..output.emit import outcome

REDACTED = "[redacted]"
_CREDENTIAL_KEY = re.compile(
    r"^(?:proxy[-_]?)?authori[sz]ation$|^(?:set[-_]?)?cookie$|^passw(?:or)?d$|secret|^(?:x[-_]?)?api[-_]?key$"
    r"|^(?:access|refresh|id|bearer|auth|api|session)?[-_]?token$",
    re.IGNORECASE,
)
# Secrets shorter than this are not searched for inside other strings (a one-letter "token"
# would blank every word containing it); they are still redacted where they are a whole value.
MIN_SECRET_LENGTH = 4


def answer(result: ToolResult) -> dict[str, Any]:
    """The envelope the CLI prints for ``result`` (and the server answers): ``{"ok", "result"}``,
    ``{"ok", "error"}``, or both for a call that skipped some of its operations."""
    return outcome(result, decode_text=False)[0]


def now_iso() -> str:
    """The current time in UTC, to the millisecond (2026-12-01T16:55:49.738Z)."""
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"


class Redactor:
    """Replaces the ``secrets`` and every value under a credential-like key."""

    def __init__(self, secrets: Iterable[str | None]) -> None:
        from urllib.parse import quote, quote_plus

        given = {s for s in secrets if s}
        # A token also appears percent-encoded (in a query string, a URL a message quotes).
        values = given | {quote(s, safe="") for s in given} | {quote_plus(s) for s in given}
        self._whole = values
        self._inside = sorted((s for s in values if len(s) >= MIN_SECRET_LENGTH), key=len, reverse=True)

    def __call__(self, value: Any) -> Any:
        if isinstance(value, str):
            if value in self._whole:
                return REDACTED
            # A password written into a URL (--spec, --base-url, a message quoting one).
            value = redact_urls(value)
            for secret in self._inside:
                if secret in value:
                    value = value.replace(secret, REDACTED)
            return value
        if isinstance(value, dict):
            return {key: REDACTED if _credential(key, item) else self(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self(item) for item in value]
        return value


def _credential(key: Any, value: Any) -> bool:
    """A value under a credential-like key (a flag saying whether one was given is not one)."""
    return isinstance(key, str) and value not in (None, "", True, False) and bool(_CREDENTIAL_KEY.search(key))


def credentials_of(header_lines: Iterable[str], token: str | None) -> list[str]:
    """The secret values among API options: the token, and each header's value (and the
    value's last word, the credential of ``Authorization: Bearer X``)."""
    secrets = [token] if token else []
    for line in header_lines:
        value = line.partition(":")[2].strip()
        if value:
            secrets.append(value)
            secrets.append(value.split()[-1])
    return secrets


class CallLog:
    """Appends events to ``path``; every line is flushed as it is written."""

    def __init__(self, path: Path, redact: Redactor) -> None:
        self.path = path
        self.redact = redact
        self.calls = 0
        self._lock = threading.Lock()
        self._broken = False
        self._stream = _open_log(path)

    def start(self, *, transport: str, contexts: list[dict[str, Any]], tools: list[str]) -> None:
        """Write the first line; a log that cannot take it (a full disk) is a usage error."""
        try:
            self._write(self._start_event(transport, contexts, tools), quiet=False)
        except OSError as exc:
            with contextlib.suppress(OSError):
                self._stream.close()
            raise UsageError(f"--log {self.path} cannot be written ({exc.strerror or exc}).") from None

    def _start_event(self, transport: str, contexts: list[dict[str, Any]], tools: list[str]) -> dict[str, Any]:
        from deskcheck.engine import __version__

        return {
            "event": "start",
            "at": now_iso(),
            "deskcheck": __version__,
            "pid": os.getpid(),
            "transport": transport,
            "contexts": contexts,
            "tools": tools,
        }

    def call(
        self,
        tool: str,
        arguments: Any,
        result: ToolResult,
        *,
        at: str,
        ms: float,
        waited_ms: float = 0.0,
        client: str | None = None,
        session: str | None = None,
    ) -> None:
        with self._lock:
            self.calls += 1
            seq = self.calls
        entry: dict[str, Any] = {"event": "call", "seq": seq, "at": at, "tool": tool, "arguments": arguments}
        entry.update(answer(result))
        if not result.ok and result.code:
            entry["code"] = result.code
        entry.update(ms=round(ms, 3), waitedMs=round(waited_ms, 3), client=client, session=session)
        self._write(entry)

    def close(self) -> None:
        if self._stream.closed:
            return
        self._write({"event": "stop", "at": now_iso(), "calls": self.calls})
        with contextlib.suppress(OSError):
            self._stream.close()

    def failed(self) -> None:
        """Stop logging after a write failed (a full disk), saying so once on stderr: the server
        goes on without its log rather than failing the agent's calls."""
        if not self._broken:
            self._broken = True
            import sys

            print(f"deskcheck mcp: --log {self.path} can no longer be written; calls go on unlogged.", file=sys.stderr)

    def _write(self, entry: dict[str, Any], *, quiet: bool = True) -> None:
        if self._broken:
            return
        # allow_nan=False: a log stays JSON Lines whatever a result holds (arguments are refused
        # before; a value that still is not JSON is written as text).
        try:
            line = json.dumps(self.redact(entry), ensure_ascii=False, default=str, allow_nan=False)
        except ValueError:
            line = json.dumps(self.redact(json.loads(json.dumps(entry, default=str), parse_constant=str)))
        with self._lock:
            try:
                self._stream.write(line + "\n")
                self._stream.flush()
            except OSError:
                if not quiet:
                    raise
                self.failed()


def _open_log(path: Path):
    """The log file opened for appending, readable by its owner only. Only a regular file (or a
    new one) is taken: a FIFO would block the server until someone reads it, and a device
    (/dev/full) is no log."""
    with contextlib.suppress(OSError):
        _refuse_special(path, os.stat(path).st_mode)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK, 0o600)
    except OSError as exc:
        raise UsageError(f"--log {path} cannot be written ({exc.strerror or exc}); give a file path.") from None
    try:
        _refuse_special(path, os.fstat(fd).st_mode)
    except UsageError:
        os.close(fd)
        raise
    os.set_blocking(fd, True)
    return os.fdopen(fd, "a", encoding="utf-8")


def _refuse_special(path: Path, mode: int) -> None:
    import stat

    if not stat.S_ISREG(mode):
        special = stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device" if special else "not a file"
        raise UsageError(f"--log {path} is {kind}; give the path of a regular file (it is created when missing).")


class RecordedCall(NamedTuple):
    seq: int
    tool: str
    arguments: Any
    envelope: dict[str, Any]  # {"ok", "result" and/or "error"} as recorded
    ms: float | None


# A replayed log is read whole; a long session's log is a few MiB.
MAX_LOG_BYTES = 256 * 1024 * 1024


def read_log(path: Path) -> tuple[dict[str, Any] | None, list[RecordedCall]]:
    """The first ``start`` event of the log at ``path`` (None when it has none) and its calls, in
    order. A last line cut short (a server stopped mid-write) is skipped; any other line that
    is not an event is a usage error naming it."""
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.files import read_regular_file

    try:
        wanted = "a file written by deskcheck mcp --log"
        raw = read_regular_file(path, MAX_LOG_BYTES, subject=f"the log {path}", wanted=wanted)
        lines = raw.decode("utf-8").splitlines()
    except InputError as exc:
        raise UsageError(exc.message) from None
    except UnicodeDecodeError:
        raise UsageError(f"the log {path} is not UTF-8 text; give a file written by deskcheck mcp --log.") from None
    start: dict[str, Any] | None = None
    calls: list[RecordedCall] = []
    last = max((n for n, line in enumerate(lines) if line.strip()), default=-1)
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, a number past Python's digits, nested past the stack
            if number == last:
                break
            raise UsageError(
                f"line {number + 1} of {path} is not JSON; give a file written by deskcheck mcp --log."
            ) from None
        if not isinstance(event, dict):
            raise UsageError(f"line {number + 1} of {path} is not a log event (a JSON object).")
        if event.get("event") == "start" and start is None:
            start = event
        elif event.get("event") == "call":
            if not isinstance(event.get("tool"), str) or "ok" not in event:
                raise UsageError(f"line {number + 1} of {path} is a call without its tool or outcome.")
            envelope = {key: event[key] for key in ("ok", "error", "result") if key in event}
            calls.append(
                RecordedCall(
                    int(event.get("seq") or len(calls) + 1),
                    event["tool"],
                    event.get("arguments"),
                    envelope,
                    event.get("ms"),
                )
            )
    return start, calls
