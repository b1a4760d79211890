"""The review author set once (issue 29, item 4): --author, else DESKCHECK_AUTHOR, else `author`
in the project's .deskcheck.toml (or pyproject.toml's [tool.deskcheck]), else in the user's
configuration file, else the engine's default."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import REPO
from tests.helpers import run_cli

OPS = json.dumps({"operations": [{"type": "deleteBlock", "blockId": "464D8DE6", "comment": "Why?"}]})


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A working directory with the sample contract, an empty user configuration directory and no
    DESKCHECK_AUTHOR."""
    work = tmp_path / "project"
    work.mkdir()
    shutil.copy(REPO / "samples" / "contract.docx", work / "contract.docx")
    monkeypatch.chdir(work)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("DESKCHECK_AUTHOR", raising=False)
    return work


def _signed(*extra: str) -> set[str]:
    """The authors of the changes and comments a review writes with ``extra`` options."""
    run_cli("docx", "suggest-changes", "contract.docx", "-o", "out.docx", *extra, OPS)
    changes = run_cli("docx", "read-changes", "out.docx").json["result"]["changes"]
    comments = run_cli("docx", "read-comments", "out.docx").json["result"]["comments"]
    return {item["author"] for item in [*changes, *comments]}


def _user_config(tmp_path, text: str) -> None:
    folder = tmp_path / "config" / "deskcheck"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(text, encoding="utf-8")


def test_without_settings_the_engine_default_signs(project):
    assert _signed() == {"deskcheck"}


def test_each_setting_and_what_wins(project, tmp_path, monkeypatch):
    _user_config(tmp_path, 'author = "User File"\n')
    assert _signed() == {"User File"}
    (project / ".deskcheck.toml").write_text('author = "Project File"\n', encoding="utf-8")
    assert _signed() == {"Project File"}
    monkeypatch.setenv("DESKCHECK_AUTHOR", "From Env")
    assert _signed() == {"From Env"}
    assert _signed("--author", "On The Line") == {"On The Line"}


def test_the_project_file_is_found_from_a_subdirectory_and_in_pyproject(project, monkeypatch):
    (project / "pyproject.toml").write_text('[tool.deskcheck]\nauthor = "Py Project"\n', encoding="utf-8")
    sub = project / "docs"
    sub.mkdir()
    shutil.copy(project / "contract.docx", sub / "contract.docx")
    monkeypatch.chdir(sub)
    # Outside a repository only the working directory is read (the file openapi check reads:
    # one planted in a parent folder must not sign the review)...
    assert _signed() == {"deskcheck"}
    # ...inside one, the search goes up to its root.
    (project / ".git").mkdir()
    assert _signed() == {"Py Project"}


def test_redline_and_the_repl_use_the_configured_author(project, monkeypatch):
    monkeypatch.setenv("DESKCHECK_AUTHOR", "Jane Doe")
    run_cli("docx", "suggest-changes", "contract.docx", "--mode", "direct", "-o", "v2.docx", OPS)
    run_cli("docx", "redline", "contract.docx", "v2.docx", "-o", "red.docx")
    changes = run_cli("docx", "read-changes", "red.docx").json["result"]["changes"]
    assert changes and {change["author"] for change in changes} == {"Jane Doe"}
    run_cli("repl", "--docx", "contract.docx", "-o", "repl.docx", stdin="delete 464D8DE6\napply\nsave\n")
    changes = run_cli("docx", "read-changes", "repl.docx").json["result"]["changes"]
    assert changes and {change["author"] for change in changes} == {"Jane Doe"}


@pytest.mark.parametrize(
    ("where", "text", "message"),
    [
        ("project", 'author = "a\\u0001b"\n', "cannot store"),
        ("project", "author = 3\n", "must be a name"),
        ("project", "author = [unclosed\n", "is not valid TOML"),
        ("user", 'author = ""\n', "must be a name"),
    ],
)
def test_a_bad_setting_is_bad_usage_naming_its_file(project, tmp_path, where, text, message):
    if where == "project":
        (project / ".deskcheck.toml").write_text(text, encoding="utf-8")
    else:
        _user_config(tmp_path, text)
    before = (project / "contract.docx").read_bytes()
    run = run_cli("docx", "suggest-changes", "contract.docx", OPS, expect=2)
    assert message in run.json["error"] and (
        "config.toml" in run.json["error"] or ".deskcheck.toml" in run.json["error"]
    )
    assert (project / "contract.docx").read_bytes() == before


def test_a_bad_environment_author_is_refused_naming_the_variable(project, monkeypatch):
    monkeypatch.setenv("DESKCHECK_AUTHOR", "a\x1bb")
    run = run_cli("docx", "suggest-changes", "contract.docx", OPS, expect=2)
    assert run.json["error"].startswith("the author set in $DESKCHECK_AUTHOR holds the character U+001B")
