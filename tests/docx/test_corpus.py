"""Every corpus file reads as blocks or is refused with a clear input error."""

from __future__ import annotations

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.model.hashing import HASH_PATTERN
from deskcheck.engine.docx.tools.toolset import docx_toolset
from deskcheck.engine.errors import InputError
from tests import corpus
from tests.conftest import CORPUS
from tests.sweeps import sweep

pytestmark = pytest.mark.corpus

FILES = corpus.docx_files()
# The files the corpus holds that are not usable .docx packages, and why.
REFUSED = {
    "folio/encrypted-agile-example.docx": "encrypted",
}
READ_TOOLS = ("read_document", "get_document_outline", "list_stories", "read_comments", "read_changes")


def test_the_corpus_is_there():
    assert len(FILES) > 300


@pytest.mark.parametrize("path", sweep(corpus.params(FILES)), ids=corpus.docx_name)
def test_every_file_reads_or_is_refused_clearly(path):
    name = corpus.docx_name(path)
    toolset = docx_toolset(path)
    for tool in READ_TOOLS:
        result = toolset.call(tool, {})
        if name in REFUSED:
            assert not result.ok and result.input_error and result.code == REFUSED[name], result
            return
        assert result.ok, f"{tool}: {result.error}"
        assert result.value["documentVersion"]
    blocks = toolset.call("read_document", {}).value["blocks"]
    ids = [block["blockId"] for block in blocks]
    assert len(ids) == len(set(ids))
    assert all(HASH_PATTERN.match(block["blockTextHash"]) for block in blocks)
    # Ids are deterministic: a second parse of the same bytes gives the same ones.
    model = DocxDocument.open(path).blocks
    assert [block.id for block in model] == ids
    # A label is a list marker the document draws: only list paragraphs have one.
    assert not [block for block in model if block.display_label and block.num_id is None]


def test_refusals_are_input_errors_at_the_cli():
    from tests.helpers import run_cli

    for name in REFUSED:
        result = run_cli("call", "--docx", str(CORPUS / name), "read_document", expect=2)
        assert result.json["ok"] is False


def test_refused_files_raise_input_error():
    for name in REFUSED:
        with pytest.raises(InputError):
            DocxDocument.open(CORPUS / name)
