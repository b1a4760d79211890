"""Did-you-mean at every level a person can mistype (issue 29, item 2): commands at the top and
one level down, option names, option values, JSON argument keys, field paths and profiles."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO
from tests.helpers import run_cli

CONTRACT = REPO / "samples" / "contract.docx"
SPEC = REPO / "samples" / "records_api" / "openapi.json"


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["dmeo"], "No such command 'dmeo'. Did you mean 'demo'?"),
        (["repll"], "No such command 'repll'. Did you mean 'repl'?"),
        (["hlep"], "Did you mean 'help'?"),
        (["docx", "compar"], "Did you mean 'compare'"),
        (["form", "descibe-state"], "Did you mean 'describe-state'?"),
    ],
)
def test_a_mistyped_command_names_the_close_ones(argv, hint):
    run = run_cli(*argv, expect=2)
    assert run.stdout == "" and hint in run.stderr


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["form", "describe-state", "--shema", "s.json"], "No such option: --shema. Did you mean --schema?"),
        (["docx", "compare", "a.docx", "b.docx", "--formt", "text"], "Did you mean --format?"),
        (["docx", "suggest-changes", str(CONTRACT), "--autor", "Ann"], "Did you mean --author?"),
    ],
)
def test_a_mistyped_option_names_the_close_one(argv, hint):
    run = run_cli(*argv, expect=2)
    assert run.stdout == "" and hint in run.stderr and "Possible options" not in run.stderr


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["--mode", "trackd"], "'trackd' is not one of tracked-changes, direct. Did you mean tracked-changes?"),
        (["--review-meta", "requird"], "Did you mean required?"),
        (["--operation-types", "replaceInBlok"], "Did you mean replaceInBlock"),
    ],
)
def test_a_mistyped_option_value_names_the_close_one(argv, hint, tmp_path):
    run = run_cli("docx", "suggest-changes", str(CONTRACT), *argv, "-o", str(tmp_path / "o.docx"), "{}", expect=2)
    assert run.stdout == "" and hint in run.stderr and run.stderr.startswith("Usage: deskcheck docx suggest-changes")


def test_a_mistyped_argument_key_names_the_close_one():
    run = run_cli("docx", "read-document", str(CONTRACT), '{"maxBlock": 3}', expect=2)
    assert run.json["error"] == (
        "read_document does not take maxBlock. Did you mean maxBlocks? It accepts afterBlockId, maxBlocks."
    )


def test_a_mistyped_field_path_names_the_close_one(tmp_path):
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"email": {"type": "string"}}}), encoding="utf-8")
    data.write_text("{}", encoding="utf-8")
    args = json.dumps({"path": "/emial", "value": "ann@example.org"})
    run = run_cli("form", "set-field-value", "--schema", str(schema), "--data", str(data), args, expect=1)
    assert 'no field at "/emial". Did you mean "/email"?' in run.json["error"]


def test_a_group_or_tool_of_another_profile_says_which_profile_to_add():
    group = run_cli("form", "describe-state", "--spec", str(SPEC), "sample_dataset_line", "{}", expect=2)
    assert "in the loaded profile(s) read. It is in the profile write: add `--profile write`." in group.json["error"]
    tool = run_cli("call", "--spec", str(SPEC), "sample_dataset_line_saveForm", "{}", expect=2)
    assert "It is in the profile write: add `--profile write`." in tool.json["error"]
    typo = run_cli(
        "form", "describe-state", "--spec", str(SPEC), "--profile", "write", "sample_dataset_lin", "{}", expect=2
    )
    assert "Did you mean sample_dataset_line" in typo.json["error"]


def test_close_matches_are_the_closest_only():
    from deskcheck.engine.close_matches import close_matches, did_you_mean

    assert close_matches("maxBlock", ["afterBlockId", "maxBlocks"]) == ["maxBlocks"]
    assert close_matches("MAXBLOCKS", ["maxBlocks"]) == ["maxBlocks"]
    assert close_matches("xml", ["text", "json"]) == []
    assert did_you_mean("dirct", ["tracked-changes", "direct"], quote="'") == " Did you mean 'direct'?"
    assert did_you_mean("x", []) == ""


@pytest.mark.parametrize("argv", [["-V"], ["--version"]])
def test_short_version_flag(argv):
    from deskcheck.engine import __version__

    assert run_cli(*argv).stdout == f"deskcheck {__version__}\n"


def test_help_command_shows_a_command_s_help():
    assert run_cli("help").stdout == run_cli("--help").stdout
    shown = run_cli("help", "docx", "compare").stdout
    assert shown.startswith("Usage: deskcheck docx compare") and shown == run_cli("docx", "compare", "--help").stdout
