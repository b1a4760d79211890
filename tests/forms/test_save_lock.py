"""A file-backed form's save holds the file from its version check to its write (issue 26 item 5):
a save that starts while another writer is updating the file waits, then sees that writer's
change and is refused (``SaveConflict``) instead of landing first and being overwritten."""

from __future__ import annotations

import json
import threading
import time

import pytest

from deskcheck.engine.file_lock import updating
from deskcheck.engine.files import write_atomically
from deskcheck.engine.forms.sources.sources import FileSource, SaveConflict


def test_a_save_during_another_update_is_told_it_lost(tmp_path):
    schema, data = tmp_path / "event.schema.json", tmp_path / "event.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"name": {"type": "string"}}}))
    data.write_text('{"name": "Launch"}\n')
    source = FileSource(schema, data)
    loaded = source.load()
    saving, outcome = threading.Event(), []

    def save() -> None:
        saving.set()
        try:
            source.save({"name": "Mine"}, version=loaded.version, base=loaded.data)
            outcome.append("saved")
        except SaveConflict:
            outcome.append("conflict")

    with updating(data):  # another writer's read-check-write of the same file
        worker = threading.Thread(target=save)
        worker.start()
        saving.wait(10)
        time.sleep(0.3)  # without the lock, the save lands here, before the other writer's
        write_atomically(data, b'{"name": "Theirs"}\n')
    worker.join(30)
    assert outcome == ["conflict"]
    assert json.loads(data.read_text()) == {"name": "Theirs"}


@pytest.mark.parametrize("replaced", [False, True])
def test_a_waiter_locks_the_file_that_replaced_the_one_it_waited_for(tmp_path, replaced):
    path = tmp_path / "f.txt"
    path.write_text("one")
    order = []

    def second() -> None:
        with updating(path):
            order.append(path.read_text())

    with updating(path):
        worker = threading.Thread(target=second)
        worker.start()
        time.sleep(0.2)
        if replaced:
            write_atomically(path, b"two")  # a new inode: the waiter must lock it, not the old one
        else:
            path.write_text("two")
    worker.join(30)
    assert order == ["two"]
