"""A YAML save that replaced one-line values is checked from its edited lines
(``textdoc.yaml_local``): whenever that check says yes, reading the whole new text gives the
very data it vouched for; every shape outside its argument is read whole; and plain scalars
read as strings without a match (the first-character fast path) read as the full tag table and
the libraries read them, under YAML 1.1 and 1.2.
"""

from __future__ import annotations

import copy
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine.errors import InputError
from deskcheck.engine.textdoc import TextFormat, edit_text, read_document, yaml_local, yaml_tree
from deskcheck.engine.textdoc.nodes import Scalar, same_value
from deskcheck.engine.textdoc.splices import Splice, apply_splices
from tests.hypothesis_profiles import examples

from .support import get, places
from .test_properties import documents, yaml_text

VERSIONS = [None, (1, 1)]

# Spellings whose reading depends on the YAML version or on where they stand.
TRICKY = [
    "yes", "No", "on", "OFF", "y", "n", "~", "null", "Null", "", "true", "False",
    "0x1A", "0o17", "017", "0b101", "1_000", "+1", "-0", ".5", "1e3", "1.0e+3", ".inf", "-.Inf", ".NaN",
    "1:30", "190:20:30", "2024-01-01", "2001-12-14t21:59:43.10-05:00", "=", "<<",
    "a: b", "a:b", "a #b", "a#b", "#c", "- x", "-x", "? x", "[a]", "{a: 1}", "&a x", "*a", "!t x", "!!str 1",
    "|", ">", "'q'", "'it''s'", '"x\\ty"', '"unclosed', "'", "x ", " x", "%x", "@x", "`x", "---", "...",
    "a,b", "[", "]", "key: value # c", "é", "\t x",
]  # fmt: skip
texts = st.one_of(st.sampled_from(TRICKY), st.text(max_size=12))


def _with(data, path, value):
    data = copy.deepcopy(data)
    if not path:
        return value
    get(data, path[:-1])[path[-1]] = value
    return data


def _full_reading(text: str, version):
    fmt = TextFormat("yaml", "1.1" if version else None)
    try:
        return read_document(text, fmt, "doc")
    except InputError:
        return InputError


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, st.integers(0, 3), st.sampled_from(VERSIONS), texts, st.randoms(use_true_random=False))
def test_what_the_edited_lines_vouch_for_is_what_the_whole_text_reads(document, style, version, new, rng):
    old = yaml_text(document, style)
    stream = yaml_tree.parse_stream(old, "doc", version=version)
    root = stream.documents[0].root if stream.documents else None
    scalars = [p for p in places(root) if isinstance(p.node, Scalar) and p.parent is not None] if root else []
    if not scalars:
        return
    place = rng.choice(scalars)
    splice = Splice(place.node.start, place.node.end, new)
    text = apply_splices(old, [splice])
    old_data = _full_reading(old, version)
    # The data the check may vouch for: the old data with the new text's reading as a value
    # there (what a planner asking for that value would have given it).
    value = yaml_local._value_of_scalar_text(new, old[splice.end : yaml_local._line_end(old, splice.end)], version)
    claims = [] if value is yaml_local._UNREAD else [_with(old_data, place.path, value)]
    claims.append(old_data)  # and the old data, which a changed value no longer reads as
    for claim in claims:
        if yaml_local.reads_as_after_splices(old, stream, [splice], claim, version):
            assert same_value(_full_reading(text, version), claim), (old, text)


def test_a_plain_edit_is_vouched_for_by_its_line(monkeypatch):
    answers = _spy(monkeypatch)
    text = "items:\n  - id: 1\n    name: first  # the name\n  - id: 2\n    name: second\n"
    data = read_document(text, "yaml", "doc")
    data["items"][0]["name"] = "yes"  # a string, quoted so that a YAML 1.1 reader reads it so too
    data["items"][1]["id"] = 20
    new = edit_text(text, data, "yaml")
    assert new == 'items:\n  - id: 1\n    name: "yes"  # the name\n  - id: 20\n    name: second\n'
    assert answers == [True]
    yaml11 = TextFormat("yaml", "1.1")
    data = read_document(new, yaml11, "doc")
    data["items"][0]["name"] = True
    new = edit_text(new, data, yaml11)
    assert answers == [True, True] and read_document(new, yaml11, "doc")["items"][0]["name"] is True


def test_a_new_value_holding_a_comment_sign_is_written_quoted_and_vouched_for(monkeypatch):
    answers = _spy(monkeypatch)
    text = "a: x # note: y\nb: 1\n"
    new = edit_text(text, {"a": "p #q", "b": 1}, "yaml")
    assert read_document(new, "yaml", "doc") == {"a": "p #q", "b": 1}
    assert new.endswith(" # note: y\nb: 1\n") and answers == [True]


FALLBACKS = {
    "an anchored value": ("a: &x 1\nb: *x\nc: 2\n", ("c",), 3),
    "a << merge": ("base: &b {k: 1}\nm:\n  <<: *b\n  j: 2\n", ("m", "j"), 3),
    "a plain scalar on two lines": ("a: foo\n  bar\nb: 1\n", ("a",), "x"),
    "a block scalar": ("a: |\n  x\nb: 1\n", ("a",), "y\n"),
    "a flow list": ("a: [1, 2]\n", ("a", 0), 5),
    "a flow mapping": ("a: {k: 1}\n", ("a", "k"), 5),
    "a standard tag": ("a: !!str 1\n", ("a",), "2"),
    "a custom tag": ("a: !custom x\n", ("a",), "y"),
    "a directive": ("%YAML 1.2\n---\na: 1\n", ("a",), 2),
    "a directive after a carriage return": ("# c\r%YAML 1.1\r---\ra: yes\r", ("a",), False),
    "a value that becomes a mapping": ("a: 1\nb: 2\n", ("a",), {"k": 1}),
    "a value that becomes several lines": ("a: 1\nb: 2\n", ("a",), "one\ntwo\n"),
    "a quoted scalar on two lines": ('a: "x\n  y"\nb: 1\n', ("a",), "z"),
    "a document at the root": ("just text\n", (), "other"),
}


@pytest.mark.parametrize("name", list(FALLBACKS))
def test_every_shape_outside_the_argument_is_read_whole(monkeypatch, name):
    text, path, value = FALLBACKS[name]
    answers = _spy(monkeypatch)
    data = _with(read_document(text, "yaml", "doc"), path, value)
    new = edit_text(text, data, "yaml")
    assert same_value(read_document(new, "yaml", "doc"), data)
    assert True not in answers


def test_a_directive_is_seen_after_a_byte_order_mark_and_any_line_break():
    for text in ("\ufeff%YAML 1.1\n---\na: 1\n", "# c\r%TAG ! tag:x,2000:\r---\ra: 1\r", "a: 1\n...\n%YAML 1.1\n---\n"):
        assert yaml_local._has_directive(text)
    assert not yaml_local._has_directive("a: 50%\nb: '%x'\n")


def test_several_documents_are_read_whole(monkeypatch):
    answers = _spy(monkeypatch)
    text = "a: 1\n---\nb: 2\n"
    new = edit_text(text, {"a": 5}, TextFormat("yaml", document=0))
    assert new == "a: 5\n---\nb: 2\n" and answers == [False]


def test_a_changed_key_is_read_whole(monkeypatch):
    answers = _spy(monkeypatch)
    new = edit_text("a: 1\nb: 2\n", {"c": 1, "b": 2}, "yaml")
    assert read_document(new, "yaml", "doc") == {"c": 1, "b": 2} and True not in answers


def test_the_claimed_data_is_compared_everywhere():
    # The edited line reads as 5; data that also differs elsewhere is not vouched for.
    old = "a: 1\nb: [1, 2]\nc:\n  - x\n  - y\n"
    stream = yaml_tree.parse_stream(old, "doc")
    splice = Splice(3, 4, "5")
    assert yaml_local.reads_as_after_splices(old, stream, [splice], {"a": 5, "b": [1, 2], "c": ["x", "y"]}, None)
    for wrong in (
        {"a": 6, "b": [1, 2], "c": ["x", "y"]},
        {"a": "5", "b": [1, 2], "c": ["x", "y"]},
        {"a": 5, "b": [1, 3], "c": ["x", "y"]},
        {"a": 5, "b": [1, 2], "c": ["x", "z"]},
        {"a": 5, "b": [1, 2]},
        {"a": 5, "b": [1, 2], "c": ["x", "y"], "d": 1},
        {"a": True, "b": [1, 2], "c": ["x", "y"]},
    ):
        assert not yaml_local.reads_as_after_splices(old, stream, [splice], wrong, None)


def _spy(monkeypatch) -> list[bool]:
    answers: list[bool] = []
    real = yaml_local.reads_as_after_splices

    def spy(*args, **kwargs):
        answers.append(real(*args, **kwargs))
        return answers[-1]

    monkeypatch.setattr(yaml_local, "reads_as_after_splices", spy)
    return answers


# -- plain scalars: the first-character fast path ---------------------------------------------------


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(st.sampled_from(TRICKY), st.text(max_size=16)), st.sampled_from([(1, 1), (1, 2)]))
def test_a_plain_scalar_outside_the_special_first_characters_resolves_as_a_string(text, version):
    table = yaml_tree._tag_table(version)
    if text[:1] not in table.special:
        assert table.resolve(text) == yaml_tree.CORE + "str"


PLAIN = [
    "yes", "Yes", "no", "on", "Off", "y", "n", "~", "null", "", "true", "FALSE", "0x1A", "0o17", "017",
    "0b101", "1_000", "+12", "-0", ".5", "1e3", "1.5e+3", ".inf", "-.Inf", ".nan", "1:30", "190:20:30",
    "2024-01-01", "=", "item 7", "SKU-000123", "lorem ipsum", "é", "x1", "0.37",
]  # fmt: skip


@pytest.mark.parametrize("version", ["1.1", "1.2"])
def test_plain_scalars_read_as_the_yaml_libraries_read_them(version):
    import math

    import yaml
    from ruamel.yaml import YAML

    for spelling in PLAIN:
        text = f"k: {spelling}\n"
        ours = read_document(text, TextFormat("yaml", version), "doc")["k"]
        if spelling == "=":
            assert ours == "="  # the libraries know no constructor for its tag
            continue
        if version == "1.1":
            theirs = yaml.safe_load(text)["k"]
        else:
            theirs = YAML(typ="safe", pure=True).load(io.StringIO(text))["k"]
        if spelling == "2024-01-01":
            assert ours == spelling  # timestamps stay their text
            continue
        if isinstance(theirs, float) and math.isnan(theirs):
            assert isinstance(ours, float) and math.isnan(ours)
            continue
        assert same_value(ours, theirs), (version, spelling, ours, theirs)


def test_the_quick_reader_and_the_tree_read_plain_scalars_alike():
    for spelling in PLAIN:
        text = f"- {spelling}\n- x{spelling}\n- {{k: {spelling or '~'}}}\n"
        for version in VERSIONS:
            plain = yaml_tree.read_plain(text, "doc", version=version)
            tree = yaml_tree.parse_stream(text, "doc", version=version).documents[0].root
            assert plain is not None and same_value(plain[0].data, tree.decoded)
