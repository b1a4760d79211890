"""Markup helpers the redline adds to the shared primitives (engine/docx/wml/revisions.py):
splitting a run before a given child, which ``split_run`` (text offsets) cannot do between
children that count no text."""

from __future__ import annotations

import pytest
from lxml import etree

from deskcheck.engine.docx.wml.ns import NS, qn
from deskcheck.engine.docx.wml.revisions import IdAllocator, run_text, split_run_before

W = NS["w"]


def paragraph(runs: str):
    return etree.fromstring(f'<w:p xmlns:w="{W}">{runs}</w:p>')


def shapes(p) -> list[list[str]]:
    """Each run as the list of its children (text children show their text)."""
    out = []
    for r in p:
        row = []
        for child in r:
            name = etree.QName(child).localname
            row.append(f"t:{child.text}" if name == "t" else name)
        out.append(row)
    return out


def test_splits_between_two_children_that_count_no_text():
    p = paragraph("<w:r><w:rPr><w:b/></w:rPr><w:t>ab</w:t><w:tab/><w:tab/><w:t>cd</w:t></w:r>")
    r = p[0]
    second_tab = r[3]
    left, right = split_run_before(r, second_tab, 0, IdAllocator())
    assert left is r and right is p[1]
    assert shapes(p) == [["rPr", "t:ab", "tab"], ["rPr", "tab", "t:cd"]]
    # Both halves keep the formatting (a copy, not the same element).
    assert right[0] is not r[0] and right[0].find(qn("w:b")) is not None


def test_splits_inside_a_text_element_keeping_spaces():
    p = paragraph("<w:r><w:t>hello world</w:t></w:r>")
    r = p[0]
    split_run_before(r, r[0], 5, None)
    assert [run_text(run) for run in p] == ["hello", " world"]
    assert p[1][0].get("{http://www.w3.org/XML/1998/namespace}space") == "preserve"


def test_no_split_at_the_very_start_or_end():
    p = paragraph("<w:r><w:t>abc</w:t></w:r>")
    r = p[0]
    assert split_run_before(r, r[0], 0, None) == (None, r)
    assert split_run_before(r, r[0], 3, None) == (r, None)
    assert shapes(p) == [["t:abc"]]


def test_splitting_at_the_end_of_a_text_moves_what_follows():
    p = paragraph("<w:r><w:t>abc</w:t><w:br/></w:r>")
    r = p[0]
    left, right = split_run_before(r, r[0], 3, None)
    assert left is r and right is p[1]
    assert shapes(p) == [["t:abc"], ["br"]]


def test_property_change_records_in_the_copy_get_fresh_ids():
    p = paragraph(
        '<w:r><w:rPr><w:b/><w:rPrChange w:id="7" w:author="a"><w:rPr/></w:rPrChange></w:rPr>'
        "<w:t>ab</w:t><w:t>cd</w:t></w:r>"
    )
    r = p[0]
    split_run_before(r, r[2], 0, IdAllocator([7]))
    ids = [change.get(qn("w:id")) for change in p.iter(qn("w:rPrChange"))]
    assert ids == ["7", "8"]


@pytest.mark.parametrize("index", [-1, 4])
def test_refuses_an_index_outside_the_text(index):
    p = paragraph("<w:r><w:t>abc</w:t></w:r>")
    with pytest.raises(ValueError):
        split_run_before(p[0], p[0][0], index, None)


def test_refuses_an_index_inside_an_element_without_text():
    p = paragraph("<w:r><w:t>a</w:t><w:tab/></w:r>")
    with pytest.raises(ValueError):
        split_run_before(p[0], p[0][1], 1, None)


def test_refuses_a_child_of_another_run():
    p = paragraph("<w:r><w:t>a</w:t></w:r><w:r><w:t>b</w:t></w:r>")
    with pytest.raises(ValueError):
        split_run_before(p[0], p[1][0], 0, None)


# -- moves -------------------------------------------------------------------------------------


def revisions():
    from deskcheck.engine.docx.wml.revisions import Revisions

    return Revisions(IdAllocator([10]), "Reviewer", "2026-01-02T03:04:05Z")


def test_moved_runs_keep_their_text_elements_and_share_a_wrapper():
    from deskcheck.engine.docx.wml.revisions import move_runs

    p = paragraph("<w:r><w:t>one</w:t></w:r><w:r><w:t>two</w:t></w:r>")
    wrappers = move_runs(list(p), "from", revisions())
    assert len(wrappers) == 1 and etree.QName(wrappers[0]).localname == "moveFrom"
    assert [etree.QName(t).localname for t in p.iter(qn("w:t"), qn("w:delText"))] == ["t", "t"]
    assert wrappers[0].get(qn("w:author")) == "Reviewer" and wrappers[0].get(qn("w:id")) == "11"


def test_a_moved_paragraph_mark_and_its_range_markers():
    from deskcheck.engine.docx.wml.revisions import mark_move_range, mark_paragraph_moved, paragraph_mark_state

    p = paragraph('<w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t>text</w:t></w:r>')
    stamps = revisions()
    mark_paragraph_moved(p, "to", stamps)
    start, end = mark_move_range(p, p, "to", "move1", stamps)
    assert paragraph_mark_state(p) == {"moveTo"}
    # The range opens after the paragraph properties and closes after the content, one id for both.
    assert [etree.QName(child).localname for child in p] == ["pPr", "moveToRangeStart", "r", "moveToRangeEnd"]
    assert start.get(qn("w:name")) == "move1" and end.get(qn("w:id")) == start.get(qn("w:id"))
    assert end.get(qn("w:author")) is None  # the end marker carries only the id


def test_removing_an_element_keeps_the_text_after_it():
    from deskcheck.engine.docx.wml.edit import remove_keeping_tail

    root = etree.fromstring("<root>head<a/>tail text<b/> <c/></root>")
    remove_keeping_tail(root.find("a"))
    assert root.text == "headtail text" and [child.tag for child in root] == ["b", "c"]
    remove_keeping_tail(root.find("c"))  # whitespace-only tails go with the element
    assert [child.tag for child in root] == ["b"] and root.find("b").tail == " "
    detached = etree.Element("lonely")
    remove_keeping_tail(detached)  # nothing to remove it from: no error
