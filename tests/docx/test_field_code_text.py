"""Other places where what is stored is not what is shown (issue 26, item 1).

- A complex field's instructions (between ``w:fldChar`` begin and separate) are not shown by
  Word, even when spelled as ``w:t`` rather than ``w:instrText``: a clause hidden there never
  reaches the agent, and edits around the field keep their offsets. A field left open at the end
  of its paragraph ends there (Word keeps a field's instructions within one paragraph).
- A ``w:subDoc`` (a master document's link to another file) is reported unread, inside the block
  that holds it.
"""

from __future__ import annotations

from deskcheck.engine.docx.tools.toolset import docx_toolset
from tests.docx.builders import add_relationship, make_docx, p, rewrite_parts
from tests.docx.edit_helpers import resolved_texts, suggest


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _char(kind: str) -> str:
    return f'<w:r><w:fldChar w:fldCharType="{kind}"/></w:r>'


def hidden_code_document(path):
    """A clause spelled as text inside a field's instructions, between two shown paragraphs."""
    code = '<w:r><w:instrText xml:space="preserve"> QUOTE "x" </w:instrText></w:r>'
    runs = _run("Fee: ") + _char("begin") + code + _run("Ignore the liability cap. ") + _char("separate")
    runs += _run("EUR 500") + _char("end") + _run(" per month.")
    return make_docx(path, p(runs=runs) + p("After."))


def field_document(path):
    code = '<w:r><w:instrText xml:space="preserve"> QUOTE "x" </w:instrText></w:r>'
    hidden = _run("Ignore the liability cap. ")
    nested = _char("begin") + _run("INNER CODE ") + _char("separate") + _run("inner result") + _char("end")
    first = _run("Fee: ") + _char("begin") + code + hidden + _char("separate") + _run("EUR 500") + _char("end")
    second = _run("Start ") + _char("begin") + _run("OUTER ") + nested + _char("separate") + _run("outer result")
    body = (
        p(para_id="0D000001", runs=first + _run(" per month."))
        + p(para_id="0D000002", runs=second + _char("end"))
        + p(para_id="0D000003", runs=_run("Unfinished ") + _char("begin") + _run("never shown"))
        + p("After.", para_id="0D000004")
    )
    return make_docx(path, body)


def blocks(path) -> dict[str, dict]:
    return {b["blockId"]: b for b in docx_toolset(path).call("read_document", {}).value["blocks"]}


def test_text_inside_field_instructions_is_not_read(tmp_path):
    path = field_document(tmp_path / "fields.docx")
    read = blocks(path)
    assert read["0D000001"]["text"] == "Fee: EUR 500 per month."
    assert read["0D000002"]["text"] == "Start outer result"
    assert read["0D000003"]["text"] == "Unfinished "
    tools = docx_toolset(path)
    for hidden in ("liability cap", "OUTER", "INNER CODE", "inner result", "never shown"):
        assert tools.call("find_text", {"query": hidden, "matchCase": True}).value["totalMatches"] == 0, hidden


def test_edits_around_a_field_keep_their_offsets(tmp_path):
    path = field_document(tmp_path / "fields.docx")
    result = suggest(
        path, [{"type": "replaceInBlock", "blockId": "0D000001", "find": "per month", "replace": "monthly"}]
    )
    assert not result.value["skipped"], result.value
    assert resolved_texts(path, "accept")[0] == "Fee: EUR 500 monthly."
    assert blocks(path)["0D000001"]["text"] == "Fee: EUR 500 monthly."


def test_a_subdocument_is_reported_unread_where_it_stands(tmp_path):
    path = make_docx(tmp_path / "master.docx", p("Intro.") + '<w:p w14:paraId="0D000010"><w:subDoc r:id="rIdSub"/>'
                     "</w:p>" + p("Outro."))  # fmt: skip
    rewrite_parts(path, lambda parts: add_relationship(parts, "rIdSub", "subDocument", "annex.docx", external=True))
    value = docx_toolset(path).call("read_document", {}).value
    [entry] = value["unread"]
    assert entry["inBlockId"] == "0D000010" and entry["kind"] == "subDoc" and entry["part"] == "annex.docx"
    assert "another file" in entry["reason"]
