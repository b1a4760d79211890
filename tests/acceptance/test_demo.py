"""``deskcheck demo``: every step works on a fresh machine, the reviewed contract holds the expected
tracked changes (LibreOffice is the judge), and nothing is left running or written where it should
not be, also when a step fails or the user presses Ctrl-C."""

from __future__ import annotations

import hashlib
import io
import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.conftest import REPO
from tests.helpers import run_cli, run_process

SAMPLE_CONTRACT = REPO / "samples" / "contract.docx"
STEP_NAMES = [
    "demo.setup",
    "forms.search",
    "forms.describe",
    "forms.set-fields",
    "forms.suggestions",
    "forms.array",
    "forms.save",
    "forms.conflict",
    "forms.reload",
    "docx.read",
    "docx.find",
    "docx.suggest",
    "docx.comments",
    "docx.compare",
    "openapi.check",
    "openapi.check-live",
]
NEW_CLAUSE = (
    "The Supplier shall ensure that its subcontractors are bound by confidentiality obligations at least as "
    "protective as those in clause 7."
)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def port_is_closed(base_url: str) -> bool:
    address = urlsplit(base_url)
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex((address.hostname, address.port)) != 0


def calls(step: dict, tool: str) -> list[dict]:
    return [call for call in step["calls"] if call.get("tool") == tool]


def sample_api_threads() -> set[threading.Thread]:
    # The server's accept loop is "sample-api"; its request threads run process_request_thread.
    return {t for t in threading.enumerate() if t.name.startswith("sample-api") or "process_request" in t.name}


@pytest.fixture
def no_new_server_threads():
    """Fails the test when a sample API thread started during it is still alive at its end (the
    session's shared sample API, started by other tests, may be running before and after)."""
    before = sample_api_threads()
    yield
    assert sample_api_threads() <= before, "a sample API thread outlived the demo"


# -- the whole demo, as a user runs it ---------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    """`deskcheck demo --json` as a separate process, in a fresh working directory and state
    directory: (its JSON lines by step name, the working directory, the state directory)."""
    work = tmp_path_factory.mktemp("demo-cwd")
    state = tmp_path_factory.mktemp("demo-state")
    before = sha256(SAMPLE_CONTRACT)
    run = run_process("demo", "--json", cwd=str(work), env={"DESKCHECK_STATE_DIR": str(state)}, timeout=120)
    assert sha256(SAMPLE_CONTRACT) == before, "the demo changed the shipped sample contract"
    lines = run.json_lines
    return {line["name"]: line for line in lines}, [line["name"] for line in lines], work, state


@pytest.mark.slow
def test_every_step_runs_and_works_in_order(demo_run):
    steps, order, _, _ = demo_run
    assert order == STEP_NAMES
    failed = {name: step.get("error") for name, step in steps.items() if not step["ok"]}
    assert failed == {}
    for step in steps.values():
        assert set(step) >= {"name", "part", "title", "ok", "calls", "notes"} and "skipped" not in step
        assert step["calls"], f"{step['name']} recorded no call"


@pytest.mark.slow
def test_the_form_steps_show_validation_suggestions_and_a_stale_save(demo_run):
    steps, _, _, _ = demo_run
    search = calls(steps["forms.search"], "sample_search_records")[0]
    assert "| asso-001 | Les Voiles de l'Iroise |" in search["result"]

    wrong, fixed = calls(steps["forms.set-fields"], "sample_dataset_line_setFieldValue")
    assert "/email: must be an email address" in wrong["result"] and "the form is valid" in fixed["result"]

    [listed] = calls(steps["forms.suggestions"], "sample_dataset_line_getFieldSuggestions")
    assert listed["args"]["query"] == "gironde" and "[0] Gironde (33)" in listed["result"]

    [added] = calls(steps["forms.array"], "sample_dataset_line_editArray")
    assert "added an item at index 2" in added["result"]

    saved = steps["forms.save"]
    record = next(call["result"] for call in saved["calls"] if call.get("action"))
    assert record["departement"] == {"code": "33", "nom": "Gironde"} and record["region"] == "Nouvelle-Aquitaine"
    assert record["bureau"][-1] == {"nom": "Anne Morvan", "fonction": "secrétariat"}
    assert record["email"] == "contact@voiles-arcachon.fr" and record["adresse"]["commune"] == "Arcachon"

    [stale] = calls(steps["forms.conflict"], "sample_dataset_line_saveForm")
    assert stale["ok"] is False and "answered 412" in stale["error"] and "reloadForm" in stale["error"]

    reload = steps["forms.reload"]
    [reloaded] = calls(reload, "sample_dataset_line_reloadForm")
    assert "/description" in reloaded["result"]
    [resaved] = calls(reload, "sample_dataset_line_saveForm")
    assert resaved["ok"] and resaved["result"].startswith("Saved")
    final = [call["result"] for call in reload["calls"] if call.get("action")][-1]
    assert final["domaines"] == ["sport", "environnement", "éducation"]
    assert final["description"].startswith("Sailing lessons")


@pytest.mark.slow
def test_the_docx_steps_read_find_suggest_comment_and_compare(demo_run):
    steps, _, _, _ = demo_run
    [page] = calls(steps["docx.read"], "read_document")
    labels = [block.get("displayLabel") for block in page["result"]["blocks"]]
    assert labels[3:5] == ["(1)", "(2)"] and "1." in labels and "1.1" in labels and "(a)" in labels

    finds = calls(steps["docx.find"], "find_text")
    assert len(finds) == 7 and all(f["result"]["totalMatches"] == 1 for f in finds)

    [suggested] = calls(steps["docx.suggest"], "suggest_changes")
    assert len(suggested["result"]["applied"]) == 6 and suggested["result"]["skipped"] == []
    [changes] = calls(steps["docx.suggest"], "read_changes")
    assert {c["type"] for c in changes["result"]["changes"]} >= {"insertion", "deletion", "paragraphMarkDeleted"}

    [threads] = calls(steps["docx.comments"], "read_comments")
    comments = threads["result"]["comments"]
    assert len(comments) == 6
    assert comments[-1]["quote"] == "limited to the Charges paid or payable in that year"
    assert [reply["text"][:7] for reply in comments[-1]["replies"]] == ["Propose"]

    [compared] = calls(steps["docx.compare"], "compare_versions")
    diff = compared["result"]["diff"]
    assert diff.startswith("Version diff: 1 added, 1 deleted, 3 modified")
    assert "[-thirty (30)-]{+forty-five (45)+}" in diff and "[-9,500-]{+9,000+}" in diff
    assert f"added: {NEW_CLAUSE}" in diff


@pytest.mark.slow
def test_the_openapi_steps_find_no_problem(demo_run):
    steps, _, _, _ = demo_run
    for name in ("openapi.check", "openapi.check-live"):
        [report] = [call for call in steps[name]["calls"] if "findings" in (call.get("result") or {})]
        assert report["result"]["findings"] == [], name
    assert "--live --base-url http://127.0.0.1:" in steps["openapi.check-live"]["calls"][0]["action"]


@pytest.mark.slow
def test_nothing_is_left_running_and_the_user_state_is_untouched(demo_run):
    steps, _, work, state = demo_run
    base_url = steps["demo.setup"]["calls"][0]["result"]["baseUrl"]
    assert port_is_closed(base_url), "the sample API still answers after the demo ended"
    assert list(state.iterdir()) == [], "the demo wrote into the user's state directory"
    temporary = Path(steps["demo.setup"]["calls"][0]["result"]["stateDir"])
    assert not temporary.exists(), "the demo's temporary state directory was not removed"
    assert sorted(p.name for p in work.iterdir()) == ["deskcheck-demo"]
    assert sorted(p.name for p in (work / "deskcheck-demo").iterdir()) == ["contract.docx", "contract.reviewed.docx"]
    assert sha256(work / "deskcheck-demo" / "contract.docx") == sha256(SAMPLE_CONTRACT)


@pytest.mark.slow
def test_the_reviewed_contract_opens_in_libreoffice_with_the_expected_changes(demo_run, needs_libreoffice):
    from tests.libreoffice import read_views

    _, _, work, _ = demo_run
    reviewed = work / "deskcheck-demo" / "contract.reviewed.docx"
    original = work / "deskcheck-demo" / "contract.docx"
    rejected, accepted = read_views([("reject", [reviewed, original]), ("accept", [reviewed])])
    accepted = accepted[str(reviewed)]
    assert all(row.get("ok", True) and "paragraphs" in row for row in [*rejected.values(), accepted])
    before = rejected[str(original)]["paragraphs"]
    assert rejected[str(reviewed)]["paragraphs"] == before, "rejecting every change does not give the original"

    expected = []
    for text in before:
        if "Consumer Prices Index" in text:
            continue  # clause 5.5, deleted
        text = text.replace("within thirty (30) days of receiving", "within forty-five (45) days of receiving")
        text = text.replace("forty-eight (48) hours", "twenty-four (24) hours")
        expected.append("9,000" if text == "9,500" else text)
        if "may use subcontractors only" in text:
            expected.append(NEW_CLAUSE)
    assert expected != before
    assert accepted["paragraphs"] == expected


# -- failures, Ctrl-C, options ------------------------------------------------------------------------


def test_a_failed_step_is_named_its_part_stops_and_the_others_still_run(tmp_path, monkeypatch, no_new_server_threads):
    from deskcheck.samples.records_api import SampleApi

    # The "other client" changes nothing, so the save that should be stale goes through.
    monkeypatch.setattr(SampleApi, "update_line", lambda self, *args, **kwargs: {})
    run = run_cli("demo", "--json", "--output-dir", str(tmp_path / "out"), expect=1)
    steps = {line["name"]: line for line in run.json_lines}
    assert steps["forms.conflict"]["ok"] is False
    assert (
        steps["forms.conflict"]["error"] == "sample_dataset_line_saveForm was expected to fail here, but it succeeded."
    )
    assert steps["forms.reload"]["skipped"] is True
    assert steps["forms.reload"]["error"] == "not run: forms.conflict failed."
    assert all(steps[name]["ok"] for name in STEP_NAMES if name.startswith(("docx.", "openapi.")))


def test_when_the_api_cannot_start_the_review_still_runs(tmp_path, monkeypatch):
    from deskcheck.samples.records_api import SampleApi, SampleApiError

    def refuse(self):
        raise SampleApiError("cannot listen on 127.0.0.1 port 0: no sockets here")

    monkeypatch.setattr(SampleApi, "start", refuse)
    run = run_cli("demo", "--json", "--output-dir", str(tmp_path / "out"), expect=1)
    steps = {line["name"]: line for line in run.json_lines}
    assert (
        steps["demo.setup"]["error"]
        == "the sample API cannot start: cannot listen on 127.0.0.1 port 0: no sockets here"
    )
    assert [n for n, s in steps.items() if s.get("skipped")] == [
        n for n in STEP_NAMES if n.startswith(("forms.", "openapi."))
    ]
    assert all(steps[n]["ok"] for n in STEP_NAMES if n.startswith("docx."))


def test_ctrl_c_stops_the_server_and_removes_the_temporary_state(tmp_path, monkeypatch, no_new_server_threads):
    from deskcheck.samples.demo import DemoOptions, run_demo
    from deskcheck.samples.demo.forms_part import FormsPart

    def interrupt(self, step):
        raise KeyboardInterrupt

    monkeypatch.setattr(FormsPart, "save", interrupt)
    seen = []
    with pytest.raises(KeyboardInterrupt):
        run_demo(DemoOptions(output_dir=tmp_path / "out"), seen.append)
    setup = seen[0].calls[0].result
    assert [step.name for step in seen] == STEP_NAMES[:6]
    assert port_is_closed(setup["baseUrl"])
    assert not Path(setup["stateDir"]).exists()

    # At the command line, Ctrl-C is exit code 130 with a word on stderr.
    run = run_cli("demo", "--json", "--output-dir", str(tmp_path / "out2"), expect=130)
    assert "interrupted: the sample API is stopped" in run.stderr


def test_state_dir_keeps_the_demo_sessions_there(tmp_path, isolated_state):
    from deskcheck.engine.forms.sessions.store import STORE_FILE

    kept = tmp_path / "kept"
    run_cli("demo", "--json", "--output-dir", str(tmp_path / "out"), "--state-dir", str(kept))
    assert (kept / STORE_FILE).is_file()
    assert list(isolated_state.iterdir()) == []


def test_on_a_terminal_the_steps_are_narrated(tmp_path, monkeypatch):
    from deskcheck.cli import env as cli_env
    from deskcheck.cli.commands import demo as demo_command

    out, err = io.StringIO(), io.StringIO()
    terminal = cli_env.Env(
        stdin=io.StringIO(), stdout=out, stderr=err, json_output=False, quiet=False, color=False, stdin_is_tty=False
    )
    monkeypatch.setattr(demo_command, "current_env", lambda: terminal)
    run_cli("demo", "--output-dir", str(tmp_path / "out"))
    text = out.getvalue()
    assert text.startswith("deskcheck demo: the whole main job on the shipped samples\n")
    for heading in ("1. Form sessions over the sample API", "2. A docx review", "3. Checking the x-agent"):
        assert heading in text
    assert "✓ Ask the API for suggestions and apply one" in text
    assert '  › sample_dataset_line_getFieldSuggestions {"path": "/departement", "query": "gironde"}' in text
    assert '    ok: false — "Edit a dataset record" changed at its source' in text
    assert "    ~ [2B165965] modified: The Customer shall pay each undisputed invoice within [-thirty (30)-]" in text
    assert f"All {len(STEP_NAMES) - 1} steps worked" in text
    assert f"deskcheck repl --docx {tmp_path / 'out' / 'contract.reviewed.docx'}" in text
    assert err.getvalue() == ""


def test_quiet_prints_nothing_but_the_failures(tmp_path, monkeypatch):
    from deskcheck.samples.records_api import SampleApi

    run = run_cli("demo", "--quiet", "--output-dir", str(tmp_path / "ok"))
    assert run.stdout == "" and run.stderr == ""
    monkeypatch.setattr(SampleApi, "update_line", lambda self, *args, **kwargs: {})
    run = run_cli("demo", "--quiet", "--output-dir", str(tmp_path / "failing"), expect=1)
    assert run.stdout == ""
    assert run.stderr == (
        "deskcheck demo: forms.conflict failed: sample_dataset_line_saveForm was expected to fail here, "
        "but it succeeded.\n"
    )


def test_an_output_folder_that_cannot_be_used_is_a_usage_error(tmp_path, no_new_server_threads):
    taken = tmp_path / "a-file"
    taken.write_text("not a folder")
    run = run_cli("demo", "--json", "--output-dir", str(taken), expect=2)
    assert run.json == {
        "ok": False,
        "error": f"--output-dir {taken}: this is a file, not a folder; give a folder you can write to.",
    }
