"""Tracked changes and comments outside the main text: read_changes lists the changes of headers,
footers and notes with their story handle, accept_change / reject_change resolve them by id in
their own story (an id two stories share must be named with its story), and read_comments gives
a comment anchored in a note or header its story and quote.

The documents are samples/contract.docx (a header, a footer and a footnote) with revisions
written into those parts here, and a small built document for comments."""

from __future__ import annotations

import zipfile
from pathlib import Path

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.review.revisions import resolve_file
from deskcheck.engine.docx.tools.toolset import docx_toolset
from tests.conftest import REPO
from tests.docx.builders import make_docx, p
from tests.helpers import run_cli

CONTRACT = REPO / "samples" / "contract.docx"
FOOTNOTE = {"type": "footnote", "noteId": 1}
HEADER = {"type": "header", "relationshipId": "rIdHeader1"}
FOOTNOTE_RUN = '<w:r><w:t xml:space="preserve"> The statutory rate'
HEADER_RUN = '<w:r><w:t xml:space="preserve">Software Services Agreement'
FOOTNOTE_TEXT = (
    "The statutory rate for late payment between businesses is 8% a year above the Bank of England base "
    "rate in force on the date the payment became due."
)
HEADER_TEXT = "Software Services Agreement · Halyard Software Ltd and Brightwater Housing Association"
STAMP = 'w:author="Ann Reviewer" w:date="2024-05-01T10:00:00Z"'


def ins(change_id: int, text: str) -> str:
    return f'<w:ins w:id="{change_id}" {STAMP}><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:ins>'


def dele(change_id: int, text: str) -> str:
    return f'<w:del w:id="{change_id}" {STAMP}><w:r><w:delText xml:space="preserve">{text}</w:delText></w:r></w:del>'


def footnote_replacement(deletion: int, insertion: int) -> tuple[str, str]:
    """Replace "The statutory" with "The legal" in footnote 1 (a deletion and an insertion)."""
    return FOOTNOTE_RUN, dele(deletion, " The statutory") + ins(
        insertion, " The legal"
    ) + '<w:r><w:t xml:space="preserve"> rate'


def header_insertion(change_id: int) -> tuple[str, str]:
    return HEADER_RUN, ins(change_id, "Draft: ") + HEADER_RUN


def second_footnote(change_id: int) -> tuple[str, str]:
    """A second footnote (listed by list_stories although the body does not refer to it)."""
    text = '<w:r><w:t xml:space="preserve">Second note </w:t></w:r>'
    note = f'<w:footnote w:id="2"><w:p>{text}{ins(change_id, "added")}</w:p></w:footnote>'
    return "</w:footnotes>", note + "</w:footnotes>"


def contract_with(path: Path, **edits: list[tuple[str, str]]) -> Path:
    """samples/contract.docx with string replacements in word/<part>.xml (``footnotes``,
    ``header1``, ``document``); each replaced string must be there."""
    with zipfile.ZipFile(CONTRACT) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            part = info.filename.removeprefix("word/").removesuffix(".xml")
            if info.filename.startswith("word/") and part in edits:
                xml = data.decode("utf-8")
                for old, new in edits[part]:
                    assert old in xml, (part, old)
                    xml = xml.replace(old, new, 1)
                data = xml.encode("utf-8")
            target.writestr(info, data)
    return path


def call(path: Path, tool: str, args: dict | None = None):
    return docx_toolset(path).call(tool, args or {})


def story_texts(path: Path) -> dict[str, str]:
    """The as-accepted text of every header, footer and note, by a readable name."""
    stories = call(path, "list_stories").value["stories"]
    return {
        f"{s['handle']['type']} {s['handle'].get('noteId') or s['handle'].get('relationshipId')}": s["text"]
        for s in stories[1:]
    }


def part_bytes(path: Path, name: str) -> bytes:
    with zipfile.ZipFile(path) as archive:
        return archive.read(name)


def test_read_changes_lists_every_story_main_first_with_handles(tmp_path):
    main_run = ins(40, " (signed copy)")
    path = contract_with(
        tmp_path / "all.docx",
        document=[("</w:p>", main_run + "</w:p>")],
        header1=[header_insertion(41)],
        footnotes=[footnote_replacement(42, 43)],
    )
    result = call(path, "read_changes").value
    changes = result["changes"]
    title = call(path, "read_document", {"maxBlocks": 1}).value["blocks"][0]
    # The main text's change first, in today's shape (no story key), then header, then footnote.
    assert changes[0] == {
        "id": "40",
        "type": "insertion",
        "author": "Ann Reviewer",
        "date": "2024-05-01T10:00:00Z",
        "text": " (signed copy)",
        "blockId": title["blockId"],
    }
    assert [(c["id"], c["type"], c["text"], c.get("story")) for c in changes[1:]] == [
        ("41", "insertion", "Draft: ", HEADER),
        ("42", "deletion", " The statutory", FOOTNOTE),
        ("43", "insertion", " The legal", FOOTNOTE),
    ]
    assert all(c["blockId"] is None for c in changes[1:])
    # The handles are the ones list_stories gives, in its order.
    listed = [s["handle"] for s in call(path, "list_stories").value["stories"]]
    assert listed.index(HEADER) < listed.index(FOOTNOTE)

    # Limiting to one story.
    only_note = call(path, "read_changes", {"story": FOOTNOTE}).value["changes"]
    assert [c["id"] for c in only_note] == ["42", "43"]
    assert call(path, "read_changes", {"story": {"type": "main"}}).value["changes"] == changes[:1]
    missing = call(path, "read_changes", {"story": {"type": "footnote", "noteId": 9}})
    assert not missing.ok and missing.code == "missingStory"
    bad = call(path, "read_changes", {"story": {"type": "footnote"}})
    assert not bad.ok and bad.code == "invalidArguments" and "noteId" in bad.error


def test_the_reported_gap_a_footnote_replacement_is_listed_at_the_cli(tmp_path):
    path = contract_with(tmp_path / "fn.docx", footnotes=[footnote_replacement(1, 2)])
    changes = run_cli("docx", "read-changes", str(path)).json["result"]["changes"]
    assert [(c["type"], c["story"]) for c in changes] == [("deletion", FOOTNOTE), ("insertion", FOOTNOTE)]


def test_accept_and_reject_by_id_resolve_in_their_own_story(tmp_path):
    path = contract_with(
        tmp_path / "notes.docx", header1=[header_insertion(41)], footnotes=[footnote_replacement(42, 43)]
    )
    main_before = part_bytes(path, "word/document.xml")
    accepted = run_cli("docx", "accept-change", str(path), '{"changeIds": ["42"]}').json["result"]
    assert accepted["resolved"] == [
        {"id": "42", "type": "deletion", "author": "Ann Reviewer", "text": " The statutory", "blockId": None,
         "story": FOOTNOTE}
    ]  # fmt: skip
    assert accepted["byKind"] == {"deletion": 1} and accepted["remaining"] == 2
    texts = story_texts(path)
    # Accepted deletion gone; the pending insertion still reads (as-accepted view).
    assert texts["footnote 1"] == FOOTNOTE_TEXT.replace("The statutory", "The legal")
    assert [c["id"] for c in call(path, "read_changes").value["changes"]] == ["41", "43"]

    rejected = run_cli("docx", "reject-change", str(path), '{"changeIds": [41, "43"]}').json["result"]
    assert [(r["id"], r["story"]) for r in rejected["resolved"]] == [("41", HEADER), ("43", FOOTNOTE)]
    assert rejected["byKind"] == {"insertion": 2} and rejected["remaining"] == 0
    texts = story_texts(path)
    assert texts["header rIdHeader1"] == HEADER_TEXT
    assert texts["footnote 1"] == FOOTNOTE_TEXT.replace("The statutory rate", "rate")
    assert call(path, "read_changes").value["changes"] == []
    # Only the story's part changed: the main text is byte-identical.
    assert part_bytes(path, "word/document.xml") == main_before


def test_an_id_two_stories_share_must_be_named_with_its_story(tmp_path):
    """Word can write the same revision id in the main text and a note, or in two notes of one
    part: an id alone is then refused (nothing written), and the story handle picks one."""
    path = contract_with(
        tmp_path / "shared.docx",
        document=[("</w:p>", ins(7, " (main)") + "</w:p>")],
        footnotes=[(FOOTNOTE_RUN, ins(7, " New:") + FOOTNOTE_RUN), second_footnote(7)],
        header1=[header_insertion(8)],
    )
    changes = call(path, "read_changes").value["changes"]
    assert [(c["id"], c.get("story")) for c in changes] == [
        ("7", None),
        ("8", HEADER),
        ("7", FOOTNOTE),
        ("7", {"type": "footnote", "noteId": 2}),
    ]
    before = path.read_bytes()
    refused = call(path, "accept_change", {"changeIds": ["7"]})
    assert refused.code == "ambiguousChange"
    assert all(name in refused.error for name in ("the main text", "footnote 1", "footnote 2", "`story`"))
    assert path.read_bytes() == before
    # At the CLI too: exit 1, the message, the file untouched.
    cli = run_cli("docx", "accept-change", str(path), '{"changeIds": ["7"]}', expect=1).json
    assert cli["error"] == refused.error and path.read_bytes() == before
    # An unknown id, beside one that names a single story, refuses the whole call.
    unknown = call(path, "accept_change", {"changeIds": ["8", "99"]})
    assert unknown.code == "missingChange" and "'99'" in unknown.error and path.read_bytes() == before
    # Named with a story, the id is looked up there only.
    wrong_story = call(path, "accept_change", {"changeIds": ["8"], "story": {"type": "footnote", "noteId": 2}})
    assert wrong_story.code == "missingChange" and "footnote 2" in wrong_story.error
    gone = call(path, "reject_change", {"changeIds": ["7"], "story": {"type": "endnote", "noteId": 1}})
    assert gone.code == "missingStory"
    malformed = call(path, "reject_change", {"changeIds": ["7"], "story": {"type": "header"}})
    assert malformed.code == "invalidArguments" and "relationshipId" in malformed.error
    assert path.read_bytes() == before

    second = '{"changeIds": ["7"], "story": {"type": "footnote", "noteId": 2}}'
    result = run_cli("docx", "reject-change", str(path), second).json["result"]
    assert [(r["id"], r["story"]) for r in result["resolved"]] == [("7", {"type": "footnote", "noteId": 2})]
    assert story_texts(path)["footnote 2"] == "Second note"
    assert story_texts(path)["footnote 1"].startswith("New: The statutory rate")  # untouched
    left = call(path, "read_changes").value["changes"]
    assert [(c["id"], c.get("story")) for c in left] == [("7", None), ("8", HEADER), ("7", FOOTNOTE)]

    main = run_cli("docx", "accept-change", str(path), '{"changeIds": ["7"], "story": {"type": "main"}}').json
    assert [r.get("story") for r in main["result"]["resolved"]] == [None]
    left = call(path, "read_changes").value["changes"]
    assert [(c["id"], c.get("story")) for c in left] == [("8", HEADER), ("7", FOOTNOTE)]
    # Now 7 is pending in one story only, so the id alone is enough.
    run_cli("docx", "accept-change", str(path), '{"changeIds": ["7", "8"]}')
    assert call(path, "read_changes").value["changes"] == []
    assert story_texts(path)["footnote 1"].startswith("New: The statutory rate")


def test_a_failed_write_leaves_the_file_as_it_was(tmp_path):
    path = contract_with(tmp_path / "fn.docx", footnotes=[footnote_replacement(1, 2)])
    before = path.read_bytes()
    missing_folder = tmp_path / "no-such-folder" / "out.docx"
    run_cli("docx", "accept-change", str(path), '{"changeIds": ["1"]}', "-o", str(missing_folder), expect=None)
    assert path.read_bytes() == before and not missing_folder.exists()
    dry = run_cli("docx", "accept-change", str(path), '{"changeIds": ["1"]}', "--dry-run").json["result"]
    assert dry["output"] is None and dry["resolved"][0]["story"] == FOOTNOTE and path.read_bytes() == before


SINGLE_CHANGES = {
    "footnote-deletion": {
        "footnotes": [(FOOTNOTE_RUN, dele(5, " The statutory") + '<w:r><w:t xml:space="preserve"> rate')]
    },
    "footnote-insertion": {"footnotes": [(FOOTNOTE_RUN, ins(5, " Note:") + FOOTNOTE_RUN)]},
    "header-insertion": {"header1": [header_insertion(5)]},
}


def single_change_outputs(folder: Path) -> dict[tuple[str, str], tuple[Path, Path]]:
    """For each document with one change outside the main text, and each mode: (the change
    resolved by id with the tool, the document resolved whole with resolve-all)."""
    outputs = {}
    for name, edits in SINGLE_CHANGES.items():
        source = contract_with(folder / f"{name}.docx", **edits)
        [change] = call(source, "read_changes").value["changes"]
        for mode in ("accept", "reject"):
            by_id = folder / f"{name}-{mode}-by-id.docx"
            run_cli("docx", f"{mode}-change", str(source), f'{{"changeIds": ["{change["id"]}"]}}', "-o", str(by_id))
            whole = folder / f"{name}-{mode}-all.docx"
            resolve_file(source, mode, output=whole)
            outputs[(name, mode)] = (by_id, whole)
    return outputs


def test_resolving_the_only_change_by_id_equals_resolving_all(tmp_path):
    for (name, mode), (by_id, whole) in single_change_outputs(tmp_path).items():
        assert story_texts(by_id) == story_texts(whole), (name, mode)
        assert call(by_id, "read_changes").value["changes"] == [], (name, mode)
        expected = story_texts(CONTRACT)
        if mode == "reject":
            assert story_texts(by_id) == expected, name
        assert DocxDocument.open(by_id).package.xml("word/document.xml") is not None


def test_libreoffice_opens_the_outputs_and_keeps_their_notes_and_headers(tmp_path, needs_libreoffice):
    """The LibreOffice judge reads only the body text (headers, footers and notes are out of its
    reach), so LibreOffice is asked two things here: its body paragraphs of each output equal its
    own accept-all / reject-all of the input (it opens the file and nothing leaked into the body);
    and the file it saves back from our output has the same header and footnote texts as ours,
    with no change pending (it read those parts as we wrote them)."""
    from tests.docx.edit_helpers import lo_texts
    from tests.libreoffice import read_views

    outputs = single_change_outputs(tmp_path)
    sources = sorted({tmp_path / f"{name}.docx" for name, _ in outputs})
    files = [by_id for by_id, _ in outputs.values()]
    asis, *resolved = read_views(
        [("asis", files), *((mode, sources) for mode in ("accept", "reject"))], save_to=tmp_path / "resaved"
    )
    resolved = dict(zip(("accept", "reject"), resolved, strict=True))
    for (name, mode), (by_id, _) in outputs.items():
        row = asis[str(by_id)]
        assert row["ok"], (name, mode, row.get("error"))
        assert lo_texts(row) == lo_texts(resolved[mode][str(tmp_path / f"{name}.docx")]), (name, mode)

    for (name, mode), (by_id, _) in outputs.items():
        again = Path(asis[str(by_id)]["saved"])
        # Header and footnote (the footer's page fields LibreOffice recomputes on saving).
        ours = {key.split()[0]: text for key, text in story_texts(by_id).items() if not key.startswith("footer")}
        theirs = {key.split()[0]: text for key, text in story_texts(again).items() if not key.startswith("footer")}
        assert theirs == ours, (name, mode)
        assert call(again, "read_changes").value["changes"] == [], (name, mode)


def comments_document(path: Path) -> Path:
    """Comment 0 on the body, 1 in the footnote (over a pending deletion), 2 in the header, 3
    anchored nowhere."""
    start, end = '<w:commentRangeStart w:id="{0}"/>', '<w:commentRangeEnd w:id="{0}"/>'
    reference = '<w:r><w:commentReference w:id="{0}"/></w:r>'
    run = '<w:r><w:t xml:space="preserve">{0}</w:t></w:r>'
    body = p(
        runs=run.format("Body ")
        + start.format(0)
        + run.format("commented")
        + end.format(0)
        + reference.format(0)
        + '<w:r><w:footnoteReference w:id="1"/></w:r>'
    )
    note_runs = (
        run.format("See ")
        + start.format(1)
        + run.format("noted ")
        + dele(9, "old ")
        + run.format("words")
        + end.format(1)
        + reference.format(1)
    )
    footnotes = f'<w:footnote w:id="1">{p(runs=note_runs)}</w:footnote>'
    header = p(runs=start.format(2) + run.format("Header line") + end.format(2) + reference.format(2))
    comment = '<w:comment w:id="{0}" w:author="Ann" w:date="2024-05-01T10:00:00Z">{1}</w:comment>'
    comments = "".join(comment.format(i, p(f"Remark {i}")) for i in range(4))
    return make_docx(path, body, footnotes=footnotes, header=header, comments=comments)


def test_comments_in_notes_and_headers_carry_their_story_and_quote(tmp_path):
    path = comments_document(tmp_path / "comments.docx")
    stories = {s["handle"]["type"]: s["handle"] for s in call(path, "list_stories").value["stories"]}
    comments = {c["id"]: c for c in call(path, "read_comments").value["comments"]}
    block = call(path, "read_document").value["blocks"][0]["blockId"]
    assert (comments["0"]["blockId"], comments["0"]["quote"], "story" in comments["0"]) == (block, "commented", False)
    note = comments["1"]
    assert (note["story"], note["blockId"], note["quote"], note["originalQuote"]) == (
        stories["footnote"],
        None,
        "noted words",
        "noted old words",
    )
    assert (comments["2"]["story"], comments["2"]["quote"]) == (stories["header"], "Header line")
    assert (comments["3"]["blockId"], comments["3"]["quote"], "story" in comments["3"]) == (None, "", False)
    # The change inside the footnote's comment range is listed with the same story handle.
    [change] = call(path, "read_changes").value["changes"]
    assert (change["id"], change["story"], change["text"]) == ("9", stories["footnote"], "old ")


def test_a_header_part_two_relationships_share_resolves_through_either_handle(tmp_path):
    """Word may point two sections' header references at one part: read_changes lists its
    changes once (under the first relationship), and a call through the second relationship
    resolves them and names them with the handle it was given."""
    one_rel = contract_with(tmp_path / "one.docx", header1=[header_insertion(41)])
    path = tmp_path / "shared.docx"
    rels = "word/_rels/document.xml.rels"
    second = HEADER | {"relationshipId": "rIdHeader2"}
    with zipfile.ZipFile(one_rel) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == rels:
                shared = (
                    '<Relationship Id="rIdHeader2" Type="http://schemas.openxmlformats.org/officeDocument/'
                    '2006/relationships/header" Target="header1.xml"/></Relationships>'
                )
                data = data.decode("utf-8").replace("</Relationships>", shared).encode("utf-8")
            target.writestr(info, data)
    changes = call(path, "read_changes").value["changes"]
    assert [(c["id"], c["story"]) for c in changes] == [("41", HEADER)]
    assert call(path, "read_changes", {"story": second}).value["changes"][0]["story"] == second

    result = call(path, "accept_change", {"changeIds": ["41"], "story": second})
    assert result.ok, result.error
    assert [(c["id"], c["text"], c["story"]) for c in result.value["resolved"]] == [("41", "Draft: ", second)]
    assert result.value["remaining"] == 0
    assert call(path, "read_changes").value["changes"] == []
    assert story_texts(path)["header rIdHeader1"].startswith("Draft: Software Services Agreement")
