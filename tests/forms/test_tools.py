"""The tool definitions (names, input schemas, descriptions), hosts that add their own
arguments, provider export, and the fill-form guide."""

from __future__ import annotations

import contextlib

from deskcheck.engine.forms import VERBS, FormState, compile_form, fill_form_guide, form_tools, form_toolset
from deskcheck.engine.providers import export_tools, subset_violations

SCHEMA = {
    "type": "object",
    "required": ["name"],
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
}


def toolset(**kwargs):
    return form_toolset(FormState(compile_form(SCHEMA), {"name": "Alice"}), **kwargs)


def test_names_order_and_prefix():
    assert toolset().names == [f"form_{verb}" for verb in VERBS]
    assert toolset(prefix="contact").names[0] == "contact_getData"
    assert toolset(prefix="").names == list(VERBS)


def test_input_schemas():
    tools = {tool.name: tool for tool in toolset()}
    assert tools["form_setFieldValue"].input_schema["required"] == ["path"]
    assert "suggestionIndex" in tools["form_setFieldValue"].input_schema["properties"]
    assert list(tools["form_getData"].input_schema["properties"]) == ["path"]
    assert tools["form_getData"].input_schema["required"] == []
    assert tools["form_editArray"].input_schema["required"] == ["path", "action"]
    assert tools["form_setData"].input_schema["required"] == ["data"]
    for tool in tools.values():
        for name, prop in tool.input_schema["properties"].items():
            if name == "path":
                assert prop["description"].startswith('A field path as describeState prints it (for example "/address')


def test_descriptions_name_the_form_and_only_one_explains_indices():
    tools = list(toolset(title="portal page"))
    assert all('"portal page"' in tool.description for tool in tools)
    assert [t.name for t in tools if "suggestionIndex" in t.description] == ["form_getFieldSuggestions"]
    suggestions = next(t for t in tools if t.name == "form_getFieldSuggestions").description
    assert 'marks "suggestions"' in suggestions and "needs no call" in suggestions
    get_data = next(t for t in tools if t.name == "form_getData").description
    assert "first" not in get_data
    annotations = {t.name: t.annotations.read_only for t in tools}
    assert annotations["form_describeState"] and not annotations["form_setData"]


def test_the_tools_export_to_every_provider_shape():
    tools = list(toolset())
    for shape in ("json", "anthropic", "openai", "mcp"):
        exported = export_tools(tools, shape)
        assert len(exported) == len(VERBS)
    for tool in export_tools(tools, "anthropic"):
        assert subset_violations(tool["input_schema"]) == []


def test_a_host_adds_its_arguments_and_gets_them_per_call():
    states: dict[str, FormState] = {}
    seen = []

    @contextlib.contextmanager
    def open_state(args):
        seen.append(args)
        key = f"{args['id']}:{args['lineId']}"
        state = states.setdefault(key, FormState(compile_form(SCHEMA), {"name": key}))
        yield state

    parameters = {"id": {"type": "string"}, "lineId": {"type": "string"}}
    tools = {
        t.name: t
        for t in form_tools(
            open_state,
            prefix="dataset_line",
            title="record",
            parameters=parameters,
            required_parameters=["id", "lineId"],
        )
    }
    set_value = tools["dataset_line_setFieldValue"]
    assert set_value.input_schema["required"] == ["id", "lineId", "path"]
    assert list(set_value.input_schema["properties"])[:2] == ["id", "lineId"]
    from deskcheck.engine.tools import run_tool

    result = run_tool(set_value, {"id": "d1", "lineId": "7", "path": "/age", "value": 3})
    assert result.ok, result.error
    assert seen == [{"id": "d1", "lineId": "7"}]
    assert states["d1:7"].document == {"name": "d1:7", "age": 3}
    other = run_tool(tools["dataset_line_getData"], {"id": "d1", "lineId": "8"})
    assert '"d1:8"' in other.value and '"age"' not in other.value


def test_errors_come_back_as_results():
    tools = toolset()
    result = tools.call("form_setFieldValue", {"path": "/nope", "value": 1})
    assert not result.ok and 'no field at "/nope"' in result.error
    result = tools.call("form_setData", {"data": 5})
    assert not result.ok and "JSON object" in result.error


def test_the_guide():
    guide = fill_form_guide("portal page", "portal", agent_guide="Social links take an identifier, not a URL.")
    assert guide.startswith("# Filling in Portal page: a guide to the form tools")
    assert "## What to know about this portal page\n\nSocial links take an identifier, not a URL." in guide
    assert guide.index("portal_setData") < guide.index("portal_setFieldValue")
    assert "portal_getFieldSuggestions" in guide and "Never invent a value" in guide
    assert "values=[...]" in guide and "only behind a request" in guide
    assert "suggestionIndex" not in guide
    assert "variant-selector" in guide and "variant N: label" in guide and "setting the field to that number" in guide
    plain = fill_form_guide("record", "form")
    assert "What to know" not in plain
    assert (
        fill_form_guide("record", "form", extra_sections=["## Saving\n\nSave with form_saveForm."])
        .rstrip()
        .endswith("Save with form_saveForm.")
    )


def test_the_toolset_carries_the_schemas_guide():
    schema = dict(SCHEMA, **{"x-agent-guide": "Names are written in capitals."})
    tools = form_toolset(FormState(compile_form(schema), {}), title="contact")
    assert "Names are written in capitals." in tools.instructions
