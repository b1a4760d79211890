"""Data-bound content controls: the agent reads the value Word shows (issue 26, item 1).

A content control with ``w:dataBinding`` shows the value of a node of the custom XML data store,
not the runs stored in it, which may be stale ("EUR 10" where the person sees "EUR 1,000,000").
Reads give the store's value and mark it (``bound``, ``boundRanges``), compare and redline see
a change made only in the store, and edits to bound text are refused (``boundContent``).
"""

from __future__ import annotations

import shutil

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.tools.toolset import docx_toolset
from deskcheck.engine.docx.versions.compare import compare_versions, read_version
from deskcheck.engine.docx.versions.redline import redline_files
from tests.conftest import REPO
from tests.docx.builders import add_custom_xml, bound_control, make_docx, p, rewrite_parts
from tests.docx.edit_helpers import resolved_texts, suggest

STORE = "{5D7BA57F-1E52-4637-9F82-2D4025768D4F}"
NS = "xmlns:ns0='urn:example:deal'"
FIXTURE = REPO / "tests" / "fixtures" / "docx" / "docx4j-binding-simple.docx"


def deal(price: str = "EUR 1,000,000", party: str = "New Party Ltd", date: str = "2024-03-05T00:00:00") -> str:
    return (
        f"<deal xmlns='urn:example:deal'><price>{price}</price><party>{party}</party><date>{date}</date>"
        "<kind>b</kind><flag>true</flag><empty/></deal>"
    )


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def bound(name: str, stored: str, **options) -> str:
    return bound_control(f"/ns0:deal[1]/ns0:{name}[1]", stored, store=STORE, mappings=NS, **options)


DATE = '<w:date w:fullDate="2020-01-01T00:00:00Z"><w:dateFormat w:val="d MMMM yyyy"/><w:lid w:val="en-GB"/></w:date>'
LIST = (
    '<w:dropDownList><w:listItem w:displayText="Buyer" w:value="b"/>'
    '<w:listItem w:displayText="Seller" w:value="s"/></w:dropDownList>'
)
CHECKBOX = (
    '<w14:checkbox><w14:checked w14:val="0"/><w14:checkedState w14:val="2612"/>'
    '<w14:uncheckedState w14:val="2610"/></w14:checkbox>'
)


def contract(path, store_xml: str | None = None, *, body: str | None = None):
    """A contract whose every kind of bound control holds stale stored text."""
    body = body or (
        p(para_id="0C000001", runs=_run("Price: ") + bound("price", "EUR 10") + _run(" in total."))
        + bound("party", "Old Party", block=True).replace("<w:p>", '<w:p w14:paraId="0C000002">')
        + p(para_id="0C000003", runs=_run("Signed on ") + bound("date", "1 January 2020", kind=DATE))
        + p(para_id="0C000004", runs=_run("Role: ") + bound("kind", "Seller", kind=LIST))
        + p(para_id="0C000005", runs=bound("flag", "\u2610", kind="", extra=CHECKBOX) + _run(" VAT applies"))
        + "<w:tbl><w:tr>"
        + f"<w:tc>{p(para_id='0C000006', runs=_run('Cell: ') + bound('price', 'EUR 10'))}</w:tc>"
        + f"<w:sdt><w:sdtPr>{_binding('party')}<w:text/></w:sdtPr><w:sdtContent><w:tc>"
        + p("Old Party in a cell", para_id="0C000007")
        + "</w:tc></w:sdtContent></w:sdt></w:tr></w:tbl>"
        + p(para_id="0C000008", runs=_run("Nothing here: ") + bound("missing", "stale but shown"))
        + p("Closing.", para_id="0C000009")
    )
    make_docx(path, body)
    return rewrite_parts(path, lambda parts: add_custom_xml(parts, 1, STORE, store_xml or deal()))


def _binding(name: str) -> str:
    return f'<w:dataBinding w:prefixMappings="{NS}" w:xpath="/ns0:deal[1]/ns0:{name}[1]" w:storeItemID="{STORE}"/>'


def blocks(path) -> dict[str, dict]:
    result = docx_toolset(path).call("read_document", {})
    assert result.ok, result.error
    return {b["blockId"]: b for b in result.value["blocks"]}


def texts(path) -> list[str]:
    return [b["text"] for b in blocks(path).values()]


def test_bound_controls_read_the_data_store(tmp_path):
    path = contract(tmp_path / "c.docx")
    assert texts(path) == [
        "Price: EUR 1,000,000 in total.",
        "New Party Ltd",
        "Signed on 5 March 2024",
        "Role: Buyer",
        "\u2612 VAT applies",
        "Cell: EUR 1,000,000",
        "New Party Ltd",
        "Nothing here: stale but shown",
        "Closing.",
    ]
    read = blocks(path)
    assert read["0C000001"]["bound"] is True
    assert read["0C000001"]["boundRanges"] == [{"startOffset": 7, "endOffset": 20, "source": "dataStore"}]
    assert read["0C000002"]["boundRanges"] == [{"startOffset": 0, "endOffset": 13, "source": "dataStore"}]
    # A binding that finds nothing shows the stored text, and says so.
    assert read["0C000008"]["boundRanges"] == [{"startOffset": 14, "endOffset": 29, "source": "storedText"}]
    assert "bound" not in read["0C000009"]


def test_find_text_finds_the_value_the_person_sees(tmp_path):
    path = contract(tmp_path / "c.docx")
    tools = docx_toolset(path)
    found = tools.call("find_text", {"query": "EUR 1,000,000"}).value
    assert found["totalMatches"] == 2 and all(match["bound"] for match in found["matches"])
    assert tools.call("find_text", {"query": "EUR 10 "}).value["totalMatches"] == 0
    assert tools.call("find_text", {"query": "Old Party"}).value["totalMatches"] == 0


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("2024-03-05", "Signed on 5 March 2024"),
        ("2020-01-01T09:30:00Z", "Signed on 1 January 2020"),  # the stored rendering of that very day
        ("next Tuesday", "Signed on next Tuesday"),  # not a date: shown as it is
        ("2024-13-45", "Signed on 2024-13-45"),
    ],
)
def test_a_date_control_shows_its_value_in_its_picture(tmp_path, value, shown):
    path = contract(tmp_path / "c.docx", deal(date=value))
    assert blocks(path)["0C000003"]["text"] == shown


def test_date_pictures():
    from datetime import datetime

    from deskcheck.engine.docx.model.date_pictures import format_date

    moment = datetime(2024, 3, 5, 14, 7, 9)
    assert format_date(moment, "dddd, d MMMM yyyy") == "Tuesday, 5 March 2024"
    assert format_date(moment, "dd/MM/yy") == "05/03/24"
    assert format_date(moment, "M/d/yyyy h:mm am/pm") == "3/5/2024 2:07 pm"
    assert format_date(moment, "'Day' d 'of' MMM, HH:mm:ss") == "Day 5 of Mar, 14:07:09"
    assert format_date(moment, None) == "2024-03-05"


@pytest.mark.parametrize(
    "xpath",
    [
        "//ns0:price",  # descendant axis: not what Word writes
        "/ns0:deal[1]/ns0:price[position()=1]",  # a function in a predicate
        "/ns0:deal[1]/ns0:price[1] | /ns0:deal[1]/ns0:party[1]",
        "/ns9:deal[1]/ns0:price[1]",  # an undeclared prefix
        "count(/ns0:deal)",
        "/ns0:deal[1]/ns0:price[2]",  # no such node
    ],
)
def test_paths_outside_words_subset_or_matching_nothing_show_the_stored_text(tmp_path, xpath):
    control = bound_control(xpath, "EUR 10", store=STORE, mappings=NS)
    path = contract(tmp_path / "c.docx", body=p(para_id="0C000001", runs=_run("Price: ") + control))
    block = blocks(path)["0C000001"]
    assert block["text"] == "Price: EUR 10"
    assert block["boundRanges"][0]["source"] == "storedText"


def test_store_lookup_ignores_case_and_falls_back_to_any_part(tmp_path):
    lower = bound_control("/ns0:deal[1]/ns0:price[1]", "x", store=STORE.lower(), mappings=NS)
    unnamed = bound_control("/ns0:deal[1]/ns0:party[1]", "x", mappings=NS)
    other = bound_control("/ns0:deal[1]/ns0:party[1]", "x", store="{00000000-0000-0000-0000-000000000000}", mappings=NS)
    attribute = bound_control("/ns0:deal[1]/@currency", "x", store=STORE, mappings=NS)
    body = "".join(p(runs=control) for control in (lower, unnamed, other, attribute))
    store = deal().replace("<deal ", "<deal currency='EUR' ")
    assert texts(contract(tmp_path / "c.docx", store, body=body)) == ["EUR 1,000,000", "New Party Ltd",
                                                                         "New Party Ltd", "EUR"]  # fmt: skip


def test_a_binding_to_the_core_properties(tmp_path):
    mappings = (
        "xmlns:ns0='http://purl.org/dc/elements/1.1/' "
        "xmlns:ns1='http://schemas.openxmlformats.org/package/2006/metadata/core-properties'"
    )
    control = bound_control("/ns1:coreProperties[1]/ns0:title[1]", "Old title", mappings=mappings,
                            store="{6C3C8BC8-F283-45AE-878A-BAB7291924A1}")  # fmt: skip
    path = make_docx(tmp_path / "core.docx", p(runs=control))

    def edit(parts):
        parts["docProps/core.xml"] = (
            b'<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
            b'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Master Services '
            b"Agreement</dc:title></cp:coreProperties>"
        )
        parts["_rels/.rels"] = parts["_rels/.rels"].replace(
            b"</Relationships>",
            b'<Relationship Id="rIdCore" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/'
            b'core-properties" Target="docProps/core.xml"/></Relationships>',
        )

    rewrite_parts(path, edit)
    assert texts(path) == ["Master Services Agreement"]


def test_a_rich_text_control_bound_to_a_word_document_value(tmp_path):
    flat_opc = (
        '<?xml version="1.0" standalone="yes"?><?mso-application progid="Word.Document"?>'
        '<pkg:package xmlns:pkg="http://schemas.microsoft.com/office/2006/xmlPackage">'
        '<pkg:part pkg:name="/_rels/.rels" pkg:contentType="application/vnd.openxmlformats-package.relationships+xml">'
        '<pkg:xmlData><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        'officeDocument" Target="word/document.xml"/></Relationships></pkg:xmlData></pkg:part>'
        '<pkg:part pkg:name="/word/document.xml" pkg:contentType="application/vnd.openxmlformats-officedocument.'
        'wordprocessingml.document.main+xml"><pkg:xmlData><w:document xmlns:w="http://schemas.openxmlformats.org/'
        'wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Rich clause one.</w:t></w:r></w:p><w:p><w:r>'
        "<w:t>Rich clause two.</w:t></w:r></w:p></w:body></w:document></pkg:xmlData></pkg:part></pkg:package>"
    )
    escaped = flat_opc.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    control = bound("price", "Stale clause.", block=True, kind="")
    path = contract(tmp_path / "c.docx", deal(price=escaped), body=p("Before") + control + p("After"))
    assert texts(path) == ["Before", "Rich clause one.", "Rich clause two.", "After"]
    live = [(b.id, b.text) for b in DocxDocument.open(path).blocks]
    assert [(b.id, b.text) for b in read_version(path).doc.blocks] == live


def test_a_change_only_in_the_data_store_shows_in_compare_and_redline(tmp_path):
    old = contract(tmp_path / "old.docx")
    new = shutil.copy(old, tmp_path / "new.docx")

    def edit(parts):
        parts["customXml/item1.xml"] = parts["customXml/item1.xml"].replace(b"EUR 1,000,000", b"EUR 9,000,000")

    rewrite_parts(new, edit)
    diff = compare_versions(old, new)
    assert diff["summaryCounts"]["modified"] == 2  # the sentence and the table cell
    first = diff["changes"][0]
    assert first["previousBlockId"] == first["currentBlockId"] == "0C000001"
    assert {"type": "del", "text": "1,000,000"} in first["segments"]
    assert {"type": "ins", "text": "9,000,000"} in first["segments"]
    out = redline_files(old, new, tmp_path / "redline.docx")
    assert out["summaryCounts"]["modified"] == 2
    accepted = resolved_texts(tmp_path / "redline.docx", "accept")
    rejected = resolved_texts(tmp_path / "redline.docx", "reject")
    assert accepted[0] == "Price: EUR 9,000,000 in total." and rejected[0] == "Price: EUR 1,000,000 in total."
    # The redline's controls are no longer bound: Word cannot fill them in again from its store.
    assert b"dataBinding" not in _document_xml(tmp_path / "redline.docx")


def _document_xml(path) -> bytes:
    import zipfile

    with zipfile.ZipFile(path) as archive:
        return archive.read("word/document.xml")


def test_compare_reads_exactly_what_read_document_reads(tmp_path):
    path = contract(tmp_path / "c.docx")
    live = [(b.id, b.text) for b in DocxDocument.open(path).blocks]
    assert [(b.id, b.text) for b in read_version(path).doc.blocks] == live


def test_edits_touching_bound_text_are_refused_and_edits_around_it_apply(tmp_path):
    path = contract(tmp_path / "c.docx")
    before = path.read_bytes()
    tools = docx_toolset(path)
    price = tools.call("find_text", {"query": "1,000,000 in"}).value["matches"][0]["range"]
    refused = [
        {"type": "replaceInBlock", "blockId": "0C000001", "find": "1,000,000", "replace": "2"},
        {"type": "replaceRange", "range": price, "replace": "2 in"},
        {"type": "replaceBlock", "blockId": "0C000001", "text": "Price: EUR 2."},
        {"type": "deleteBlock", "blockId": "0C000001"},
        {"type": "splitBlock", "blockId": "0C000001", "offset": 10},
        {"type": "replaceInBlock", "blockId": "0C000002", "find": "Party", "replace": "Co"},
        {"type": "formatRange", "range": price, "formatting": {"bold": True}},
        {"type": "commentOnRange", "range": price, "comment": "Too high."},
    ]
    types = tuple(sorted({op["type"] for op in refused}))
    result = suggest(path, refused, operation_types=types)
    assert [s["code"] for s in result.value["skipped"]] == ["boundContent"] * len(refused), result.value
    assert "custom XML data" in result.value["skipped"][0]["reason"]
    assert path.read_bytes() == before
    around = [
        {"type": "replaceInBlock", "blockId": "0C000001", "find": "in total", "replace": "overall"},
        {"type": "insertAfterBlock", "blockId": "0C000002", "text": "A new clause."},
    ]
    result = suggest(path, around)
    assert not result.value["skipped"], result.value
    comment = docx_toolset(path).call("add_comment", {"blockId": "0C000001", "text": "Check the price."})
    assert comment.value["applied"], comment.value
    accepted = resolved_texts(path, "accept")
    assert accepted[:3] == ["Price: EUR 1,000,000 overall.", "New Party Ltd", "A new clause."]
    # The new paragraph went after the control, not inside it, where Word would replace it.
    doc = DocxDocument.open(path)
    added = next(b for b in doc.blocks if b.text == "A new clause.")
    assert not added.bound_block and not any(a.tag.endswith("}sdt") for a in added.element.iterancestors())


def test_a_control_holding_paragraphs_shows_its_value_in_the_first(tmp_path):
    two = p("First stored.", para_id="0C00000A") + p("Second stored.", para_id="0C00000B")
    control = f"<w:sdt><w:sdtPr>{_binding('party')}<w:text/></w:sdtPr><w:sdtContent>{two}</w:sdtContent></w:sdt>"
    path = contract(tmp_path / "c.docx", body=control + p("After.", para_id="0C00000C"))
    assert texts(path) == ["New Party Ltd", "", "After."]
    result = suggest(path, [{"type": "mergeBlockWithNext", "blockId": "0C00000A"}])
    assert [s["code"] for s in result.value["skipped"]] == ["boundContent"]
    live = [(b.id, b.text) for b in DocxDocument.open(path).blocks]
    assert [(b.id, b.text) for b in read_version(path).doc.blocks] == live


def test_a_real_word_document(tmp_path):
    """docx4j's binding-simple.docx: Word saved stored text that its data store has since changed."""
    assert texts(FIXTURE) == [
        "Contents of element 1: the UPDATED element 1 contents",
        "Contents of element 2: element 2 contents",
    ]


def test_the_xpath_walk_has_a_budget(tmp_path, monkeypatch):
    from deskcheck.engine.docx.model import datastore

    monkeypatch.setattr(datastore, "MAX_STEPS", 50)
    wide = "<deal xmlns='urn:example:deal'>" + "<x/>" * 100 + "<price>EUR 1</price></deal>"
    control = bound("price", "stored")
    path = contract(tmp_path / "c.docx", wide, body=p(runs=control) + p(runs=control))
    read = list(blocks(path).values())
    assert [b["text"] for b in read] == ["stored", "stored"]
    assert all(b["boundRanges"][0]["source"] == "storedText" for b in read)


def test_a_long_value_shown_by_many_controls_counts_each_time(tmp_path, monkeypatch):
    from deskcheck.engine.docx.package import limits

    monkeypatch.setattr(limits, "MAX_XML_BYTES", 400_000)
    control = bound("price", "stored")
    path = contract(tmp_path / "c.docx", deal(price="X" * 50_000), body=p(runs=control) * 20)
    result = docx_toolset(path).call("read_document", {})
    assert not result.ok and result.code == "tooLarge"
    assert "data-bound content controls" in result.error and "MAX_XML_BYTES" in result.error


def test_a_binding_left_unevaluated_is_reported_unread_not_shown_as_words(tmp_path, monkeypatch):
    """Red team of issue 26 item 1: decoy bindings that spend the XPath walk's budget made the
    real one show its stale stored text, reported like a binding that finds nothing, and a
    compare of a price changed in the store said nothing. Now the control is listed as unread
    where it stands, with the store's hash, so that a compare names the change it did not read."""
    from deskcheck.engine.docx.model import datastore

    monkeypatch.setattr(datastore, "MAX_STEPS", 150)
    decoys = "".join(bound_control(f"/ns0:deal[1]/ns0:x[{n}]", "", store=STORE, mappings=NS) for n in (60, 61, 62))
    body = p(para_id="0C000001", runs=decoys) + p(para_id="0C000002", runs=_run("Price: ") + bound("price", "EUR 10"))
    wide = "<deal xmlns='urn:example:deal'>" + "<x/>" * 100 + "<price>{}</price></deal>"
    old = contract(tmp_path / "old.docx", wide.format("EUR 1,000,000"), body=body)
    new = contract(tmp_path / "new.docx", wide.format("EUR 9,000,000"), body=body)
    value = docx_toolset(old).call("read_document", {}).value
    assert value["blocks"][1]["text"] == "Price: EUR 10"
    entry = {entry["inBlockId"]: entry for entry in value["unread"]}["0C000002"]
    assert entry["kind"] == "dataBinding" and "elements" in entry["reason"]
    diff = compare_versions(old, new)
    assert [change["part"] for change in diff["unreadChanges"]] == ["customXml"]
    assert compare_versions(old, old).get("unreadChanges") is None


@pytest.mark.parametrize(
    "xpath", ["//ns0:price", "/ns0:deal[1]/ns0:price[position()=1]", "/ns0:deal[1]/ns0:price[@currency='EUR']"]
)
def test_a_path_outside_the_subset_is_reported_unread(tmp_path, xpath):
    """Word evaluates these paths and shows the store's value; deskcheck does not, and says so."""
    control = bound_control(xpath, "EUR 10", store=STORE, mappings=NS)
    path = contract(tmp_path / "c.docx", body=p(para_id="0C000001", runs=_run("Price: ") + control))
    value = docx_toolset(path).call("read_document", {}).value
    [entry] = value["unread"]
    assert entry["kind"] == "dataBinding" and entry["inBlockId"] == "0C000001" and "XPath" in entry["reason"]
    # A path Word writes that matches nothing is not unread: Word shows the stored text too.
    missing = bound_control("/ns0:deal[1]/ns0:price[2]", "EUR 10", store=STORE, mappings=NS)
    path = contract(tmp_path / "m.docx", body=p(para_id="0C000001", runs=missing))
    assert "unread" not in docx_toolset(path).call("read_document", {}).value


def test_a_block_level_control_in_a_header_left_unevaluated_is_reported(tmp_path):
    control = bound_control("//ns0:party", "Old Party", store=STORE, mappings=NS, block=True)
    body = p("Body.") + '<w:sectPr><w:headerReference w:type="default" r:id="rId1"/></w:sectPr>'
    path = make_docx(tmp_path / "h.docx", body, header=control)
    rewrite_parts(path, lambda parts: add_custom_xml(parts, 1, STORE, deal()))
    [entry] = DocxDocument.open(path).unread()
    assert entry["kind"] == "dataBinding" and entry["story"]["type"] == "header" and entry["inParagraph"] == 1
