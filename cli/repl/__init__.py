"""The interactive REPL (``deskcheck repl``): a live form session or a docx review at a prompt.

Modules: ``start`` (from the command line to a mode and a loop), ``loop`` (the shell, the prompt
and the script runner), ``commands`` (the command tables), ``form_mode`` / ``review_mode`` (the
commands of each mode, over the family's tools), ``working_copy`` (the review's copy of the
.docx), ``form_view`` / ``review_view`` / ``render`` (output), ``suggest`` (pure completion
logic), ``completer`` (its prompt_toolkit adapter), ``toolbar``, ``keys``, ``highlight``,
``state`` (``ReplState``, all the toolbar sees), ``parse`` (words, values, ``FIND => REPLACE``).

prompt_toolkit is imported only by the modules the prompt needs (``completer``, ``highlight``,
and inside functions elsewhere), never when the CLI starts.
"""
