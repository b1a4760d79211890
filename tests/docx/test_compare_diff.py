"""The sequence algorithms under compare and redline (engine/docx/versions/diff_text.py), checked against
brute force on small inputs."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from deskcheck.engine.docx.versions.diff_text import (
    Budget,
    align,
    diff_matches,
    heaviest_increasing,
    pair_by_similarity,
    similarity,
    tokenize,
    word_diff,
)
from tests.hypothesis_profiles import examples

SMALL = st.lists(st.integers(0, 4), max_size=14)
WORDS = st.lists(st.sampled_from(["a", "b", "cat", "dog", " ", "  ", "\u00a0", "x.", "ζ"]), max_size=12).map("".join)


def lcs_length(a, b) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


def increasing(pairs) -> bool:
    return all(p[0] < q[0] and p[1] < q[1] for p, q in itertools.pairwise(pairs))


@settings(max_examples=examples(300))
@given(SMALL, SMALL)
def test_myers_finds_a_longest_common_subsequence(a, b):
    matches = diff_matches(a, b)
    assert increasing(matches) and all(a[i] == b[j] for i, j in matches)
    assert len(matches) == lcs_length(a, b)


@settings(max_examples=examples(300))
@given(SMALL, SMALL)
def test_patience_alignment_matches_only_equal_keys_in_order(a, b):
    matches = align(a, b)
    assert increasing(matches) and all(a[i] == b[j] for i, j in matches)
    # With nothing repeated, patience alignment is a longest common subsequence too.
    if len(set(a)) == len(a) and len(set(b)) == len(b):
        assert len(matches) == lcs_length(a, b)


def test_an_exhausted_budget_leaves_repeated_keys_unaligned():
    a, b = [1, 2, 1, 2] * 10, [2, 1, 2, 1] * 10
    assert align(a, b, Budget(cells=0)) == []
    assert len(align(a, b)) == lcs_length(a, b)


@settings(max_examples=examples(300))
@given(WORDS, WORDS)
def test_a_word_diff_rebuilds_both_texts(old, new):
    segments = word_diff(old, new)
    assert "".join(text for kind, text in segments if kind != "ins") == old
    assert "".join(text for kind, text in segments if kind != "del") == new
    assert all(text for _, text in segments)
    # Within a change deletions come first, and no two neighbours share a kind.
    for (kind_a, _), (kind_b, _) in itertools.pairwise(segments):
        assert kind_a != kind_b and (kind_a, kind_b) != ("ins", "del")


def test_word_diff_examples():
    assert word_diff("Beta paragraph.", "Beta clause.") == [("equal", "Beta "), ("del", "paragraph."),
                                                            ("ins", "clause.")]  # fmt: skip
    # Whitespace alone between two changes joins them.
    assert word_diff("a b c", "x y z") == [("del", "a b c"), ("ins", "x y z")]
    assert word_diff("same", "same") == [("equal", "same")] and word_diff("", "") == []
    assert tokenize("two\u00a0 words") == ["two", "\u00a0 ", "words"]


@settings(max_examples=examples(300))
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.sampled_from([0.5, 0.7, 1.0])), max_size=7))
def test_the_heaviest_increasing_chain_is_the_heaviest(candidates):
    chain = heaviest_increasing(candidates)
    assert increasing(chain)
    weight = {}
    for i, j, w in candidates:
        weight[(i, j)] = max(w, weight.get((i, j), 0))
    best = 0.0
    for size in range(len(candidates) + 1):
        for subset in itertools.combinations(sorted(set(weight)), size):
            if increasing(subset):
                best = max(best, sum(weight[pair] for pair in subset))
    assert abs(sum(weight[pair] for pair in chain) - best) < 1e-9


def test_similarity_and_gap_pairing():
    assert similarity("Digits 1", "Digits 2") > 0.5
    assert similarity("hello world", "goodbye moon") == 0.0
    scores = {(0, 1): 0.9, (1, 0): 0.8, (1, 1): 0.5}
    # Pairs keep their order: (0, 1) and (1, 0) cross, so the better single pair wins.
    assert pair_by_similarity(2, 2, lambda i, j: scores.get((i, j), 0.0)) == [(0, 1)]
    assert pair_by_similarity(3, 0, lambda i, j: 1.0) == []
