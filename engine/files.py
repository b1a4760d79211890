"""Reading a file a user or a model named, and writing one so that readers never see half of it.

Reading (``read_regular_file``): every path that comes in (a .docx, a compared version, an ARGS
file, a schema, a data file, an OpenAPI document, a queue, a script) is read through one bounded
reader. It opens without blocking, looks at what it opened, refuses anything but a regular file
(a FIFO would block forever, ``/dev/zero`` never ends, and ``st_size`` says nothing about either),
and reads at most the caller's limit plus one byte, so even a regular file that grows while it is
read (or a ``/proc`` file that reports size 0) cannot cost more than the limit.

Writing (``write_atomically``): a docx written in place, a review queue, a file-backed form's
data, the REPL's working copy. The file written is the one the user named: a symbolic link is
followed (its target is written, the link stays a link), and a file written over keeps its mode,
owner, group and extended attributes. The bytes go to a temporary file in the target's folder
(a rename within one file system is atomic), are flushed to disk, and then replace the target in
one ``os.replace``. A new file gets the permissions the umask gives any new file (0644 under
022). Two cases are written in place instead, because a rename would change them: a file with
other hard links (the rename would split them), and one whose owner a new file cannot be given
(owned by someone else, written through its group's permission); a copy of the old bytes is kept
beside it until the write is complete and puts them back if the write fails. Any failure removes
the temporary file and leaves the target exactly as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from .errors import DeskcheckError, InputError

_KINDS = {
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def _irregular(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file ("a directory", "a character
    device", ...); None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def describe_size(limit: int) -> str:
    """``limit`` bytes in the unit a person reads best (``32 MiB``, ``4,096 bytes``)."""
    mib = 1024 * 1024
    return f"{limit // mib} MiB" if limit % mib == 0 else f"{limit:,} bytes"


def read_regular_file(path: str | os.PathLike[str], limit: int, *, subject: str, wanted: str) -> bytes:
    """The bytes of the regular file at ``path``, refusing more than ``limit`` bytes.

    ``subject`` names the file in messages ("the schema file s.json"), ``wanted`` says what to
    give instead ("a JSON file"). Raises ``InputError`` with code ``missingFile``, ``notAFile``
    (a directory, a FIFO, a device, a socket), ``tooLarge`` or ``unreadableFile``."""
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(f"{subject} does not exist; check the path.", code="missingFile") from None
    except IsADirectoryError:
        raise InputError(f"{subject} is a directory; give {wanted}.", code="notAFile") from None
    except OSError as exc:
        raise InputError(f"{subject} cannot be read: {exc.strerror or exc}.", code="unreadableFile") from None
    try:
        info = os.fstat(fd)
        kind = _irregular(info.st_mode)
        if kind == "a directory":
            raise InputError(f"{subject} is a directory; give {wanted}.", code="notAFile")
        if kind is not None:
            raise InputError(
                f"{subject} is {kind}, not a regular file; deskcheck reads only regular files: give {wanted}.",
                code="notAFile",
            )
        too_large = InputError(
            f"{subject} is larger than {describe_size(limit)}, the most deskcheck reads from such a file.",
            code="tooLarge",
        )
        if info.st_size > limit:
            raise too_large
        os.set_blocking(fd, True)
        chunks = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        if remaining <= 0:
            raise too_large
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(f"{subject} cannot be read: {exc.strerror or exc}.", code="unreadableFile") from None
    finally:
        os.close(fd)


def write_atomically(target: Path, data: bytes) -> None:
    """Replace the file at ``target`` (the file a symbolic link there points to) with ``data``
    (see the module docstring).

    A write that cannot start is bad input (``InputError``, code badOutput): a missing folder, a
    directory or a device in the way, a folder that cannot be written. An operating-system
    failure while writing (a full disk) is a ``DeskcheckError`` (code writeFailed)."""
    named = Path(target)
    target = Path(os.path.realpath(named)) if named.is_symlink() else named
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"cannot write {_shown(named, target)}: the folder {folder} does not exist.", code="badOutput")
    try:
        info: os.stat_result | None = target.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise InputError(f"cannot write {_shown(named, target)}: {exc.strerror or exc}.", code="badOutput") from None
    if info is not None:
        # Renaming over a device or a FIFO would replace it (as root, /dev/null itself).
        kind = _irregular(info.st_mode)
        if kind == "a directory":
            raise InputError(f"cannot write {_shown(named, target)}: it is a directory.", code="badOutput")
        if kind is not None:
            raise InputError(
                f"cannot write {_shown(named, target)}: it is {kind}; deskcheck writes only regular files, so give "
                "a file path.",
                code="badOutput",
            )
    fd, temp_name = _create_temporary(target, folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if info is not None and (info.st_nlink > 1 or not _same_owner(temp_name, info)):
            _write_in_place(target, temp_name, data)
            return
        if info is not None:
            os.chmod(temp_name, stat.S_IMODE(info.st_mode))
            _copy_attributes(target, temp_name)
        os.replace(temp_name, target)
    except BaseException as exc:
        if not isinstance(exc, _BackupKept):
            with contextlib.suppress(OSError):
                os.unlink(temp_name)
        if isinstance(exc, OSError):
            raise DeskcheckError(
                f"cannot write {_shown(named, target)}: {exc.strerror or exc}; the file was left as it was.",
                code="writeFailed",
            ) from None
        raise


def _shown(named: Path, target: Path) -> str:
    return str(named) if named == target else f"{named} (a link to {target})"


def _same_owner(temp_name: str, info: os.stat_result) -> bool:
    """Whether the new file has (or can be given) the old one's owner and group."""
    mine = os.stat(temp_name)
    if (mine.st_uid, mine.st_gid) == (info.st_uid, info.st_gid):
        return True
    try:
        os.chown(temp_name, info.st_uid, info.st_gid)
    except (PermissionError, AttributeError):  # another user's file; no chown on this system
        return False
    return True


def _copy_attributes(source: Path, temp_name: str) -> None:
    """Extended attributes (security labels, ACLs, user tags) where the system has them; one
    that cannot be copied is left behind rather than failing the write."""
    if not hasattr(os, "listxattr"):
        return
    try:
        names = os.listxattr(source)
    except OSError:
        return
    for name in names:
        with contextlib.suppress(OSError):
            os.setxattr(temp_name, name, os.getxattr(source, name))


def _write_in_place(target: Path, temp_name: str, data: bytes) -> None:
    """Overwrite ``target``'s own bytes (its inode, its links and owner stay). The temporary
    file becomes the copy of the old bytes, put back if the write fails."""
    with open(target, "rb") as old, open(temp_name, "wb") as backup:
        backup.write(old.read())
        backup.flush()
        os.fsync(backup.fileno())
    try:
        _overwrite(target, data)
    except OSError as exc:
        try:
            with open(temp_name, "rb") as backup:
                _overwrite(target, backup.read())
        except OSError:
            raise _BackupKept(
                f"cannot write {target}: {exc.strerror or exc}, and putting its old bytes back failed too; they are "
                f"in {temp_name}.",
                code="writeFailed",
            ) from None
        raise
    os.unlink(temp_name)


class _BackupKept(DeskcheckError):
    """An in-place write failed and so did putting the old bytes back: their copy stays."""


def _overwrite(target: Path, data: bytes) -> None:
    with open(target, "r+b") as handle:
        handle.write(data)
        handle.truncate()
        handle.flush()
        os.fsync(handle.fileno())


def _create_temporary(target: Path, folder: Path) -> tuple[int, str]:
    """A new empty file beside ``target``, created with mode 0666 so that the kernel applies the
    umask (``tempfile.mkstemp`` would make it 0600 whatever the umask)."""
    import secrets

    for _ in range(100):
        name = str(folder / f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), name
        except FileExistsError:
            continue
        except OSError as exc:
            hint = "check that the folder is writable" if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS) else ""
            raise InputError(
                f"cannot write {target}: {exc.strerror or exc} in {folder}" + (f"; {hint}." if hint else "."),
                code="badOutput",
            ) from None
    raise DeskcheckError(f"cannot write {target}: no free temporary name in {folder}.", code="writeFailed")
