"""What the demo records: steps, the tool calls inside them, and the checks that decide whether a
step worked.

A step calls tools exactly as the CLI does (``ToolSet.call``) and records each call with its
arguments and result, so that ``deskcheck demo --json`` can print them and the terminal rendering
can narrate them. ``Step.call`` and ``Step.expect`` raise ``StepFailed`` when something does not
go as the demo says it will; the runner turns that into a failed step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from deskcheck.engine.tools import ToolResult, ToolSet


class StepFailed(Exception):
    """A step did not do what it shows (a tool failed, or a result is not the expected one)."""


@dataclass
class Call:
    """One tool call (``tool`` and ``args``), or an ``action`` that is not a tool call (another
    client changing a record on the server, copying a file)."""

    tool: str | None
    args: dict[str, Any] | None
    ok: bool
    result: Any = None
    error: str | None = None
    action: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tool": self.tool, "args": self.args} if self.tool else {"action": self.action}
        out["ok"] = self.ok
        if self.ok:
            out["result"] = self.result
        else:
            out["error"] = self.error
        return out


@dataclass
class Step:
    """One step of the demo: a ``name`` for scripts (``forms.save``), the ``part`` it belongs to,
    a ``title`` and a ``story`` (what it shows) for people, and what happened."""

    name: str
    part: str
    title: str
    story: str
    calls: list[Call] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ok: bool = True
    skipped: bool = False
    error: str | None = None

    def call(self, tools: ToolSet, name: str, args: dict[str, Any], *, expect_ok: bool = True) -> ToolResult:
        """Run tool ``name`` with ``args`` and record it; a result other than the expected
        outcome (ok, or a failure when ``expect_ok`` is False) fails the step."""
        result = tools.call(name, args)
        self.calls.append(Call(name, args, result.ok, result.value, result.error))
        if expect_ok and not result.ok:
            raise StepFailed(f"{name} failed: {result.error}")
        if not expect_ok and result.ok:
            raise StepFailed(f"{name} was expected to fail here, but it succeeded.")
        return result

    def action(self, description: str, run: Callable[[], Any]) -> Any:
        """Do something that is not a tool call and record it with its result."""
        value = run()
        self.calls.append(Call(None, None, True, value, action=description))
        return value

    def expect(self, condition: object, message: str) -> None:
        if not condition:
            raise StepFailed(message)

    def note(self, text: str) -> None:
        """An observation worth showing (what the result proves)."""
        self.notes.append(text)

    def fail(self, message: str) -> None:
        self.ok = False
        self.error = message

    def skip(self, reason: str) -> None:
        self.skipped = True
        self.ok = False
        self.error = reason

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "part": self.part,
            "title": self.title,
            "ok": self.ok,
            "calls": [call.as_dict() for call in self.calls],
            "notes": self.notes,
        }
        if self.skipped:
            out["skipped"] = True
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass(frozen=True)
class StepSpec:
    """A step as a part declares it: ``run(step)`` does the work and fills ``step``."""

    name: str
    title: str
    story: str
    run: Callable[[Step], None]
