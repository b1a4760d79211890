"""Helpers for the form tests: a form over a schema, and its tools called by verb."""

from __future__ import annotations

import json
from typing import Any

from deskcheck.engine.forms import CompileOptions, FormState, compile_form, form_toolset


class Form:
    """A form over ``schema`` with ``data``; ``call(verb, **args)`` returns the tool's text and
    fails the test on an error; ``error(verb, **args)`` returns the error and fails on success."""

    def __init__(self, schema: dict[str, Any], data: Any = None, *, base: Any = ..., title: str = "record", **kwargs):
        options = CompileOptions(coerce_types=kwargs.pop("coerce_types", False))
        self.compiled = compile_form(schema, options=options)
        extra = {} if base is ... else {"base": base}
        self.state = FormState(self.compiled, data, **extra, **kwargs)
        self.tools = form_toolset(self.state, title=title)

    def call(self, verb: str, **args: Any) -> str:
        result = self.tools.call(f"form_{verb}", args)
        assert result.ok, f"{verb}({args}) failed: {result.error}"
        return result.value

    def error(self, verb: str, **args: Any) -> str:
        result = self.tools.call(f"form_{verb}", args)
        assert not result.ok, f"{verb}({args}) should have failed, answered:\n{result.value}"
        return result.error

    def data(self, path: str | None = None) -> Any:
        answer = json.loads(self.call("getData", **({"path": path} if path else {})))
        return answer.get("data", "<unset>")

    def line(self, path: str) -> str:
        """The describeState line of ``path`` (exactly that path)."""
        for line in self.call("describeState").splitlines():
            if line.strip().startswith(f"- {path} ("):
                return line.strip()
        raise AssertionError(f"no line for {path} in:\n{self.call('describeState')}")
