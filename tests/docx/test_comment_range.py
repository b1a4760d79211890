"""A comment attached to an edit covers the whole text the edit names (issue 29, item 4): the
word diff writes only the tokens that changed, but the comment is about "forty-five (45) days",
not about "forty-five (45". Read back by deskcheck and by LibreOffice."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import REPO
from tests.helpers import run_cli
from tests.libreoffice import read_views

PAYMENT = "2B165965"  # "... within thirty (30) days of receipt ..." in the sample contract
HOSTING_FEE = "02A445FE"  # the table cell "9,500"

EDITS = [
    (PAYMENT, "thirty (30) days", "forty-five (45) days"),
    (HOSTING_FEE, "9,500", "9,000"),
    (PAYMENT, "thirty (30) days of receiving", "thirty (30) business days of receiving"),  # an insertion inside
    (PAYMENT, "thirty (30) days", "thirty (30) calendar days"),
]


def _review(tmp_path, mode: str, find: str, replace: str, block: str):
    source = tmp_path / "contract.docx"
    shutil.copy(REPO / "samples" / "contract.docx", source)
    out = tmp_path / f"{mode}.docx"
    op = {"type": "replaceInBlock", "blockId": block, "find": find, "replace": replace, "comment": "c"}
    run_cli("docx", "suggest-changes", str(source), "--mode", mode, "-o", str(out), json.dumps({"operations": [op]}))
    return out


def _quotes(path) -> list[str]:
    comments = run_cli("docx", "read-comments", str(path)).json["result"]["comments"]
    return [comment["quote"] for comment in comments]


@pytest.mark.parametrize("mode", ["tracked-changes", "direct"])
@pytest.mark.parametrize(("block", "find", "replace"), EDITS)
def test_the_comment_of_an_edit_quotes_its_whole_replacement(tmp_path, mode, block, find, replace):
    out = _review(tmp_path, mode, find, replace, block)
    assert _quotes(out) == [replace]


@pytest.mark.slow
@pytest.mark.usefixtures("needs_libreoffice")
def test_libreoffice_anchors_the_comment_on_the_whole_replacement(tmp_path):
    files = {}
    for number, (block, find, replace) in enumerate(EDITS):
        for mode in ("tracked-changes", "direct"):
            folder = tmp_path / f"{number}-{mode}"
            folder.mkdir()
            files[str(_review(folder, mode, find, replace, block))] = (mode, replace)
    # Tracked: LibreOffice's anchor holds the deleted words too until the changes are accepted.
    accepted, as_is = read_views([("accept", list(files)), ("asis", list(files))])
    for path, (mode, replace) in files.items():
        rows = accepted if mode == "tracked-changes" else as_is
        assert rows[path]["ok"], rows[path]
        assert [comment["anchor"] for comment in rows[path]["comments"]] == [replace], (path, rows[path])
