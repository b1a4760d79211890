"""deskcheck on a real terminal, driven through tmux: a long `read-document` opens the pager (and
quitting it ends the command), and a big `compare` draws its progress on stderr while stdout,
redirected to a file, gets the JSON alone. Skipped where tmux is missing; in CI (CI=true) its
absence (or less's, the default pager) is a failure, as .ci/run installs them."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import time
import uuid

import pytest

from tests.docx.builders import long_document
from tests.helpers import deskcheck_executable

pytestmark = pytest.mark.slow
WAIT_SECONDS = 60.0


@pytest.fixture
def terminal(isolated_state):
    """A function that starts a shell command in a fresh 120x30 tmux session, and the session's name."""
    for program in ("tmux", "less"):
        if shutil.which(program) is None:
            if os.environ.get("CI") == "true":
                pytest.fail(f"{program} is missing in CI: .ci/run should have installed it")
            pytest.skip(f"{program} is not installed")
    name = f"deskcheck-{uuid.uuid4().hex[:8]}"
    # Nothing of the caller's pager settings: the defaults are what is tested.
    variables = {key: value for key, value in os.environ.items() if key not in ("PAGER", "DESKCHECK_PAGER", "LESS")}
    variables.update({"DESKCHECK_STATE_DIR": str(isolated_state), "TERM": "xterm-256color", "COLUMNS": "120"})

    def start(command: str) -> str:
        tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "30", "env", "-i",
             *[f"{k}={v}" for k, v in variables.items()], "sh", "-c", command)  # fmt: skip
        return name

    yield start
    tmux("kill-session", "-t", name)


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def screen(name: str) -> str:
    return tmux("capture-pane", "-t", name, "-p")


def running(name: str) -> bool:
    return name in tmux("list-sessions", "-F", "#{session_name}").split()


def wait_until(condition, what: str, name: str, interval: float = 0.05) -> str:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        shown = screen(name)
        if condition(shown):
            return shown
        time.sleep(interval)
    raise AssertionError(f"{what} never happened; the screen:\n{screen(name)}")


def test_a_long_document_opens_in_the_pager(tmp_path, terminal):
    document = long_document(tmp_path / "long.docx", 3_000)
    done = tmp_path / "done"
    name = terminal(f"{shlex.quote(deskcheck_executable())} docx read-document {document}; touch {done}; sleep 30")
    shown = wait_until(lambda s: "Paragraph 20:" in s, "the first page", name)
    lines = shown.rstrip("\n").split("\n")
    assert lines[0].startswith("3,000 blocks"), shown
    assert "id" in lines[1] and "kind" in lines[1] and "text" in lines[1], "a table's header"
    assert "heading 1" in shown and "{" not in shown, "a readable table, not JSON"
    assert lines[-1].strip() == ":", "less waits at the end of the first page"
    assert not done.exists(), "the command waits for the reader"
    tmux("send-keys", "-t", name, "G")
    wait_until(lambda s: "Paragraph 2999:" in s and "(END)" in s, "the last page", name)
    tmux("send-keys", "-t", name, "q")
    deadline = time.monotonic() + WAIT_SECONDS
    while not done.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert done.exists(), "quitting the pager ends the command"


def test_a_short_answer_and_a_pipe_get_no_pager(tmp_path, terminal):
    document = long_document(tmp_path / "long.docx", 3_000)
    out = tmp_path / "piped.txt"
    command = (
        f"{shlex.quote(deskcheck_executable())} docx read-document {document} '{{\"maxBlocks\": 5}}'; "
        f"{shlex.quote(deskcheck_executable())} docx read-document {document} | cat > {out}; echo FINISHED; sleep 30"
    )
    name = terminal(command)
    shown = wait_until(lambda s: "FINISHED" in s, "both commands", name)
    assert "5 blocks of 3,000" in shown and "Paragraph 4:" in shown
    assert json.loads(out.read_text())["result"]["totalBlocks"] == 3000, "a pipe gets the JSON envelope"


def test_a_big_compare_shows_its_progress_on_stderr_only(tmp_path, terminal):
    previous = long_document(tmp_path / "v1.docx", 40_000)
    current = long_document(tmp_path / "v2.docx", 40_000, edited=True)
    out, err_copy = tmp_path / "compare.json", tmp_path / "exit"
    command = f"{shlex.quote(deskcheck_executable())} docx compare {previous} {current} > {out}; echo $? > {err_copy}"
    name = terminal(command + "; sleep 30")
    shown = wait_until(lambda s: "comparing v1.docx with v2.docx" in s, "the progress display", name)
    assert "0:00:0" in shown, "the elapsed time"
    wait_until(lambda s: "comparing" not in s, "the progress display to be erased", name)
    deadline = time.monotonic() + WAIT_SECONDS
    while not err_copy.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert err_copy.read_text().strip() == "0"
    result = json.loads(out.read_text())["result"]  # stdout: the envelope alone
    assert result["summaryCounts"]["deleted"] == 400 and result["summaryCounts"]["added"] == 400
    assert running(name)
