"""The suggest_changes contract: lenient decoding reported in `normalizations`, caps, the host's
options shaping the schema and the executor alike, the capabilities text, the result envelope,
dry runs and outputs, and the CLI flags on `docx suggest-changes`, `call --docx` and `docx tools`.
A call that fails leaves the input byte-identical."""

from __future__ import annotations

import json
import random

import pytest
from jsonschema import Draft202012Validator

from deskcheck.engine.docx.edit import registry
from deskcheck.engine.docx.edit.limits import MAX_STRING_LENGTH
from deskcheck.engine.docx.edit.options import SuggestOptions
from deskcheck.engine.docx.edit.schema import capabilities_text, suggest_changes_schema
from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.tools.toolset import DocxOptions, docx_toolset
from deskcheck.engine.errors import InputError
from deskcheck.engine.providers import subset_violations
from tests.conftest import CORPUS
from tests.docx.edit_batches import TYPES, operation_for
from tests.docx.edit_helpers import ORIGINAL_TEXTS, block_texts, build_document, suggest
from tests.helpers import run_cli

REPLACE = {"type": "replaceInBlock", "blockId": "0A000009", "find": "Last", "replace": "Final"}


@pytest.fixture
def rich(tmp_path):
    return build_document(tmp_path / "rich.docx")


def failed(path, args, **options) -> str:
    """A call that must fail as a whole, leaving the file untouched; returns the message."""
    before = path.read_bytes()
    result = suggest(path, args, **options)
    assert not result.ok
    assert path.read_bytes() == before
    return result.error


# -- decoding ----------------------------------------------------------------------------------


def test_lenient_decoding_is_reported(rich):
    ops = [
        json.dumps({"kind": "replaceInBlock", "blockId": "0A000009", "find": "Last", "replace": "Final"}),
        {"type": "deleteBlock", "blockId": "0A000005", "text": "not for deleteBlock", "comment": {"text": "Gone."}},
        {"id": 7, "type": "insertAfterBlock", "blockId": "0A000001", "text": "x",
         "precondition": "h" + "0"},  # a bare hash
    ]  # fmt: skip
    ops[2]["precondition"] = DocxDocument.open(rich).block("0A000001").hash
    value = suggest(rich, ops).value
    assert value["skipped"] == [] and len(value["applied"]) == 3
    codes = [(n["path"], n["code"]) for n in value["normalizations"]]
    assert codes == [
        ("operations[0]", "operationFromJsonString"),
        ("operations[0].kind", "kindAsType"),
        ("operations[1].text", "droppedProperty"),
        ("operations[1].comment", "commentObject"),
        ("operations[2].id", "idAsString"),
        ("operations[2].precondition", "preconditionString"),
    ]
    assert all(n["message"] for n in value["normalizations"])
    assert value["applied"][2] == {"id": "7"}


def test_a_single_operation_object_and_a_json_string_array_are_read(rich):
    value = suggest(rich, {"operations": REPLACE}).value
    assert value["normalizations"][0]["code"] == "singleOperation" and len(value["applied"]) == 1
    value = suggest(rich, {"operations": json.dumps([dict(REPLACE, find="paragraph", replace="line")])}).value
    assert value["normalizations"][0]["code"] == "operationsFromJsonString" and len(value["applied"]) == 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"operations": []}, "empty"),
        ({"operations": "nope"}, "array"),
        ({"operations": [42]}, "operations[0] must be an operation object"),
        ({"operations": [{"blockId": "x"}]}, "has no `type`"),
        ({"operations": [{"type": "explode", "blockId": "x"}]}, "not an operation type"),
        ({"operations": [{"type": "replaceInBlock", "blockId": "x", "find": "a", "replace": "b", "kind": "x"}]},
         "both `type`"),
        ({"operations": [{"type": "replaceInBlock", "blockId": "x", "find": "a"}]}, "needs `replace`"),
        ({"operations": [{"type": "replaceInBlock", "blockId": "x", "find": "", "replace": "b"}]}, "must not be empty"),
        ({"operations": [{"type": "splitBlock", "blockId": "x", "offset": -1}]}, "between 0"),
        ({"operations": [{"type": "formatRange", "range": {"blockId": "x", "startOffset": 2, "endOffset": 1,
                                                            "selectedTextHash": "h1"}, "formatting": {"bold": True}}]},
         "greater than startOffset"),
        ({"operations": [{"type": "formatRange", "range": {"blockId": "x", "startOffset": 0, "endOffset": 1,
                                                            "selectedTextHash": "h1"}, "formatting": {}}]},
         "at least one of bold"),
        ({"operations": [{"type": "setBlockParagraphProperties", "blockId": "x"}]}, "at least one of styleId"),
        ({"operations": [{"type": "setBlockParagraphProperties", "blockId": "x",
                          "numbering": {"kind": "reference", "numId": 1, "fromBlockId": "y"}}]}, "exactly one"),
        ({"operations": [{"type": "setBlockParagraphProperties", "blockId": "x",
                          "indentation": {"firstLine": 1, "hanging": 2}}]}, "both firstLine and hanging"),
        ({"operations": [dict(REPLACE, id="same"), dict(REPLACE, id="same", replace="Other")]}, "also the id"),
        ({"operations": [dict(REPLACE, comment="   ")]}, "must not be blank"),
        ({"operations": [dict(REPLACE, precondition={"blockTextHash": "nothash"})]}, "blockTextHash"),
        ({"operations": [REPLACE], "extra": 1}, "does not take extra"),
        ({"operations": [REPLACE], "documentVersion": 5}, "documentVersion must be"),
    ],
)  # fmt: skip
def test_malformed_calls_fail_whole(rich, args, fragment):
    message = failed(rich, args)
    if (
        args["operations"]
        and isinstance(args["operations"], list)
        and args["operations"][0]
        == {
            "type": "insertTable",
            "blockId": "x",
        }
    ):
        if registry.is_available("insertTable"):
            pytest.skip("insertTable is implemented now; its own tests cover it")
        assert "not implemented" in message
    else:
        assert fragment in message, message


def test_caps(rich):
    assert "100,000-character limit" in failed(rich, [dict(REPLACE, replace="x" * (MAX_STRING_LENGTH + 1))])
    many = [dict(REPLACE, id=f"op{i}", replace="x" * 99_000) for i in range(21)]
    assert "2,000,000-character limit" in failed(rich, many, max_operations=50)
    within = [
        {"type": "commentOnBlock", "blockId": "0A000002", "comment": "x" * 50_000, "id": f"c{i}"} for i in range(10)
    ]
    assert suggest(rich, within, operation_types=("commentOnBlock",)).ok
    assert "over this host's limit of 3" in failed(
        rich, [dict(REPLACE, id=f"o{i}") for i in range(4)], max_operations=3
    )


def test_options_enable_types_and_require_review_metadata_and_the_version(rich):
    assert "not enabled here" in failed(rich, [REPLACE], operation_types=("deleteBlock",))
    assert "commentOnBlock" not in SuggestOptions.build().operation_types  # add_comment covers it
    assert "needs `severity`" in failed(rich, [REPLACE], review_meta="required")
    value = suggest(rich, [dict(REPLACE, severity="high", area="wording")], review_meta="required").value
    assert value["receipts"][0]["severity"] == "high" and value["receipts"][0]["area"] == "wording"
    assert "requires `documentVersion`" in failed(rich, [REPLACE], require_document_version=True)
    version = DocxDocument.open(rich).version
    value = suggest(rich, {"operations": [dict(REPLACE, find="Final", replace="Last")], "documentVersion": version},
                    require_document_version=True).value  # fmt: skip
    assert len(value["applied"]) == 1 and value["documentVersion"] != version


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"operation_types": ("explode",)}, "not a suggest_changes operation type"),
        ({"review_meta": "sometimes"}, "reviewMeta"),
        ({"max_operations": 0}, "between 1 and 200"),
        ({"max_operations": 201}, "between 1 and 200"),
        ({"mode": "suggested"}, "mode"),
    ],
)
def test_bad_options_are_input_errors(options, fragment):
    with pytest.raises(InputError) as raised:
        SuggestOptions.build(**options)
    assert fragment in raised.value.message


# -- the schema and the executor agree ----------------------------------------------------------


def test_schema_follows_the_options():
    options = SuggestOptions.build(("replaceInBlock", "deleteBlock"), "required", 7, True)
    schema = suggest_changes_schema(options)
    assert subset_violations(schema) == []
    item = schema["properties"]["operations"]["items"]
    assert item["properties"]["type"]["enum"] == ["replaceInBlock", "deleteBlock"]
    assert item["required"] == ["type", "severity", "area"]
    assert schema["properties"]["operations"]["maxItems"] == 7
    assert schema["required"] == ["operations", "documentVersion"]
    assert "range" not in item["properties"] and "find" in item["properties"]
    full = suggest_changes_schema(SuggestOptions.build())
    assert full["required"] == ["operations"] and full["properties"]["operations"]["maxItems"] == 50
    assert subset_violations(full) == []


@pytest.mark.corpus
def test_generated_operations_pass_both_the_schema_and_the_decoder():
    """Valid operations of every type, for several documents, validate against the advertised
    schema and decode; the schema refuses a type the host did not enable, as the executor does."""
    from deskcheck.engine.docx.edit.decode import decode_batch

    options = SuggestOptions.build(TYPES)
    validator = Draft202012Validator(suggest_changes_schema(options))
    for name in ("folio/contract-stella-style.docx", "folio/sample.docx"):
        doc = DocxDocument.open(CORPUS / name)
        rnd = random.Random(1)
        ops = [op for kind in TYPES for op in [operation_for(doc, kind, rnd)] if op is not None]
        args = {"operations": ops}
        assert list(validator.iter_errors(args)) == []
        assert len(decode_batch(args, options).operations) == len(ops)
    narrow = SuggestOptions.build(("deleteBlock",))
    args = {"operations": [REPLACE]}
    assert list(Draft202012Validator(suggest_changes_schema(narrow)).iter_errors(args))
    with pytest.raises(Exception, match="not enabled"):
        decode_batch(args, narrow)


def test_capabilities_text_comes_from_the_same_specs():
    text = capabilities_text(SuggestOptions.build(("replaceInBlock", "splitBlock"), "required", 9, True))
    assert "at most 9 operations" in text and "must carry `severity`" in text and "Echo `documentVersion`" in text
    assert "- replaceInBlock:" in text and "- splitBlock:" in text and "- deleteBlock:" not in text
    assert "offset (required)" in text
    default = capabilities_text(SuggestOptions.build())
    for kind in SuggestOptions.build().operation_types:
        assert f"- {kind}: {registry.get_spec(kind).summary}" in default
    tool = docx_toolset(None, DocxOptions(max_operations=9)).get("suggest_changes")
    assert tool.description == capabilities_text(SuggestOptions.build(max_operations=9))


# -- the result envelope, dry runs and outputs ---------------------------------------------------


def test_envelope_shape_and_input_order(rich):
    ops = [
        dict(REPLACE, id="z"),
        {"id": "a", "type": "insertBeforeBlock", "blockId": "0A000001", "text": "First"},
        {"id": "m", "type": "deleteBlock", "blockId": "NOPE0000"},
    ]
    value = suggest(rich, ops).value
    assert set(value) == {"version", "mode", "status", "applied", "skipped", "replayed", "receipts", "normalizations",
                          "documentVersion", "output"}  # fmt: skip
    assert value["status"] == "applied" and value["mode"] == "tracked-changes" and value["version"] == 1
    assert [a["id"] for a in value["applied"]] == ["z", "a"]
    assert [(r["operationId"], r["operationIndex"]) for r in value["receipts"]] == [("z", 0), ("a", 1)]
    assert value["skipped"] == [{"id": "m", "code": "missingBlock", "reason": value["skipped"][0]["reason"]}]
    assert value["output"] == str(rich) and value["documentVersion"] == DocxDocument.open(rich).version


def test_dry_run_reports_and_writes_nothing(rich):
    before = rich.read_bytes()
    value = suggest(rich, [REPLACE, {"type": "deleteBlock", "blockId": "NOPE0000"}], dry_run=True).value
    assert (
        value["status"] == "previewed" and len(value["applied"]) == 1 and value["skipped"][0]["code"] == "missingBlock"
    )
    assert value["receipts"][0]["affected"][0]["effect"] == "updated"
    assert value["output"] is None and value["documentVersion"] == DocxDocument.open(rich).version
    assert rich.read_bytes() == before


def test_output_file_leaves_the_input_alone(tmp_path, rich):
    before = rich.read_bytes()
    out = tmp_path / "out.docx"
    value = suggest(rich, [REPLACE], output=out).value
    assert value["output"] == str(out) and rich.read_bytes() == before
    assert block_texts(out)[-1] == "Final paragraph."
    assert value["documentVersion"] == DocxDocument.open(out).version
    # Nothing applied but an output asked for: an unchanged copy.
    other = tmp_path / "copy.docx"
    value = suggest(rich, [{"type": "deleteBlock", "blockId": "NOPE0000"}], output=other).value
    assert other.read_bytes() == before and value["output"] == str(other)


def test_direct_mode(rich):
    value = suggest(rich, [REPLACE], mode="direct").value
    assert value["mode"] == "direct"
    from deskcheck.engine.docx.review.changes import read_changes

    assert [c for c in read_changes(DocxDocument.open(rich)) if c["author"] == "deskcheck"] == []
    assert block_texts(rich) == [*ORIGINAL_TEXTS[:-1], "Final paragraph."]


def test_author_is_stamped(rich):
    suggest(rich, [REPLACE], author="Jane Reviewer")
    from deskcheck.engine.docx.review.changes import read_changes

    authors = {c["author"] for c in read_changes(DocxDocument.open(rich))}
    assert authors == {"Jane Reviewer", "Other"}


# -- the CLI -------------------------------------------------------------------------------------


def test_cli_suggest_changes_with_flags(tmp_path, rich):
    args = json.dumps({"operations": [dict(REPLACE, severity="low", area="style")]})
    out = tmp_path / "out.docx"
    run = run_cli(
        "docx", "suggest-changes", str(rich), args, "--mode", "direct",
        "--operation-types", "replaceInBlock,deleteBlock", "--review-meta", "required", "--max-operations", "3",
        "--author", "CLI", "-o", str(out),
    )  # fmt: skip
    result = run.json["result"]
    assert result["mode"] == "direct" and result["output"] == str(out) and len(result["applied"]) == 1
    refused = run_cli("docx", "suggest-changes", str(rich), args, "--operation-types", "deleteBlock", expect=1)
    assert "not enabled" in refused.json["error"]
    run_cli("docx", "suggest-changes", str(rich), args, "--max-operations", "500", expect=2)
    bad = run_cli("docx", "suggest-changes", str(rich), args, "--operation-types", "explode", expect=2)
    assert bad.stdout == "" and "'explode' is not a suggest_changes operation type" in bad.stderr


def test_cli_call_docx_accepts_the_same_flags(rich):
    args = json.dumps({"operations": [REPLACE]})
    run = run_cli("call", "--docx", str(rich), "suggest_changes", args, "--require-document-version", expect=1)
    assert "documentVersion" in run.json["error"]
    run = run_cli("call", "--docx", str(rich), "suggest_changes", args, "--dry-run", "--review-meta", "optional")
    assert run.json["result"]["status"] == "previewed"


def test_cli_bad_input_exits_2_and_leaves_the_file(rich):
    before = rich.read_bytes()
    run_cli("docx", "suggest-changes", str(rich), "{not json", expect=2)
    run_cli("docx", "suggest-changes", str(rich.with_name("missing.docx")), "{}", expect=2)
    run = run_cli("docx", "suggest-changes", str(rich), json.dumps({"operations": []}), expect=1)
    assert "empty" in run.json["error"]
    assert rich.read_bytes() == before


def test_cli_docx_tools_follow_the_flags():
    run = run_cli("docx", "tools", "--operation-types", "deleteBlock,splitBlock", "--max-operations", "5",
                  "--review-meta", "required", "--require-document-version")  # fmt: skip
    exported = json.loads(run.stdout)  # an exporter: the definitions themselves, no envelope
    tool = next(t for t in exported if t["name"] == "suggest_changes")
    schema = tool["inputSchema"]
    assert schema["properties"]["operations"]["items"]["properties"]["type"]["enum"] == ["deleteBlock", "splitBlock"]
    assert schema["properties"]["operations"]["maxItems"] == 5 and schema["required"] == [
        "operations",
        "documentVersion",
    ]
    names = [t["name"] for t in exported]
    assert {"suggest_changes", "add_comment", "reply_comment", "resolve_comment"} <= set(names)
    text = run_cli("docx", "tools", "--capabilities", "--operation-types", "splitBlock").stdout
    assert text.startswith("suggest_changes proposes edits") and "- splitBlock:" in text and "- deleteBlock" not in text
    run_cli(
        "docx", "tools", "--operation-types", "insertTable", expect=2 if not registry.is_available("insertTable") else 0
    )
    anthropic = json.loads(run_cli("docx", "tools", "--format", "anthropic", "--mode", "direct").stdout)
    assert any(t["name"] == "suggest_changes" and "directly" in t["description"] for t in anthropic)


def test_the_static_definition_names_the_same_arguments_as_the_shaped_schema():
    """Unknown arguments are refused against the static definition (so that a read command never
    builds suggest_changes' schema): it must name exactly the shaped schema's arguments."""
    from deskcheck.engine.docx.tools.tooldefs import DOCX_TOOL_SPECS

    spec = next(s for s in DOCX_TOOL_SPECS if s.name == "suggest_changes")
    for options in (SuggestOptions.build(), SuggestOptions.build(("deleteBlock",), "required", 3, True)):
        assert set(spec.input_schema["properties"]) == set(suggest_changes_schema(options)["properties"])
