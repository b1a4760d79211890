"""Readable output on a terminal, with rich (imported only when something is printed)."""

from __future__ import annotations

import json
from typing import Any

from ..env import Env


def console(env: Env, *, stderr: bool = False):
    from rich.console import Console

    return Console(
        file=env.stderr if stderr else env.stdout,
        no_color=not env.color,
        highlight=False,
        soft_wrap=True,
    )


def print_value(env: Env, value: Any) -> None:
    out = console(env)
    if value is None:
        out.print("ok")
    elif isinstance(value, str):
        out.print(value, markup=False, highlight=False)
    else:
        from rich.json import JSON

        out.print(JSON(json.dumps(value, ensure_ascii=False, default=str)))


def print_error(env: Env, message: str) -> None:
    err = console(env, stderr=True)
    err.print("[bold red]error:[/] ", end="")
    err.print(message, markup=False, highlight=False)
