"""A time budget per tool call for the work a schema can make deskcheck do: evaluating its
expressions, and testing values against its patterns that need backtracking.

Each evaluation has a limit of its own (0.25 s for an expression; 100,000 backtracking steps and
``MAX_BACKTRACKING_CHARS`` for a pattern), but a schema can hold hundreds of them: 200 distinct
``while(true)`` conditions made one ``describe-state`` take 104 s, 200 backtracking patterns
121 s. So each tool call (``run_tool``: a CLI call, a batch line, an MCP call, a REPL command;
``openapi check --live``: each editor group) gets a total per kind of work. Once a kind's total
is spent, what is left of that kind is not run in this call and is reported the way one
over-long evaluation is: a condition "could not be evaluated", a value "could not be checked".
The total is checked before each evaluation, so a call spends at most its budget plus one
evaluation's own limit.

Time is the calling thread's CPU time: another call running beside it, or a busy machine, does
not eat into it. Outside a call (a host that drives the engine directly) nothing is counted.

Each total can be changed for one run with an environment variable, ``DESKCHECK_`` and its name,
in seconds (``DESKCHECK_EXPRESSION_SECONDS_PER_CALL=10``); raising one raises what a hostile
schema may cost each call.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field

EXPRESSIONS = "expressions"
PATTERNS = "patterns"


def _seconds(name: str, default: float) -> float:
    try:
        value = float(os.environ.get("DESKCHECK_" + name, "").strip())
    except ValueError:
        return default
    return value if value >= 0 else default


# CPU time one call may spend on a schema's expressions: a real form's conditions and option
# lists take a few milliseconds in all (an evaluation is about 20 us); two seconds is far above
# that and still an answer a person waits for.
EXPRESSION_SECONDS_PER_CALL = _seconds("EXPRESSION_SECONDS_PER_CALL", 2.0)
# CPU time one call may spend testing values against patterns that need backtracking (most
# patterns run on a linear-time engine and are not counted).
PATTERN_SECONDS_PER_CALL = _seconds("PATTERN_SECONDS_PER_CALL", 2.0)


@dataclass
class CallBudget:
    """What one call may still spend, per kind, and what it spent and refused so far."""

    limits: dict[str, float]
    spent: dict[str, float] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)

    def exhausted(self, kind: str) -> bool:
        if self.spent.get(kind, 0.0) < self.limits[kind]:
            return False
        self.refused[kind] = self.refused.get(kind, 0) + 1
        return True


_current: ContextVar[CallBudget | None] = ContextVar("deskcheck_call_budget", default=None)


@contextlib.contextmanager
def call_budget() -> Iterator[CallBudget]:
    """A fresh budget for the call made in this block (the enclosing one when a call is already
    under way: a tool that runs another shares its budget)."""
    outer = _current.get()
    if outer is not None:
        yield outer
        return
    budget = CallBudget({EXPRESSIONS: EXPRESSION_SECONDS_PER_CALL, PATTERNS: PATTERN_SECONDS_PER_CALL})
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)


def exhausted(kind: str) -> bool:
    """Whether the current call has spent its budget of ``kind`` (counted as one refusal)."""
    budget = _current.get()
    return budget is not None and budget.exhausted(kind)


def limit(kind: str) -> float | None:
    """The current call's budget of ``kind`` in seconds (None outside a call)."""
    budget = _current.get()
    return None if budget is None else budget.limits[kind]


@contextlib.contextmanager
def spending(kind: str) -> Iterator[None]:
    """Charge the CPU time of this block to the current call's ``kind``."""
    budget = _current.get()
    if budget is None:
        yield
        return
    start = time.thread_time()
    try:
        yield
    finally:
        budget.spent[kind] = budget.spent.get(kind, 0.0) + time.thread_time() - start
