"""The REPL in a real terminal, driven through tmux: the prompt, the bottom toolbar, the
completion menu with its descriptions, and leaving with Ctrl-D. Skipped where tmux is not
installed (this check is optional; the pipe-input tests cover the behaviour)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import uuid

import pytest

from tests.helpers import deskcheck_executable
from tests.repl.test_form_repl import SCHEMA

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]
# How long the terminal may take to show what a step waits for.
WAIT_SECONDS = 30.0


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def screen(name: str) -> str:
    return tmux("capture-pane", "-t", name, "-p")


def wait_for(name: str, text: str) -> str:
    deadline = time.monotonic() + WAIT_SECONDS
    shown = screen(name)
    while text not in shown and time.monotonic() < deadline:
        time.sleep(0.1)
        shown = screen(name)
    assert text in shown, f"{text!r} never appeared:\n{shown}"
    return shown


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
        shown = wait_for(name, "invalid: 1 error(s)")
        assert "modified, not saved" in shown and "form*>" in shown
        tmux("send-keys", "-t", name, "C-d")
        deadline = time.monotonic() + WAIT_SECONDS
        while name in tmux("list-sessions", "-F", "#{session_name}") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert name not in tmux("list-sessions", "-F", "#{session_name}"), "Ctrl-D ended the REPL"
    finally:
        tmux("kill-session", "-t", name)
    assert os.stat(isolated_state / "repl-history-form").st_size > 0
