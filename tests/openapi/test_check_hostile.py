"""`openapi check`, `openapi tools` and `call --spec` on documents written to attack their reader:
strings that would run as GitHub workflow commands or drive the terminal, values no output can
carry, and a configuration file planted above the repository."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_cli

# A line break then a workflow command, an SGR sequence, an OSC title sequence ended by BEL, and a
# right-to-left override: each one must reach the reader as visible escapes.
HOSTILE = "x\n::error file=INJECTED.md,line=1::pwned\x1b[31m\x1b]0;evil\x07\u202e"


def hostile_document() -> dict:
    operation = {"operationId": HOSTILE, "responses": {"200": {"description": "ok"}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/a": {"get": operation}, "/b\x1b[2J": {"get": dict(operation)}},
    }


def write(path, document) -> str:
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def assert_inert(output: str) -> None:
    """No line a CI runner would execute, and nothing a terminal would obey."""
    assert not any(line.lstrip().startswith("::error file=INJECTED") for line in output.splitlines()), output
    assert "\x1b" not in output and "\x07" not in output and "\u202e" not in output, output


def test_document_strings_in_the_text_report_are_escaped(tmp_path):
    out = run_cli("openapi", "check", write(tmp_path / "api.json", hostile_document()), expect=1).stdout
    assert_inert(out)
    assert "operationId 'x\\n::error file=INJECTED.md,line=1::pwned\\x1b[31m\\x1b]0;evil\\x07\\u202e'" in out
    assert "at /paths/~1b\\x1b[2J/get/operationId" in out


def test_github_annotations_are_one_line_per_finding_with_escaped_properties(tmp_path):
    folder = tmp_path / "a,b:c"
    folder.mkdir()
    path = write(folder / "api%.json", hostile_document())
    lines = run_cli("openapi", "check", path, "--format", "github", expect=1).stdout.splitlines()
    assert_inert("\n".join(lines))
    [annotation] = lines  # the duplicate operationId, nothing else
    assert annotation.startswith("::error file=") and "a%2Cb%3Ac/api%25.json," in annotation
    assert "pwned\\x1b[31m" in annotation


def test_the_terminal_view_and_the_tools_error_are_escaped(tmp_path):
    document = hostile_document()
    document["paths"]["/a"]["get"]["x-agent"] = {"bogus\x1b]0;evil\x07": 1}
    path = write(tmp_path / "api.json", document)
    shown = run_cli("openapi", "check", path, expect=1, terminal=True)
    # The view draws its own colours with escape sequences; the document's OSC title sequence and
    # BEL never get through.
    assert "\x1b]0;evil" not in shown.stdout and "\x07" not in shown.stdout and "\u202e" not in shown.stdout
    for terminal in (False, True):
        failed = run_cli("openapi", "tools", path, expect=2, terminal=terminal)
        assert_inert(failed.stderr)
        assert "cannot be loaded as tools" in failed.stderr


# -- values no output can carry ----------------------------------------------------------------------

HEAD_JSON = '{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},\n'
HEAD_YAML = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n'
UNREPRESENTABLE = {
    "integer.json": (HEAD_JSON + '"x-n": ' + "9" * 5000 + "}", "an integer of 5,000 digits", 2),
    "integer.yaml": (HEAD_YAML + "x-n: " + "9" * 5000 + "\n", "an integer of 5,000 digits", 4),
    "hexadecimal.yaml": (HEAD_YAML + "x-n: 0x" + "f" * 5000 + "\n", "an integer too long to write out", 4),
    "infinity.json": (HEAD_JSON + '"x-n": [1, 1e999]}', "the number 1e999", 2),
    "nan.json": (HEAD_JSON + '"x-n": NaN}', "NaN, which is not JSON", 2),
    "infinity.yaml": (HEAD_YAML + "x-n: [1, .inf]\n", "the number inf", 4),
    "surrogate.json": (HEAD_JSON + '"x-n": {"k": "a\\ud800b"}}', "a lone surrogate (\\ud800) at /x-n/k", 2),
}


@pytest.mark.parametrize("name", sorted(UNREPRESENTABLE))
def test_a_value_no_output_can_carry_is_an_unreadable_document_in_every_format(tmp_path, name):
    text, words, line = UNREPRESENTABLE[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    envelope = json.loads(run_cli("openapi", "check", str(path), "--format", "json", expect=2).stdout)
    [finding] = envelope["result"]["findings"]
    assert finding["rule"] == "document-unreadable" and words in finding["message"], finding
    assert finding["line"] == line
    sarif = json.loads(run_cli("openapi", "check", str(path), "--format", "sarif", expect=2).stdout)
    assert sarif["runs"][0]["results"][0]["ruleId"] == "document-unreadable"
    for fmt in ("text", "github"):
        assert words.replace("\\", "\\") in run_cli("openapi", "check", str(path), "--format", fmt, expect=2).stdout
    assert words in run_cli("openapi", "tools", str(path), expect=2).stderr
    called = run_cli("call", "--spec", str(path), "anything", "{}", expect=2).json
    assert called["ok"] is False and words in called["error"]


def test_a_long_integer_key_is_read_as_its_text(tmp_path):
    # As a mapping key, a number is a name (OpenAPI keys are strings): too long to convert, its
    # text is kept.
    path = tmp_path / "keys.yaml"
    path.write_text(HEAD_YAML + "x-n:\n  ? 0x" + "f" * 5000 + "\n  : 1\n  ? " + "9" * 5000 + "\n  : 2\n", "utf-8")
    run_cli("openapi", "check", str(path))


# -- the configuration file ---------------------------------------------------------------------------

DUPLICATE = {
    "openapi": "3.0.3",
    "info": {"title": "t", "version": "1"},
    "paths": {
        "/a": {"get": {"operationId": "same", "responses": {"200": {"description": "ok"}}}},
        "/b": {"get": {"operationId": "same", "responses": {"200": {"description": "ok"}}}},
    },
}
SILENCE = '[openapi.check.severity]\noperation-id-duplicate = "off"\n'


def test_a_configuration_above_the_repository_is_not_read(tmp_path, monkeypatch):
    repository = tmp_path / "workspace" / "repo"
    (repository / ".git").mkdir(parents=True)
    (repository / "api").mkdir()
    (tmp_path / "workspace" / ".deskcheck.toml").write_text(SILENCE, encoding="utf-8")  # planted above
    write(repository / "api" / "api.json", DUPLICATE)
    monkeypatch.chdir(repository / "api")
    envelope = json.loads(run_cli("openapi", "check", "api.json", "--format", "json", expect=1).stdout)
    assert envelope["result"]["configuration"] is None
    assert "configuration:" not in run_cli("openapi", "check", "api.json", expect=1).stdout
    # The repository's own file, at its root, is read and named in every report.
    (repository / ".deskcheck.toml").write_text(SILENCE, encoding="utf-8")
    envelope = json.loads(run_cli("openapi", "check", "api.json", "--format", "json").stdout)
    assert envelope["result"]["configuration"] == str(repository / ".deskcheck.toml")
    assert f"configuration: {repository / '.deskcheck.toml'}\n" in run_cli("openapi", "check", "api.json").stdout
    sarif = json.loads(run_cli("openapi", "check", "api.json", "--format", "sarif").stdout)
    [configuration] = sarif["runs"][0]["artifacts"]
    assert configuration["roles"] == ["userSpecifiedConfiguration"]
    assert configuration["location"]["uri"].endswith("/repo/.deskcheck.toml")


def test_outside_a_repository_only_the_working_directory_is_searched(tmp_path, monkeypatch):
    from deskcheck.engine.openapi.check.check_config import search_path

    if any((folder / ".git").exists() for folder in tmp_path.parents):
        pytest.skip(f"{tmp_path} is inside a git repository")
    (tmp_path / ".deskcheck.toml").write_text(SILENCE, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub" / "api.json", DUPLICATE)
    monkeypatch.chdir(tmp_path / "sub")
    assert search_path(tmp_path / "sub") == [tmp_path / "sub"]
    run_cli("openapi", "check", "api.json", expect=1)
    monkeypatch.chdir(tmp_path)
    assert "configuration: .deskcheck.toml\n" in run_cli("openapi", "check", "sub/api.json").stdout


# -- values that cost memory ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_document_of_tiny_values_is_refused_before_it_is_built(fmt):
    # YAML without aliases had no bound at all: 4 MB of "0," composed 2 million nodes (760 MiB),
    # 20 MB five times that. The composer now stops at the bound.
    from deskcheck.engine.errors import InputError
    from deskcheck.engine.openapi.document.source import parse_text

    values = "[" + "0," * 1_000 + "0]"
    text = HEAD_JSON + f'"x-n": {values}}}' if fmt == "json" else HEAD_YAML + f"x-n: {values}\n"
    with pytest.raises(InputError, match="holds more than 900 values"):
        parse_text(text, location="api", format=fmt, max_values=900)
    assert parse_text(text, location="api", format=fmt, max_values=1_100).values > 1_000


def test_the_files_a_document_refers_to_share_one_budget_of_values(tmp_path, monkeypatch):
    from deskcheck.engine.openapi.document import documents

    monkeypatch.setattr(documents, "MAX_TOTAL_VALUES", 2_500)
    for index in range(4):
        write(
            tmp_path / f"part{index}.json", {"P": {"type": "array", "items": {"type": "integer"}, "x-n": [0] * 1_000}}
        )
    schemas = {f"S{index}": {"$ref": f"part{index}.json#/P"} for index in range(4)}
    document = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}
    document["components"] = {"schemas": schemas}
    envelope = json.loads(
        run_cli("openapi", "check", write(tmp_path / "api.json", document), "--format", "json", expect=0).stdout
    )
    # Two files are read; the last two would take the files past the budget: not followed (a
    # warning), not unreadable.
    findings = envelope["result"]["findings"]
    assert [(f["rule"], f["pointer"]) for f in findings] == [
        ("ref-not-followed", "/components/schemas/S2/$ref"),
        ("ref-not-followed", "/components/schemas/S3/$ref"),
    ]
    assert all("would hold more than 104,857,600 bytes or 2,500 values" in f["message"] for f in findings)


def test_a_report_lists_so_many_findings_errors_first_and_counts_the_rest(tmp_path, monkeypatch):
    # A million failing examples cost about a minute and 2 GB to place and print; a report stops
    # at MAX_FINDINGS (here 20), errors first, and says how many more there are.
    from deskcheck.engine.openapi.check import check

    monkeypatch.setattr(check, "MAX_FINDINGS", 20)
    properties = {f"p{n}": {"type": "integer", "example": "x"} for n in range(30)}
    document = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}
    document["components"] = {"schemas": {"S": {"type": "object", "properties": properties, "default": []}}}
    envelope = json.loads(
        run_cli("openapi", "check", write(tmp_path / "api.json", document), "--format", "json", expect=1).stdout
    )
    findings = envelope["result"]["findings"]
    assert len(findings) == 21
    [limit] = [f for f in findings if f["rule"] == "findings-limit"]
    assert limit["severity"] == "warning" and limit["message"].startswith("11 more findings (0 errors) are not listed")
    # The one error (a default of another type) is listed, whatever its place.
    assert [f["rule"] for f in findings if f["severity"] == "error"] == ["default-type-mismatch"]
