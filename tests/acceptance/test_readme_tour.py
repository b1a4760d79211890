"""Every command of the README's Tour works as written: the test starts the sample API on its
default port 8642 (when that port is taken, on a free port, with ``127.0.0.1:8642`` replaced by
its address in the commands), runs each command with bash from a fresh working directory that
sees the repository's ``samples/``, and checks what the commands did."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO
from tests.examples import command as example_command
from tests.examples import split_commands

README = REPO / "README.md"
TOUR_ADDRESS = "127.0.0.1:8642"


def tour_section() -> str:
    text = README.read_text()
    start = text.index("\n## Tour\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def tour_commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", tour_section(), flags=re.S)
    return [command for block in blocks for command in split_commands(block)]


def is_assignment(command: str) -> bool:
    return re.fullmatch(r"[A-Z_]+=\S+", command) is not None


def test_the_first_command_installs_and_runs_the_demo():
    first = README.read_text().split("```sh\n", 1)[1].splitlines()[0]
    assert first == "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/deskcheck demo"


def test_the_tour_has_commands_for_every_family():
    commands = [c for c in tour_commands() if not is_assignment(c)]
    for family in ("deskcheck openapi", "deskcheck form", "deskcheck docx", "deskcheck call --spec"):
        assert any(c.startswith(family) for c in commands), family
    assert all(c.startswith(("deskcheck ", "mkdir -p deskcheck-demo")) for c in commands)


@pytest.fixture
def tour_api():
    """The sample API where the tour expects it, or on a free port when 8642 is taken: (api,
    the address the commands must use)."""
    from deskcheck.samples.records_api import DEFAULT_PORT, SampleApi, SampleApiError

    try:
        api = SampleApi(port=DEFAULT_PORT).start()
    except SampleApiError:
        api = SampleApi(port=0).start()
    try:
        yield api, f"127.0.0.1:{api.port}"
    finally:
        api.stop()


@pytest.mark.slow
def test_every_tour_command_works_as_written(tour_api, tmp_path):
    api, address = tour_api
    work = tmp_path / "work"
    work.mkdir()
    (work / "samples").symlink_to(REPO / "samples", target_is_directory=True)
    contract_before = hashlib.sha256((REPO / "samples" / "contract.docx").read_bytes()).hexdigest()
    env = {key: value for key, value in os.environ.items() if key != "DESKCHECK_TOKEN"}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env["PATH"]
    env["DESKCHECK_STATE_DIR"] = str(tmp_path / "state")

    prelude: list[str] = []
    outputs: dict[str, str] = {}
    for command in tour_commands():
        command = command.replace(TOUR_ADDRESS, address)  # a no-op on port 8642
        if is_assignment(command):
            prelude.append(command)
            continue
        script = "\n".join([*prelude, command])
        done = subprocess.run(["bash", "-c", script], cwd=work, env=env, capture_output=True, text=True, timeout=120)
        expected = example_command(command).expected_exit
        assert done.returncode == expected, f"{command}\nexit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr}"
        outputs[command] = done.stdout

    def text_of(start: str, contains: str = "") -> str:
        [text] = [out for cmd, out in outputs.items() if cmd.startswith(start) and contains in cmd]
        return text

    def output_of(start: str, contains: str = "") -> dict:
        return json.loads(text_of(start, contains))

    # OpenAPI: clean checks (also live), tool definitions written, a plain tool's table.
    checks = [out for cmd, out in outputs.items() if cmd.startswith("deskcheck openapi check samples/records_api")]
    assert len(checks) == 2 and all(out.endswith(": no problems found.\n") for out in checks), checks
    assert json.loads((work / "deskcheck-demo" / "tools.json").read_text())[0]["name"].startswith("sample_")
    assert "| asso-002 |" in output_of("deskcheck call --spec")["result"]

    # Forms: the wrong address reported, the lookup listed, the record saved on the server.
    wrong = output_of("deskcheck form set-field-value", "bureau at choeur")["result"]
    assert "/email: must be an email address" in wrong
    assert "- [1] Loire (42)" in output_of("deskcheck form get-field-suggestions")["result"]
    assert output_of("deskcheck form save-form")["result"].startswith("Saved")
    record = api.get_line("associations", "asso-002")
    assert record["email"] == "bureau@choeur-mosaique.org"
    assert record["departement"] == {"code": "42", "nom": "Loire"}

    # Docx: the sample untouched, the review written to new files, the redline tracked.
    assert hashlib.sha256((REPO / "samples" / "contract.docx").read_bytes()).hexdigest() == contract_before
    written = {p.name for p in (work / "deskcheck-demo").iterdir()}
    assert written == {"tools.json", "reviewed.docx", "accepted.docx", "redline.docx"}
    assert sorted(p.name for p in work.iterdir()) == ["deskcheck-demo", "samples"], "the tour wrote elsewhere"
    assert output_of("deskcheck docx find-text")["result"]["totalMatches"] == 3
    changes = output_of("deskcheck docx read-changes")["result"]["changes"]
    assert {change["author"] for change in changes} == {"Jane Doe"}
    assert "[-thirty (30)-]{+forty-five (45)+}" in text_of("deskcheck docx compare")
    assert "3 errors, 1 warning in 1 document." in text_of("deskcheck openapi check samples/library-api.yaml")

    from deskcheck.engine.docx.tools.toolset import docx_toolset

    redline_changes = docx_toolset(work / "deskcheck-demo" / "redline.docx").call("read_changes", {}).value["changes"]
    assert {change["type"] for change in redline_changes} >= {"insertion", "deletion"}
