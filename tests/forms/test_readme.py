"""The README's form example runs and prints what the README shows."""

from __future__ import annotations

import contextlib
import io

from tests.conftest import REPO


def section() -> str:
    return (REPO / "README.md").read_text().split("## Form sessions")[1].split("\n## ")[0]


def test_the_readme_example_runs_and_prints_what_it_shows():
    text = section()
    code = text.split("```python\n")[1].split("```")[0]
    shown = text.split("```text\n")[1].split("```")[0]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert printed.getvalue() == shown
