"""How a text is read: one document of a YAML stream (the others kept byte for byte), YAML 1.1 as
PyYAML reads it, keys written twice (one rule for JSON and YAML), the format of a file whose
name does not say, the values a YAML file shares through anchors, and the two YAML parsers
(libyaml first, ruamel.yaml's pure parser for what libyaml refuses) building the same tree."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine.errors import InputError
from deskcheck.engine.textdoc import (
    DocumentEditError,
    TextFormat,
    detect_kind,
    read_document,
    read_text,
    shared_values,
    write_document,
    yaml_tree,
)
from deskcheck.engine.textdoc.nodes import Alias, Mapping, Scalar, Sequence
from tests.hypothesis_profiles import examples

from .support import check, check_unchanged, edits
from .test_properties import documents, yaml_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MANIFEST = (FIXTURES / "configs" / "kubernetes" / "guestbook-all-in-one.yaml").read_text()


def doc(index: int) -> TextFormat:
    return TextFormat("yaml", document=index)


# -- streams of several documents ----------------------------------------------------------------


def test_each_document_of_a_stream_reads_on_its_own():
    assert read_document(MANIFEST, doc(0), "m")["kind"] == "Service"
    assert read_document(MANIFEST, doc(3), "m")["spec"]["replicas"] == 2
    with pytest.raises(InputError, match=r"holds 6 YAML documents .* --document N") as info:
        read_document(MANIFEST, "yaml", "m")
    assert info.value.code == "severalDocuments"
    with pytest.raises(InputError, match="has 6 YAML documents, so there is no document 7") as info:
        read_document(MANIFEST, doc(6), "m")
    assert info.value.code == "noDocument"


def test_editing_one_document_keeps_every_other_byte():
    data = read_document(MANIFEST, doc(3), "m")
    data["spec"]["replicas"] = 5
    data["metadata"]["labels"] = {"team": "web"}
    out = write_document(MANIFEST.encode(), data, doc(3), "m").decode()
    assert read_document(out, doc(3), "m") == data
    for other in (0, 1, 2, 4, 5):
        assert read_document(out, doc(other), "m") == read_document(MANIFEST, doc(other), "m")
    starts = [i for i in range(len(MANIFEST)) if MANIFEST.startswith("---", i)]
    # Everything before the fourth document and everything after it is the same text.
    assert out.startswith(MANIFEST[: starts[2]]) and out.endswith(MANIFEST[starts[3] :])
    assert write_document(MANIFEST.encode(), read_document(MANIFEST, doc(3), "m"), doc(3), "m") == MANIFEST.encode()


def test_one_document_and_a_trailing_separator_is_one_document():
    for text in ("a: 1\n---\n", "---\na: 1\n", "---\na: 1\n...\n", "# c\n---\na: 1\n---\n# nothing\n"):
        assert read_document(text, "yaml", "d") == {"a": 1}
        assert write_document(text.encode(), {"a": 2}, "yaml", "d").decode() == text.replace("a: 1", "a: 2")


def test_an_empty_document_of_a_stream_gets_its_content_in_its_place():
    text = "a: 1\n---\n---\nc: 3\n"
    out = write_document(text.encode(), {"b": 2}, doc(1), "d").decode()
    assert [read_document(out, doc(i), "d") for i in range(3)] == [{"a": 1}, {"b": 2}, {"c": 3}]
    assert out.startswith("a: 1\n---\n") and out.endswith("---\nc: 3\n")


def test_a_change_that_would_move_the_other_documents_is_refused(monkeypatch):
    # The writer never makes such a text on its own (a new "---" line is quoted away); the
    # check behind it is what guarantees the other documents, so it is tried with an editor
    # that splices one in.
    from deskcheck.engine.textdoc.splices import Splice
    from deskcheck.engine.textdoc.yaml_edit import YamlEditor

    def splitting(self, node, value, parent, entry=None, anchor=None):
        return [Splice(node.start, node.end, "1\n---\nc: 3")]

    monkeypatch.setattr(YamlEditor, "replace", splitting)
    text = "a: 0\n---\nb: 2\n"
    with pytest.raises(DocumentEditError, match="nothing was written"):
        write_document(text.encode(), {"a": 1}, doc(0), "d")


def test_anchors_belong_to_their_own_document():
    with pytest.raises(InputError, match=r"alias \*a before"):
        read_document("a: &a 1\n---\nb: *a\n", doc(1), "d")


# -- YAML 1.1 --------------------------------------------------------------------------------------

PLAYBOOK = "- hosts: all\n  become: yes\n  tasks:\n    - file: {path: /tmp/x, mode: 0755}\n      when: no\n"


def test_yaml_1_1_reads_as_pyyaml_reads_it():
    eleven = TextFormat("yaml", "1.1")
    assert read_document(PLAYBOOK, eleven, "p") == yaml.safe_load(PLAYBOOK)
    assert read_document(PLAYBOOK, "yaml", "p")[0]["become"] == "yes"  # YAML 1.2 by default
    words = "a: y\nb: n\nc: On\nd: 1:30\ne: 1e3\nf: 1.5e3\ng: 0o17\nh: 0x1F\ni: 1_000\n"
    assert read_document(words, eleven, "w") == yaml.safe_load(words)


def test_yaml_1_1_is_kept_on_save():
    eleven = TextFormat("yaml", "1.1")
    data = read_document(PLAYBOOK, eleven, "p")
    data[0]["become"] = False
    data[0]["name"] = "yes"  # a string that 1.1 would read as true must be quoted
    data[0]["tasks"][0]["file"]["mode"] = 420
    out = write_document(PLAYBOOK.encode(), data, eleven, "p").decode()
    assert yaml.safe_load(out) == data
    assert "become: false" in out and "mode: 420" in out and 'name: "yes"' in out
    assert "when: no" in out, "untouched values keep their 1.1 spelling"


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, st.integers(0, 1), st.integers(0, 2**32))
def test_yaml_1_1_edits_keep_the_save_properties_and_read_back_as_pyyaml_reads_them(document, style, seed):
    from deskcheck.engine.textdoc.nodes import same_value

    eleven = TextFormat("yaml", "1.1")
    text = yaml.safe_dump(document, sort_keys=False, default_flow_style=None if style else False)
    check_unchanged(text.encode(), eleven)
    for edit in edits(text, eleven, random.Random(seed), 3):
        check(text, eleven, edit)  # reads back as the edit (as 1.1), changing only its lines
        out = write_document(text.encode(), edit.data, eleven, "d").decode()
        assert same_value(yaml.safe_load(out), edit.data), out


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(documents, min_size=2, max_size=3), st.integers(0, 3), st.integers(0, 2**32))
def test_one_document_of_a_generated_stream_keeps_the_save_properties(stream, style, seed):
    text = "---\n".join(yaml_text(document, style) for document in stream)
    rng = random.Random(seed)
    index = rng.randrange(len(stream))
    check_unchanged(text.encode(), doc(index))
    for edit in edits(text, doc(index), rng, 3):
        check(text, doc(index), edit)  # (check_unchanged and the span check cover the others)
        out = write_document(text.encode(), edit.data, doc(index), "d").decode()
        for other in range(len(stream)):
            if other != index:
                assert read_document(out, doc(other), "d") == read_document(text, doc(other), "d")


# -- keys written twice: one rule -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "text"),
    [("json", '{\n  "a": 1,\n  "b": 0,\n  "a": 2\n}\n'), ("yaml", "a: 1\nb: 0\na: 2\n")],
)
def test_a_key_written_twice_counts_once_as_its_last_value_in_its_first_place(kind, text):
    reading = read_text(text, kind, "d")
    assert reading.data == {"a": 2, "b": 0} and list(reading.data) == ["a", "b"]
    assert [(d.key, d.first_line, d.last_line) for d in reading.duplicates] == [
        ("a", 1 + (kind == "json"), 3 + (kind == "json"))
    ]
    changed = write_document(text.encode(), {"a": 3, "b": 0}, kind, "d").decode()
    assert changed == text.replace("2", "3"), "written at the last occurrence"
    removed = write_document(text.encode(), {"b": 0}, kind, "d").decode()
    assert read_document(removed, kind, "d") == {"b": 0} and "a" not in removed


def test_a_key_written_once_is_no_duplicate_and_toml_refuses_them():
    assert read_text('{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}', "json", "d").duplicates == []
    assert read_text("a: {a: 1}\nb: [{a: 1}, {a: 2}]\nc: &x {k: 1}\nd: {<<: *x, k: 2}\n", "yaml", "d").duplicates == []
    with pytest.raises(InputError, match="not valid TOML at line 2"):
        read_document("a = 1\na = 2\n", "toml", "d")


# -- formats by content -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("configs/prettier-json/.prettierrc", "json"),
        ("configs/prettier-yaml/.prettierrc", "yaml"),
        ("configs/clang-format/.clang-format", "yaml"),
        ("configs/ruff/human-readable-rule-selectors.toml", "toml"),
        ("configs/pyproject/poetry-complete.toml", "toml"),
        ("textdoc/tsconfig__hejlsberg.json", "json"),
        ("textdoc/odd__jsonc-no-final-newline.json", "json"),
        ("textdoc/github-workflow__npm-publish.yaml", "yaml"),
    ],
)
def test_the_format_of_a_real_file_is_known_from_its_content(path, kind):
    assert detect_kind((FIXTURES / path).read_text(encoding="utf-8-sig")) == kind


def test_formats_by_content_at_their_edges():
    assert detect_kind("[a, b]\n") == "yaml"  # a flow list, not JSON
    assert detect_kind("[tool]\nx = 1\n") == "toml"
    assert detect_kind("") == detect_kind("# nothing\n") == "yaml"
    assert detect_kind('"just a string"') == "json"


# -- shared values ----------------------------------------------------------------------------------


def test_shared_values_are_listed_with_every_place():
    text = "base: &b\n  image: x\n  env: &e {A: 1}\nweb: *b\nworker:\n  <<: *b\n  extra: *e\n  image: own\nlist: [*e]\n"
    assert shared_values(text, "yaml", "d") == [
        ["/base", "/web"],
        ["/base/env", "/worker/extra", "/list/0"],
        ["/base/env", "/worker/env"],
    ]
    assert shared_values('{"a": "*b"}', "json", "d") == [] and shared_values("a: 1\n", "yaml", "d") == []


# -- the two parsers ---------------------------------------------------------------------------------


def _shape(node, text):
    """Everything of a tree an edit relies on, as plain tuples."""
    if node is None:
        return None
    if isinstance(node, Alias):
        return ("alias", node.start, node.end, node.name)
    if isinstance(node, Scalar):
        return ("scalar", node.start, node.end, repr(node.value), node.style, node.anchor, node.tag)
    if isinstance(node, Sequence):
        items = [_shape(item, text) for item in node.items]
        return ("seq", node.start, node.end, node.flow, node.open, node.close, node.anchor, node.tag, items)
    assert isinstance(node, Mapping)
    entries = [(e.key, e.key_start, e.key_end, e.colon, e.merge, _shape(e.value, text)) for e in node.entries]
    return ("map", node.start, node.end, node.flow, node.open, node.close, node.anchor, node.tag, entries)


def _both_trees(text, monkeypatch):
    fast = [(_shape(d.root, text), d.start, d.end, d.tail) for d in yaml_tree.parse_stream(text).documents]
    with monkeypatch.context() as patch:
        patch.setattr(yaml_tree, "_libyaml_parser", lambda: None)
        pure = [(_shape(d.root, text), d.start, d.end, d.tail) for d in yaml_tree.parse_stream(text).documents]
    return fast, pure


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(documents, st.integers(0, 3))
def test_libyaml_and_the_pure_parser_build_the_same_tree(monkeypatch, document, style):
    text = yaml_text(document, style)
    fast, pure = _both_trees(text, monkeypatch)
    assert fast == pure


def real_yaml_files() -> list[Path]:
    return sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def test_libyaml_and_the_pure_parser_agree_on_every_real_file(monkeypatch):
    checked = 0
    for path in real_yaml_files():
        text = path.read_text(encoding="utf-8-sig")
        try:
            fast, pure = _both_trees(text, monkeypatch)
        except InputError:
            continue  # refused the same way by both (keys that are lists, say): not the point here
        assert fast == pure, path
        checked += 1
    assert checked > 150


def test_line_breaks_only_yaml_1_1_knows_are_read_by_the_yaml_1_2_parser():
    # U+2028 and U+0085 end a line for libyaml (YAML 1.1); YAML 1.2 reads them as characters.
    for text in ("a: x\u2028y\n", "a: x\x85y\n", "- 'p\u2029q'\n"):
        assert read_document(text, "yaml", "d") == _ruamel_data(text)


def _ruamel_data(text):
    from ruamel.yaml import YAML

    return YAML(typ="safe", pure=True).load(io.StringIO(text))


def test_real_multi_document_files_keep_the_save_properties():
    for path in (FIXTURES / "configs" / "kubernetes").glob("*.yaml"):
        text = path.read_text()
        for index in range(len(yaml_tree.parse_stream(text).documents)):
            check_unchanged(text.encode(), doc(index))
            for edit in edits(text, doc(index), random.Random(index), 4):
                check(text, doc(index), edit)


# -- the quick readers agree with the full ones -------------------------------------------------------


def _plain_agrees(text: str) -> bool:
    """Whether ``read_plain`` gives what the tree gives (True when it declines to read)."""
    from deskcheck.engine.textdoc.nodes import Budget, same_value, to_data

    plain = yaml_tree.read_plain(text, "d")
    if plain is None:
        return True
    stream = yaml_tree.parse_stream(text, "d")
    assert [(d.content, d.start, d.end) for d in plain] == [
        (d.root is not None, d.start, d.end) for d in stream.documents
    ]
    for quick, full in zip(plain, stream.documents, strict=True):
        expected = None if full.root is None else to_data(full.root, Budget(10**6, "d"))
        assert same_value(quick.data, expected)
    return True


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, st.integers(0, 3))
def test_the_quick_yaml_reader_reads_what_the_tree_reads(document, style):
    assert _plain_agrees(yaml_text(document, style))


def test_the_quick_yaml_reader_on_real_files_and_streams():
    for path in real_yaml_files():
        text = path.read_text(encoding="utf-8-sig")
        try:
            _plain_agrees(text)
        except InputError:
            continue
    # What it leaves to the tree: shared values, keys written twice.
    assert yaml_tree.read_plain("a: &x 1\nb: *x\n", "d") is None
    assert yaml_tree.read_plain("a: {<<: {b: 1}}\n", "d") is None
    assert yaml_tree.read_plain("a: 1\na: 2\n", "d") is None


@settings(max_examples=examples(150), deadline=None)
@given(documents, st.integers(0, 4))
def test_the_lazy_json_tree_has_the_full_trees_positions(document, style):
    from deskcheck.engine.textdoc.json_tree import parse_json, parse_json_lazy

    from .test_properties import json_text

    text = json_text(document, style, False, True)
    assert _json_shape(parse_json_lazy(text)) == _json_shape(parse_json(text))


def _json_shape(node):
    if isinstance(node, Scalar):
        return ("scalar", node.start, node.end, repr(node.value), node.style)
    if isinstance(node, Sequence):
        return ("seq", node.start, node.end, node.open, node.close, [_json_shape(i) for i in node.items])
    entries = [(e.key, e.key_start, e.key_end, e.colon, _json_shape(e.value)) for e in node.entries]
    return ("map", node.start, node.end, node.open, node.close, entries)
