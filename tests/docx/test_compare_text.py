"""The comparison as text for a model (format_diff_for_llm), the compare_versions tool, and the
`deskcheck docx compare` verb."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deskcheck.engine.docx.tools.toolset import docx_toolset
from deskcheck.engine.docx.versions.compare import compare_versions
from deskcheck.engine.docx.versions.diff_report import format_diff_for_llm, shorten
from tests.conftest import REPO
from tests.docx.builders import make_docx, p
from tests.docx.version_pairs import WC, owned_versions
from tests.helpers import run_cli

CONTRACT = REPO / "samples" / "contract.docx"

LONG = "This paragraph is long enough that its unchanged words are shortened in the middle."


def _diff(changes=(), counts=None, **extra):
    base = {"added": 0, "deleted": 0, "modified": 0, "formatChanged": 0, "moved": 0, "unchanged": 2}
    return {"summaryCounts": {**base, **(counts or {})}, "changes": list(changes), "stories": [], **extra}


def test_the_reference_example_renders_line_for_line():
    diff = _diff(
        [
            {"type": "modified", "blockId": "00000002", "segments": [
                {"type": "equal", "text": "Beta "}, {"type": "del", "text": "paragraph."},
                {"type": "ins", "text": "clause."}]},
            {"type": "deleted", "blockId": "00000003", "text": "Gamma paragraph."},
            {"type": "added", "blockId": "00000006", "text": "Epsilon paragraph."},
            {"type": "formatChanged", "blockId": "00000007", "text": "Delta paragraph.",
             "changedProperties": ["bold", "color"]},
            {"type": "movedFrom", "blockId": "00000008", "text": "Zeta paragraph moved somewhere else.",
             "moveGroupId": 1},
            {"type": "movedTo", "blockId": "00000008", "text": "Zeta paragraph moved somewhere else.",
             "moveGroupId": 1},
        ],
        {"added": 1, "deleted": 1, "modified": 1, "formatChanged": 1, "moved": 1},
    )  # fmt: skip
    assert format_diff_for_llm(diff).splitlines() == [
        "Version diff: 1 added, 1 deleted, 1 modified, 1 format-changed, 1 moved, 2 unchanged",
        "~ [00000002] modified: Beta [-paragraph.-]{+clause.+}",
        "- [00000003] deleted: Gamma paragraph.",
        "+ [00000006] added: Epsilon paragraph.",
        "~ [00000007] format changed (bold, color): Delta paragraph.",
        "< [00000008] moved away (move 1): Zeta paragraph moved somewhere else.",
        "> [00000008] moved here (move 1): Zeta paragraph moved somewhere else.",
    ]


def test_long_unchanged_text_is_shortened_but_added_and_deleted_text_is_not():
    assert shorten(LONG) == LONG[:30] + "…" + LONG[-30:]
    assert shorten("x" * 61) == "x" * 61
    diff = _diff(
        [
            {"type": "modified", "blockId": "A", "segments": [{"type": "equal", "text": LONG},
                                                              {"type": "ins", "text": " More."}]},
            {"type": "added", "blockId": "B", "text": LONG},
        ]
    )  # fmt: skip
    lines = format_diff_for_llm(diff).splitlines()
    assert lines[1] == f"~ [A] modified: {shorten(LONG)}{{+ More.+}}"
    assert lines[2] == f"+ [B] added: {LONG}"


def test_metadata_and_privacy_lines():
    diff = _diff(
        counts={"metadataChanged": 1},
        metadataChanges=[{"property": "creator", "previousValue": "Ann", "currentValue": None}],
        privacyReport={"appliedTransforms": ["remove-timestamps"], "removed": []},
    )
    assert format_diff_for_llm(diff).splitlines() == [
        "Version diff: 0 added, 0 deleted, 0 modified, 0 format-changed, 0 moved, 1 metadata-changed, 2 unchanged",
        "Privacy transforms: remove-timestamps",
        "Removed metadata fields: none",
        '~ metadata.creator: "Ann" -> null',
    ]


OWNED_DIFF = [
    "Version diff: 5 added, 1 deleted, 3 modified, 1 format-changed, 1 moved, 91 unchanged",
    "< [14818E3A] moved away (move 1): Clause headings do not affect …erpretation of this Agreement.",
    "> [7D000002] moved here (move 1): Clause headings do not affect …erpretation of this Agreement.",
    "+ [7D000001] added: References to a clause are to a clause of this Agreement.",
    "+ [22A85CAB] (table 1, row 5, column 1) added: 4",
    "+ [0992BF54] (table 1, row 5, column 2) added: Hosting and support, each quarter",
    "+ [10398098] (table 1, row 5, column 3) added: Quarterly in advance",
    "+ [02A445FE] (table 1, row 5, column 4) added: 9,500",
    "~ [2B165965] modified: The Customer shall pay each undisputed invoice within [-thirty (30)-]{+forty-five (45)+}"
    " days of receiving it.",
    "- [464D8DE6] deleted: The Supplier may increase the hosting and support fee once a year, on the anniversary of"
    " the Effective Date, by no more than the annual change in the Consumer Prices Index.",
    "~ [7A154465] format changed (italic): The Customer may terminate thi…ed up to the termination date.",
    "In header rIdHeader1:",
    "~ [¶1] modified: {+Draft: +}Software Services Agreement · …rightwater Housing Association",
    "In footnote 1:",
    "~ [¶1] modified:  The [-statutory-]{+legal+} rate for late payment between…e date the payment became due.",
]


def test_the_owned_versions_read_as_a_reviewer_would_describe_them(tmp_path):
    """Every kind of change, a table cell's place and the header's and footnote's changes."""
    previous, current = owned_versions(tmp_path)
    assert format_diff_for_llm(compare_versions(previous, current)).splitlines() == OWNED_DIFF
    run = run_cli("docx", "compare", str(previous), str(current), "--format", "text")
    assert run.stdout.splitlines() == OWNED_DIFF, "the CLI prints the same text"
    tool = docx_toolset(current).call("compare_versions", {"previous": str(previous)})
    assert tool.ok and tool.value["diff"].splitlines() == OWNED_DIFF, "and so does the tool, on the open document"


@pytest.mark.corpus
def test_cells_and_notes_say_where_they_are():
    text = format_diff_for_llm(compare_versions(WC / "WC006-Table.docx", WC / "WC006-Table-Delete-Row.docx"))
    assert "- [4FB75938] (table 1, row 2, column 1) deleted: 333" in text.splitlines()
    text = format_diff_for_llm(compare_versions(WC / "WC034-Footnotes-Before.docx", WC / "WC034-Footnotes-After1.docx"))
    assert text.splitlines()[1:] == ["In footnote 1:", "~ [¶1] modified:  This is the {+new +}footnote."]


def test_truncation_stops_at_a_whole_line_and_says_what_was_left_out():
    changes = [{"type": "added", "blockId": f"{n:08X}", "text": f"Added paragraph number {n}."} for n in range(50)]
    changes += [{"type": "deleted", "blockId": "FFFFFFFF", "text": "Gone."}]
    diff = _diff(changes, {"added": 50, "deleted": 1})
    text = format_diff_for_llm(diff, max_chars=400)
    lines = text.splitlines()
    assert len(text) <= 400 + len(lines[-1]) + 1
    assert all(line.startswith("+ [") for line in lines[1:-1])
    shown = len(lines) - 2
    assert lines[-1].startswith(f"… {51 - shown} more changes not shown ({50 - shown} added, 1 deleted)")
    # Deterministic: the same comparison always gives the same text.
    assert format_diff_for_llm(diff, max_chars=400) == text


@pytest.mark.corpus
def test_a_real_comparison_renders_deterministically():
    diff = compare_versions(WC / "WC027-Twenty-Paras-Before.docx", WC / "WC027-Twenty-Paras-After-2.docx")
    again = compare_versions(WC / "WC027-Twenty-Paras-Before.docx", WC / "WC027-Twenty-Paras-After-2.docx")
    assert format_diff_for_llm(diff) == format_diff_for_llm(again)
    assert format_diff_for_llm(diff).splitlines()[0].startswith("Version diff: ")


# -- the tool ---------------------------------------------------------------------------------------


@pytest.mark.corpus
def test_the_tool_compares_the_open_document_with_an_earlier_version():
    tools = docx_toolset(WC / "WC001-Digits-Mod.docx")
    result = tools.call("compare_versions", {"previous": str(WC / "WC001-Digits.docx")})
    assert result.ok, result.error
    assert result.value["summaryCounts"]["modified"] == 2
    lines = result.value["diff"].splitlines()
    assert len(lines) == 3
    assert lines[1].endswith("] modified: [-12,34-]{+12,4+}")
    assert lines[2].endswith("] modified: [-Test.-]{+st.+}")
    structured = tools.call(
        "compare_versions",
        {"previous": str(WC / "WC001-Digits.docx"), "current": str(WC / "WC001-Digits-Mod.docx"), "format": "json"},
    )
    assert structured.ok and structured.value["changes"][0]["segments"][0] == {"type": "del", "text": "12,34"}


def test_the_tool_description_says_paths_are_the_hosts():
    (definition,) = [d for d in docx_toolset(None).definitions() if d["name"] == "compare_versions"]
    assert "resolved on the host" in definition["description"]
    assert definition["inputSchema"]["required"] == ["previous"]


@pytest.mark.parametrize(
    "args, message",
    [
        ({}, "needs `previous`"),
        ({"previous": ""}, "must be a file path"),
        ({"previous": "a.docx", "format": "yaml"}, "must be text or json"),
        ({"previous": "a.docx", "include": ["everything"]}, "include"),
    ],
)
def test_the_tool_explains_bad_arguments(args, message):
    result = docx_toolset(CONTRACT).call("compare_versions", args)
    assert not result.ok and message in result.error and not result.input_error


def test_the_tool_needs_current_without_an_open_document():
    result = docx_toolset(None).call("compare_versions", {"previous": str(CONTRACT)})
    assert not result.ok and "needs `current`" in result.error


def test_a_missing_file_is_an_input_error():
    result = docx_toolset(CONTRACT).call("compare_versions", {"previous": "/no/such/file.docx"})
    assert not result.ok and result.input_error and "does not exist" in result.error


# -- the CLI ------------------------------------------------------------------------------------------


@pytest.mark.corpus
def test_compare_prints_the_text_diff():
    run = run_cli("docx", "compare", str(WC / "WC006-Table.docx"), str(WC / "WC006-Table-Delete-Row.docx"),
                  "--format", "text")  # fmt: skip
    assert run.stdout.splitlines() == [
        "Version diff: 0 added, 2 deleted, 0 modified, 0 format-changed, 0 moved, 5 unchanged",
        "- [4FB75938] (table 1, row 2, column 1) deleted: 333",
        "- [26189C6D] (table 1, row 2, column 2) deleted: 444",
    ]


def test_compare_prints_the_structured_comparison_as_json(tmp_path):
    previous, current = owned_versions(tmp_path)
    envelope = run_cli("docx", "compare", str(previous), str(current)).json
    assert envelope["ok"] and envelope["result"]["summaryCounts"]["modified"] == 3
    assert run_cli("docx", "compare", str(previous), str(previous), "--format", "json").json["result"]["changes"] == []


def test_compare_exits_2_for_unreadable_inputs(tmp_path):
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    run = run_cli("docx", "compare", str(CONTRACT), str(broken), expect=2)
    assert run.json["ok"] is False and "broken.docx" in run.json["error"]
    run = run_cli("docx", "compare", str(tmp_path / "none.docx"), str(CONTRACT), expect=2)
    assert "does not exist" in run.json["error"]
    run_cli("docx", "compare", str(CONTRACT), str(CONTRACT), "--format", "xml", expect=2)


def test_compare_through_call_and_batch(tmp_path):
    previous = make_docx(tmp_path / "a.docx", p("Old words stay here."))
    current = make_docx(tmp_path / "b.docx", p("New words stay here."))
    run = run_cli("call", "--docx", str(current), "compare_versions", json.dumps({"previous": str(previous)}))
    assert run.json["result"]["diff"].endswith("modified: [-Old-]{+New+} words stay here.")
    line = json.dumps({"id": 7, "tool": "compare_versions", "args": {"previous": str(previous)}})
    (answer,) = run_cli("batch", "--docx", str(current), stdin=line + "\n").json_lines
    assert answer["id"] == 7 and answer["ok"] is True


def test_relative_paths_are_resolved_from_the_working_directory(tmp_path, monkeypatch):
    make_docx(tmp_path / "old.docx", p("First draft."))
    make_docx(tmp_path / "new.docx", p("Second draft."))
    monkeypatch.chdir(tmp_path)
    result = docx_toolset(Path("new.docx")).call("compare_versions", {"previous": "old.docx"})
    assert result.ok and result.value["summaryCounts"]["modified"] == 1
