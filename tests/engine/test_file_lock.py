"""engine/file_lock.py under a hostile local user (issue 26 item 5, red team): a writer that does
not finish is named, and a symbolic link pointed elsewhere during the wait locks the file the
caller will then read and write."""

from __future__ import annotations

import fcntl
import os
import sys
import threading
import time

import pytest

from deskcheck.engine.errors import DeskcheckError
from deskcheck.engine.file_lock import updating

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc/locks")


def _held(path) -> int:
    fd = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def _is_locked(path) -> bool:
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_a_writer_that_does_not_finish_is_named(tmp_path):
    target = tmp_path / "held.docx"
    target.write_bytes(b"x")
    fd = _held(target)
    try:
        with pytest.raises(DeskcheckError) as caught, updating(target, wait=0.1):
            pass
    finally:
        os.close(fd)
    assert caught.value.code == "fileBusy"
    message = caught.value.message
    assert f"process {os.getpid()} (" in message and "nothing was changed" in message
    assert "test_file_lock" not in message  # its name, not its command line (which may hold a token)


def test_a_link_pointed_elsewhere_during_the_wait_locks_the_new_file(tmp_path):
    first, second, link = tmp_path / "a.docx", tmp_path / "b.docx", tmp_path / "link.docx"
    first.write_bytes(b"a")
    second.write_bytes(b"b")
    link.symlink_to(first)
    fd = _held(first)
    locked_second = threading.Event()
    done = threading.Event()

    def writer() -> None:
        with updating(link, wait=10):
            if _is_locked(second):
                locked_second.set()
            done.set()

    thread = threading.Thread(target=writer)
    thread.start()
    time.sleep(0.2)  # let the writer wait on a.docx; not a timing assertion
    replacement = tmp_path / "link.new"
    replacement.symlink_to(second)
    os.replace(replacement, link)
    os.close(fd)
    thread.join(timeout=20)
    assert done.is_set() and locked_second.is_set()


def test_a_file_replaced_at_every_try_stops_at_the_wait_limit(tmp_path, monkeypatch):
    """A local program that replaces the file each time the lock is taken kept the writer
    looping for ever (the wait limit was checked only while the lock was busy)."""
    from deskcheck.engine import file_lock

    target = tmp_path / "churn.docx"
    target.write_bytes(b"x")
    monkeypatch.setattr(file_lock, "_names", lambda path, locked: False)  # replaced each time
    outcome: list[BaseException] = []

    def writer() -> None:
        try:
            with updating(target, wait=0.05):
                pass
        except DeskcheckError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    thread.join(timeout=20)
    assert not thread.is_alive() and outcome and outcome[0].code == "fileBusy"
