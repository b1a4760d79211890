"""The working copy of a review: the REPL edits a copy of the .docx kept in the state directory,
and only `save` writes the file (atomically), so a review in progress never leaves the file half
done and nothing is lost when the REPL is left: the next `deskcheck repl --docx FILE` resumes it.

Layout: ``<state dir>/reviews/<key>/`` with ``working.docx`` and ``review.json``: the file it
belongs to, the SHA-256 of the file's content the copy was last in step with, and of the content
last saved anywhere (``save OTHER.docx``); a copy whose content is one of these has nothing
unsaved. A lock (``cli.review_lock``) keeps two REPLs, or a REPL and ``deskcheck mcp``, from working
on the same file at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..review_lock import review_folder

META = "review.json"
WORKING = "working.docx"


def _read_docx(path: Path) -> bytes | None:
    """The bytes of the .docx at ``path`` (None when it is missing), read as every docx is."""
    from deskcheck.engine.docx.package.limits import MAX_PACKAGE_BYTES
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.files import read_regular_file

    try:
        return read_regular_file(path, MAX_PACKAGE_BYTES, subject=str(path), wanted="a .docx file")
    except InputError as exc:
        if exc.code == "missingFile":
            return None
        raise UsageError(exc.message) from None


def _sha256(path: Path) -> str | None:
    data = _read_docx(path)
    return None if data is None else hashlib.sha256(data).hexdigest()


class WorkingCopy:
    """The working copy of the review of ``source`` under ``state_dir``."""

    def __init__(self, source: Path, state_dir: Path) -> None:
        self.source = source.resolve()
        self.state_dir = state_dir
        self.folder = review_folder(self.source, state_dir)
        self.path = self.folder / WORKING
        self._lock: Any = None
        self._opened = False
        self.resumed = False
        self.synced_sha: str | None = None  # the file content the copy was last in step with
        self.saved_sha: str | None = None  # the content last written by `save`, wherever it went

    # -- opening and leaving ----------------------------------------------------------------------

    def open(self) -> None:
        """Take the lock, then resume the copy left by an earlier REPL or make a fresh one."""
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._take_lock()
        self._opened = True
        meta = self._read_meta()
        if meta is not None and meta.get("source") == str(self.source) and self.path.is_file():
            self.synced_sha = meta.get("syncedSha256")
            self.saved_sha = meta.get("savedSha256")
            self.resumed = self.unsaved
            if not self.resumed and self.source_changed:
                self._copy_from_source()  # nothing of ours in it: start from the file as it is now
            return
        self._copy_from_source()

    def close(self) -> None:
        """Release the lock; a copy with nothing unsaved is removed. Does nothing unless this
        instance opened the review (another REPL's copy is never touched)."""
        if not self._opened:
            return
        if not self.unsaved:
            shutil.rmtree(self.folder, ignore_errors=True)
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        self._opened = False

    def _take_lock(self) -> None:
        from ..review_lock import ReviewLock

        lock = ReviewLock(self.source, self.state_dir)
        lock.acquire("repl")
        self._lock = lock

    # -- state ----------------------------------------------------------------------------------

    @property
    def unsaved(self) -> bool:
        """The copy has changes that were written nowhere: not in the file, not by a save."""
        return _sha256(self.path) not in (self.synced_sha, self.saved_sha)

    @property
    def source_changed(self) -> bool:
        """The file on disk changed since the copy was last in step with it."""
        return _sha256(self.source) != self.synced_sha

    # -- writing --------------------------------------------------------------------------------

    def save(self, target: Path | None = None, *, force: bool = False) -> Path:
        """Write the copy to ``target`` (default: the file) atomically. Writing over the file
        when it changed on disk since the review started needs ``force``."""
        from deskcheck.engine.file_lock import updating

        destination = (target or self.source).resolve()
        # Held from the check to the write: a save by another program in between is seen.
        with updating(destination):
            return self._save(destination, force)

    def _save(self, destination: Path, force: bool) -> Path:
        from deskcheck.engine.files import write_atomically

        if destination == self.source and self.source_changed and not force:
            raise UsageError(
                f"{self.source} changed on disk since this review started (someone saved it meanwhile): "
                "`save --force` overwrites it with the review, `save OTHER.docx` writes the review elsewhere, "
                "`revert` starts again from the file as it is now."
            )
        data = self.path.read_bytes()
        write_atomically(destination, data)
        self.saved_sha = hashlib.sha256(data).hexdigest()
        if destination == self.source:
            self.synced_sha = self.saved_sha
        self._write_meta()
        return destination

    def revert(self) -> None:
        self._copy_from_source()

    def _copy_from_source(self) -> None:
        from deskcheck.engine.files import write_atomically

        data = _read_docx(self.source)
        if data is None:
            raise UsageError(
                f"{self.source} no longer exists, so there is nothing to start again from; "
                "`save` writes the review there again."
            )
        write_atomically(self.path, data)
        self.synced_sha = self.saved_sha = hashlib.sha256(data).hexdigest()
        self._write_meta()

    def _read_meta(self) -> dict[str, Any] | None:
        try:
            return json.loads((self.folder / META).read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            return None

    def _write_meta(self) -> None:
        from deskcheck.engine.files import write_atomically

        meta = {"source": str(self.source), "syncedSha256": self.synced_sha, "savedSha256": self.saved_sha}
        write_atomically(self.folder / META, (json.dumps(meta, indent=2) + "\n").encode("utf-8"))
        os.chmod(self.folder / META, 0o600)
