"""Shell completion, through the protocol the shells use (`deskcheck --install-completion` installs
the script that speaks it): tool names per context, option values, profiles and editor groups of
the document on the line, block ids and field paths inside ARGS."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import REPO
from tests.helpers import run_process

CONTRACT = REPO / "samples" / "contract.docx"
SPEC = str(REPO / "samples" / "records_api" / "openapi.json")


def bash(line: str) -> list[str]:
    """What TAB offers at the end of ``line`` in bash."""
    words = line.split(" ")
    env = {"COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1), "_DESKCHECK_COMPLETE": "complete_bash"}
    return [item for item in run_process(env=env).stdout.splitlines() if item]


def zsh(line: str) -> str:
    """zsh's answer (an _arguments spec with each value and its description) for ``line``."""
    env = {"_TYPER_COMPLETE_ARGS": line, "_DESKCHECK_COMPLETE": "complete_zsh"}
    return run_process(env=env).stdout


@pytest.fixture
def docx(tmp_path):
    path = tmp_path / "contract.docx"
    shutil.copy(CONTRACT, path)
    return str(path)


@pytest.mark.slow
def test_tool_names_follow_the_context_on_the_line(docx, tmp_path):
    assert bash(f"deskcheck call --docx {docx} read_s") == ["read_section", "read_story"]
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"name": {"type": "string"}}}), encoding="utf-8")
    data.write_text('{"name": "Ann"}', encoding="utf-8")
    assert bash(f"deskcheck call --schema {schema} --data {data} form_get") == [
        "form_getData",
        "form_getFieldSuggestions",
    ]
    assert "sample_list_datasets" in bash(f"deskcheck call --spec {SPEC} sample_l")
    # A document behind a URL is never fetched to complete a word.
    assert bash("deskcheck call --spec http://127.0.0.1:9/openapi.json sample_") == []


@pytest.mark.slow
def test_option_values(docx):
    assert bash("deskcheck openapi check x.json --format ") == ["text", "json", "github", "sarif"]
    assert bash(f"deskcheck docx suggest-changes {docx} --mode ") == ["tracked-changes", "direct"]
    assert bash("deskcheck docx tools --format a") == ["anthropic"]
    assert bash(f"deskcheck docx compare {docx} {docx} --format ") == ["text", "json"]
    assert bash("deskcheck openapi check x.json --severity default-") == ["default-type-mismatch=", "default-invalid="]
    assert bash("deskcheck openapi check x.json --severity default-invalid=") == [
        "default-invalid=error",
        "default-invalid=warning",
        "default-invalid=off",
    ]


@pytest.mark.slow
def test_profiles_and_editor_groups_of_the_document_on_the_line():
    assert bash(f"deskcheck openapi tools {SPEC} --profile ") == ["read", "write"]
    assert bash(f"deskcheck openapi check {SPEC} --profile w") == ["write"]
    groups = bash(f"deskcheck form describe-state --spec {SPEC} --profile write sample_dataset_")
    assert groups == ["sample_dataset_new_line", "sample_dataset_line"]


@pytest.mark.slow
def test_block_ids_and_field_paths_inside_args(docx, tmp_path):
    offered = zsh(f'deskcheck docx find-text {docx} \'{{"blockId": "2B1')
    assert '""2B165965""' in offered and "pay each undisputed invoice" in offered
    schema, data = tmp_path / "s.json", tmp_path / "d.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"email": {"type": "string"}}}), encoding="utf-8")
    data.write_text("{}", encoding="utf-8")
    paths = zsh(f'deskcheck form set-field-value --schema {schema} --data {data} \'{{"path": "/e')
    assert '""/email""' in paths
    # Nothing is offered where the context is missing or unreadable.
    assert "blockId" not in zsh(f'deskcheck docx find-text {tmp_path / "missing.docx"} \'{{"blockId": "2')
