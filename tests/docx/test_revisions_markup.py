"""The tracked-change markup primitives (engine/docx/wml/revisions.py): ids, run splitting,
revision wrappers, paragraph-mark, property-change and table marks, checked on XML and through
our own accept-all / reject-all."""

from __future__ import annotations

import pytest
from lxml import etree

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.review.revisions import resolve_all
from deskcheck.engine.docx.wml.ns import NS, W_ID, qn
from deskcheck.engine.docx.wml.revisions import (
    MAX_ID,
    IdAllocator,
    Revisions,
    delete_paragraph_text,
    delete_runs,
    insert_runs,
    make_run,
    mark_cell,
    mark_paragraph,
    mark_row,
    paragraph_mark_state,
    paragraph_runs,
    record_paragraph_properties,
    record_run_properties,
    revision_date,
    run_text,
    split_run,
)
from tests.docx.builders import make_docx, p

W = NS["w"]


def xml(fragment: str):
    return etree.fromstring(f'<w:root xmlns:w="{W}">{fragment}</w:root>')[0]


def tags(element) -> list[str]:
    return [etree.QName(child).localname for child in element]


def revisions(start: int = 0) -> Revisions:
    return Revisions(IdAllocator([start] if start else []), "Reviewer", "2026-01-02T03:04:05Z")


# -- ids -------------------------------------------------------------------------------------


def test_ids_go_above_every_annotation_id_in_every_part():
    body = xml(
        '<w:body><w:p><w:ins w:id="7" w:author="a"><w:r><w:t>x</w:t></w:r></w:ins>'
        '<w:bookmarkStart w:id="40" w:name="b"/><w:commentRangeStart w:id="12"/></w:p></w:body>'
    )
    header = xml('<w:hdr><w:p><w:del w:id="55" w:author="a"/></w:p></w:hdr>')
    ids = IdAllocator.scan([body, header, None])
    assert [ids.take(), ids.take()] == [56, 57]


def test_ids_ignore_footnote_numbers_and_garbage():
    body = xml(
        '<w:body><w:p><w:r><w:footnoteReference w:id="900"/></w:r><w:ins w:id="x1" w:author="a"/></w:p></w:body>'
    )
    assert IdAllocator.scan([body]).take() == 1


def test_ids_stay_within_32_bits_when_the_top_is_taken():
    ids = IdAllocator([1, 2, MAX_ID])
    assert [ids.take(), ids.take()] == [3, 4]
    assert all(value <= MAX_ID for value in (ids.take() for _ in range(10)))


def test_ids_reserve():
    ids = IdAllocator()
    ids.reserve(10)
    assert ids.take() == 11


def test_revision_date_is_utc_iso():
    from datetime import datetime, timedelta, timezone

    moment = datetime(2026, 3, 1, 12, 0, 5, 999, tzinfo=timezone(timedelta(hours=2)))
    assert revision_date(moment) == "2026-03-01T10:00:05Z"


def test_every_stamped_element_has_its_own_id():
    revs = revisions(100)
    first, second = revs.element("w:ins"), revs.element("w:del")
    assert (first.get(W_ID), second.get(W_ID)) == ("101", "102")
    assert first.get(qn("w:author")) == "Reviewer" and first.get(qn("w:date")) == "2026-01-02T03:04:05Z"
    assert Revisions(IdAllocator(), "").author == "Unknown"


# -- splitting runs --------------------------------------------------------------------------


def test_split_keeps_properties_on_both_halves():
    p_el = xml('<w:p><w:r w:rsidR="00A1"><w:rPr><w:b/><w:sz w:val="22"/></w:rPr><w:t>Hello world</w:t></w:r></w:p>')
    left, right = split_run(p_el[0], 5, IdAllocator())
    assert (run_text(left), run_text(right)) == ("Hello", " world")
    assert tags(left[0]) == tags(right[0]) == ["b", "sz"]
    assert right.get(qn("w:rsidR")) == "00A1"
    assert right.find(qn("w:t")).get("{http://www.w3.org/XML/1998/namespace}space") == "preserve"
    assert list(p_el) == [left, right]


def test_split_counts_utf16_units_and_refuses_half_a_surrogate_pair():
    p_el = xml("<w:p><w:r><w:t>a\U0001f600b</w:t></w:r></w:p>")
    with pytest.raises(ValueError):
        split_run(p_el[0], 2, IdAllocator())
    left, right = split_run(p_el[0], 3, IdAllocator())
    assert (run_text(left), run_text(right)) == ("a\U0001f600", "b")


def test_split_at_the_edges_splits_nothing():
    p_el = xml("<w:p><w:r><w:t>abc</w:t></w:r></w:p>")
    run = p_el[0]
    assert split_run(run, 0, None) == (None, run)
    assert split_run(run, 3, None) == (run, None)
    with pytest.raises(ValueError):
        split_run(run, 4, None)


def test_split_places_zero_width_content_on_the_chosen_side():
    p_el = xml("<w:p><w:r><w:t>ab</w:t><w:tab/><w:t>cd</w:t></w:r></w:p>")
    left, right = split_run(p_el[0], 2, None, zero_width="right")
    assert tags(left) == ["t"] and tags(right) == ["tab", "t"]
    p_el = xml("<w:p><w:r><w:t>ab</w:t><w:tab/><w:t>cd</w:t></w:r></w:p>")
    left, right = split_run(p_el[0], 2, None)
    assert tags(left) == ["t", "tab"] and tags(right) == ["t"]


def test_split_counts_text_as_the_reader_does():
    # Without xml:space="preserve" the outer spaces are not text; symbols and hyphens count one.
    p_el = xml('<w:p><w:r><w:t>  ab  </w:t><w:noBreakHyphen/><w:sym w:font="Arial" w:char="0041"/></w:r></w:p>')
    assert run_text(p_el[0]) == "ab\u2011A"
    left, right = split_run(p_el[0], 1, None)
    assert (run_text(left), run_text(right)) == ("a", "b\u2011A")


def test_split_gives_a_copied_property_change_a_fresh_id():
    p_el = xml(
        '<w:p><w:r><w:rPr><w:b/><w:rPrChange w:id="5" w:author="a"><w:rPr/></w:rPrChange></w:rPr>'
        "<w:t>abcd</w:t></w:r></w:p>"
    )
    left, right = split_run(p_el[0], 2, IdAllocator([5]))
    ids = {left.find(f".//{qn('w:rPrChange')}").get(W_ID), right.find(f".//{qn('w:rPrChange')}").get(W_ID)}
    assert ids == {"5", "6"}


# -- wrappers --------------------------------------------------------------------------------


def test_delete_runs_groups_siblings_and_rewrites_text():
    p_el = xml(
        "<w:p><w:r><w:t>a</w:t></w:r><w:r><w:instrText>PAGE</w:instrText></w:r><w:r><w:t>b</w:t></w:r>"
        "<w:proofErr/><w:r><w:t>c</w:t></w:r></w:p>"
    )
    runs = [p_el[0], p_el[1], p_el[4]]
    wrappers = delete_runs(runs, revisions())
    assert len(wrappers) == 2 and tags(p_el) == ["del", "r", "proofErr", "del"]
    assert tags(wrappers[0][0]) == ["delText"] and tags(wrappers[0][1]) == ["delInstrText"]
    assert wrappers[0].get(W_ID) != wrappers[1].get(W_ID)


def test_deleting_pending_inserted_text_nests_the_deletion():
    p_el = xml('<w:p><w:ins w:id="3" w:author="other"><w:r><w:t>new</w:t></w:r></w:ins>'
               '<w:del w:id="4" w:author="x"><w:r><w:delText>old</w:delText></w:r></w:del></w:p>')  # fmt: skip
    wrappers = delete_runs(list(paragraph_runs(p_el)), revisions(4))
    assert len(wrappers) == 1
    assert wrappers[0].getparent().tag == qn("w:ins")
    assert p_el[1].get(W_ID) == "4"  # the existing deletion is untouched


def test_paragraph_runs_skip_text_boxes():
    p_el = xml(
        "<w:p><w:hyperlink><w:r><w:t>a</w:t></w:r></w:hyperlink><w:sdt><w:sdtContent><w:r><w:t>b</w:t></w:r>"
        "</w:sdtContent></w:sdt><w:r><w:drawing><w:txbxContent><w:p><w:r><w:t>box</w:t></w:r></w:p>"
        "</w:txbxContent></w:drawing></w:r></w:p>"
    )
    assert [run_text(r) for r in paragraph_runs(p_el)] == ["a", "b", ""]


def test_make_run_maps_tabs_and_breaks_and_copies_properties():
    rpr = xml("<w:rPr><w:i/></w:rPr>")
    r = make_run(" a\tb\nc ", rpr)
    assert tags(r) == ["rPr", "t", "tab", "t", "br", "t"]
    assert r[1].get("{http://www.w3.org/XML/1998/namespace}space") == "preserve"
    assert r[0] is not rpr


def test_insert_runs_wraps_in_one_ins():
    ins = insert_runs([make_run("x"), make_run("y")], revisions())
    assert ins.tag == qn("w:ins") and len(ins) == 2


def test_paragraph_mark_goes_first_in_the_mark_properties_in_schema_order():
    p_el = xml(
        '<w:p><w:pPr><w:pStyle w:val="H"/><w:jc w:val="center"/><w:rPr><w:b/></w:rPr>'
        "<w:sectPr/></w:pPr><w:r><w:t>x</w:t></w:r></w:p>"
    )
    revs = revisions()
    mark_paragraph(p_el, "del", revs)
    mark_paragraph(p_el, "ins", revs)
    assert mark_paragraph(p_el, "ins", revs) is p_el[0][2][0]  # idempotent
    assert tags(p_el[0]) == ["pStyle", "jc", "rPr", "sectPr"]
    assert tags(p_el[0][2]) == ["ins", "del", "b"]
    assert paragraph_mark_state(p_el) == {"ins", "del"}


def test_paragraph_mark_creates_ppr_and_rpr():
    p_el = xml("<w:p><w:r><w:t>x</w:t></w:r></w:p>")
    mark_paragraph(p_el, "ins", revisions())
    assert tags(p_el) == ["pPr", "r"] and tags(p_el[0]) == ["rPr"] and tags(p_el[0][0]) == ["ins"]


def test_run_property_change_records_the_original_once():
    r = xml('<w:r><w:rPr><w:i/><w:sz w:val="20"/></w:rPr><w:t>x</w:t></w:r>')
    revs = revisions()
    rpr = record_run_properties(r, revs)
    rpr.insert(0, rpr.makeelement(qn("w:b"), {}))
    record_run_properties(r, revs)
    change = rpr.find(qn("w:rPrChange"))
    assert tags(rpr)[-1] == "rPrChange" and tags(change) == ["rPr"] and tags(change[0]) == ["i", "sz"]
    assert len(rpr.findall(qn("w:rPrChange"))) == 1
    bare = xml("<w:r><w:t>x</w:t></w:r>")
    record_run_properties(bare, revs)
    assert tags(bare[0]) == ["rPrChange"] and len(bare[0][0][0]) == 0


def test_paragraph_property_change_records_the_base_group_only():
    p_el = xml('<w:p><w:pPr><w:pStyle w:val="A"/><w:ind w:left="10"/><w:rPr><w:b/></w:rPr><w:sectPr/></w:pPr></w:p>')
    ppr = record_paragraph_properties(p_el, revisions())
    assert tags(ppr) == ["pStyle", "ind", "rPr", "sectPr", "pPrChange"]
    assert tags(ppr[-1][0]) == ["pStyle", "ind"]


def test_row_and_cell_marks_in_schema_order():
    tr = xml(
        '<w:tr><w:tblPrEx/><w:trPr><w:trPrChange w:id="1" w:author="a"><w:trPr/></w:trPrChange></w:trPr>'
        '<w:tc><w:tcPr><w:tcW w:w="5"/><w:tcPrChange w:id="2" w:author="a"><w:tcPr/></w:tcPrChange></w:tcPr>'
        "<w:p/></w:tc></w:tr>"
    )
    revs = revisions(2)
    mark_row(tr, "del", revs)
    mark_row(tr, "ins", revs)
    assert tags(tr[1]) == ["ins", "del", "trPrChange"]
    tc = tr[2]
    mark_cell(tc, "ins", revs)
    assert tags(tc[0]) == ["tcW", "cellIns", "tcPrChange"]
    with pytest.raises(ValueError):
        mark_cell(tc, "del", revs)
    bare = xml("<w:tr><w:tc><w:p/></w:tc></w:tr>")
    mark_row(bare, "ins", revs)
    assert tags(bare) == ["trPr", "tc"]


# -- through accept-all / reject-all ---------------------------------------------------------


def _texts(doc: DocxDocument) -> list[str]:
    return [block.text for block in doc.blocks]


def test_primitives_resolve_as_tracked_changes(tmp_path):
    """Replace a word, delete a whole paragraph and insert a new one, then check accept and reject."""
    body = p("The quick brown fox.") + p("Second paragraph.") + p("Third.")
    path = make_docx(tmp_path / "doc.docx", body)

    def edit() -> DocxDocument:
        doc = DocxDocument.open(path)
        root = doc.package.xml(doc.main_part)
        revs = Revisions(IdAllocator.scan([root]), "AI")
        first, second, third = doc.body.findall(qn("w:p"))
        run = first.find(qn("w:r"))
        _, middle = split_run(run, 10, revs.ids)
        middle, rest = split_run(middle, 5, revs.ids)
        delete_runs([middle], revs)
        rest.addprevious(insert_runs([make_run("red")], revs))
        delete_paragraph_text(second, revs)
        mark_paragraph(second, "del", revs)
        new = etree.Element(qn("w:p"))
        new.append(insert_runs([make_run("Inserted.")], revs))
        mark_paragraph(new, "ins", revs)
        third.addprevious(new)
        doc.package.mark_dirty(doc.main_part)
        doc.invalidate()
        ids = [int(e.get(W_ID)) for e in root.iter(qn("w:ins"), qn("w:del"))]
        assert len(ids) == len(set(ids))
        return doc

    accepted = edit()
    resolve_all(accepted, "accept")
    assert _texts(accepted) == ["The quick red fox.", "Inserted.", "Third."]
    rejected = edit()
    resolve_all(rejected, "reject")
    assert _texts(rejected) == ["The quick brown fox.", "Second paragraph.", "Third."]
