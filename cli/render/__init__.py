"""Readable renderings of results, one module per family (``docx``, ``forms``, ``openapi``,
``tools``, ``rules``, and ``markdown`` for API tools' answers), shared by the CLI on a terminal, the
REPL and ``deskcheck demo``; ``draw`` lays them out at a width, ``values`` shows any other value.
Imported only when something is shown to a person: scripts reading JSON never load it."""

from __future__ import annotations

from typing import Any

from .draw import View

# view family -> module holding its VIEWS table
_FAMILIES = {
    "docx": "docx",
    "form": "forms",
    "openapi": "openapi",
    "tools": "tools",
    "rules": "rules",
    "markdown": "markdown",
}


def view_of(name: str | None, value: Any, args: dict[str, Any] | None = None) -> View:
    """The view called ``name`` ("docx:read_document", "form:sessions"..., or "json" for JSON a
    person asked for) of ``value``; any
    value a view does not know (or an error shape it cannot read) is shown as plain ``key:
    value`` lines instead."""
    import importlib

    from .values import json_view, value_view

    if name == "json":
        return json_view(value)
    family, _, key = (name or "").partition(":")
    module = _FAMILIES.get(family)
    if module is not None:
        views = importlib.import_module(f"{__name__}.{module}").VIEWS
        render = views.get(key)
        if render is not None:
            try:
                return render(value, args or {})
            except (AttributeError, KeyError, TypeError, ValueError):
                pass  # a shape the view does not expect: show it as it is rather than fail
    return value_view(value)
