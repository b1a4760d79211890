"""Saving into JSON files changes only the bytes of the values that changed: each case is a file
shape met in the wild (comments, CRLF, a byte order mark, tabs, minified text, repeated keys)."""

from __future__ import annotations

import json

import pytest

from deskcheck.engine.errors import InputError
from deskcheck.engine.textdoc import read_document, write_document

from . import support


def save(text: str | bytes, change) -> str:
    return support.save(text, change, "json")


def test_numbers_and_escapes_keep_their_spelling_where_the_value_did_not_change():
    text = '{"a": 1e-9, "b": 1.0, "c": -0, "d": 1E+2, "e": "caf\\u00e9 \\/ \\n", "f": "x"}\n'
    assert save(text, lambda d: d.update(f="y")) == text.replace('"x"', '"y"')


def test_a_changed_number_is_written_the_way_json_writers_spell_it():
    assert save('{"a": 1}', lambda d: d.update(a=1e-9)) == '{"a": 1e-9}'
    assert save('{"a": 1}', lambda d: d.update(a=2.5)) == '{"a": 2.5}'
    assert save('{"a": 1.0}', lambda d: d.update(a=1)) == '{"a": 1.0}', "1 and 1.0 are the same number"


def test_a_key_added_to_a_pretty_file_follows_its_indentation_and_line_ends():
    assert save('{\r\n  "a": 1\r\n}\r\n', lambda d: d.update(b={"c": [1]})) == (
        '{\r\n  "a": 1,\r\n  "b": {\r\n    "c": [\r\n      1\r\n    ]\r\n  }\r\n}\r\n'
    )
    assert save('{\n\t"a": {\n\t\t"b": 1\n\t}\n}', lambda d: d["a"].update(c=2)) == (
        '{\n\t"a": {\n\t\t"b": 1,\n\t\t"c": 2\n\t}\n}'
    ), "tabs kept, and still no final newline"


def test_a_minified_file_stays_minified():
    assert save('{"a":1,"b":[1,2]}', lambda d: (d.update(c=3), d["b"].append(3))) == '{"a":1,"b":[1,2,3],"c":3}'


def test_a_byte_order_mark_is_kept():
    raw = b'\xef\xbb\xbf{"a": 1}\n'
    assert save(raw, lambda d: d.update(a=2)).encode("utf-8") == b'\xef\xbb\xbf{"a": 2}\n'


def test_a_removed_key_takes_its_line_and_the_commas_follow():
    text = '{\n  "a": 1,\n  "b": 2,\n  "c": 3\n}\n'
    assert save(text, lambda d: d.pop("b")) == '{\n  "a": 1,\n  "c": 3\n}\n'
    assert save(text, lambda d: d.pop("c")) == '{\n  "a": 1,\n  "b": 2\n}\n'
    assert save(text, lambda d: d.clear()) == "{}\n"
    assert save('{"a": 1, "b": 2}', lambda d: d.pop("a")) == '{"b": 2}'


def test_an_inline_array_stays_inline_in_a_pretty_file():
    text = '{\n  "tags": ["a", "b"],\n  "n": 1\n}\n'
    assert save(text, lambda d: d["tags"].insert(1, "x")) == '{\n  "tags": ["a", "x", "b"],\n  "n": 1\n}\n'
    assert save(text, lambda d: d["tags"].pop(0)) == '{\n  "tags": ["b"],\n  "n": 1\n}\n'


def test_comments_and_trailing_commas_of_tsconfig_style_files_are_kept():
    text = (
        '{\n  // the compiler\n  "compilerOptions": {\n    "strict": true, // always\n    "target": "es5",\n  },\n}\n'
    )
    assert read_document(text, "json", "doc") == {"compilerOptions": {"strict": True, "target": "es5"}}
    out = save(text, lambda d: d["compilerOptions"].update(target="es2022", noEmit=True))
    assert out == (
        '{\n  // the compiler\n  "compilerOptions": {\n    "strict": true, // always\n    "target": "es2022",\n'
        '    "noEmit": true,\n  },\n}\n'
    )
    assert save(text, lambda d: d["compilerOptions"].pop("strict")) == (
        '{\n  // the compiler\n  "compilerOptions": {\n    "target": "es5",\n  },\n}\n'
    )


def test_a_repeated_key_counts_once_as_its_last_occurrence():
    # Decision: as JSON.parse and Python read it, the last one wins; a change is written there;
    # removing the key removes every occurrence.
    text = '{"a": 1, "b": 0, "a": 2}'
    assert read_document(text, "json", "doc") == {"a": 2, "b": 0}
    assert save(text, lambda d: d.update(a=3)) == '{"a": 1, "b": 0, "a": 3}'
    assert save(text, lambda d: d.pop("a")) == '{"b": 0}'


def test_values_json_cannot_hold_as_utf8_are_escaped():
    assert save('{"a": 1}', lambda d: d.update(a="\ud800x")) == '{"a": "\\ud800x"}'
    assert save('{"a": NaN, "b": 1}', lambda d: d.update(b=2)) == '{"a": NaN, "b": 2}'


def test_the_root_can_change_type():
    assert save("[1, 2]\n", lambda d: d.append(3)) == "[1, 2, 3]\n"
    assert json.loads(write_document(b"[1]", {"a": 1}, "json")) == {"a": 1}
    assert write_document(b'  "x"  ', "y", "json") == b'  "y"  '


def test_hostile_files_are_refused_with_a_reason():
    with pytest.raises(InputError, match="nests deeper"):
        read_document("[" * 5000 + "]" * 5000, "json", "doc")
    with pytest.raises(InputError, match="nests deeper"):
        read_document("[" * 300 + "]" * 300, "json", "doc")
    with pytest.raises(InputError, match="number too long"):
        read_document("[" + "9" * 5000 + "]", "json", "doc")
    with pytest.raises(InputError, match="not valid JSON"):
        read_document('{"a": 1,, }', "json", "doc")
    assert read_document("[" * 150 + "]" * 150, "json", "doc") is not None


def test_an_unchanged_document_gives_back_the_same_bytes():
    for raw in (b'{"a":1}', b'\xef\xbb\xbf{\r\n\t"a": [1e-9, -0]\r\n}', b'{"a": 1, "a": 2}', b"{/*c*/}"):
        data = read_document(raw.decode("utf-8-sig"), "json", "doc")
        assert write_document(raw, data, "json") is raw


def test_a_lazily_read_member_is_its_containers_own_value_not_a_second_copy():
    # A 25 MB record was held two or three times over while a save looked for the changed value.
    from deskcheck.engine.textdoc.json_tree import parse_json_lazy

    root = parse_json_lazy('{"items": [{"a": [1, 2]}, {"a": [3]}], "n": 1}')
    items = root.entries[0].value
    assert items.decoded is root.decoded["items"]
    assert items.items[1].decoded is root.decoded["items"][1]
    assert items.items[0].entries[0].value.decoded is root.decoded["items"][0]["a"]


def test_a_key_written_twice_keeps_each_occurrences_own_value_when_read_lazily():
    from deskcheck.engine.textdoc.json_tree import parse_json_lazy

    root = parse_json_lazy('{"a": [1], "b": 2, "a": [3, 4]}')
    first, second, third = root.entries
    assert (first.key, first.value.decoded) == ("a", [1])
    assert (third.key, third.value.decoded) == ("a", [3, 4]) and third.value.decoded is root.decoded["a"]
    assert second.value.value == 2
