"""Key bindings of the prompt, on top of prompt_toolkit's Emacs defaults (Tab completes, the
right arrow takes a grey history suggestion, Ctrl-C cancels the line, Ctrl-D on an empty line
leaves: the loop then asks before a pending review batch is dropped)."""

from __future__ import annotations


def repl_bindings():
    from prompt_toolkit.filters import has_completions
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

    @bindings.add("f1")
    def _help(event) -> None:
        """Run `help COMMAND` for the command being typed (`help` on an empty line); the line
        typed so far stays in the history, to get it back with the up arrow."""
        buffer = event.app.current_buffer
        typed = buffer.text.split()
        if typed:
            buffer.append_to_history()
        buffer.text = f"help {typed[0]}" if typed else "help"
        buffer.validate_and_handle()

    return bindings
