"""The bottom toolbar: formatted text built from a ``ReplState`` alone."""

from __future__ import annotations

from collections.abc import Callable

from ..render.draw import plural
from .state import ReplState

Tokens = list[tuple[str, str]]


def toolbar_tokens(state: ReplState) -> Tokens:
    """``(style class, text)`` pairs: what is open, then its flags, then the hint to leave."""
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
    tokens.append(("class:bottom-toolbar.hint", " help · Tab completes · Ctrl-D leaves "))
    return tokens


# Statuses that need the user's attention.
WARN_STATUSES = frozenset({"stale", "error", "saving", "closed", "file changed on disk"})


def create_toolbar(get_state: Callable[[], ReplState]) -> Callable[[], Tokens]:
    """The ``bottom_toolbar`` callable of a prompt session."""

    def toolbar() -> Tokens:
        return toolbar_tokens(get_state())

    return toolbar
