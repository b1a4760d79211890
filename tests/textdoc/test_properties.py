"""The two save properties over generated documents, written out by several writers in several
layouts, and over the real files in tests/fixtures/textdoc/ (see SOURCES.md there):

(a) writing a file's own data back gives the same bytes;
(b) one edit reads back as intended, keeps every other path and the key order, and changes only
    the lines of the edited value (``support.check``).
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from deskcheck.engine.errors import InputError
from deskcheck.engine.textdoc import read_document, write_document
from deskcheck.engine.textdoc.json_tree import parse_json
from deskcheck.engine.textdoc.nodes import Budget, same_value, to_data
from tests.hypothesis_profiles import examples

from .support import check, check_unchanged, edits

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "textdoc"

keys = st.one_of(
    st.sampled_from(["a", "b", "on", "yes", "200", "key with spaces", "é", "x: y", "#", "-", "<<", "true"]),
    st.text(max_size=12),
)
strings = st.one_of(
    st.sampled_from(["", "on", "null", "1e-9", "0x1F", "2024-01-01", "a\nb\n", " lead", "trail ", "'q'", '"', "\\"]),
    st.text(max_size=20),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    strings,
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=15,
)
documents = st.dictionaries(keys, values, min_size=1, max_size=5)


def json_text(doc, style: int, crlf: bool, final_newline: bool) -> str:
    indent, separators, ascii_only = [
        (None, None, True),
        (2, None, False),
        (4, (",", ": "), True),
        ("\t", None, False),
        (None, (",", ":"), False),
    ][style]
    text = json.dumps(doc, indent=indent, separators=separators, ensure_ascii=ascii_only)
    text += "\n" if final_newline else ""
    return text.replace("\n", "\r\n") if crlf else text


def yaml_text(doc, style: int) -> str:
    if style == 0:
        import yaml

        return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    if style == 1:
        import yaml

        return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=40)
    from ruamel.yaml import YAML

    writer = YAML(typ="rt")
    if style == 2:
        writer.indent(mapping=4, sequence=4, offset=2)
    else:
        writer.indent(mapping=2, sequence=2, offset=0)
        writer.default_flow_style = None
    out = io.StringIO()
    writer.dump(doc, out)
    try:
        read_document(out.getvalue(), "yaml", "doc")
    except InputError:
        # ruamel.yaml's writer can fold a long plain key inside {...} onto two lines, which no
        # YAML reader (its own included) accepts: not a file anyone has.
        assume(False)
    return out.getvalue()


def run_edits(text: str, kind: str, seed: int) -> None:
    raw = text.encode("utf-8")
    check_unchanged(raw, kind)
    for edit in edits(text, kind, random.Random(seed), 4):
        check(text, kind, edit)


common = settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(documents, st.integers(0, 4), st.booleans(), st.booleans(), st.integers(0, 2**32))
def test_generated_json_files(doc, style, crlf, final_newline, seed):
    run_edits(json_text(doc, style, crlf, final_newline), "json", seed)


@common
@given(documents, st.integers(0, 3), st.integers(0, 2**32))
def test_generated_yaml_files(doc, style, seed):
    text = yaml_text(doc, style)
    run_edits(text, "yaml", seed)


@common
@given(documents, documents, st.integers(0, 4), st.sampled_from(["json", "yaml"]))
def test_any_new_document_is_written_exactly(before, after, style, kind):
    # Not one edit: the whole document replaced by another. Whatever the difference, the text
    # written reads back as the new document.
    text = json_text(before, style, False, True) if kind == "json" else yaml_text(before, style % 4)
    written = write_document(text.encode(), after, kind, "doc")
    assert same_value(read_document(written.decode(), kind, "doc"), after)


@settings(max_examples=examples(200), deadline=None)
@given(values, st.integers(0, 4))
def test_the_positioned_json_parser_reads_what_json_loads_reads(doc, style):
    text = json_text(doc, style, False, False)
    assert same_value(to_data(parse_json(text), Budget(10**6, "doc")), json.loads(text))


def fixture_files() -> list[Path]:
    return sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".json", ".yaml", ".yml"))


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_real_files(path):
    kind = "json" if path.suffix == ".json" else "yaml"
    raw = path.read_bytes()
    check_unchanged(raw, kind)
    text = raw.decode("utf-8-sig")
    for edit in edits(text, kind, random.Random(path.name), 12):
        check(text, kind, edit)
