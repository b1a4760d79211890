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
from typing import Any

KEY_FILE = "queue.key"
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
        return path.read_bytes()
    if not create:
        return None
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = os.urandom(32)
    # Written whole under another name, then linked into place: a process that finds the key
    # finds all of it, and of two made at once the first linked wins.
    temporary = path.with_name(f".{KEY_FILE}.{os.getpid()}.{key[:4].hex()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    try:
        os.link(temporary, path)
    except FileExistsError:
        key = path.read_bytes()
    finally:
        os.unlink(temporary)
    return key
