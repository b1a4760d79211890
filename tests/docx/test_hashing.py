"""The fast hash and id implementations agree with the plain loops they replace."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from deskcheck.engine.docx.model.hashing import (
    _CHUNK,
    JS_WHITESPACE,
    _base36,
    deterministic_hex_id,
    deterministic_hex_ids,
    normalize_text,
    text_hash,
)

CHARS = st.one_of(
    st.characters(min_codepoint=0, max_codepoint=0xFF),
    st.characters(blacklist_categories=("Cs",)),
    st.sampled_from(list(" \t\n\u00a0\ufeff\u3000\x1c")),
)
# Short texts, and texts across one and several chunks of the fast path (``_CHUNK`` digits).
TEXTS = (
    st.text(CHARS, max_size=80)
    | st.text(CHARS, min_size=_CHUNK - 10, max_size=2 * _CHUNK + 10)
    | st.text(CHARS, min_size=3990, max_size=4100)
)


def loop_hash(text: str) -> str:
    h = 5381
    for char in text:
        h = (h * 33 + ord(char)) % 2147483647
    return "h" + _base36(h)


def loop_id(seed: str) -> str:
    h = 2166136261
    for char in seed:
        h = ((h ^ ord(char)) * 16777619) % 2**32
    return f"{h % 0x7FFFFFFF or 1:08X}"


@given(TEXTS)
def test_text_hash_is_the_reference_loop(text):
    assert text_hash(text) == loop_hash(text)


@given(st.lists(st.text(CHARS, max_size=300), max_size=40))
def test_batched_ids_equal_one_by_one(seeds):
    assert deterministic_hex_ids(seeds) == [loop_id(seed) for seed in seeds]
    assert [deterministic_hex_id(seed) for seed in seeds] == [loop_id(seed) for seed in seeds]


@given(st.text(st.sampled_from(list("ab \t\x1c\u00a0\ufeff\u2028\u3000")), max_size=20))
def test_normalisation_uses_javascript_whitespace(text):
    import re

    expected = re.sub(f"[{JS_WHITESPACE}]+", " ", text).strip(" ")
    assert normalize_text(text) == expected
