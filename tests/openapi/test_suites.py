"""`openapi check` beside openapi-spec-validator on documents of other projects' OpenAPI test suites
(Mermade's and the OAI's, pinned in tests/fixtures/openapi-suites, SOURCES.md there).

The gate's promise: every document the validator rejects exits 1, every document of a pass
suite exits 0, except the documents below, which the README's "Checking annotations in CI" names
with the rule and the reason. The validator runs here too (it is a dependency): an exception it
raises that is a bug of its own (a TypeError, a KeyError) is no verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.docs import page
from tests.helpers import run_cli

SUITES = REPO / "tests" / "fixtures" / "openapi-suites"
# Files a document refers to; not documents themselves.
PARTS = {
    "mermade/3.0/resources/include.yaml",
    "mermade/3.0/partial/cycledef.yaml",
    "mermade/3.0/pass/resolution/twolevel/subdir1/test.yaml",
    "mermade/3.0/pass/resolution/twolevel/subdir1/subdir2/ok.yaml",
}
# document -> (exit code, error rules, why it is not what its suite or the validator says)
EXCEPTIONS = {
    "mermade/3.0/pass/server_enum_unknown.yaml": (
        1,
        ["openapi-schema"],
        "filed under 3.0/pass, but OpenAPI 3.0 requires paths; the validator refuses it too",
    ),
    "mermade/3.0/pass/fiendish/ref-encoding3.yaml": (
        1,
        ["ref-unresolvable"],
        "a + in a URI fragment is a plus sign, not a space (RFC 3986, RFC 6901); the validator agrees",
    ),
    "mermade/3.0/pass/resolution/twolevel/index.yaml": (
        1,
        ["openapi-version"],
        "a Swagger 2.0 document: openapi check reads OpenAPI 3.x",
    ),
    "oai-3.1/pass/operation-object-example.yaml": (
        1,
        ["path-parameter-not-in-path", "path-parameter-undeclared"],
        "the OAI suite checks the JSON Schema only; the path's {id} has no parameter, which the "
        "specification requires (the validator agrees)",
    ),
    "oai-3.1/pass/parameter-object-examples.yaml": (
        1,
        ["path-parameter-not-in-path"],
        "the path item /user/{username} has no operation and a path parameter 'usernames' that names no "
        "template expression, which the specification forbids (Redocly's path-parameters-defined agrees)",
    ),
    "oai-3.1/pass/path_item_servers_parameters.yaml": (
        0,
        [],
        "valid: the validator's 3.1 schema of 2022-10-07 calls the Link Object's server 'body'",
    ),
    "oai-3.1/pass/json_schema_dialect.yaml": (0, [], "valid: the validator does not know the dialect"),
    "oai-3.2/pass/json_schema_dialect.yaml": (0, [], "valid: the validator does not know the dialect"),
    "mermade/3.0/malicious/yamlbomb.yaml": (2, ["document-unreadable"], "refused as a precaution (an alias loop)"),
    "mermade/3.0/fail/fuzz1/0e5805a8-5699-4428-9449-423c281d88c6.yaml": (
        0,
        [],
        "a URL format the validator accepts too: URI formats are not checked",
    ),
}
DOCUMENTS = sorted(
    path.relative_to(SUITES).as_posix()
    for path in SUITES.rglob("*")
    if path.suffix in (".yaml", ".json") and path.relative_to(SUITES).as_posix() not in PARTS
)


def validator_rejects(path: Path) -> bool | None:
    """True when openapi-spec-validator rejects the document, False when it accepts it, None when
    it cannot say (it does not read the file, or fails with an error of its own)."""
    from openapi_spec_validator import validate
    from openapi_spec_validator.readers import read_from_filename

    try:
        spec, base = read_from_filename(str(path))
    except Exception:
        return None
    try:
        validate(spec, base_uri=base)
    except (TypeError, KeyError, AttributeError, ValueError):
        return None
    except Exception:
        return True
    return False


def test_the_pinned_set_is_what_the_sources_list():
    listed = (SUITES / "SOURCES.md").read_text(encoding="utf-8")
    for document in [*DOCUMENTS, *PARTS]:
        assert f"`{document}`" in listed, document
    assert len(DOCUMENTS) > 50


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_check_agrees_with_the_validator_and_the_suite(document, monkeypatch):
    path = SUITES / document
    monkeypatch.chdir(path.parent)  # relative $refs as a user in that folder writes them
    run = run_cli("openapi", "check", path.name, "--format", "json", expect=None)
    findings = json.loads(run.stdout)["result"]["findings"]
    errors = sorted({f["rule"] for f in findings if f["severity"] == "error"})
    if document in EXCEPTIONS:
        code, rules, _ = EXCEPTIONS[document]
        assert (run.exit_code, errors) == (code, rules)
        return
    rejected = validator_rejects(path)
    if rejected:
        assert run.exit_code == 1, (errors, run.stdout)
    elif "/pass/" in document or document.startswith("oai-examples/"):
        assert run.exit_code == 0, run.stdout
    else:
        # A fail-suite document the validator accepts: caught here by a rule of ours.
        assert run.exit_code == 1 and errors, run.stdout


def test_the_readme_names_every_exception():
    readme = page("openapi-check.md")
    for document, (_, rules, _) in EXCEPTIONS.items():
        assert Path(document).name in readme, document
        for rule in rules:
            assert rule in readme, rule
