"""Schema expressions (``layout.if``, ``getItems`` expressions, item extractors, URL templates),
evaluated as untrusted JavaScript in an embedded engine with a time limit, a memory limit and
no I/O.

Why QuickJS (the ``quickjs-ng`` binding): a schema's expressions are JavaScript written for the
browser form library, so they need a real JavaScript engine, and they come from whoever serves the
schema, so the engine must be a sandbox. We compared the maintained bindings on PyPI (2026-11):

- ``quickjs-ng`` (0.17, October 2026; QuickJS-ng, the maintained fork of QuickJS; drop-in for the
  archived ``quickjs`` package): abi3 wheels for Linux x86_64/aarch64/i686 (glibc and musl),
  Windows and macOS arm64, an sdist elsewhere; ~8 MB installed; a context costs 0.5 ms and an
  evaluation ~20 µs; per-runtime CPU-time and memory limits (``set_time_limit``,
  ``set_memory_limit``); the engine has no ``fetch``, timers, file or process modules.
- ``mini-racer`` (V8, 0.14, February 2026): ~80 MB installed, ~200 ms to import and start a
  context, ~0.4-1 ms per evaluation (calls cross to a V8 thread); it has timeouts and a memory
  cap, but also timers, and one of our probe processes did not exit after an out-of-memory stop.
- ``dukpy`` (Duktape): no time or memory limit, ~1.7 ms per call. ``quickjs`` (the original
  binding): archived since 2023. ``pythonmonkey`` / ``stpyv8``: whole browser engines, far heavier.

The binding is imported lazily, on the first evaluation, so a schema without expressions never
loads it. ``regex_test`` checks a ``pattern`` here with the same limits, in the regular expression
dialect JSON Schema specifies, when the validator cannot read it (see ``validation``). A QuickJS
context must stay on the thread that created it, so each thread gets its own.

Failures become ``ExpressionError`` with a ``reason``: ``"unresolved"`` (the expression reads
something that is not set yet: a ``TypeError`` or ``ReferenceError``), ``"timeout"``,
``"memory"``, ``"syntax"``, ``"failed"`` or ``"budget"`` (not run: the call spent its total
for expressions, ``engine.budget``). An expression that timed out, ran out of memory or does not
parse is remembered and never run again in this process: a slow expression costs its time limit
once, not once per field and per write.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from ... import budget
from ...errors import DeskcheckError
from .record import FrozenRecord

# CPU time one evaluation may take. Form expressions are one-liners that read a few fields;
# a quarter of a second is thousands of times what they need and short enough for a person.
TIME_LIMIT_SECONDS = 0.25
# Memory the whole JavaScript runtime of a thread may hold: expressions build small lists.
MEMORY_LIMIT_BYTES = 32 * 1024 * 1024
# Native stack for the interpreter: deep recursion fails cleanly instead of crashing.
STACK_LIMIT_BYTES = 512 * 1024
# Expression sources longer than this are refused outright: nobody writes a form condition this
# long, and compiling megabytes of script is itself a way to stall the process.
MAX_SOURCE_CHARS = 20_000

# Results kept for expressions that read only their local scope (data, parent, item): the same
# scope gives the same answer, and a form re-evaluates its conditions after every write.
RESULT_CACHE_SIZE = 4096

KINDS = ("js-eval", "js-tpl", "js-fn")
# A template that gives a URL (``getItems.url``): its interpolated values are encoded for the part
# of the URL they stand in (``engine.urls.template_url``). Made by ``layout``, never by a schema.
URL_TEMPLATE = "js-url"
SHARED_NAMES = ("rootData", "context", "options", "summary", "mode", "display")
SCOPE_NAMES = ("data", "parent", "rootData", "context", "options", "summary", "mode", "display", "item", "body")


class Expression(FrozenRecord):
    """One expression of a schema: ``kind`` is ``js-eval`` (an expression), ``js-tpl`` (a
    template literal, ``${...}`` interpolations) or ``js-fn`` (a function body that returns).
    ``pure`` says its value depends only on the context, not on the data, so it can be
    evaluated once."""

    __slots__ = ("kind", "pure", "source")

    def __init__(self, kind: str, source: str, pure: bool = False) -> None:
        self._set(kind=kind, source=source, pure=pure)

    def as_json(self) -> dict[str, Any]:
        return {"type": self.kind, "expr": self.source, "pure": self.pure}

    def describe(self) -> str:
        return self.source if len(self.source) <= 120 else self.source[:117] + "..."

    @property
    def local(self) -> bool:
        """Whether it reads only its local scope (so a result can be reused for the same scope)."""
        return not any(name in self.source for name in SHARED_NAMES)


class ExpressionError(DeskcheckError):
    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message, code=f"expression-{reason}")
        self.reason = reason


def parse_expression(value: Any, *, default_kind: str = "js-eval") -> Expression | None:
    """An ``Expression`` from a schema value: a string, or ``{type?, expr, pure?}``."""
    if isinstance(value, Expression):
        return value
    if isinstance(value, str):
        return Expression(default_kind, value, pure=_looks_pure(value))
    if isinstance(value, dict) and isinstance(value.get("expr"), str):
        kind = value.get("type") if value.get("type") in KINDS else default_kind
        pure = value["pure"] if isinstance(value.get("pure"), bool) else _looks_pure(value["expr"])
        return Expression(kind, value["expr"], pure=pure)
    return None


def _looks_pure(source: str) -> bool:
    return "rootData" not in source and "parent" not in source and "data" not in source


# -- evaluation ---------------------------------------------------------------------------------

_local = threading.local()
# Expressions that must not run again: (kind, source) -> the error they gave.
_poisoned: dict[tuple[str, str], ExpressionError] = {}
_poison_lock = threading.Lock()
# (kind, source, scope JSON) -> value, for local expressions. Values are shared: never change them.
_results: dict[tuple[str, str, str], Any] = {}


def evaluate(expression: Expression, scope: dict[str, Any], shared: str | None = None) -> Any:
    """The JSON value of ``expression`` with ``scope`` (JSON values named ``data``, ``parent``,
    ``rootData``, ``context``...). ``undefined`` comes back as None; functions and other
    non-JSON values are dropped the way ``JSON.stringify`` drops them.

    ``shared`` is an optional JSON object text of scope entries many evaluations have in common
    (the root document, the context): ``shared_scope`` makes it once, the engine parses it once
    while it stays the same, and ``scope`` entries win over it."""
    key = (expression.kind, expression.source)
    poisoned = _poisoned.get(key)
    if poisoned is not None:
        raise poisoned
    if len(expression.source) > MAX_SOURCE_CHARS:
        error = ExpressionError(
            f"the expression is {len(expression.source)} characters long, over the {MAX_SOURCE_CHARS} allowed",
            reason="failed",
        )
        _poison(key, error)
        raise error
    if expression.kind in ("js-tpl", URL_TEMPLATE) and "${" not in expression.source and "\r" not in expression.source:
        # A template without interpolation (a URL with only {q}) is its own text: the engine
        # would give back exactly that, so it is not started for it.
        return expression.source
    scope_json = json.dumps(scope, default=lambda _value: None)
    cache_key = (expression.kind, expression.source, scope_json) if expression.local else None
    if cache_key is not None and cache_key in _results:
        return _results[cache_key]
    if budget.exhausted(budget.EXPRESSIONS):
        raise ExpressionError(
            f"it was not evaluated: this call already spent the {budget.limit(budget.EXPRESSIONS):g} s of CPU time "
            "it gives a schema's expressions (DESKCHECK_EXPRESSION_SECONDS_PER_CALL)",
            reason="budget",
        )
    with budget.spending(budget.EXPRESSIONS):
        result = _run(expression, key, scope_json, shared)
    try:
        value = json.loads(result)["value"] if result not in (None, "{}") else None
    except (ValueError, KeyError, TypeError):
        value = None
    if expression.kind == URL_TEMPLATE:
        value = _url(value)
    if cache_key is not None:
        if len(_results) >= RESULT_CACHE_SIZE:
            _results.pop(next(iter(_results)), None)
        _results[cache_key] = value
    return value


def _run(expression: Expression, key: tuple[str, str], scope_json: str, shared: str | None) -> Any:
    """The engine's JSON text of ``expression``'s value; ``ExpressionError`` when it fails."""
    sandbox = _sandbox()
    function = sandbox.function(expression, key)
    try:
        # A local expression reads nothing shared (its results are cached on that premise), so
        # it is not given the shared scope: no parse for it when the root document changed.
        return function(scope_json, None if expression.local else (shared if shared is not None else "{}"))
    except sandbox.quickjs.JSException as exc:
        error = _classify(str(exc))
        if error.reason in ("timeout", "memory"):
            sandbox.reset()
            _poison(key, error)
        raise error from None
    except sandbox.quickjs.StackOverflow:
        sandbox.reset()
        error = ExpressionError("the expression recursed too deeply", reason="failed")
        _poison(key, error)
        raise error from None


_regex_results: dict[tuple[str, str], bool | None] = {}


def regex_test(pattern: str, text: str) -> bool | None:
    """Whether ``text`` matches the JSON Schema ``pattern``; None when that cannot be decided
    (the pattern is not a regular expression, or the test ran out of time or memory).

    A schema's ``pattern`` is an ECMA-262 regular expression, and an untrusted one can backtrack
    for ever; testing it in the engine gives the right dialect and the same time limit."""
    key = (pattern, text)
    if key in _regex_results:
        return _regex_results[key]
    sandbox = _sandbox()
    try:
        verdict: bool | None = bool(sandbox.regex()(pattern, text))
    except sandbox.quickjs.JSException as exc:
        if _classify(str(exc)).reason in ("timeout", "memory"):
            sandbox.reset()
        verdict = None
    except sandbox.quickjs.StackOverflow:
        sandbox.reset()
        verdict = None
    if len(_regex_results) >= RESULT_CACHE_SIZE:
        _regex_results.pop(next(iter(_regex_results)), None)
    _regex_results[key] = verdict
    return verdict


def _url(parts: Any) -> str:
    from ...urls import UnsafeUrlValue, template_url

    try:
        return template_url(parts["strings"], parts["values"])
    except UnsafeUrlValue as exc:
        raise ExpressionError(exc.message, reason="failed") from None


_REGEX_SYNTAX = (
    "(function (p) { try { new RegExp(p, 'u'); return ''; } catch (e) {"
    " try { new RegExp(p); return ''; } catch (e2) { return String(e2.message || 'invalid'); } } })"
)


def regex_syntax_error(pattern: str) -> str | None:
    """Why ``pattern`` is not an ECMA-262 regular expression (with or without the ``u`` flag),
    or None when it is one (or the engine could not decide in its limits)."""
    sandbox = _sandbox()
    try:
        message = sandbox.regex_syntax()(pattern)
    except (sandbox.quickjs.JSException, sandbox.quickjs.StackOverflow):
        sandbox.reset()
        return None
    return message or None


def shared_scope(**entries: Any) -> str:
    """The ``shared`` argument of ``evaluate`` for these entries."""
    return json.dumps(entries, default=lambda _value: None)


def _poison(key: tuple[str, str], error: ExpressionError) -> None:
    with _poison_lock:
        _poisoned[key] = error


def _classify(message: str) -> ExpressionError:
    first = message.strip().splitlines()[0] if message.strip() else "error"
    if "interrupted" in first:
        return ExpressionError(
            f"the expression took longer than {TIME_LIMIT_SECONDS:g} s and was stopped", reason="timeout"
        )
    if "out of memory" in first:
        return ExpressionError(
            f"the expression used more than {MEMORY_LIMIT_BYTES // (1024 * 1024)} MB and was stopped", reason="memory"
        )
    if first.startswith("SyntaxError"):
        return ExpressionError(f"the expression is not valid JavaScript ({first})", reason="syntax")
    if first.startswith("TypeError") and any(w in first for w in ("read-only", "not extensible", "define variable")):
        return ExpressionError(
            f"the expression tries to change what it may only read ({first}): built-ins, global variables, "
            "rootData and context cannot be changed (copy a list before sorting it: [...list].sort())",
            reason="failed",
        )
    if first.startswith(("TypeError", "ReferenceError")):
        return ExpressionError(f"the expression reads a value that is not set ({first})", reason="unresolved")
    if "stack overflow" in first or first.startswith("RangeError"):
        return ExpressionError(f"the expression failed ({first})", reason="failed")
    return ExpressionError(f"the expression failed ({first})", reason="failed")


class _Sandbox:
    """One QuickJS context (per thread), locked down (``lockdown``), and the compiled functions
    of the expressions it ran."""

    def __init__(self) -> None:
        import quickjs  # lazily: only schemas with expressions pay for the engine

        self.quickjs = quickjs
        self.reset()

    def reset(self) -> None:
        from .lockdown import LOCKDOWN_SCRIPT, SCOPE_NAMES_MARK

        context = self.quickjs.Context()
        context.set_memory_limit(MEMORY_LIMIT_BYTES)
        context.set_time_limit(TIME_LIMIT_SECONDS)
        context.set_max_stack_size(STACK_LIMIT_BYTES)
        context.eval(LOCKDOWN_SCRIPT.replace(SCOPE_NAMES_MARK, json.dumps(SCOPE_NAMES)))
        self.context = context
        self.functions: dict[tuple[str, str], Any] = {}
        self._regex: Any = None
        self._regex_syntax: Any = None

    def regex(self) -> Any:
        if self._regex is None:
            self._regex = self.context.eval("__deskcheck.regexTest")
        return self._regex

    def regex_syntax(self) -> Any:
        if self._regex_syntax is None:
            self._regex_syntax = self.context.eval(_REGEX_SYNTAX)
        return self._regex_syntax

    def function(self, expression: Expression, key: tuple[str, str]) -> Any:
        function = self.functions.get(key)
        if function is not None:
            return function
        if expression.kind in ("js-tpl", URL_TEMPLATE):
            literal = "`" + expression.source.replace("\\", "\\\\").replace("`", "\\`") + "`"
            body = "return " + ("__deskcheck.urlParts" if expression.kind == URL_TEMPLATE else "") + literal + ";"
        elif expression.kind == "js-fn":
            body = expression.source
        else:
            body = "return (" + expression.source + "\n);"
        # The scope crosses as one JSON string and the result comes back the same way (a
        # wrapper object keeps `undefined` apart from `null`): see ``lockdown``.
        source = f"__deskcheck.compile(function ({', '.join(SCOPE_NAMES)}) {{\n{body}\n}})"
        try:
            function = self.context.eval(source)
        except self.quickjs.JSException as exc:
            error = _classify(str(exc))
            if error.reason != "syntax":
                error = ExpressionError(f"the expression could not be compiled ({error.message})", reason="syntax")
            _poison(key, error)
            raise error from None
        self.functions[key] = function
        return function


def _sandbox() -> _Sandbox:
    sandbox = getattr(_local, "sandbox", None)
    if sandbox is None:
        sandbox = _local.sandbox = _Sandbox()
    return sandbox


def engine_loaded() -> bool:
    """Whether this thread has started the JavaScript engine (for tests and benchmarks)."""
    return getattr(_local, "sandbox", None) is not None
