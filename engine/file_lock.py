"""One writer at a time for a read-check-write of a file (issue 26 item 5).

Writing a file atomically (``files.write_atomically``) keeps readers from seeing half of it, but
two processes that each read a file, change their copy and write it back still lose one of the
two changes: the second rename replaces the first. ``updating(path)`` closes that gap. It takes
an exclusive advisory lock (``flock``) on the file itself, held from before the caller reads it
until after the caller's write; another deskcheck that wants to update the same file waits for
it, then reads what was written, so that its own checks (the document version a batch requires,
the block a comment anchors to) are made against the file it will replace.

The lock is on the file's current inode, and an atomic write replaces the inode: a waiter that
gets the lock checks that the path still names the file it locked, and otherwise locks the new
one (compare-and-swap on the file's identity). Nothing is created beside the file. Advisory
locks bind only programs that take them (every deskcheck does); where the system has none
(Windows), updates are not serialised.
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

from .errors import DeskcheckError

# How long an update waits for another process's before giving up with a clear error: long
# enough for a large document's save, short enough that a stuck writer is reported.
WAIT_SECONDS = 120.0
_POLL_SECONDS = 0.02


@contextlib.contextmanager
def updating(path: str | os.PathLike[str], *, wait: float = WAIT_SECONDS) -> Iterator[None]:
    """Hold ``path`` (the file a symbolic link there points to) for one read-check-write. A path
    that does not name a regular file yet (a new output, a FIFO the reader will refuse) is not
    locked: there is nothing to lose, and the reader reports what is wrong."""
    fd = _lock_current(Path(path), wait)
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # closing the descriptor gives the lock back


def _lock_current(path: Path, wait: float) -> int | None:
    try:
        import fcntl
    except ImportError:
        return None
    deadline = time.monotonic() + wait
    while True:
        # Resolved again on every try: a symbolic link pointed elsewhere during the wait names
        # the file the caller will read and write, and that is the one to hold.
        target = Path(os.path.realpath(path))
        try:
            fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
        try:
            locked = os.fstat(fd)
            if not stat.S_ISREG(locked.st_mode):
                os.close(fd)
                return None
            _take(fcntl, fd, target, deadline)
            if _names(path, locked):
                return fd
            if time.monotonic() > deadline:  # a file replaced again and again must not hold us forever
                raise _busy(target, locked)
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # replaced while this process waited: lock the file that replaced it


def _take(fcntl, fd: int, target: Path, deadline: float) -> None:
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        except OSError:
            return  # a file system without locks: as on a system without them
        if time.monotonic() > deadline:
            raise _busy(target, os.fstat(fd))
        time.sleep(_POLL_SECONDS)


def _busy(target: Path, locked: os.stat_result) -> DeskcheckError:
    holder = _holder(locked)
    who = f"process {holder}" if holder else "another program (another deskcheck)"
    return DeskcheckError(
        f"{target} is being written by {who} that has not finished; nothing was changed. Try again when it is done.",
        code="fileBusy",
    )


def _holder(locked: os.stat_result) -> str | None:
    """The id (and name) of the process holding a lock on the file ``locked`` describes,
    where the system lists locks (Linux's /proc/locks); None when it cannot be told."""
    wanted = f"{os.major(locked.st_dev):02x}:{os.minor(locked.st_dev):02x}:{locked.st_ino}"
    same_inode: list[str] = []
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as table:
            # One line per lock: "1: FLOCK  ADVISORY  WRITE 1234 fe:00:2179089 0 EOF"; the number
            # of lines is bounded by the locks the system holds, not by any input.
            for line in table:
                fields = line.split()
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[4].isdigit():
                    if fields[5] == wanted:
                        return _described(fields[4])
                    if fields[5].endswith(f":{locked.st_ino}"):
                        same_inode.append(fields[4])
    except OSError:
        return None
    # Some file systems (btrfs, overlays) list another device number than stat gives: one lock on
    # an inode of that number is taken to be this one.
    return _described(same_inode[0]) if len(same_inode) == 1 else None


def _described(pid: str) -> str:
    # The process's name only, never its command line: another command's arguments may hold a
    # token, and this message can reach an agent or a log.
    try:
        with open(f"/proc/{pid}/comm", "rb") as handle:
            name = handle.read(64).decode("utf-8", "replace").strip()
    except OSError:
        return pid
    shown = "".join(char if char.isprintable() else "?" for char in name)  # another program's text
    return f"{pid} ({shown})" if shown else pid


def _names(path: Path, locked: os.stat_result) -> bool:
    """Whether ``path`` (through any symbolic link) still names the file ``locked`` describes."""
    try:
        now = os.stat(path)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (locked.st_dev, locked.st_ino)
