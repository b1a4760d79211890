"""LibreOffice, a reader nobody here wrote, agrees with what deskcheck reads of imported chunks and
data-bound controls, and with the redlines it writes of their changes (issue 26, item 1).

LibreOffice 7.4 imports .docx chunks and shows plain-text controls' data-store values, as Word
does; it does not import HTML or text chunks, nor format bound dates (Word does both: there
the tests of ``test_imported_chunks`` and ``test_data_bindings`` stand alone). It hides text
spelled ``w:t`` inside a field's instructions as deskcheck does (it shows the result of a field
nested in another's instructions, which Word does not, and lets a field left open at the end of
a paragraph run on into the next ones: those malformed shapes are left to
``test_field_code_text``).
"""

from __future__ import annotations

import shutil

import pytest

from deskcheck.engine.docx.versions.redline import redline_files
from tests.docx.builders import add_custom_xml, bound_control, make_docx, p, rewrite_parts
from tests.docx.test_data_bindings import FIXTURE, NS, STORE, deal
from tests.docx.test_field_code_text import hidden_code_document
from tests.docx.test_imported_chunks import DOCX_CT, chunk_document, docx_bytes, texts
from tests.libreoffice import read_views

pytestmark = pytest.mark.usefixtures("needs_libreoffice")


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _bound_document(path, store_xml: str):
    price = bound_control("/ns0:deal[1]/ns0:price[1]", "EUR 10", store=STORE, mappings=NS)
    party = bound_control("/ns0:deal[1]/ns0:party[1]", "Old Party", store=STORE, mappings=NS, block=True)
    make_docx(path, p(runs=_run("Price: ") + price + _run(" in total.")) + party + p("Closing."))
    return rewrite_parts(path, lambda parts: add_custom_xml(parts, 1, STORE, store_xml))


def test_libreoffice_reads_chunks_and_bound_values_as_we_do(tmp_path):
    old_chunk = chunk_document(tmp_path / "chunk-old.docx", "word/c.docx", DOCX_CT,
                               docx_bytes(tmp_path, p("Imported EUR 1,000,000.") + p("Kept."), "a.docx"))  # fmt: skip
    new_chunk = chunk_document(tmp_path / "chunk-new.docx", "word/c.docx", DOCX_CT,
                               docx_bytes(tmp_path, p("Imported EUR 9,000,000.") + p("Kept."), "b.docx"))  # fmt: skip
    old_bound = _bound_document(tmp_path / "bound-old.docx", deal())
    new_bound = _bound_document(tmp_path / "bound-new.docx", deal(price="EUR 9,000,000", party="Other Co"))
    fixture = shutil.copy(FIXTURE, tmp_path / "fixture.docx")
    fields = hidden_code_document(tmp_path / "fields.docx")  # text inside a field's instructions
    redlines = {
        "chunk": redline_files(old_chunk, new_chunk, tmp_path / "chunk-redline.docx")["output"],
        "bound": redline_files(old_bound, new_bound, tmp_path / "bound-redline.docx")["output"],
    }
    inputs = [old_chunk, new_chunk, old_bound, new_bound, fixture, fields]
    asis, accepted, rejected = read_views(
        [("asis", inputs), ("accept", redlines.values()), ("reject", redlines.values())]
    )
    for path in inputs:
        row = asis[str(path)]
        assert row["ok"], row
        assert row["paragraphs"] == texts(path), path.name
    assert texts(old_bound)[:2] == ["Price: EUR 1,000,000 in total.", "New Party Ltd"]
    for kind, old, new in (("chunk", old_chunk, new_chunk), ("bound", old_bound, new_bound)):
        assert accepted[redlines[kind]]["paragraphs"] == texts(new), kind
        assert rejected[redlines[kind]]["paragraphs"] == texts(old), kind
