"""The form example of docs/forms.md runs and prints what the page shows."""

from __future__ import annotations

import contextlib
import io

from tests.docs import page


def section() -> str:
    return page("forms.md").split("# Form sessions")[1].split("\n## ")[0]


def test_the_readme_example_runs_and_prints_what_it_shows():
    text = section()
    code = text.split("```python\n")[1].split("```")[0]
    shown = text.split("```text\n")[1].split("```")[0]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/forms.md", "exec"), {})
    assert printed.getvalue() == shown
