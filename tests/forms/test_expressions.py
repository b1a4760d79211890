"""Schema expressions run sandboxed: values, no I/O, time and memory limits, field-level
messages instead of crashes or hangs, and the engine loaded only when a schema needs it."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from deskcheck.engine.forms.schema.expressions import Expression, ExpressionError, evaluate

from .support import Form


def test_expressions_read_the_scope_and_return_json():
    scope = {"data": 2, "parent": {"data": {"enabled": True}}, "rootData": {"a": [1, 2]}, "context": {"x": "y"}}
    assert evaluate(Expression("js-eval", "parent.data.enabled && data * 2"), scope) == 4
    assert evaluate(Expression("js-eval", "rootData.a.map(v => ({v}))"), scope) == [{"v": 1}, {"v": 2}]
    assert evaluate(Expression("js-tpl", "https://h/${context.x}/{q}"), scope) == "https://h/y/{q}"
    assert evaluate(Expression("js-fn", "if (data > 1) return 'big'; return 'small'"), scope) == "big"
    assert evaluate(Expression("js-eval", "undefined"), scope) is None


@pytest.mark.parametrize(
    "text",
    ["/api/v1/items?q={q}&size=20", "a\\b`c$d{e}", "caf\u00e9 \U0001f600\nline", "$ {not} $$", "end with $"],
)
def test_a_template_without_interpolation_is_its_own_text(text):
    # Not started for such a template, the engine must have given the same answer: a template
    # made to interpolate nothing (an empty string at the end) is run in it.
    assert evaluate(Expression("js-tpl", text), {}) == text
    assert evaluate(Expression("js-tpl", text + "${''}"), {}) == text


@pytest.mark.parametrize("name", ["fetch", "require", "XMLHttpRequest", "setTimeout", "std", "os", "process"])
def test_the_sandbox_has_no_io(name):
    assert evaluate(Expression("js-eval", f"typeof {name}"), {}) == "undefined"


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("rootData.source.href", "unresolved"),
        ("(((", "syntax"),
        ("(() => { throw new Error('boom') })()", "failed"),
        ("(function f() { return f() })()", "failed"),
    ],
)
def test_failures_are_classified(source, reason):
    with pytest.raises(ExpressionError) as caught:
        evaluate(Expression("js-eval", source), {"rootData": {}})
    assert caught.value.reason == reason


def test_a_slow_expression_is_stopped_and_not_run_again():
    slow = Expression("js-eval", "(() => { while (true) {} })() /* test_slow */")
    started = time.perf_counter()
    with pytest.raises(ExpressionError) as caught:
        evaluate(slow, {})
    assert caught.value.reason == "timeout" and "stopped" in caught.value.message
    assert time.perf_counter() - started < 5
    started = time.perf_counter()
    with pytest.raises(ExpressionError):
        evaluate(slow, {})
    assert time.perf_counter() - started < 0.05, "a timed-out expression is remembered"
    assert evaluate(Expression("js-eval", "1 + 1"), {}) == 2, "the engine works after a timeout"


def test_a_greedy_expression_is_stopped_by_the_memory_limit():
    greedy = Expression("js-eval", "(() => { const a = []; while (true) a.push(new Array(1e5).fill(1)) })()")
    with pytest.raises(ExpressionError) as caught:
        evaluate(greedy, {})
    assert caught.value.reason in ("memory", "timeout")
    assert evaluate(Expression("js-eval", "[1, 2].length"), {}) == 2


def test_failing_expressions_become_notes_on_their_fields():
    schema = {
        "type": "object",
        "properties": {
            "slow": {"type": "string", "layout": {"if": "(() => { while (true) {} })() /* field */"}},
            "broken": {"type": "string", "layout": {"getItems": "((("}},
            "waiting": {"type": "string", "layout": {"if": "rootData.settings.enabled"}},
            "name": {"type": "string"},
        },
    }
    started = time.perf_counter()
    form = Form(schema, {})
    form.call("setFieldValue", path="/name", value="a")
    form.call("setFieldValue", path="/name", value="b")
    assert time.perf_counter() - started < 5, "the slow condition costs its limit once"
    assert "note: its condition could not be evaluated (the expression took longer" in form.line("/slow")
    assert "note: its list of options could not be computed: the expression is not valid JavaScript" in form.line(
        "/broken"
    )
    assert "/waiting" not in form.call("describeState"), "a condition that reads nothing set yet is false"
    message = form.error("getFieldSuggestions", path="/broken")
    assert "could not be computed" in message


@pytest.mark.slow
def test_a_schema_without_expressions_does_not_load_the_engine():
    code = (
        "import sys\n"
        "from deskcheck.engine.forms import compile_form, FormState, form_toolset\n"
        "schema = {'type': 'object', 'properties': {'a': {'type': 'string', 'enum': ['x']}}}\n"
        "state = FormState(compile_form(schema), {'a': 'x'})\n"
        "form_toolset(state).call('form_describeState', {})\n"
        "assert 'quickjs' not in sys.modules and '_quickjs' not in sys.modules, 'engine loaded'\n"
        "schema['properties']['b'] = {'type': 'string', 'layout': {'if': 'parent.data.a'}}\n"
        "FormState(compile_form(schema), {'a': 'x'})\n"
        "assert 'quickjs' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_patterns_follow_javascript_rules_and_cannot_hang_validation():
    schema = {
        "type": "object",
        "properties": {
            "evil": {"type": "string", "pattern": "^(a+)+$"},
            "digits": {"type": "string", "pattern": "^\\d+$"},
            "slug": {"type": "string", "pattern": "^[a-z0-9_\\-]+$"},
        },
    }
    started = time.perf_counter()
    form = Form(schema, {"evil": "a" * 40 + "!", "digits": "٣٤", "slug": "ok-1"})
    assert time.perf_counter() - started < 5
    errors = {e.path: e.message for e in form.state.errors}
    # Without back-references or look-around a pattern runs in linear time: a real verdict.
    assert errors["/evil"] == "must match the pattern ^(a+)+$"
    assert errors["/digits"] == "must match the pattern ^\\d+$", "\\d means ASCII digits, as in JavaScript"
    assert "/slug" not in errors


def test_data_nested_beyond_the_depth_limit_is_one_value():
    from deskcheck.engine.forms.state.tree import MAX_TREE_DEPTH

    schema = {
        "$defs": {"node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/node"}}}},
        "$ref": "#/$defs/node",
    }
    deep: dict = {}
    for _ in range(MAX_TREE_DEPTH + 20):
        deep = {"child": deep}
    form = Form(schema, deep)
    text = form.call("describeState")
    assert f"nested more than {MAX_TREE_DEPTH} levels deep" in text
    assert form.data() == deep
