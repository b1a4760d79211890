"""A whole form session at the prompt over the sample API with `--spec SPEC NAME KEY=VALUE`:
the editor group's record is loaded over HTTP, edited (an invalid then a valid value, options
listed from the API and picked, a list item added), saved with its ETag; a concurrent change
makes the next save a conflict that keeps the edits, and reload gets the record as the API has
it. The session is the CLI's: `deskcheck form` sees the REPL's edits."""

from __future__ import annotations

import json

import pytest

from deskcheck.cli.context import ContextOptions
from tests.conftest import REPO
from tests.helpers import run_cli
from tests.repl.support import drive, lines

SPEC = REPO / "samples" / "records_api" / "openapi.json"
GROUP = "sample_dataset_line"
RECORD = ["id=associations", "lineId=asso-001"]


@pytest.fixture
def api_context(fresh_sample_api) -> tuple[ContextOptions, object]:
    api = fresh_sample_api
    context = ContextOptions(spec=str(SPEC), profiles=("write",), base_url=api.base_url, token=api.write_token)
    return context, api


@pytest.mark.slow
def test_a_full_session_over_the_api(api_context):
    context, api = api_context
    etag_before = api.line_etag("associations", "asso-001")
    run = drive(
        context,
        lines(
            "show /bureau",
            "set /nom X",
            "errors",
            "set /nom Les Voiles de Brest",
            "suggest /departement Fin",
            "pick 0",
            'add /bureau {"nom": "Anne Morvan"}',
            "suggest /bureau/2/fonction",
            "pick 3",
            "diff",
            "save",
            "status",
        ),
        positionals=[GROUP, *RECORD],
    )
    out = run.output
    assert run.code == 0, out
    assert 'Form "Edit a dataset record" id=associations lineId=asso-001: session ready, valid.' in out
    assert "Membres du bureau  /bureau  array, required, 2 items" in out
    assert "/nom: must be at least 2 characters long" in out
    assert "- [0] Finistère (29)" in out and '/departement (autocomplete) = {"code": "29", "nom": "Finistère"}' in out
    assert '/bureau/2/fonction (select) = "secrétariat"' in out
    assert '/nom: "Les Voiles de l\'Iroise" -> "Les Voiles de Brest"' in out
    assert 'Saved "Edit a dataset record" (version ' in out
    assert "· ready · valid · no unsaved edits" in out
    record = api.get_line("associations", "asso-001")
    assert record["nom"] == "Les Voiles de Brest"
    assert record["departement"] == {"code": "29", "nom": "Finistère"}
    assert record["bureau"][2] == {"nom": "Anne Morvan", "fonction": "secrétariat"}
    assert api.line_etag("associations", "asso-001") != etag_before


@pytest.mark.slow
def test_a_concurrent_change_is_a_conflict_and_reload_recovers(api_context):
    context, api = api_context
    first = drive(context, lines("set /statut en sommeil"), positionals=[GROUP, *RECORD])
    assert first.code == 0
    # The CLI works on the same session.
    cli = run_cli(
        "form",
        "describe-state",
        "--spec",
        str(SPEC),
        "--profile",
        "write",
        "--base-url",
        api.base_url,
        "--token",
        api.write_token,
        GROUP,
        json.dumps({"id": "associations", "lineId": "asso-001", "path": "/statut"}),
    ).json["result"]
    assert '"en sommeil"' in cli and "modified" in cli
    api.update_line("associations", "asso-001", {"email": "bureau@voiles-iroise.fr"})  # someone else saves
    run = drive(
        context,
        lines("save", "status", "reload", "get /email", "get /statut", "set /statut en sommeil", "save"),
        positionals=[GROUP, *RECORD],
    )
    out = run.output
    assert "Resuming 1 unsaved edit kept in the session (/statut)" in out
    assert "changed at its source since it was loaded" in out and "Your edits are still in the session (/statut)" in out
    assert "· stale · valid · unsaved edits" in out
    assert "local changes were discarded (/statut)" in out
    assert '"bureau@voiles-iroise.fr"' in out and '"active"' in run.after("Reloaded")
    assert 'Saved "Edit a dataset record" (version ' in run.after("Reloaded"), "re-applied and saved"
    record = api.get_line("associations", "asso-001")
    assert record["statut"] == "en sommeil" and record["email"] == "bureau@voiles-iroise.fr"


def test_a_record_that_cannot_be_loaded_is_reported_and_nothing_runs(sample_api):
    run = run_cli(
        "repl",
        "--spec",
        str(SPEC),
        "--profile",
        "write",
        "--base-url",
        sample_api.base_url,
        "--token",
        sample_api.write_token,
        GROUP,
        "id=associations",
        "lineId=no-such-line",
        stdin="status\n",
        expect=1,
    )
    assert 'could not open "Edit a dataset record" id=associations lineId=no-such-line:' in run.stderr
    assert "404" in run.stderr or "not found" in run.stderr.lower()
    assert "· ready" not in run.stdout


@pytest.mark.slow
def test_a_failed_or_timed_out_save_keeps_the_edits(fresh_sample_api):
    api = fresh_sample_api
    context = ContextOptions(
        spec=str(SPEC), profiles=("write",), base_url=api.base_url, token=api.write_token, timeout=1.0
    )
    api.fail_next("PUT", status=500, message="the database is read-only today")
    first = drive(context, lines("set /statut en sommeil", "save", "status", "diff"), positionals=[GROUP, *RECORD])
    assert "the database is read-only today" in first.output and "Your edits are still in the session" in first.output
    assert "· error · valid · unsaved edits" in first.output
    assert '/statut: "active" -> "en sommeil"' in first.output
    api.hang_next("PUT", seconds=5.0)
    second = drive(context, lines("save", "status"), positionals=[GROUP, *RECORD])
    assert "Your edits are still in the session" in second.output and "unsaved edits" in second.output
    third = drive(context, lines("save"), positionals=[GROUP, *RECORD])
    assert 'Saved "Edit a dataset record"' in third.output
    assert api.get_line("associations", "asso-001")["statut"] == "en sommeil"
