"""TOML records (pyproject.toml, Cargo.toml, ruff.toml) read as data and saved in place with the
same guarantees as JSON and YAML: a save with no change gives the same bytes, one changed value
changes only its own line (its comment kept), and what is written reads back, by Python's own
``tomllib`` too, as the new data."""

from __future__ import annotations

import copy
import random
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine.errors import InputError
from deskcheck.engine.textdoc import DocumentEditError, read_document, render_document, write_document
from deskcheck.engine.textdoc.nodes import same_value
from tests.hypothesis_profiles import examples

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "configs"
REAL = sorted(FIXTURES.rglob("*.toml"))

CARGO = """\
# The package.
[package]
name = 'demo'          # literal string
version = "0.1.0"
edition = "2021"
released = 1979-05-27T07:32:00Z
authors = [
    "A <a@example.org>",  # first
    "B <b@example.org>",
]

[dependencies]
serde = { version = "1", features = ["derive"] }

[[bin]]
name = "one"
path = "src/one.rs"

[[bin]]
name = "two"
"""


def save(text: str, change) -> str:
    data = read_document(text, "toml", "t")
    change(data)
    out = write_document(text.encode(), data, "toml", "t").decode()
    assert same_value(read_document(out, "toml", "t"), data)
    tomllib.loads(out)
    return out


def test_reading_a_cargo_file():
    data = read_document(CARGO, "toml", "t")
    assert data["package"]["released"] == "1979-05-27T07:32:00Z", "a date is its text"
    assert data["dependencies"]["serde"] == {"version": "1", "features": ["derive"]}
    assert [b["name"] for b in data["bin"]] == ["one", "two"]


def test_one_value_changes_one_line_with_its_comment_and_quoting():
    out = save(CARGO, lambda d: d["package"].update(name="demo2"))
    assert out == CARGO.replace("name = 'demo'", "name = 'demo2'")
    out = save(CARGO, lambda d: d["package"]["authors"].__setitem__(0, "C <c@example.org>"))
    assert out == CARGO.replace("A <a@example.org>", "C <c@example.org>")
    out = save(CARGO, lambda d: d["package"].update(released="2024-01-02T03:04:05Z"))
    assert out == CARGO.replace("1979-05-27T07:32:00Z", "2024-01-02T03:04:05Z"), "still a date, not a string"
    out = save(CARGO, lambda d: d["dependencies"]["serde"].update(version="2"))
    assert out == CARGO.replace('version = "1"', 'version = "2"')
    out = save(CARGO, lambda d: d["bin"][1].update(path="src/two.rs"))
    assert out == CARGO + 'path = "src/two.rs"\n'


def test_keys_and_tables_removed_and_added():
    out = save(CARGO, lambda d: d["package"].pop("edition"))
    assert out == CARGO.replace('edition = "2021"\n', "")
    out = save(CARGO, lambda d: d.pop("dependencies"))
    assert "[dependencies]" not in out and out.startswith(CARGO[: CARGO.index("[dependencies]")])
    out = save(CARGO, lambda d: d["bin"].pop(0))
    assert out.endswith('[[bin]]\nname = "two"\n') and out.count("[[bin]]") == 1
    out = save(CARGO, lambda d: d["package"]["authors"].append("D <d@example.org>"))
    assert '    "B <b@example.org>",\n    "D <d@example.org>",\n]' in out
    out = save(CARGO, lambda d: d.update(features={"default": ["std"]}))
    assert out.startswith(CARGO) and tomllib.loads(out)["features"] == {"default": ["std"]}


def test_a_string_that_a_literal_cannot_hold_gets_basic_quotes():
    out = save(CARGO, lambda d: d["package"].update(name="it's"))
    assert 'name = "it\'s"          # literal string' in out


def test_what_toml_cannot_hold_is_refused_and_nothing_written():
    with pytest.raises(DocumentEditError, match="TOML has no null"):
        write_document(CARGO.encode(), {**read_document(CARGO, "toml", "t"), "x": [1, None]}, "toml", "t")
    with pytest.raises(DocumentEditError, match="table of keys at its top"):
        write_document(CARGO.encode(), [1, 2], "toml", "t")
    with pytest.raises(InputError, match="not valid TOML at line 1"):
        read_document("a = \n", "toml", "t")


def test_a_new_toml_file():
    text = render_document({"tool": {"x": {"a": 1, "b": ["c"]}}, "name": "n"}, "toml")
    assert tomllib.loads(text) == {"tool": {"x": {"a": 1, "b": ["c"]}}, "name": "n"}


@pytest.mark.parametrize("path", REAL, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_real_files(path):
    raw = path.read_bytes()
    text = raw.decode("utf-8-sig")
    data = read_document(text, "toml", "t")
    assert write_document(raw, copy.deepcopy(data), "toml", "t") == raw
    rng = random.Random(path.name)
    for pointer, value in _leaves(data)[:12]:
        changed = copy.deepcopy(data)
        new = _other(value, rng)
        _set(changed, pointer, new)
        out = write_document(raw, changed, "toml", "t").decode()
        assert same_value(read_document(out, "toml", "t"), changed)
        _assert_one_line_changed(text, out, pointer)


# -- generated documents -----------------------------------------------------------------------------

keys = st.one_of(st.sampled_from(["a", "b", "name", "key with space", "é", "1", "true", "x.y"]), st.text(max_size=8))
strings = st.one_of(
    st.sampled_from(["", "it's", 'say "hi"', "a\nb", "\\", "# no comment", "1979-05-27"]), st.text(max_size=12)
)
scalars = st.one_of(
    st.booleans(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False, allow_infinity=False), strings
)
arrays = st.lists(scalars, max_size=4)
tables = st.recursive(
    st.dictionaries(keys, st.one_of(scalars, arrays), max_size=4),
    lambda inner: st.dictionaries(
        keys, st.one_of(scalars, arrays, inner, st.lists(inner, min_size=1, max_size=2)), max_size=4
    ),
    max_leaves=12,
)
documents = tables.filter(bool)


def toml_text(data: dict, commented: bool, rng: random.Random) -> str:
    import tomlkit

    text = tomlkit.dumps(data)
    if not commented:
        return text
    out = []
    for body in text.split("\n")[:-1]:  # (splitlines would also split at U+0085 inside a string)
        if body and rng.random() < 0.5:
            body += "  # note"
        out.append(body + "\n")
        if rng.random() < 0.2:
            out.append("\n")
    return "".join(out)


common = settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(documents, st.booleans(), st.integers(0, 2**32))
def test_generated_files_keep_their_bytes_and_change_one_line_per_value(data, commented, seed):
    rng = random.Random(seed)
    text = toml_text(data, commented, rng)
    read = read_document(text, "toml", "t")
    assert same_value(read, tomllib.loads(text)), "the reading agrees with Python's own reader"
    assert write_document(text.encode(), copy.deepcopy(read), "toml", "t") == text.encode()
    leaves = _leaves(read)
    for pointer, value in rng.sample(leaves, min(3, len(leaves))):
        changed = copy.deepcopy(read)
        _set(changed, pointer, _other(value, rng))
        out = write_document(text.encode(), changed, "toml", "t").decode()
        assert same_value(tomllib.loads(out), changed), out
        _assert_one_line_changed(text, out, pointer)


@common
@given(documents, documents)
def test_any_new_document_is_written_exactly(before, after):
    import tomlkit

    out = write_document(tomlkit.dumps(before).encode(), after, "toml", "t").decode()
    assert same_value(tomllib.loads(out), after)


# -- helpers --------------------------------------------------------------------------------------------


def _leaves(data, path=()):
    """(path, value) of every scalar not inside an array, in document order."""
    out = []
    for key, value in data.items():
        if isinstance(value, dict):
            out += _leaves(value, (*path, key))
        elif not isinstance(value, list):
            out.append(((*path, key), value))
    return out


def _set(data, path, value):
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _other(value, rng):
    while True:
        candidate = rng.choice(["changed", "it's", 'q"uote', 42, -1.5, True, False, "2024-01-01", "multi\nline"])
        if not same_value(candidate, value):
            return candidate


def _assert_one_line_changed(before: str, after: str, path) -> None:
    """The lines that changed are one run that starts at the key's own line (a multi-line value
    is replaced with all its lines), and a comment on that line stays."""
    from difflib import SequenceMatcher

    old, new = before.split("\n"), after.split("\n")
    runs = [op for op in SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]
    context = f"{path}\n{before}\n---\n{after}"
    assert len(runs) <= 1, context
    if runs:
        _, i1, i2, j1, j2 = runs[0]
        assert i2 - i1 >= 1 and j2 - j1 == 1, context
        key = str(path[-1])
        assert key in old[i1] or repr(key)[1:-1] in old[i1] or "." in key or "\\" in old[i1], context
        if old[i1].endswith("# note"):
            assert new[j1].endswith("# note"), "the comment on the line stays"
