"""A `deskcheck form set-field-value` process loads what the call needs and no more: the form
engine validates with jsonschema-rs, never with Python's jsonschema, and starts the JavaScript
engine only for a schema that has something to run in it."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO
from tests.helpers import probe_process, top_level_modules

# Each case starts a fresh interpreter: left out of the quick loop (pytest -m "not slow").
pytestmark = pytest.mark.slow


def _set_field_value(schema_file, data_file, args: dict) -> dict:
    return probe_process(
        "form", "set-field-value", "--schema", str(schema_file), "--data", str(data_file), json.dumps(args)
    )


def _sample_schema() -> dict:
    datasets = json.loads((REPO / "samples" / "records_api" / "data" / "datasets.json").read_text())
    return datasets["datasets"][0]["schema"]


def test_a_write_validates_without_python_jsonschema_nor_the_javascript_engine(tmp_path):
    schema = _sample_schema()  # patterns, formats, a variant, options behind a URL template
    assert "x-fromUrl" in json.dumps(schema) and "pattern" in json.dumps(schema)
    schema_file, data_file = tmp_path / "s.json", tmp_path / "r.json"
    schema_file.write_text(json.dumps(schema))
    data_file.write_text(json.dumps({"nom": "Les amis"}))
    first = _set_field_value(schema_file, data_file, {"path": "/numero_rna", "value": "X1"})
    assert first["code"] == 0 and "must match the pattern ^W[0-9]{9}$" in first["out"]
    warm = _set_field_value(schema_file, data_file, {"path": "/numero_rna", "value": "W123456789"})
    assert warm["code"] == 0 and "no errors here" in warm["out"]
    for report in (first, warm):
        tops = top_level_modules(report)
        assert "jsonschema_rs" in tops
        assert "jsonschema" not in tops and "quickjs" not in tops
    # The schema was prepared (vjsf translation) by the first process only.
    assert "deskcheck.engine.forms.schema.compat_v2" not in warm["modules"]


def test_a_schema_with_an_expression_still_runs_it_in_the_javascript_engine(tmp_path):
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string", "layout": {"if": "parent.data.a === 'x'"}}},
    }
    schema_file, data_file = tmp_path / "s.json", tmp_path / "r.json"
    schema_file.write_text(json.dumps(schema))
    data_file.write_text("{}")
    report = _set_field_value(schema_file, data_file, {"path": "/a", "value": "x"})
    assert report["code"] == 0 and "/b" in report["out"], report["out"]
    assert "quickjs" in top_level_modules(report)
