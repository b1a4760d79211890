"""The REPL in a real terminal, driven through tmux: the prompt, the bottom toolbar, the
completion menu with its descriptions, and leaving with Ctrl-D. Skipped where tmux is not
installed (this check is optional; the pipe-input tests cover the behaviour)."""

from __future__ import annotations

import json
import os
import shutil
import uuid

import pytest

from tests.helpers import deskcheck_executable
from tests.repl.test_form_repl import SCHEMA
from tests.tmux import eventually, running, tmux, wait_until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def wait_for(name: str, text: str) -> str:
    return wait_until(lambda shown: text in shown, f"{text!r} on the screen", name)


def test_prompt_toolbar_completion_menu_and_leaving(tmp_path, isolated_state):
    schema, data = tmp_path / "event.schema.json", tmp_path / "event.json"
    schema.write_text(json.dumps(SCHEMA))
    data.write_text('{"name": "Kick-off"}\n')
    name = f"deskcheck-{uuid.uuid4().hex[:8]}"
    command = f"{deskcheck_executable()} repl --schema {schema} --data {data}"
    env = [f"DESKCHECK_STATE_DIR={isolated_state}", "TERM=xterm-256color"]
    tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "30", "env", *env, *command.split())
    try:
        shown = wait_for(name, "Ctrl-D leaves")
        assert "form>" in shown and 'form: "event.json"' in shown and " valid " in shown, "the bottom toolbar"
        tmux("send-keys", "-t", name, "set /sp")
        shown = wait_for(name, "/speakers")
        assert "Speakers (array)" in shown, "the completion menu shows each path's label and type"
        tmux("send-keys", "-t", name, "C-u", "set /seats 0", "Enter")
        shown = wait_for(name, "invalid: 1 error")
        assert "modified, not saved" in shown and "form*>" in shown
        tmux("send-keys", "-t", name, "C-d")
        eventually(lambda: not running(name), "Ctrl-D ends the REPL")
    finally:
        tmux("kill-session", "-t", name)
    assert os.stat(isolated_state / "repl-history-form").st_size > 0
