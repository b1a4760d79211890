"""The tool protocol: results instead of raises, names, unknown and unsupported tools."""

from __future__ import annotations

import pytest

from deskcheck.engine.errors import DeskcheckError, InputError
from deskcheck.engine.tools import READ_ONLY, Tool, ToolSet, check_arguments, fail, ok, run_tool

SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "integer", "minimum": 0}},
    "required": ["n"],
    "additionalProperties": False,
}


def _double(args):
    problem = check_arguments(SCHEMA, args)
    if problem:
        return fail(problem)
    return {"double": args["n"] * 2}


DOUBLE = Tool("double", "Double a number.", SCHEMA, _double, READ_ONLY)


def test_plain_values_are_successes():
    assert run_tool(DOUBLE, {"n": 2}) == ok({"double": 4})


def test_bad_arguments_are_results_with_a_location():
    result = run_tool(DOUBLE, {"n": -1})
    assert not result.ok and result.error.startswith("arguments.n:")
    assert "is less than the minimum" in result.error
    assert "required" in run_tool(DOUBLE, {}).error


@pytest.mark.parametrize("args", [[1], "x", 3, True])
def test_non_object_arguments_are_refused(args):
    result = run_tool(DOUBLE, args)
    assert not result.ok and "must be a JSON object" in result.error


def test_none_arguments_mean_empty():
    seen = []
    tool = Tool("t", "", {"type": "object"}, lambda a: seen.append(a) or "done")
    assert run_tool(tool, None) == ok("done") and seen == [{}]


def test_exceptions_become_results():
    def raising(kind):
        def execute(_args):
            raise kind("nope")

        return Tool("t", "", {"type": "object"}, execute)

    expected = run_tool(raising(DeskcheckError), {})
    assert expected.error == "nope" and not expected.input_error
    bad_input = run_tool(raising(InputError), {})
    assert bad_input.error == "nope" and bad_input.input_error
    surprise = run_tool(raising(ValueError), {})
    assert not surprise.ok and "bug in deskcheck" in surprise.error and surprise.code == "internalError"


def test_toolset_lookup_and_messages():
    tools = ToolSet("demo", [DOUBLE], unsupported={"read_page": "a file has no pages."})
    assert tools.names == ["double"] and "double" in tools and len(tools) == 1
    assert tools.call("double", {"n": 1}).value == {"double": 2}
    unknown = tools.call("dubble", {})
    assert unknown.input_error and "Did you mean double" in unknown.error
    unsupported = tools.call("read_page", {})
    assert not unsupported.ok and not unsupported.input_error and unsupported.error == "a file has no pages."
    assert [d["name"] for d in tools.definitions()] == ["double"]


def test_duplicate_names_are_refused():
    with pytest.raises(ValueError, match="duplicate"):
        ToolSet("demo", [DOUBLE, DOUBLE])


def test_envelope_keeps_exactly_the_contract_keys():
    assert ok([1]).envelope() == {"ok": True, "result": [1]}
    assert fail("x", code="c").envelope() == {"ok": False, "error": "x"}
