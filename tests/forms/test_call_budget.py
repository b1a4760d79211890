"""A schema's expressions and patterns share a total time per tool call (issue 26, item 7).

Each evaluation was bounded (0.25 s, 100,000 backtracking steps), but 200 of them were not: 200
distinct ``while(true)`` conditions made one describe-state take 104 s. Now each call spends at
most ``engine.budget``'s totals; what is left is reported as not evaluated or not checked. The
tests set the totals to nothing or next to nothing and count what ran, never the time it took.
"""

from __future__ import annotations

import json
import uuid

import pytest

from deskcheck.engine import budget
from deskcheck.engine.forms.schema.patterns import MAX_BACKTRACKING_CHARS, pattern_verdict
from deskcheck.engine.openapi.tools.load import load_openapi
from tests.helpers import run_process

from .support import Form

NOT_EVALUATED = "it was not evaluated: this call already spent"
NOT_CHECKED = "could not be checked against the pattern"


@pytest.fixture
def tiny(monkeypatch):
    """Budgets that the first evaluation of each kind spends whole."""
    monkeypatch.setattr(budget, "EXPRESSION_SECONDS_PER_CALL", 1e-9)
    monkeypatch.setattr(budget, "PATTERN_SECONDS_PER_CALL", 1e-9)


def conditions(count: int) -> dict:
    """A schema of ``count`` fields, each shown under its own condition, one that reads the root
    document (so the engine evaluates it again at each build rather than remembering it)."""
    fields = {f"f{i}": {"type": "string", "layout": {"if": f"rootData !== {i}"}} for i in range(count)}
    return {"type": "object", "properties": fields}


def rebuilt(form: Form, value: str) -> str:
    """describeState after a write (the write's call builds the fields again, within its budget)."""
    form.call("setFieldValue", path="/f0", value=value)
    return form.call("describeState")


def test_past_the_budget_conditions_are_not_evaluated_and_say_so(tiny):
    form = Form(conditions(6), {})
    described = rebuilt(form, "x")
    assert described.count(NOT_EVALUATED) == 5, described
    assert "DESKCHECK_EXPRESSION_SECONDS_PER_CALL" in described
    assert described.count("so it is shown") == 5, "a field whose condition was not evaluated stays visible"


def test_each_call_gets_its_own_budget(tiny):
    form = Form(conditions(4), {})
    assert [rebuilt(form, str(n)).count(NOT_EVALUATED) for n in range(3)] == [3, 3, 3]


def test_without_a_call_nothing_is_counted(tiny):
    form = Form(conditions(5), {})
    from deskcheck.engine.forms.state.text import describe

    assert NOT_EVALUATED not in describe(form.state)


@pytest.mark.slow
def test_a_budget_of_nothing_from_the_environment_reaches_the_cli(tmp_path):
    (tmp_path / "schema.json").write_text(json.dumps(conditions(3)))
    (tmp_path / "data.json").write_text("{}")
    form = ["--schema", str(tmp_path / "schema.json"), "--data", str(tmp_path / "data.json")]
    env = {"DESKCHECK_EXPRESSION_SECONDS_PER_CALL": "0"}
    described = run_process("form", "describe-state", *form, env=env).json["result"]
    assert described.count(NOT_EVALUATED) == 3 and "the 0 s of CPU time" in described
    assert NOT_EVALUATED not in run_process("form", "describe-state", *form).json["result"]


def backtracking(count: int) -> dict:
    tag = uuid.uuid4().hex[:8]
    fields = {f"f{i}": {"type": "string", "pattern": f"^(a+)\\1*{tag}{i}$"} for i in range(count)}
    return {"type": "object", "properties": fields}


def test_past_the_budget_patterns_are_not_checked_and_say_so(tiny):
    form = Form(backtracking(5), {})
    for i in range(5):
        form.call("setFieldValue", path=f"/f{i}", value="aaa")
    errors = form.call("describeState").split("\n\nFields:")[0]
    assert errors.count(NOT_CHECKED) == 4, errors
    assert "this call already spent its time for patterns" in errors
    assert errors.count("must match the pattern") == 1


def test_tool_arguments_share_one_budget_per_call(tiny):
    tag = uuid.uuid4().hex[:8]
    params = [
        {"in": "query", "name": f"p{i}", "schema": {"type": "string", "pattern": f"^(a+)\\1*{tag}{i}$"}}
        for i in range(3)
    ]
    document = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/x": {
                "get": {
                    "operationId": "x",
                    "parameters": params,
                    "x-agent": {"name": "x"},
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    result = load_openapi(document).toolset.call("x", {"p0": "aaa", "p1": "aaa", "p2": "aaa"})
    assert not result.ok
    assert result.error.count("could not be checked against pattern") == 2, result.error
    assert result.error.count("must match pattern") == 1


def test_a_long_value_is_not_tested_against_a_backtracking_pattern():
    long = "a" * (MAX_BACKTRACKING_CHARS + 1)
    assert pattern_verdict("^(a+)\\1*$", long) is None
    assert pattern_verdict("^(a+)\\1*$", long[:-2]) is True
    assert pattern_verdict("^a+$", long) is None, "any pattern deskcheck tests itself"
