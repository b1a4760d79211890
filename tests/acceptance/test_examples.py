"""Every command block of the README and of docs/ runs as written, against the files the
repository ships, and exits as the text says (tests/examples.py has the conventions).

Each page runs in a scratch folder holding a copy of ``samples/`` (the files git tracks), with
its own state directory, the sample API on its default port 8642 when the page names it (on a
free port otherwise, the address replaced in the commands, as the tour test does), and ``deskcheck``
on the PATH. Afterwards the copy of ``samples/`` is unchanged and nothing was written outside
``deskcheck-demo/``, the folder the examples write to (git ignores it)."""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs import REPO, pages
from tests.examples import Block, Page, block_script, command, read_page, split_commands, without_comment

SAMPLE_API = "127.0.0.1:8642"
MCP_HTTP = "--http 8765"
PAGES = {path.relative_to(REPO).as_posix(): path for path in pages()}
# Blocks that cannot run here, each with its reason in the page: keep this list short.
NOT_RUN = {"README.md": 1, "docs/mcp.md": 1, "docs/forms.md": 1}


def shipped_samples() -> list[str]:
    """The files of samples/ that git tracks (outside a git checkout, every file but caches)."""
    listed = subprocess.run(["git", "ls-files", "samples"], cwd=REPO, capture_output=True, text=True, check=False)
    if listed.returncode == 0 and listed.stdout:
        return [name for name in listed.stdout.split() if (REPO / name).is_file()]
    found = (REPO / "samples").rglob("*")
    return [p.relative_to(REPO).as_posix() for p in found if p.is_file() and "__pycache__" not in p.parts]


def digest(root: Path, names: list[str]) -> dict[str, str]:
    return {name: hashlib.sha256((root / name).read_bytes()).hexdigest() for name in names}


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_every_page_has_examples_and_says_why_one_is_not_run():
    read = {name: read_page(path, name) for name, path in PAGES.items()}
    not_run = {name: sum(block.not_run is not None for block in page.blocks) for name, page in read.items()}
    assert {name: count for name, count in not_run.items() if count} == NOT_RUN
    runnable = [block for page in read.values() for block in page.blocks if block.not_run is None]
    assert len(runnable) >= 15 and all(block.commands for block in runnable)


def test_the_conventions_read_what_the_pages_write():
    assert split_commands("a \\\n  b\nc '{\n}'\n") == ["a \\\n  b", "c '{\n}'"]
    assert command("deskcheck openapi check x.yaml   # exit 1: errors").expected_exit == 1
    assert command("deskcheck mcp --http 8765   # serves until Ctrl-C").server
    assert command('deskcheck x \'{"a": "# exit 1"}\'').expected_exit == 0


@pytest.fixture(scope="module")
def sample_api():
    """The sample API where the pages expect it, or on a free port when 8642 is taken."""
    from deskcheck.samples.records_api import DEFAULT_PORT, SampleApi, SampleApiError

    try:
        api = SampleApi(port=DEFAULT_PORT).start()
    except SampleApiError:
        api = SampleApi(port=0).start()
    try:
        yield api
    finally:
        api.stop()


def run_block(
    block: Block, work: Path, env: dict[str, str], address: str, out_dir: Path, server_wait: float = 30.0
) -> list[str]:
    """Run one block; the problems found, each naming the page, line and command."""
    for cmd in block.commands:
        cmd.text = cmd.text.replace(SAMPLE_API, address)  # a no-op on port 8642
        if not port_is_free(8765):
            cmd.text = cmd.text.replace(MCP_HTTP, "--http 0")
    out_dir.mkdir(parents=True)
    script = block_script(block, out_dir, server_wait)
    subprocess.run(["bash", "-c", script], cwd=work, env=env, timeout=600, check=False)
    problems = []
    for index, cmd in enumerate(block.commands):
        rc_file = out_dir / f"{index}.rc"
        got = rc_file.read_text().strip() if rc_file.exists() else "not run"
        wanted = "running" if cmd.server else str(cmd.expected_exit)
        if got != wanted:
            err = (out_dir / f"{index}.err").read_text(errors="replace")[-1500:]
            out = (out_dir / f"{index}.out").read_text(errors="replace")[-500:]
            problems.append(f"{block.page}:{block.line}: {cmd.text}\n  exit {got}, the page says {wanted}\n{out}{err}")
    return problems


def page_env(tmp_path: Path) -> dict[str, str]:
    drop = {"DESKCHECK_TOKEN", "DESKCHECK_STORE", "DESKCHECK_AUTHOR", "DESKCHECK_CONFIG", "DESKCHECK_MCP_TOKEN"}
    env = {key: value for key, value in os.environ.items() if key not in drop}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env["PATH"]
    env["DESKCHECK_STATE_DIR"] = str(tmp_path / "state")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["NO_COLOR"] = "1"
    return env


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_command_of_the_page_runs_as_written(name, sample_api, tmp_path):
    page: Page = read_page(PAGES[name], name)
    work = tmp_path / "work"
    samples = shipped_samples()
    for sample in samples:
        (work / sample).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / sample, work / sample)
    before = digest(work, samples)
    env = page_env(tmp_path)
    address = f"127.0.0.1:{sample_api.port}"

    problems: list[str] = []
    printed: dict[str, str] = {}
    for number, block in enumerate(page.blocks):
        if block.not_run is not None:
            continue
        out_dir = tmp_path / "out" / str(number)
        problems += run_block(block, work, env, address, out_dir)
        for index, cmd in enumerate(block.commands):
            printed.setdefault(without_comment(cmd.text), (out_dir / f"{index}.out").read_text(errors="replace"))
    assert not problems, "\n\n".join(problems)

    for shown_command, shown in page.outputs.items():
        assert shown_command in printed, f"{name} shows what {shown_command!r} prints, but never runs it"
        assert printed[shown_command] == shown, f"{name}: {shown_command} prints otherwise:\n{printed[shown_command]}"
    assert digest(work, samples) == before, "an example changed a shipped sample: work on a copy in deskcheck-demo/"
    assert {path.name for path in work.iterdir()} <= {"samples", "deskcheck-demo"}, "an example wrote elsewhere"


@pytest.mark.slow
def test_the_runner_reports_a_wrong_exit_and_a_server_that_stops(tmp_path):
    block = Block(
        "page.md",
        3,
        [
            command("X=1"),
            command('test "$X" = 1'),
            command("false   # exit 1: as the page says"),
            command("false"),
            command("sleep 120   # serves until Ctrl-C"),
            command("echo started; exit 0   # serves until Ctrl-C"),
        ],
    )
    problems = run_block(block, tmp_path, dict(os.environ), SAMPLE_API, tmp_path / "out", server_wait=1)
    assert [problem.splitlines()[:2] for problem in problems] == [
        ["page.md:3: false", "  exit 1, the page says 0"],
        ["page.md:3: echo started; exit 0   # serves until Ctrl-C", "  exit 0, the page says running"],
    ]
