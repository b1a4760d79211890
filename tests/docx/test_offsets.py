"""UTF-16 offsets on the wire: conversions are exact outside the BMP, and find_text ranges point
at the text they claim."""

from __future__ import annotations

import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine.docx.model.hashing import text_hash
from deskcheck.engine.docx.model.offsets import from_utf16, splits_cluster, to_utf16, utf16_length, utf16_map
from deskcheck.engine.docx.tools.toolset import docx_toolset
from tests.docx.builders import make_docx, p
from tests.hypothesis_profiles import examples

ASTRAL = st.characters(min_codepoint=0x10000, max_codepoint=0x1FAFF)
COMBINING = st.sampled_from(["\u0301", "\u0308", "\u20dd", "\ufe0f", "\U0001f3fd"])
PLAIN = st.characters(min_codepoint=0x20, max_codepoint=0xFFFD, blacklist_categories=("Cs", "Cc"))
TEXT = st.lists(st.one_of(PLAIN, ASTRAL, COMBINING), max_size=60).map("".join)


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@given(TEXT)
def test_offsets_round_trip(text):
    assert utf16_length(text) == utf16_units(text)
    table = utf16_map(text)
    for index in range(len(text) + 1):
        offset = to_utf16(text, index)
        assert offset == utf16_units(text[:index])
        assert from_utf16(text, offset) == index
        if table is not None:
            assert table[index] == offset
    for index, char in enumerate(text):
        if ord(char) > 0xFFFF:  # the middle of a surrogate pair is not a valid offset
            assert from_utf16(text, to_utf16(text, index) + 1) is None
    assert from_utf16(text, utf16_units(text) + 1) is None


def test_combining_marks_split_clusters():
    text = "e\u0301a👍🏽b"
    assert splits_cluster(text, 1)  # between e and its accent
    assert not splits_cluster(text, 2)
    assert splits_cluster(text, 4)  # between the thumb and its skin tone
    assert not splits_cluster(text, 5)


NEEDLE = "x\u0301"  # a letter with a combining mark, so matches may sit between astral characters


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(TEXT, st.just(NEEDLE)), min_size=1, max_size=6))
def test_find_text_ranges_point_at_the_match(pieces):
    text = "".join(pieces).replace("\n", " ")
    with tempfile.TemporaryDirectory() as folder:
        path = make_docx(Path(folder) / "x.docx", p(escape(text)))
        result = docx_toolset(path).call("find_text", {"query": NEEDLE, "matchCase": True})
    assert result.ok, result.error
    found = result.value["matches"]
    assert result.value["totalMatches"] == text.count(NEEDLE) or NEEDLE not in text
    encoded = text.encode("utf-16-le")
    for match in found:
        start, end = match["range"]["startOffset"], match["range"]["endOffset"]
        assert encoded[2 * start : 2 * end].decode("utf-16-le") == NEEDLE
        assert match["range"]["selectedTextHash"] == text_hash(NEEDLE)
