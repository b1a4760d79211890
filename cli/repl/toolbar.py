"""The bottom toolbar: formatted text built from a ``ReplState`` alone."""

from __future__ import annotations

from collections.abc import Callable

from ..render.draw import plural
from .state import ReplState

Tokens = list[tuple[str, str]]


# The hint at the end, from the whole to the least a narrow screen still shows in full.
HINTS = (" help · Tab completes · Ctrl-D leaves ", " help · Ctrl-D leaves ", " help ")


def toolbar_tokens(state: ReplState, width: int | None = None) -> Tokens:
    """``(style class, text)`` pairs: what is open, then its flags, then the hint to leave. Within
    ``width`` cells the hint is shortened rather than cut, then the title is cut."""
    tokens = _state_tokens(state)
    used = sum(_width(text) for _, text in tokens)
    hint = next((h for h in HINTS if width is None or used + _width(h) <= width), HINTS[-1])
    if width is not None and used + _width(hint) > width:
        from ..render.draw import fit

        style, title = tokens[0]
        room = max(4, _width(title) - (used + _width(hint) - width))
        tokens[0] = (style, fit(title.rstrip(), room - 1) + " ")
    return [*tokens, ("class:bottom-toolbar.hint", hint)]


def _width(text: str) -> int:
    from ..render.draw import width_of

    return width_of(text)


def _state_tokens(state: ReplState) -> Tokens:
    tokens: Tokens = [("class:bottom-toolbar.title", f" {state.mode}: {state.title} ")]
    if state.status:
        style = "class:bottom-toolbar.warn" if state.status in WARN_STATUSES else "class:bottom-toolbar"
        tokens.append((style, f" {state.status} "))
    if state.mode == "form":
        if state.valid is True:
            tokens.append(("class:bottom-toolbar.ok", " valid "))
        elif state.valid is False:
            tokens.append(("class:bottom-toolbar.warn", f" invalid: {plural(state.error_count, 'error')} "))
    else:
        if state.document_version:
            tokens.append(("class:bottom-toolbar", f" version {state.document_version} "))
        style = "class:bottom-toolbar.warn" if state.pending_ops else "class:bottom-toolbar"
        tokens.append((style, f" {plural(state.pending_ops, 'pending op')} "))
    if state.modified:
        tokens.append(("class:bottom-toolbar.warn", " modified, not saved "))
    return tokens


# Statuses that need the user's attention.
WARN_STATUSES = frozenset({"stale", "error", "saving", "closed", "file changed on disk"})


def create_toolbar(get_state: Callable[[], ReplState]) -> Callable[[], Tokens]:
    """The ``bottom_toolbar`` callable of a prompt session."""

    def toolbar() -> Tokens:
        from prompt_toolkit.application import get_app

        return toolbar_tokens(get_state(), get_app().output.get_size().columns)

    return toolbar
