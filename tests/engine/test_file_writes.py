"""What a write does to the file the user named (``files.write_atomically``, which every in-place
save goes through: a form's data file, a docx, a queue): a symbolic link is followed and stays a
link, hard links stay linked, and the mode, owner and group stay; a failure leaves the file as
it was."""

from __future__ import annotations

import os
import stat

import pytest

from deskcheck.engine import files
from deskcheck.engine.errors import DeskcheckError
from deskcheck.engine.files import write_atomically


def test_a_symbolic_link_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_bytes(b"a: 1\n")
    real.chmod(0o640)
    link = tmp_path / "link.yaml"
    link.symlink_to("real.yaml")
    write_atomically(link, b"a: 2\n")
    assert link.is_symlink() and os.readlink(link) == "real.yaml"
    assert real.read_bytes() == b"a: 2\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_a_chain_of_links_and_a_link_to_another_folder_write_the_final_file(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    real = tmp_path / "elsewhere" / "config.json"
    real.write_bytes(b"{}")
    (tmp_path / "one").symlink_to(real)
    (tmp_path / "two").symlink_to("one")
    write_atomically(tmp_path / "two", b'{"a": 1}')
    assert real.read_bytes() == b'{"a": 1}'
    assert (tmp_path / "two").is_symlink() and (tmp_path / "one").is_symlink()
    assert not [p.name for p in (tmp_path / "elsewhere").iterdir() if p.name != "config.json"], "no temporary left"


def test_a_dangling_link_creates_the_file_it_names(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to("missing.json")
    write_atomically(link, b"{}")
    assert link.is_symlink() and (tmp_path / "missing.json").read_bytes() == b"{}"


def test_hard_links_stay_one_file(tmp_path):
    first = tmp_path / "first.toml"
    first.write_bytes(b"a = 1\n")
    second = tmp_path / "second.toml"
    os.link(first, second)
    inode = first.stat().st_ino
    write_atomically(second, b"a = 2\n")
    assert first.read_bytes() == second.read_bytes() == b"a = 2\n"
    assert first.stat().st_ino == second.stat().st_ino == inode and first.stat().st_nlink == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first.toml", "second.toml"], "no temporary left"


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_owner_and_group_stay(tmp_path):
    path = tmp_path / "owned.yaml"
    path.write_bytes(b"a: 1\n")
    os.chown(path, 1234, 2345)
    write_atomically(path, b"a: 2\n")
    info = path.stat()
    assert (info.st_uid, info.st_gid) == (1234, 2345) and path.read_bytes() == b"a: 2\n"


def test_a_file_whose_owner_a_new_file_cannot_have_is_written_in_place(tmp_path, monkeypatch):
    """Another user's file, written through its group's permission: a rename would give it to
    the writer, so its own bytes are overwritten (same inode, same owner)."""
    path = tmp_path / "theirs.json"
    path.write_bytes(b'{"a": 1}')
    before = path.stat()

    def refused(*_args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(files, "_same_owner", lambda _temp, _info: False)
    monkeypatch.setattr(os, "chown", refused)
    write_atomically(path, b'{"a": 2}')
    assert path.read_bytes() == b'{"a": 2}' and path.stat().st_ino == before.st_ino
    assert [p.name for p in tmp_path.iterdir()] == ["theirs.json"], "the copy of the old bytes is gone"


def test_a_failed_write_in_place_puts_the_old_bytes_back(tmp_path, monkeypatch):
    first = tmp_path / "a.yaml"
    first.write_bytes(b"a: 1\n" * 100)
    os.link(first, tmp_path / "b.yaml")
    real_overwrite = files._overwrite
    calls = []

    def failing_once(target, data):
        calls.append(data)
        if len(calls) == 1:
            with open(target, "r+b") as handle:  # half written, then the disk is full
                handle.write(data[:3])
            raise OSError(28, "No space left on device")
        real_overwrite(target, data)

    monkeypatch.setattr(files, "_overwrite", failing_once)
    with pytest.raises(DeskcheckError, match="No space left") as info:
        write_atomically(first, b"b: 2\n")
    assert info.value.code == "writeFailed"
    assert first.read_bytes() == b"a: 1\n" * 100 == (tmp_path / "b.yaml").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml"]


def test_extended_attributes_stay(tmp_path):
    path = tmp_path / "tagged.json"
    path.write_bytes(b"{}")
    try:
        os.setxattr(path, "user.deskcheck-test", b"kept")
    except (OSError, AttributeError):
        pytest.skip("this file system keeps no user extended attributes")
    write_atomically(path, b'{"a": 1}')
    assert os.getxattr(path, "user.deskcheck-test") == b"kept"
