"""Writing a file so that readers see the old bytes or the new ones, never half of either.

Every family saves through ``write_atomically``: a docx written in place, a review queue, a
file-backed form's data, the REPL's working copy. The bytes go to a temporary file in the target's
folder (a rename within one file system is atomic), are flushed to disk, take the old file's
permissions, and then replace the target in one ``os.replace``. Any failure removes the temporary
file and leaves the target exactly as it was.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from .errors import DeskcheckError, InputError


def write_atomically(target: Path, data: bytes) -> None:
    """Replace ``target`` with ``data`` through a temporary file in the same folder.

    A missing folder or a directory in the way is bad input (``InputError``, code badOutput); an
    operating-system failure while writing is a ``DeskcheckError`` (code writeFailed)."""
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"cannot write {target}: the folder {folder} does not exist.", code="badOutput")
    if target.is_dir():
        raise InputError(f"cannot write {target}: it is a directory.", code="badOutput")
    import tempfile

    mode = None
    with contextlib.suppress(FileNotFoundError):
        mode = target.stat().st_mode & 0o7777
    try:
        fd, temp_name = tempfile.mkstemp(prefix="." + target.name + ".", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise DeskcheckError(
            f"cannot write {target}: {exc.strerror or exc}; check that the folder is writable.", code="writeFailed"
        ) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp_name, mode)
        os.replace(temp_name, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        if isinstance(exc, OSError):
            raise DeskcheckError(
                f"cannot write {target}: {exc.strerror or exc}; the file was left as it was.", code="writeFailed"
            ) from None
        raise
