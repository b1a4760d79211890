"""Fields under every kind of composition are fields (issue 28, item 1): an anyOf of object shapes
is a variant selector, a union of types is a type switch whose active type's fields are fields,
lists of one-value enums are choices, examples do not hide an object's fields, the items of a
list of plain values and the keys of a free-form object are set by path. Checked on the schemas
their projects publish (tests/fixtures/schemastore and tests/fixtures/composition, see their
SOURCES.md), and on the shapes the issue names."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deskcheck.engine.forms.sources.schema_files import bundle_schema_file
from deskcheck.engine.forms.tools.session_tools import file_form_group
from tests.conftest import REPO
from tests.hypothesis_profiles import examples

from .schemastore import read
from .schemastore_sweep import leaves
from .support import Form
from .test_schemastore import _changed

STORE = REPO / "tests" / "fixtures" / "schemastore"
ANSIBLE = REPO / "tests" / "fixtures" / "composition" / "ansible-lint"


def published(schema_path: Path, data) -> Form:
    """A form over a schema file as a session opens it (its references bundled)."""
    return Form(bundle_schema_file(read(schema_path), schema_path), data, base=json.loads(json.dumps(data)))


def store(name: str, data) -> Form:
    return published(STORE / "schemas" / f"{name}.json", data)


# -- anyOf of objects ----------------------------------------------------------------------------

KINDS = {
    "type": "object",
    "anyOf": [
        {"properties": {"kind": {"const": "A"}, "a": {"type": "string"}}},
        {"properties": {"kind": {"const": "B"}, "b": {"type": "integer"}}},
    ],
}


def test_an_any_of_of_objects_is_a_variant_selector_whose_fields_are_set_by_path():
    form = Form(KINDS, {"kind": "A", "a": "x"}, base={"kind": "A", "a": "x"})
    assert form.call("setFieldValue", path="/a", value="y").startswith('/$oneOf/0/a (text) = "y"')
    assert form.data() == {"kind": "A", "a": "y"}
    assert "(variant-selector" in form.line("/$oneOf")
    form.call("setFieldValue", path="/$oneOf", value=1)
    form.call("setFieldValue", path="/b", value=3)
    assert form.data() == {"kind": "B", "b": 3}


def test_the_active_variant_of_an_any_of_is_the_best_match_when_none_validates():
    # "b" must be an integer: neither variant accepts the object, the second is the closer one.
    form = Form(KINDS, {"kind": "B", "b": "three"})
    assert form.state.tree.by_full_key["/$oneOf"].active_variant == 1
    assert "must be an integer" in form.call("describeState", path="/b")


def test_catalog_info_entities_are_edited_field_by_field():
    # Backstage's catalog-info: the root is an anyOf of entity kinds.
    entity = read(STORE / "test" / "catalog-info" / "all-components.json")
    first = entity if isinstance(entity, dict) else entity[0]
    form = store("catalog-info", first)
    owner = "/spec/owner" if "owner" in first.get("spec", {}) else "/metadata/name"
    form.call("setFieldValue", path=owner, value="team-b")
    assert form.data(owner) == "team-b"
    assert form.state.valid


def test_list_items_that_are_an_any_of_of_objects_are_fields():
    # pre-commit's repos: each item is an anyOf of repository kinds.
    data = read(STORE / "test" / "pre-commit-config" / sorted((STORE / "test" / "pre-commit-config").iterdir())[0].name)
    form = store("pre-commit-config", data)
    form.call("setFieldValue", path="/repos/0/hooks/0/id", value="renamed")
    assert form.data("/repos/0/hooks/0/id") == "renamed"


# -- type switches --------------------------------------------------------------------------------


def test_codecov_status_switches_between_a_boolean_and_an_object():
    data = {"coverage": {"status": {"project": {"default": {"target": "80%", "base": "auto"}}}}}
    form = store("codecov", data)
    form.call("setFieldValue", path="/coverage/status/project/default/base", value="pr")
    assert form.data("/coverage/status/project/default") == {"target": "80%", "base": "pr"}
    form.call("setFieldValue", path="/coverage/status", value=False)
    assert "(boolean" in form.line("/coverage/status") and form.state.valid
    form.call("setFieldValue", path="/coverage/status", value={"patch": "off"})
    assert form.call("describeState", path="/coverage/status/patch")
    assert form.state.valid


def test_tslint_rules_hold_a_boolean_an_object_or_a_list():
    data = {"rules": {"align": [True, "parameters"], "quotemark": {"severity": "warning"}, "semicolon": True}}
    form = store("tslint", data)
    form.call("setFieldValue", path="/rules/align/1", value="statements")
    form.call("setFieldValue", path="/rules/quotemark/severity", value="error")
    assert form.data("/rules") == {"align": [True, "statements"], "quotemark": {"severity": "error"}, "semicolon": True}
    assert form.state.valid


def test_a_type_list_is_a_type_switch():
    schema = {"type": "object", "properties": {"files": {"type": ["string", "array"], "items": {"type": "string"}}}}
    form = Form(schema, {"files": ["a", "b"]})
    form.call("setFieldValue", path="/files/1", value="c")
    assert form.data("/files") == ["a", "c"]
    form.call("setFieldValue", path="/files", value="one")
    assert "(text" in form.line("/files") and form.state.valid


def test_a_value_no_schema_describes_is_set_by_path_as_deep_as_it_goes():
    schema = {"type": "object", "properties": {"values": {}}}
    form = Form(schema, {"values": {"server": {"ports": [80, {"name": "tls"}]}}})
    form.call("setFieldValue", path="/values/server/ports/1/name", value="https")
    form.call("setFieldValue", path="/values/server/ports/0", value=8080)
    assert form.data("/values") == {"server": {"ports": [8080, {"name": "https"}]}}


# -- choices, examples ------------------------------------------------------------------------------


def test_prettier_choices_written_as_one_value_enums_are_options():
    form = store("prettierrc", {"trailingComma": "es5"})
    assert 'values=["all", "es5", "none"]' in form.call("describeState", path="/trailingComma")
    assert "avoid" in form.call("getFieldSuggestions", path="/arrowParens")
    form.call("setFieldValue", path="/arrowParens", suggestionIndex=1)
    assert form.data("/arrowParens") == "avoid"


def test_an_any_of_of_constants_is_a_choice():
    schema = {"type": "object", "properties": {"mode": {"anyOf": [{"const": "fast"}, {"const": "safe"}]}}}
    assert 'values=["fast", "safe"]' in Form(schema, {}).line("/mode")


def test_examples_on_an_object_do_not_hide_its_fields():
    schema = {"type": "object", "examples": ["x.yml"], "properties": {"a": {"type": "string"}}}
    form = Form(schema, {"a": "q"})
    assert "(section" in form.line("/")
    form.call("setFieldValue", path="/a", value="r")
    assert form.data() == {"a": "r"}


def test_ansible_lint_config_is_a_form_not_a_select_of_its_example_names():
    data = read(ANSIBLE / "test" / "ansible-lint.yml")
    form = published(ANSIBLE / "schemas" / "ansible-lint-config.json", data)
    assert "(section" in form.line("/")
    form.call("setFieldValue", path="/profile", value="safety")
    assert form.data("/profile") == "safety" and form.state.valid


# -- items and maps ---------------------------------------------------------------------------------


def test_items_of_a_string_list_are_set_by_index():
    form = store("tsconfig", {"compilerOptions": {"lib": ["es2020", "dom"]}})
    form.call("setFieldValue", path="/compilerOptions/lib/1", value="webworker")
    assert form.data("/compilerOptions/lib") == ["es2020", "webworker"]


def test_free_form_objects_are_maps_whose_entries_are_set_added_and_removed():
    for shape in ({"type": "object"}, {"type": "object", "additionalProperties": True}, {"additionalProperties": {}}):
        schema = {"type": "object", "properties": {"meta": shape}}
        form = Form(schema, {"meta": {"a": 1}})
        assert "(map" in form.line("/meta"), shape
        form.call("setFieldValue", path="/meta/a", value=2)
        form.call("setFieldValue", path="/meta/b", value={"deep": True})
        form.call("setFieldValue", path="/meta/b/deep", value=False)
        form.call("editArray", path="/meta", action="add", key="c", value="x")
        form.call("editArray", path="/meta", action="remove", key="a")
        assert form.data("/meta") == {"b": {"deep": False}, "c": "x"}, shape


def test_a_union_of_unions_switches_through_each_level():
    # package.json's exports: a path, an object of conditions, or a list of fallbacks, nested.
    data = {"name": "x", "exports": {"./feature": {"node": "./feature-node.js", "default": "./feature.js"}}}
    form = store("package", data)
    form.call("setFieldValue", path="/exports/.~1feature/node", value="./node.mjs")
    assert form.data("/exports") == {"./feature": {"node": "./node.mjs", "default": "./feature.js"}}
    assert form.state.valid


def test_a_type_list_with_examples_is_still_a_switch():
    # prisma's datamodel: a file name or a list of them, with file names as examples.
    form = store("prisma", {"datamodel": ["types.prisma", "enums.prisma"]})
    form.call("setFieldValue", path="/datamodel/1", value="models.prisma")
    assert form.data("/datamodel") == ["types.prisma", "models.prisma"]


def test_compose_services_are_edited_field_by_field():
    compose = REPO / "tests" / "fixtures" / "composition" / "compose-spec" / "compose-spec.json"
    data = {"services": {"web": {"image": "nginx", "ports": ["80:80"], "environment": {"A": "b"}}}}
    form = published(compose, data)
    form.call("setFieldValue", path="/services/web/ports/0", value="8080:80")
    form.call("setFieldValue", path="/services/web/environment/A", value="c")
    assert form.data("/services/web") == {"image": "nginx", "ports": ["8080:80"], "environment": {"A": "c"}}
    assert form.state.valid


# -- what a write may change ----------------------------------------------------------------------

_scalars = st.one_of(st.booleans(), st.integers(-5, 5), st.text("abc", max_size=3), st.none())
_keys = st.text("abxy.~/", min_size=1, max_size=3)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_keys, inner, max_size=3),
    max_leaves=12,
)
FREE_FORM = [
    {},
    {"type": "object"},
    {"type": "object", "properties": {"a": {"anyOf": [{"type": "boolean"}, {"type": "object"}, {"type": "array"}]}}},
    {"type": "object", "additionalProperties": {"oneOf": [{"type": "string"}, {"type": "array", "items": {}}, {}]}},
]


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FREE_FORM), st.dictionaries(_keys, _values, min_size=1, max_size=4), st.data())
def test_a_leaf_under_any_composition_is_set_alone(schema, document, data):
    pointers = list(leaves(document))
    pointer = data.draw(st.sampled_from(pointers))
    form = Form(schema, document, base=json.loads(json.dumps(document)))
    assert form.state.document == document and not form.state.modified
    form.call("setFieldValue", path=pointer, value="written")
    assert _changed(document, form.state.document, "") == [pointer]


@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.dictionaries(_keys, _values, min_size=1, max_size=4))
def test_a_free_form_file_saved_without_an_edit_is_unchanged(tmp_path, document):
    folder = tmp_path / uuid.uuid4().hex  # one file per example: no session carries over
    folder.mkdir()
    schema_file, data_file = folder / "schema.json", folder / "data.yaml"
    schema_file.write_text(json.dumps({"type": "object", "additionalProperties": True}))
    text = yaml.safe_dump(document, sort_keys=False, default_flow_style=False)
    data_file.write_text(text)
    group = file_form_group(schema_file, data_file)
    try:
        assert group.toolset().call("form_describeState", {}).ok
        group.session({}).save(allow_invalid=True)
    finally:
        group.close()
    assert data_file.read_text() == text


def test_a_union_of_list_shapes_is_told_apart_by_the_value():
    # popxf's correlations: a matrix of two or of four dimensions.
    number_rows = {"type": "array", "items": {"type": "array", "items": {"type": "number"}}}
    schema = {
        "type": "object",
        "properties": {"total": {"oneOf": [number_rows, {"type": "array", "items": number_rows}]}},
    }
    form = Form(schema, {"total": [[1, 0.5], [0.5, 1]]})
    form.call("setFieldValue", path="/total/0/1", value=0.25)
    assert form.data("/total") == [[1, 0.25], [0.5, 1]] and form.state.valid


def test_a_path_inside_a_switch_with_no_value_yet_writes_its_object():
    form = store("codecov", {"coverage": {"precision": 2}})
    assert "takes true/false or an object" in form.line("/coverage/status")
    form.call("setFieldValue", path="/coverage/status/project/default/target", value="80%")
    assert form.data("/coverage") == {"precision": 2, "status": {"project": {"default": {"target": "80%"}}}}
    assert form.state.valid


def test_wide_unions_nested_deep_are_read_within_a_bound(monkeypatch):
    # 60 definitions, each a union of all 60: reading their types must not cost 60**4 steps.
    from deskcheck.engine.forms.schema import switch
    from deskcheck.engine.forms.schema.compile import CompiledForm

    width = 60
    refs = [{"$ref": f"#/definitions/d{j}"} for j in range(width)]
    definitions = {f"d{i}": {"anyOf": refs} for i in range(width)}
    schema = {"definitions": definitions, "type": "object", "properties": {"x": {"anyOf": [*refs, {"type": "object"}]}}}
    calls = []
    original = CompiledForm._deref
    monkeypatch.setattr(CompiledForm, "_deref", lambda self, *a: calls.append(1) or original(self, *a))
    form = Form(schema, {"x": {"a": 1}})
    assert form.state.valid
    # Each of the 62 entries reads at most MAX_ENTRIES_READ others: far below width**4.
    assert len(calls) < (width + 2) * 2 * switch.MAX_ENTRIES_READ < width**4
    form.call("setFieldValue", path="/x/a", value=2)
