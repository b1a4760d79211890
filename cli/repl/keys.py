"""Key bindings of the prompt, on top of prompt_toolkit's Emacs defaults (Tab completes, the
right arrow takes a grey history suggestion, Ctrl-C cancels the line, Ctrl-D on an empty line
leaves: the loop then asks before a pending review batch is dropped).

Enter with a completion chosen in the menu takes it and keeps editing (as in IPython): the line
runs on the next Enter. F1 shows the help of the command being typed above the prompt, and the
line stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable


def repl_bindings(show_help: Callable[[str], object] | None = None):
    """``show_help(command)`` prints the help of ``command`` ("" for the list of commands)."""
    from prompt_toolkit.application import run_in_terminal
    from prompt_toolkit.filters import completion_is_selected, has_completions
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("c-space")
    def _complete(event) -> None:
        """Open the completion menu (or move in it) without typing a character."""
        buffer = event.app.current_buffer
        if buffer.complete_state:
            buffer.complete_next()
        else:
            buffer.start_completion(select_first=False)

    @bindings.add("escape", filter=has_completions, eager=True)
    def _close_menu(event) -> None:
        """Close the completion menu, keeping the line as typed."""
        event.app.current_buffer.cancel_completion()

    @bindings.add("enter", filter=completion_is_selected)
    def _take_completion(event) -> None:
        """Take the completion chosen in the menu (already in the line) and close the menu."""
        event.app.current_buffer.complete_state = None

    @bindings.add("f1")
    def _help(event) -> None:
        """Print `help COMMAND` for the command being typed (`help` on an empty line) above the
        prompt; the line being typed is left as it is."""
        if show_help is None:
            return
        typed = event.app.current_buffer.text.split()
        word = typed[0] if typed else ""
        run_in_terminal(lambda: show_help(word))

    return bindings
