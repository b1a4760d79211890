"""`openapi check --format sarif` judged by a validator nobody here wrote: Microsoft's SARIF
multitool (pinned in tests/openapi/sarif_multitool/package.json, installed by ``.ci/run`` with
``npm ci``) with its SARIF rules and the rules of GitHub Advanced Security's code scanning
(``validate --rule-kind "Sarif;Gh"``): every rule with a full description and help, every result
at a file with a region. Skipped where node or the package is missing, except in CI (CI=true)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from deskcheck.samples.records_api import openapi_path
from tests.absent import skip_or_fail
from tests.helpers import run_cli

pytestmark = pytest.mark.slow

FOLDER = Path(__file__).parent / "sarif_multitool"
PACKAGE = FOLDER / "node_modules" / "@microsoft" / "sarif-multitool"


@pytest.fixture
def multitool() -> str:
    """The multitool's executable for this platform (its npm wrapper hands the arguments to a
    shell, which would split "Sarif;Gh")."""
    problem = None
    if shutil.which("node") is None:
        problem = "node is not installed"
    elif not PACKAGE.is_dir():
        problem = f"the SARIF multitool is not installed: run npm ci --prefix {FOLDER}"
    if problem:
        skip_or_fail(problem)
    found = subprocess.run(
        ["node", "-p", f"require({json.dumps(str(PACKAGE))})"], capture_output=True, text=True, timeout=60
    )
    assert found.returncode == 0, found.stderr
    return found.stdout.strip()


def findings_document() -> dict:
    """A document with findings of many rules: the specification's, the x-agent vocabulary's,
    and one in another file."""
    ok = {"200": {"description": "ok"}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "x-agent": {"namePrefix": "Bad-Prefix"},
        "paths": {
            "/a/{id}": {"get": {"operationId": "same", "x-agent": {}, "responses": ok}},
            "/a/{name}": {
                "get": {
                    "operationId": "same",
                    "parameters": [
                        {"name": "name", "in": "path", "required": True, "schema": {"type": "integer", "default": "x"}}
                    ],
                    "responses": {"200": {"$ref": "other.json#/Missing"}},
                }
            },
        },
    }


def sarif_reports(folder: Path, monkeypatch) -> dict[str, tuple[list[str], int]]:
    """Each outcome: the command's arguments and its exit code."""
    monkeypatch.chdir(folder)
    (folder / "api.json").write_text(json.dumps(findings_document()), encoding="utf-8")
    (folder / "other.json").write_text("{}", encoding="utf-8")
    (folder / "empty.yaml").write_text("", encoding="utf-8")
    (folder / "garbled.yaml").write_text("openapi: 3.0.3\ninfo: [\n", encoding="utf-8")
    (folder / "a b:c").mkdir()
    (folder / "a b:c" / "api.json").write_text(json.dumps(findings_document()), encoding="utf-8")
    (folder / ".git").mkdir()
    (folder / ".deskcheck.toml").write_text('[openapi.check.severity]\ntag-duplicate = "warning"\n', "utf-8")
    return {
        "clean": ([str(openapi_path())], 0),  # an absolute path outside the working directory
        "findings": (["api.json"], 1),
        "spaced": (["a b:c/api.json"], 1),
        "empty": (["empty.yaml"], 2),
        "garbled": (["garbled.yaml"], 2),
        "missing": (["missing.yaml", "api.json"], 2),
        "bad option": (["api.json", "--severity", "nope=off"], 2),
    }


def test_sarif_passes_the_multitools_sarif_and_github_rules(multitool, tmp_path, monkeypatch):
    written = []
    rules = set()
    for outcome, (args, code) in sarif_reports(tmp_path, monkeypatch).items():
        report = run_cli("openapi", "check", *args, "--format", "sarif", expect=code).stdout
        path = tmp_path / f"{outcome.replace(' ', '-')}.sarif"
        path.write_text(report, encoding="utf-8")
        written.append(path)
        rules |= {rule["id"] for rule in json.loads(report)["runs"][0]["tool"]["driver"]["rules"]}
    assert len(rules) >= 7, rules  # the check is worth something only over many rules
    out = tmp_path / "validation.sarif"
    proc = subprocess.run(
        [multitool, "validate", "--rule-kind", "Sarif;Gh", "--output", str(out), *map(str, written)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0 and out.is_file(), proc.stdout + proc.stderr
    results = [result for run in json.loads(out.read_text(encoding="utf-8"))["runs"] for result in run["results"]]
    problems = [
        (result["ruleId"], result.get("level", "warning"), result["message"].get("text") or result["message"])
        for result in results
        if result.get("level", "warning") in ("error", "warning")
    ]
    assert problems == [], proc.stdout
