"""One writer per .docx review: the REPL (which saves its working copy into the file) and
``deskcheck mcp`` (which writes each of the agent's changes into the file as it happens) hold an
advisory lock on the file's review folder for as long as they run, so a second one is refused
with a sentence naming the first. While a server holds it, the CLI's verbs that would write the
file in place are refused too; reading it stays free (``deskcheck docx read-changes FILE`` shows
what the agent has proposed so far).

Layout: ``<state dir>/reviews/<key>/lock`` (the key is a hash of the file's resolved path; the
REPL keeps its working copy in the same folder) and ``holder.json`` beside it: who holds the
lock (``repl`` or ``mcp``) and its process id, for the refusal. The lock file itself is never
removed by a holder that leaves (removing it would let two processes lock two different files).

Across machines: when the session store is PostgreSQL (a fleet's), the holder also takes a
writer lock there (``store_postgres.WriterLock``, a session-level advisory lock), so that two
servers on two machines serving one shared file refuse each other the same way. The file's
identity there is its resolved absolute path (``shared_identity``): a file on a shared volume
must be served under the same path on every machine (as containers mounting one volume at one
place do). A device and inode number would not do: they are this machine's numbering (another
NFS client sees other device numbers), and every save replaces the file, which gives it a new
inode. Two different files that happen to have the same path on two machines are taken for one:
the second server is refused, never let through, and the refusal names the host holding it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import UsageError

if TYPE_CHECKING:
    from deskcheck.engine.tools import ToolResult, ToolSet

LOCK = "lock"
HOLDER = "holder.json"
# Holders that write the file itself as they go (the REPL writes it only when told to save).
WRITERS = ("mcp", "replay")
# The locks this process holds, by resolved file: its own writes are not refused.
_HELD: set[Path] = set()
# The writer locks this process holds in a shared (PostgreSQL) store, by resolved file.
_SHARED: dict[Path, Any] = {}


def review_folder(source: Path, state: Path | None = None) -> Path:
    """The folder of ``source``'s review under the state directory."""
    if state is None:
        from deskcheck.engine.state_dir import state_dir

        state = state_dir()
    key = hashlib.sha256(str(source.resolve()).encode("utf-8")).hexdigest()[:16]
    return state / "reviews" / key


class ReviewLock:
    """The lock of ``source``'s review, taken with ``acquire(holder)`` and given back with
    ``release()`` (or when the process ends)."""

    def __init__(self, source: Path, state: Path | None = None) -> None:
        self.source = source.resolve()
        self.folder = review_folder(self.source, state)
        self._handle: Any = None

    def acquire(self, holder: str) -> None:
        """Take the lock for ``holder`` (``repl``, ``mcp`` or ``replay``), on this machine and in a
        shared store; a ``UsageError`` naming the holder when another process has it."""
        self._acquire_here(holder)
        url = shared_store()
        if url is None:
            return
        from deskcheck.engine.forms.sessions.store_base import StoreError
        from deskcheck.engine.forms.sessions.store_postgres import WriterLock, WriterLockHeld

        shared = WriterLock(url, shared_identity(self.source))
        try:
            shared.acquire(holder)
        except WriterLockHeld as exc:
            self.release()
            raise UsageError(refusal(self.source, exc.holder, holder)) from None
        except StoreError as exc:
            self.release()
            raise UsageError(exc.message) from None
        _SHARED[self.source] = shared

    def _acquire_here(self, holder: str) -> None:
        try:
            import fcntl
        except ImportError:  # no advisory locks on this platform: one writer is up to the user
            return
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle = (self.folder / LOCK).open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise UsageError(refusal(self.source, _read_holder(self.folder), holder)) from None
        self._handle = handle
        _HELD.add(self.source)
        from deskcheck.engine.files import write_atomically

        write_atomically(self.folder / HOLDER, json.dumps({"holder": holder, "pid": os.getpid()}).encode("utf-8"))

    def release(self) -> None:
        shared = _SHARED.pop(self.source, None)
        if shared is not None:
            shared.release()
        if self._handle is None:
            return
        with contextlib.suppress(OSError):
            (self.folder / HOLDER).unlink()
        _HELD.discard(self.source)
        self._handle.close()
        self._handle = None


@contextlib.contextmanager
def holding(sources: list[Path], holder: str) -> Iterator[None]:
    """The locks of every file in ``sources`` for ``holder``, for the length of the block (all
    or none: a refusal gives back those already taken)."""
    with contextlib.ExitStack() as stack:
        for source in sources:
            lock = ReviewLock(source)
            lock.acquire(holder)
            stack.callback(lock.release)
        yield


def refuse_if_served(source: Path) -> None:
    """A ``UsageError`` when another process's ``deskcheck mcp`` holds ``source``'s review (it
    writes the file as the agent works: a second writer would lose changes). A REPL's lock
    does not refuse: the REPL works on a copy and checks the file before it saves."""
    message = served_refusal(source)
    if message is not None:
        raise UsageError(message)


def served_refusal(source: Path) -> str | None:
    """The refusal ``refuse_if_served`` raises, or None when nothing stands in the way."""
    resolved = source.resolve()
    if resolved in _HELD:
        return _still_held(resolved)
    folder = review_folder(resolved)
    if (folder / LOCK).exists():
        holder = _read_holder(folder)
        if holder is not None and holder.get("holder") in WRITERS and _locked(folder / LOCK):
            return refusal(resolved, holder, "write")
    return _shared_refusal(resolved)


def shared_store() -> str | None:
    """The URL of the shared (PostgreSQL) session store in use, if one is."""
    from deskcheck.engine.forms.sessions.store_url import shared_store_url

    return shared_store_url()


def shared_identity(source: Path) -> str:
    """What names ``source`` to every machine of a fleet: its resolved absolute path (see the
    module's docstring for why not its device and inode)."""
    return str(source.resolve())


def _still_held(source: Path) -> str | None:
    """None while this process still holds ``source``'s shared writer lock (taken again after a
    lost connection), else the refusal."""
    shared = _SHARED.get(source)
    if shared is None:
        return None
    from deskcheck.engine.forms.sessions.store_base import StoreError
    from deskcheck.engine.forms.sessions.store_postgres import WriterLockHeld

    try:
        shared.ensure()
    except WriterLockHeld as exc:
        return refusal(source, exc.holder, "write")
    except StoreError as exc:
        return exc.message
    return None


def _shared_refusal(source: Path) -> str | None:
    url = shared_store()
    if url is None:
        return None
    from deskcheck.engine.forms.sessions.store_base import StoreError
    from deskcheck.engine.forms.sessions.store_postgres import writer_lock_taken

    try:
        holder = writer_lock_taken(url, shared_identity(source))
    except StoreError as exc:
        return exc.message
    if holder is None or (holder and holder.get("holder") not in WRITERS):
        return None
    return refusal(source, holder, "write")


def refusal(source: Path, holder: dict[str, Any] | None, wanted: str) -> str:
    """Why ``wanted`` (``repl``, ``mcp``, ``replay`` or ``write``) cannot work on ``source`` now."""
    who = (holder or {}).get("holder")
    pid = (holder or {}).get("pid")
    host = (holder or {}).get("host")
    where = f" on {host}" if isinstance(host, str) and host else ""
    process = f" (process {pid}{where})" if isinstance(pid, int) else ""
    if who == "replay":
        return (
            f"deskcheck mcp replay{process} is replaying a recorded session into {source}; wait for it to finish "
            "(or stop it) first."
        )
    if who == "mcp":
        return (
            f"deskcheck mcp{process} is serving {source} to an agent and writes each change into it as it happens; "
            "stop that server first. Reading the file works meanwhile (deskcheck docx read-changes FILE shows what "
            "the agent has proposed)."
        )
    if wanted in WRITERS:
        return (
            f"a deskcheck repl{process} is reviewing {source} right now; leave it first (writing into the file "
            "meanwhile would go under the REPL's review)."
        )
    return (
        f"another deskcheck repl is reviewing {source} right now{process}; leave it first "
        "(two at once would overwrite each other's working copy)."
    )


def _read_holder(folder: Path) -> dict[str, Any] | None:
    try:
        value = json.loads((folder / HOLDER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _locked(path: Path) -> bool:
    """Whether some process holds the lock at ``path`` (probed with a shared lock, let go at once)."""
    try:
        import fcntl
    except ImportError:
        return False
    try:
        with path.open("r") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.flock(handle, fcntl.LOCK_UN)
            return False
    except OSError:
        return False


def guard_in_place_writes(toolset: ToolSet, source: Path) -> ToolSet:
    """``toolset`` (the docx tools of ``source``, writing it in place) with every call of a tool
    that is not read-only refused while another process's server holds the file's review."""
    from deskcheck.engine.tools import fail

    call = toolset.call

    def guarded(name: str, args: Any) -> ToolResult:
        if name in toolset and not toolset.get(name).annotations.read_only:
            message = served_refusal(source)
            if message is not None:
                return fail(message, code="fileBusy", input_error=True)
        return call(name, args)

    toolset.call = guarded  # type: ignore[method-assign]
    return toolset
