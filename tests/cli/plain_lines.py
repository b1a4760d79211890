"""What Typer hands a verb for a command line, for comparing the plain-line readers
(``cli.form_line``, ``cli.docx_line``) with Typer itself."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

import pytest

from deskcheck.cli.errors import UsageError


def typer_reading(argv: list[str], monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, shape: Callable) -> tuple:
    """Run ``argv`` through Typer with ``owner.name`` (the function the verb calls with what it
    read) replaced: ("call", *shape(arguments)) for a call, ("usage", message) for our own usage
    error, or ("refused", ...) when Typer answers the line itself (help, a parse error)."""
    import typer

    from deskcheck.cli.app import app

    calls = []

    def record(*arguments):
        calls.append(("call", *shape(*arguments)))
        return 0

    monkeypatch.setattr(owner, name, record)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = app(args=argv, prog_name="deskcheck", standalone_mode=False)
    except UsageError as exc:
        return ("usage", exc.message)
    except (typer.Exit, SystemExit) as exc:
        code = getattr(exc, "exit_code", getattr(exc, "code", None))
    except Exception as exc:  # click's parse errors in non-standalone mode
        return ("refused", type(exc).__name__)
    return calls[0] if calls else ("refused", code)
