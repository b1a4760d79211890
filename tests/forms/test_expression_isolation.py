"""One schema's expressions cannot change what another's compute (issue 15, item 5).

One QuickJS context serves every schema of a process (a batch, the REPL, a server): an
expression that replaces a built-in, leaves a global behind or changes the shared root document
must not be seen by any later evaluation, of the same schema or another."""

from __future__ import annotations

import contextlib
import threading

import pytest

from deskcheck.engine.forms.schema.expressions import Expression, ExpressionError, evaluate, regex_test, shared_scope

from .support import Form

# (what a hostile expression runs, a later expression, what the later one gives with pristine
# built-ins). Each attack is wrapped so that it never fails itself: what it manages to change is
# what the later expression sees.
ATTACKS = [
    ("Array.prototype.includes = function () { return true }", "[1, 2].includes(3)", False),
    ("Object.defineProperty(Array.prototype, 'length2', {get() { return 7 }})", "[].length2 === undefined", True),
    ("globalThis.leak = 'from A'", "typeof leak", "undefined"),
    ("var leaked = 1; this.leaked2 = 2", "typeof leaked2", "undefined"),
    ("(0, eval)('var viaEval = 3')", "typeof viaEval", "undefined"),
    ("Object.prototype.polluted = 'yes'", "({}).polluted === undefined", True),
    ("Object.prototype.toString = function () { return 'forged' }", "String({})", "[object Object]"),
    ('JSON.stringify = function () { return \'{"value": "forged"}\' }', "1 + 1", 2),
    ("JSON.parse = function () { return {data: 'forged'} }", "data", 5),
    ("String.prototype.trim = function () { return 'forged' }", "' a '.trim()", "a"),
    ("Array.prototype[Symbol.iterator] = function* () { yield 'forged' }", "[...[1]].join()", "1"),
    ("Math.max = function () { return -1 }", "Math.max(1, 2)", 2),
    ("Error.prepareStackTrace = function () { return 'forged' }", "typeof Error.prepareStackTrace", "undefined"),
    ("Error.stackTraceLimit = 0", "Error.stackTraceLimit", 10),
    ("Object.getPrototypeOf([][Symbol.iterator]()).next = function () { return {done: true} }", "[...[1]].length", 1),
    ("Object.getPrototypeOf(function* () {}).prototype.next = null", "[...(function* () { yield 1 })()].length", 1),
    ("__deskcheck.compile = null", "typeof __deskcheck.compile", "function"),
    ("Object.defineProperty(globalThis, '__deskcheck', {value: 1})", "typeof __deskcheck", "object"),
    ("RegExp.prototype.test = function () { return false }", "/a/.test('a')", True),
    ("RegExp.prototype.exec = function () { return null }", "'abc'.replace(/b/, 'x')", "axc"),
]


@pytest.mark.parametrize(("attack", "probe", "expected"), ATTACKS, ids=[a[0][:40] for a in ATTACKS])
def test_an_expression_cannot_change_what_later_expressions_compute(attack, probe, expected):
    hostile = Expression("js-eval", f"(() => {{ try {{ {attack} }} catch (e) {{}} return 1 }})()")
    assert evaluate(hostile, {"data": None}) == 1
    assert evaluate(Expression("js-eval", probe), {"data": 5}) == expected


def test_a_failed_change_of_a_builtin_is_reported_as_such():
    with pytest.raises(ExpressionError) as caught:
        evaluate(Expression("js-fn", '"use strict"; Array.prototype.includes = null; return 1'), {})
    assert caught.value.reason == "failed"
    assert "may only read" in caught.value.message


def test_the_shared_root_document_cannot_be_changed_by_an_expression():
    shared = shared_scope(rootData={"list": [3, 1, 2], "flag": False}, context={"n": 1})
    changed = Expression("js-eval", "(() => { try { rootData.flag = true; context.n = 2 } catch (e) {} return 1 })()")
    assert evaluate(changed, {"data": 1}, shared) == 1
    assert evaluate(Expression("js-eval", "[rootData.flag, context.n]"), {"data": 2}, shared) == [False, 1]
    with pytest.raises(ExpressionError) as caught:
        evaluate(Expression("js-eval", "rootData.list.sort()"), {"data": 3}, shared)
    assert caught.value.reason == "failed" and "[...list].sort()" in caught.value.message
    assert evaluate(Expression("js-eval", "[...rootData.list].sort()"), {"data": 4}, shared) == [1, 2, 3]
    assert evaluate(Expression("js-eval", "rootData.list"), {"data": 5}, shared) == [3, 1, 2]


def test_ordinary_code_may_still_override_builtin_names_on_its_own_objects():
    source = """
        const thing = {title: 'A'};
        thing.toString = function () { return 'thing ' + this.title };
        thing.constructor = 'mine';
        const error = new Error('m');
        error.name = 'Custom';
        return [String(thing), thing.constructor, String(error), String({})];
    """
    assert evaluate(Expression("js-fn", source), {}) == ["thing A", "mine", "Custom: m", "[object Object]"]


def test_code_injected_around_the_wrapper_cannot_change_builtins_either():
    injected = Expression("js-eval", "1); Array.prototype.includes = function () { return true }; (1")
    with contextlib.suppress(ExpressionError):
        evaluate(injected, {})
    assert evaluate(Expression("js-eval", "[1].includes(2)"), {}) is False


def test_patterns_are_not_affected_by_expressions():
    hostile = Expression("js-eval", "(() => { try { RegExp.prototype.test = () => false } catch (e) {} return 1 })()")
    evaluate(hostile, {})
    assert regex_test("^(?<x>a)\\k<x>$", "aa") is True


def test_every_thread_gets_a_locked_down_engine():
    results = []

    def attack_then_probe():
        attack = "(() => { try { Array.prototype.at = () => 'x' } catch (e) {} return 1 })()"
        evaluate(Expression("js-eval", attack), {})
        results.append(evaluate(Expression("js-eval", "[5].at(0)"), {}))

    threads = [threading.Thread(target=attack_then_probe) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert results == [5, 5]


def test_one_schema_cannot_change_the_conditions_of_the_next_one():
    """The reproduction of the issue: two forms in one process, as batch or the REPL run them."""
    hostile = {
        "type": "object",
        "properties": {
            "a": {
                "type": "string",
                "layout": {"if": "(Array.prototype.includes = function () { return true }, true)"},
            }
        },
    }
    Form(hostile, {"a": "x"})
    honest = {
        "type": "object",
        "properties": {
            "kind": {"type": "string"},
            "extra": {"type": "string", "layout": {"if": "['b', 'c'].includes(parent.data.kind)"}},
        },
    }
    form = Form(honest, {"kind": "a"})
    assert "/extra" not in form.call("describeState"), "the condition is computed with the real includes"
