"""Readable output on a terminal: results drawn by ``cli.render`` at the terminal's width, long
ones through the pager (``output.pager``). Imported only when something is shown to a person."""

from __future__ import annotations

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


def print_value(env: Env, value: Any, view: str | None = None, args: dict[str, Any] | None = None) -> None:
    """``value`` as the view ``view`` shows it (see ``render.view_of``); text without a view as
    it is."""
    out = console(env)
    if isinstance(value, str) and view is None:
        from ..render.draw import safe_text

        lines = safe_text(value).split("\n")  # a tool's text may quote a hostile document or API
    else:
        lines = render_lines(out, view, value, args)
    from .pager import show_lines

    show_lines(env.stdout, lines, page=env.pager and out.is_terminal, height=out.height, width=out.width)


def render_lines(out, view: str | None, value: Any, args: dict[str, Any] | None = None) -> list[str]:
    """The lines of ``value``'s view on the rich console ``out`` (its width, its colours)."""
    from ..render import view_of
    from ..render.draw import draw

    return draw(view_of(view, value, args), out.width, styler_for(out))


def show(out, view: str | None, value: Any, args: dict[str, Any] | None = None) -> None:
    """Draw ``value``'s view on the rich console ``out`` (no pager)."""
    out.file.write("".join(f"{line}\n" for line in render_lines(out, view, value, args)))


def styler_for(out):
    """Styles as the rich console ``out`` would draw them (none when it is not a terminal)."""
    from ..render.draw import Styler

    return Styler(out.color_system if out.is_terminal else None, no_color=out.no_color)


def print_error(env: Env, message: str) -> None:
    from ..render.draw import safe_text

    err = console(env, stderr=True)
    err.print("[bold red]error:[/] ", end="")
    err.print(safe_text(message), markup=False, highlight=False)
