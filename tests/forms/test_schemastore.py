"""The SchemaStore corpus (tests/fixtures/schemastore, see its SOURCES.md): every schema opens
with its references to the files beside it followed, every instance is loaded unchanged, a
session saved without an edit sends back exactly what it loaded, and the form's verdict on each
instance is Python jsonschema's."""

from __future__ import annotations

import functools
import json
import shutil

import pytest

from deskcheck.engine.forms import FormState, form_toolset
from deskcheck.engine.forms.schema.values import json_equal, jsonable
from deskcheck.engine.forms.tools.session_tools import file_form_group
from tests.conftest import REPO
from tests.sweeps import sweep

from .schemastore import Reference, instances, open_form, read

ROOT = REPO / "tests" / "fixtures" / "schemastore"
SCHEMAS = ROOT / "schemas"
CORPUS = sorted(json.loads((ROOT / "corpus.json").read_text())["corpus"])
CASES = [(name, expected, path) for name in CORPUS for expected, path in instances(ROOT, name)]


def test_the_corpus_is_what_its_sources_say():
    assert len(CORPUS) >= 40
    with_both = [n for n in CORPUS if {e for m, e, _ in CASES if m == n} == {True, False}]
    assert len(with_both) >= 40, "schemas with positive and negative instances"
    assert len(CASES) >= 350


@functools.cache
def opened(name: str):
    return open_form(SCHEMAS / f"{name}.json")


@functools.cache
def reference() -> Reference:
    return Reference(SCHEMAS)


@pytest.mark.parametrize("name", CORPUS)
def test_every_schema_opens_with_its_references_followed(name):
    _, form = opened(name)
    assert form.schema_problems == [], "every reference followed, every keyword checked"
    state = FormState(form, {}, base={})
    assert form_toolset(state).call("form_describeState", {}).ok
    assert state.document == {} and not state.modified


@pytest.mark.parametrize(
    ("name", "expected", "path"), sweep(CASES, unpack=True), ids=[f"{n}/{p.parent.name}/{p.name}" for n, _, p in CASES]
)
def test_an_instance_is_kept_as_it_is_and_judged_as_jsonschema_judges_it(name, expected, path):
    schema, form = opened(name)
    data = read(path)
    state = FormState(form, data, base=data, fill_defaults=False)
    assert json_equal(state.document, jsonable(data)) and not state.modified
    assert form_toolset(state).call("form_describeState", {}).ok
    verdict = reference().is_valid(schema, SCHEMAS / f"{name}.json", data)
    assert verdict is not None, "every instance of the corpus is one jsonschema can decide"
    assert state.valid is verdict, [(e.path, e.message) for e in state.errors]


@pytest.mark.parametrize(
    ("name", "expected", "path"), sweep(CASES, unpack=True), ids=[f"{n}/{p.parent.name}/{p.name}" for n, _, p in CASES]
)
def test_a_session_saved_without_an_edit_leaves_the_file_as_it_was(name, expected, path, tmp_path):
    data_file = tmp_path / path.name
    shutil.copy(path, data_file)
    group = file_form_group(SCHEMAS / f"{name}.json", data_file)
    try:
        assert group.toolset().call("form_describeState", {}).ok
        session = group.session({})
        with session.peek() as state:
            assert state is not None and not state.modified
        session.save(allow_invalid=True)
    finally:
        group.close()
    assert data_file.read_bytes() == path.read_bytes()


def _leaves(state: FormState, limit: int) -> list:
    """Fields of the data holding a string, number or boolean, spread over the document."""
    found = [
        node
        for node in state.tree.nodes
        if not node.wrapper and node.shown and node.data_path and isinstance(node.data, (str, int, float, bool))
    ]
    step = max(1, len(found) // limit)
    return found[::step][:limit]


def _other(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    return value + "-edited"


@pytest.mark.parametrize(
    ("name", "path"), sweep([(n, p) for n, _, p in CASES], unpack=True), ids=[f"{n}/{p.name}" for n, _, p in CASES]
)
def test_setting_one_field_changes_only_that_value(name, path):
    _, form = opened(name)
    loaded = jsonable(read(path))
    for node in _leaves(FormState(form, loaded, base=loaded, fill_defaults=False), 3):
        state = FormState(form, loaded, base=loaded, fill_defaults=False)
        answer = form_toolset(state).call("form_setFieldValue", {"path": node.data_path, "value": _other(node.data)})
        assert answer.ok, answer.error
        assert _changed(loaded, state.document, "") == [node.data_path]


def _changed(before, after, pointer: str) -> list[str]:
    """The pointers where ``after`` differs from ``before``, through objects and lists alike."""
    from deskcheck.engine import jsonpointer

    if isinstance(before, dict) and isinstance(after, dict):
        keys = [*before, *(k for k in after if k not in before)]
        missing = object()
        return [
            found
            for key in keys
            for found in _changed(before.get(key, missing), after.get(key, missing), jsonpointer.append(pointer, key))
        ]
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        pairs = enumerate(zip(before, after, strict=True))
        return [found for i, (a, b) in pairs for found in _changed(a, b, f"{pointer}/{i}")]
    return [] if json_equal(before, after) else [pointer or "/"]
