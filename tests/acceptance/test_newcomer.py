"""A newcomer's first ten minutes, typed into a real terminal (bash in tmux, 120x40): a fresh
clone, the README's two set-up commands, the tour command by command, a typo at each level of
the command line, a `--help`, a comment on an edit read back, and a long output in the pager.

The clone is of the repository's committed HEAD. The install reuses this test environment rather
than downloading: the clone's `.venv` is created beforehand without its own setuptools, with a
`.pth` file that puts this environment's site-packages on its path, and pip runs offline
(`PIP_NO_INDEX`) without build isolation. The README's first command is then typed as written:
`python3 -m venv .venv` keeps that venv, and `pip install -e .` installs the clone itself, in
editable mode, finding every dependency already there (about 20 s instead of minutes). The
second command is typed as written up to its pytest call, which runs one test file instead of the
whole suite (this file is part of that suite).

Marked slow; skipped where tmux, less or git is missing, or the repository is not a git checkout
(a failure with CI=true)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.absent import skip_or_fail
from tests.acceptance.test_readme import readme_setup_commands
from tests.acceptance.test_readme_tour import TOUR_ADDRESS, tour_commands
from tests.docs import REPO
from tests.examples import command as example_command
from tests.helpers import see_this_environment
from tests.tmux import WAIT_SECONDS, tmux

pytestmark = pytest.mark.slow

RC = re.compile(r"^\[rc=(\d+)\]$", re.M)
INSTALL_SECONDS = 600.0  # the first command installs and runs the demo on a loaded machine


def flat(text: str) -> str:
    """The text with its line breaks (the terminal's wrapping included) as single spaces."""
    return re.sub(r"\s+", " ", text)


class Shell:
    """An interactive bash in a tmux session: commands are typed, the pager is quit with `q` as a
    person would, and each command's exit code is printed by PROMPT_COMMAND as `[rc=N]`."""

    def __init__(self, name: str, cwd: Path, env: dict[str, str]) -> None:
        self.name = name
        # The whole session stays readable: the history is set before the pane exists.
        tmux("set-option", "-g", "history-limit", "100000")
        tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", "-c", str(cwd), "env", "-i",
             *[f"{k}={v}" for k, v in env.items()], "bash", "--norc", "--noprofile", "-i")  # fmt: skip
        self.run("PS1='$ '; PS2='> '; PROMPT_COMMAND='echo \"[rc=$?]\"'")

    def type(self, text: str) -> None:
        tmux("send-keys", "-t", self.name, "-l", text)
        tmux("send-keys", "-t", self.name, "Enter")

    def history(self) -> str:
        """Everything the terminal showed, wrapped lines joined."""
        return tmux("capture-pane", "-t", self.name, "-p", "-J", "-S", "-")

    def ends(self) -> int:
        return len(RC.findall(self.history()))

    def wait_for_end(self, done: int, timeout: float) -> tuple[int, str, bool]:
        """Wait for the end of the command typed after ``done`` commands had ended, quitting a
        pager on the way: (its exit code, what it showed, whether it was paged)."""
        deadline = time.monotonic() + timeout
        paged = False
        while True:
            text = self.history()
            ends = list(RC.finditer(text))
            if len(ends) > done:
                start = ends[done - 1].end() if done else 0
                return int(ends[done].group(1)), text[start : ends[done].start()], paged
            last = text.rstrip("\n").rsplit("\n", 1)[-1].strip()
            if last == ":" or last.endswith("(END)"):
                paged = True
                tmux("send-keys", "-t", self.name, "q")
            if time.monotonic() > deadline:
                raise AssertionError(f"no end of the command within {timeout:.0f} s; the terminal:\n{text[-3000:]}")
            time.sleep(0.1)

    def run(self, command: str, timeout: float = WAIT_SECONDS) -> tuple[int, str, bool]:
        """Type ``command``: (its exit code, what the terminal showed, whether it was paged)."""
        done = self.ends()
        self.type(command)
        return self.wait_for_end(done, timeout)


def free_port(preferred: int) -> int:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", preferred))
        except OSError:
            probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def reuse_this_environment(clone: Path) -> None:
    """The clone's .venv, prepared so that installing into it needs no download (see above)."""
    venv = clone / ".venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "uninstall", "-q", "-y", "setuptools"], check=True, capture_output=True)
    see_this_environment(python)


@pytest.fixture
def newcomer(tmp_path):
    """A fresh clone and a terminal in it: (shell, clone, the sample API's port)."""
    for program in ("tmux", "less", "git"):
        if shutil.which(program) is None:
            skip_or_fail(f"{program} is not installed")
    if not (REPO / ".git").exists():
        skip_or_fail("the repository is not a git checkout")
    clone = tmp_path / "deskcheck"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    reuse_this_environment(clone)
    env = {
        "HOME": str(tmp_path / "home"),
        # python3 is this test's base interpreter, as a newcomer's would be a system Python.
        "PATH": f"{Path(sys.base_prefix) / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "DESKCHECK_STATE_DIR": str(tmp_path / "state"),
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip reads this variable inverted: 0 turns isolation off
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    name = f"newcomer-{uuid.uuid4().hex[:8]}"
    api = f"{name}-api"
    shell = Shell(name, clone, env)
    try:
        yield shell, clone, free_port(8642)
    finally:
        tmux("kill-session", "-t", name)
        tmux("kill-session", "-t", api)


def test_a_newcomer_s_first_ten_minutes(newcomer):
    shell, clone, port = newcomer
    install, tests = readme_setup_commands()

    # The README's first command: install, then the demo, whose narration is paged.
    code, shown, paged = shell.run(install, timeout=INSTALL_SECONDS)
    assert code == 0, shown[-3000:]
    assert paged, "the demo's narration is longer than the terminal: it goes to the pager"
    deskcheck_module = subprocess.run(
        [str(clone / ".venv" / "bin" / "python"), "-c", "import deskcheck.cli; print(list(deskcheck.cli.__path__)[0])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(deskcheck_module).resolve() == (clone / "cli").resolve(), "the clone's own deskcheck is installed"

    # The second: the test extras install, and pytest runs on every core (one file here, the
    # whole suite in CI).
    assert tests.endswith(".venv/bin/python -m pytest -n auto")
    code, shown, _ = shell.run(
        f"{tests} tests/acceptance/test_readme.py -q -p no:cacheprovider", timeout=INSTALL_SECONDS
    )
    assert code == 0 and " passed" in shown, shown[-3000:]

    # The tour, with the sample API in a second terminal, as the README says.
    shell.run(". .venv/bin/activate")
    tmux("new-session", "-d", "-s", f"{shell.name}-api", "-c", str(clone),
         f".venv/bin/deskcheck sample-api --port {port}")  # fmt: skip
    address = f"127.0.0.1:{port}"
    for command in tour_commands():
        code, shown, _ = shell.run(command.replace(TOUR_ADDRESS, address), timeout=120)
        assert code == example_command(command).expected_exit, f"{command}\n{shown[-3000:]}"

    # A typo at each level gets a suggestion.
    typos = {
        "deskcheck dmeo": (2, "Did you mean 'demo'?"),
        "deskcheck docx read-documnet samples/contract.docx": (2, "Did you mean 'read-document'"),
        "deskcheck openapi check samples/library-api.yaml --strcit": (2, "Did you mean --strict?"),
        "deskcheck docx read-document samples/contract.docx '{\"maxBlock\": 3}'": (2, "Did you mean maxBlocks?"),
        "deskcheck form set-field-value --schema samples/contact.schema.json --data deskcheck-demo/contact.json "
        '\'{"path": "/emial", "value": "ada@example.org"}\'': (1, 'Did you mean "/email"?'),
        "deskcheck call --spec samples/records_api/openapi.json sample_dataset_line_describeState '{}'": (
            2,
            "add `--profile write`",
        ),
    }
    shell.run("cp samples/contact.json deskcheck-demo/contact.json")
    for command, (expected, suggestion) in typos.items():
        code, shown, _ = shell.run(command)
        assert code == expected and suggestion in flat(shown), f"{command}\n{shown}"

    # A --help that teaches the JSON arguments, with an example that runs as written.
    code, shown, _ = shell.run("deskcheck docx suggest-changes --help")
    assert code == 0
    assert "JSON arguments (ARGS):" in shown and "replaceInBlock" in shown and "Example:" in shown, shown

    # A comment given with an edit covers the whole new text, read back as such.
    shell.run("cp samples/contract.docx deskcheck-demo/mine.docx")
    edit = (
        'deskcheck docx suggest-changes deskcheck-demo/mine.docx \'{"operations": [{"type": "replaceInBlock", '
        '"blockId": "2B165965", "find": "thirty (30) days", "replace": "forty-five (45) days", '
        '"comment": "Our payment cycle is 45 days."}]}\''
    )
    code, shown, _ = shell.run(edit)
    assert code == 0, shown
    code, shown, _ = shell.run("deskcheck docx read-comments deskcheck-demo/mine.docx")
    assert code == 0 and "Our payment cycle is 45 days." in shown, shown
    assert "forty-five (45) days" in shown, "the comment's quote is the whole replacement"

    # A long output opens the pager: the first page waits for the reader, `q` ends it.
    done = shell.ends()
    shell.type("deskcheck docx read-document samples/contract-long.docx")
    deadline = time.monotonic() + WAIT_SECONDS
    while not shell.history().rstrip("\n").endswith(":"):
        assert time.monotonic() < deadline, shell.history()[-3000:]
        time.sleep(0.1)
    first_page = shell.history().rsplit("samples/contract-long.docx", 1)[1]
    assert "459 blocks" in first_page and shell.ends() == done, "the command waits in the pager"
    code, _, paged = shell.wait_for_end(done, WAIT_SECONDS)
    assert code == 0 and paged

    # Nothing the newcomer ran left a file in the repository (deskcheck-demo/ is ignored).
    status = subprocess.run(["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True, check=True)
    assert status.stdout == "", status.stdout
    assert os.path.isdir(clone / "deskcheck-demo")
