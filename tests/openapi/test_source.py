"""Reading documents: JSON and YAML, positions of pointers, untrusted input, URLs."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deskcheck.engine import jsonpointer
from deskcheck.engine.errors import InputError
from deskcheck.engine.openapi.document.source import parse_text, read_source
from deskcheck.samples.records_api import openapi_path
from tests.hypothesis_profiles import examples

from .conftest import DATA_FAIR

SAMPLE_SPEC = openapi_path()

keys = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=6)
leaves = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8)
)
documents = st.dictionaries(
    keys,
    st.recursive(leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3)),
    max_size=4,
)


def pointers(value, prefix=""):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from pointers(item, jsonpointer.append(prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from pointers(item, jsonpointer.append(prefix, index))


@settings(max_examples=examples(150), deadline=None)
@given(documents, st.sampled_from([None, 1, 2]))
def test_every_json_pointer_is_located_at_its_key_or_value(doc, indent):
    text = json.dumps(doc, indent=indent, ensure_ascii=bool(indent == 2))
    source = parse_text(text)
    lines = text.split("\n")
    for pointer in pointers(doc):
        line, column = source.positions.locate(pointer)
        at = lines[line - 1][column - 1 :]
        if pointer == "":
            assert at.startswith("{")
            continue
        parent_pointer, last = jsonpointer.parent(pointer)
        parent = jsonpointer.resolve(doc, parent_pointer)
        if isinstance(parent, dict):
            assert at.startswith(json.dumps(last, ensure_ascii=bool(indent == 2))), (pointer, at)
        else:
            value = jsonpointer.resolve(doc, pointer)
            assert at.startswith(json.dumps(value, ensure_ascii=bool(indent == 2))[:1]), (pointer, at)


@pytest.mark.corpus("openapi")
def test_positions_in_a_minified_document():
    source = read_source(str(DATA_FAIR))
    line, column = source.positions.locate("/paths/~1datasets~1{id}~1lines/get/operationId")
    assert line == 1 and source.text[column - 1 :].startswith('"operationId":"readLines"')


def test_yaml_keys_are_strings_and_dates_stay_text():
    source = parse_text("a: 2020-01-01\nresponses:\n  200: {description: ok}\n  true: x\n", format="yaml")
    assert source.data == {"a": "2020-01-01", "responses": {"200": {"description": "ok"}, "true": "x"}}
    assert source.positions.locate("/responses/200/description") == (3, 9)


def test_yaml_alias_bombs_and_recursion_are_refused():
    bomb = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8)
    )
    with pytest.raises(InputError, match="expands to more than"):
        parse_text(bomb, format="yaml")
    with pytest.raises(InputError, match="contains itself"):
        parse_text("a: &a [*a]\n", format="yaml")
    with pytest.raises(InputError, match="not valid YAML"):
        parse_text("a: [unclosed\n", format="yaml")
    with pytest.raises(InputError, match="object"):
        parse_text("- a\n- b\n", format="yaml")


def test_files_are_checked_before_reading(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        read_source(str(tmp_path / "missing.json"))
    with pytest.raises(InputError, match="is a directory"):
        read_source(str(tmp_path))
    big = tmp_path / "big.json"
    big.write_text("{}" + " " * 100, encoding="utf-8")
    with pytest.raises(InputError, match="larger than 50 bytes"):
        read_source(str(big), max_bytes=50)
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"a": "é"}'.encode("latin-1"))
    with pytest.raises(InputError, match="not UTF-8"):
        read_source(str(latin))
    yaml_file = tmp_path / "doc.yml"
    yaml_file.write_text(json.dumps(json.loads(SAMPLE_SPEC.read_text(encoding="utf-8"))), encoding="utf-8")
    assert read_source(str(yaml_file)).format == "yaml"


def test_urls_are_fetched_once_without_following_redirects(scripted_server):
    scripted_server.answer(200, SAMPLE_SPEC.read_text(encoding="utf-8"))
    source = read_source(scripted_server.url + "/openapi.json")
    assert source.url and source.data["info"]["title"] == "deskcheck sample dataset-records API"
    scripted_server.answer(404, "gone", "text/plain")
    with pytest.raises(InputError, match="failed: HTTP 404"):
        read_source(scripted_server.url + "/missing.json")
    scripted_server.answer(302, "", "text/plain")
    with pytest.raises(InputError, match="does not follow redirects"):
        read_source(scripted_server.url + "/moved.json")
    scripted_server.answer(200, "x" * 200, "application/json")
    with pytest.raises(InputError, match="larger than"):
        read_source(scripted_server.url + "/big.json", max_bytes=100)
    assert len(scripted_server.received) == 4
