"""The seal of a queued batch: a review queue is a plain file anyone who can write it can edit,
so ``queue apply`` checks that each batch is the one ``suggest_changes --queue`` parked (issue 26
item 4c: a mode switched to ``direct`` or an injected operation was applied as written).

A batch's seal is an HMAC-SHA256, under a key kept in the user's state directory (``queue.key``,
readable by the user only, made on first use), of what the batch asks for: its id, file,
document version, mode, table revisions, author, operations and receipts. What ``queue apply``
writes back (``status``, ``results``) is left out. A batch whose seal does not match was changed
after it was queued, or queued under another state directory (another user or machine): it is
refused, and queuing it again makes a new one.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path
from typing import Any

KEY_FILE = "queue.key"
KEY_BYTES = 32
SEALED = (
    "batchId",
    "file",
    "documentVersion",
    "queuedAt",
    "mode",
    "tableRevisions",
    "author",
    "operations",
    "receipts",
)


def seal(entry: dict[str, Any]) -> str:
    """The seal of ``entry`` under this user's key (made now if there is none)."""
    return _digest(_key(create=True), entry)


def sealed(entry: dict[str, Any]) -> bool:
    """Whether ``entry`` carries the seal this user's key gives it."""
    given = entry.get("seal")
    key = _key(create=False)
    if not isinstance(given, str) or key is None:
        return False
    import hmac

    return hmac.compare_digest(given, _digest(key, entry))


def _digest(key: bytes, entry: dict[str, Any]) -> str:
    import hashlib
    import hmac

    content = json.dumps({name: entry.get(name) for name in SEALED}, sort_keys=True, ensure_ascii=False)
    return hmac.new(key, content.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def _key(*, create: bool) -> bytes | None:
    from ...state_dir import state_dir

    path = state_dir() / KEY_FILE
    with contextlib.suppress(FileNotFoundError):
        return _read_key(path)
    if not create:
        return None
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = os.urandom(KEY_BYTES)
    # Written whole under another name, then linked into place: a process that finds the key
    # finds all of it, and of two made at once the first linked wins.
    temporary = path.with_name(f".{KEY_FILE}.{os.getpid()}.{key[:4].hex()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    try:
        os.link(temporary, path)
    except FileExistsError:
        key = _read_key(path)
    finally:
        os.unlink(temporary)
    return key


def _read_key(path: Path) -> bytes:
    """The key at ``path``, refused unless it is one ``_key`` could have made: a FIFO there would
    hang every queue command, a directory or an unreadable file would end it with a traceback,
    and a short key (an empty one) makes seals anyone can compute."""
    from ...errors import InputError

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise InputError(_bad_key(path, exc.strerror or str(exc)), code="badQueueKey") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(_bad_key(path, "it is not a regular file"), code="badQueueKey")
        key = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(key) != KEY_BYTES:
        size = str(len(key)) if len(key) < KEY_BYTES else f"more than {KEY_BYTES}"
        raise InputError(_bad_key(path, f"it holds {size} bytes, not the {KEY_BYTES} of a key"), code="badQueueKey")
    return key


def _bad_key(path: Path, why: str) -> str:
    return (
        f"the review-queue key {path} cannot be used: {why}. Remove it; the next suggest-changes --queue makes a "
        "new one (batches sealed under the old key must then be queued again)."
    )
