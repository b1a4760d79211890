"""The prompt_toolkit completer: a thin adapter over ``suggest.suggest`` and the catalog the
REPL keeps up to date (it never reaches into a session or a document itself)."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.completion import Completer, Completion

from .suggest import Catalog, suggest


class ReplCompleter(Completer):
    def __init__(self, get_catalog: Callable[[], Catalog]) -> None:
        self.get_catalog = get_catalog

    def get_completions(self, document, complete_event):
        for found in suggest(document.text_before_cursor, self.get_catalog()):
            yield Completion(found.text, start_position=found.start, display=found.display, display_meta=found.meta)
