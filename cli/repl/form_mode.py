"""The form commands: a live form session (a file-backed form, or an editor group's record over
an API) driven through the group's eight tools, so every command is also a `deskcheck form`
verb and the session is the one the CLI uses: leaving and coming back resumes unsaved edits.

Reads for the views (`show`, `errors`, `diff`, completion) open the session like any tool call
does and render its state; every write goes through a tool.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from deskcheck.engine.errors import DeskcheckError, InputError
from deskcheck.engine.tools import ToolResult, ToolSet

from ..errors import UsageError
from ..exit import ExitCode
from ..output.emit import exit_code_for
from ..render.draw import plural
from . import form_view, parse
from .render import Printer
from .state import ReplState
from .suggest import Candidate
from .words import form_words

if TYPE_CHECKING:
    from deskcheck.engine.forms.state.state import FormState
    from deskcheck.engine.forms.tools.session_tools import SessionGroup

    from ..context import ContextOptions

SELECTOR_KEY = "$oneOf"


class FormMode:
    kind = "form"

    def __init__(
        self,
        context: ContextOptions,
        group: SessionGroup,
        params: dict[str, Any],
        printer: Printer,
        *,
        allow_invalid: bool = False,
    ) -> None:
        self.context = context
        self.group = group
        self.params = params
        self.printer = printer
        self.allow_invalid = allow_invalid
        self.session = group.session(params)
        self.tools = group.toolset()
        self._family_tools: ToolSet | None = None
        # (document before, document after) of each write made here, for `undo`.
        self.undo_stack: list[tuple[Any, Any]] = []
        self.last_suggest: tuple[str, form_view.Listing] | None = None
        self.state = ReplState("form", self.describe())
        self._candidates: tuple[dict[str, list[Candidate]], dict[str, dict[str, list[Candidate]]]] = ({}, {})

    def describe(self) -> str:
        params = " ".join(f"{name}={value}" for name, value in self.params.items())
        return f'"{self.group.title}"' + (f" {params}" if params else "")

    # -- start, refresh, leave ------------------------------------------------------------------

    def start(self) -> ExitCode:
        """Open the session (loading the record when it is not open yet) and say what was found."""
        existed = self.session.record() is not None
        try:
            record = self.session.open()
        except DeskcheckError as exc:
            self.printer.error(f"could not open {self.describe()}: {exc.message}")
            return ExitCode.USAGE if isinstance(exc, InputError) else ExitCode.TOOL_ERROR
        self._notices()
        state = "valid" if record.valid else f"not valid ({plural(record.error_count, 'error')})"
        self.printer.greet(f"Form {self.describe()}: session {record.status}, {state}.")
        if existed and record.modified:
            changed = [pointer for pointer, _, _ in form_view.diff_lines(self._current())]
            self.printer.notice(
                f"Resuming {plural(len(changed), 'unsaved edit')} kept in the session ({', '.join(changed)}): "
                f"`save` sends, `diff` shows and `reload` drops {'it' if len(changed) == 1 else 'them'}.",
                "yellow",
            )
        self.printer.greet("Type `help` for the commands; Tab completes commands and field paths.", "dim")
        return ExitCode.OK

    def refresh(self) -> None:
        """Update the toolbar state and the completion candidates from the session."""
        self.state.status = self.session.status
        record = self.session.record()
        if record is None:
            self.state.valid, self.state.error_count, self.state.modified = None, 0, False
            self._candidates = ({}, {})
            return
        self.state.valid, self.state.error_count, self.state.modified = (
            record.valid,
            record.error_count,
            record.modified,
        )
        try:
            with self.session.peek() as state:
                if state is not None:
                    self._candidates = form_view.field_candidates(state)
        except DeskcheckError:
            self._candidates = ({}, {})

    def completion_values(self) -> tuple[dict[str, list[Candidate]], dict[str, dict[str, list[Candidate]]]]:
        values, dependent = self._candidates
        picks = self.last_suggest[1].options if self.last_suggest else []
        return {**values, "pick": picks}, dependent

    def leave(self, ask) -> bool:
        record = self.session.record()
        if record is not None and record.modified:
            self.printer.notice(
                "Your unsaved edits stay in the session: the same `deskcheck repl` command resumes them "
                "(`deskcheck form sessions` lists sessions).",
                "dim",
            )
        return True

    def call_tools(self) -> ToolSet:
        """The tools `call` runs: every tool of the context (for --spec, the document's tools)."""
        if self._family_tools is None:
            if self.context.spec is None:
                self._family_tools = self.tools
            else:
                from ..context import open_toolset

                self._family_tools = open_toolset(self.context)
        return self._family_tools

    def call_arguments(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        """The record's path parameters are added to a call of one of this group's tools."""
        if tool.startswith(f"{self.group.name}_"):
            return {**{k: v for k, v in self.params.items() if k in self.group.parameters}, **args}
        return args

    # -- helpers --------------------------------------------------------------------------------

    def _current(self) -> FormState:
        """The session's state now (opening it when it expired, as a tool call would)."""
        with self.session.edit() as state:
            return state

    def _document(self) -> Any:
        return self._current().document

    def _notices(self) -> None:
        for notice in self.session.notices:
            self.printer.warn(form_words(notice))
        self.session.notices.clear()

    def _call(self, verb: str, args: dict[str, Any], tools: ToolSet | None = None) -> ToolResult:
        return (tools or self.tools).call(f"{self.group.name}_{verb}", {**self.params, **args})

    def _answer(self, result: ToolResult) -> ExitCode:
        """A tool's answer, in the REPL's words (`errors`, `save --allow-invalid`, not tool names)."""
        if result.ok:
            self.printer.print(form_words(result.value) if isinstance(result.value, str) else json.dumps(result.value))
        else:
            self.printer.error(form_words(result.error or "the tool failed without a message"))
        return exit_code_for(result)

    def _write(self, verb: str, args: dict[str, Any]) -> ExitCode:
        """A write through a tool, remembered for `undo` when it changed the record."""
        before = self._document()
        result = self._call(verb, args)
        if result.ok:
            after = self._document()
            if after != before:
                self.undo_stack.append((before, after))
        return self._answer(result)

    def _node(self, state: FormState, path: str):
        try:
            return state.node(path)
        except DeskcheckError as exc:
            raise UsageError(exc.message) from None

    # -- commands -------------------------------------------------------------------------------

    def do_show(self, rest: str) -> ExitCode:
        path, extra = parse.split_first(rest)
        if extra:
            raise UsageError("usage: show [PATH]")
        state = self._current()
        node = self._node(state, path) if path else state.tree.root
        self.printer.lines(form_view.tree_lines(state, node))
        if state.valid:
            self.printer.success("The record is valid.")
        else:
            self.printer.warn(f"The record is not valid: {plural(len(state.errors), 'error')} (`errors` lists them).")
        return ExitCode.OK

    def do_get(self, rest: str) -> ExitCode:
        path, extra = parse.split_first(rest)
        if extra:
            raise UsageError("usage: get [PATH]")
        result = self._call("getData", {"path": path} if path else {})
        if not result.ok:
            return self._answer(result)
        answer = form_view.parse_get(result.value)
        if answer.get("unset"):
            self.printer.note("unset (no value)")
        else:
            self.printer.json(answer.get("data"))
        return ExitCode.OK

    def do_set(self, rest: str) -> ExitCode:
        [path], value_text = parse.take_words(rest, 1, "set PATH VALUE")
        return self._write("setFieldValue", {"path": path, "value": parse.value(value_text)})

    def do_unset(self, rest: str) -> ExitCode:
        [path], extra = parse.take_words(rest, 1, "unset PATH")
        if extra:
            raise UsageError("usage: unset PATH (to write a value, use set PATH VALUE)")
        return self._write("setFieldValue", {"path": path, "value": None})

    def do_suggest(self, rest: str) -> ExitCode:
        [path], query = parse.take_words(rest, 1, "suggest PATH [QUERY]")
        args: dict[str, Any] = {"path": path}
        if query.strip():
            args["query"] = parse.text_arg(query)
        result = self._call("getFieldSuggestions", args)
        if not result.ok:
            return self._answer(result)
        listing = form_view.suggestion_listing(result.value)
        self.last_suggest = (path, listing)
        self.printer.print(listing.text)
        if listing.options:
            self.printer.note("`pick N` writes option N into the field.")
        return ExitCode.OK

    def do_pick(self, rest: str) -> ExitCode:
        [word], extra = parse.take_words(rest, 1, "pick N")
        if extra:
            raise UsageError("usage: pick N")
        if self.last_suggest is None:
            raise UsageError("nothing to pick from: list a field's options with `suggest PATH` first.")
        path, listing = self.last_suggest
        number = parse.integer(word, "N")
        if not 0 <= number < len(listing.options):
            last = f"0 to {len(listing.options) - 1}" if listing.options else "none"
            raise UsageError(f"there is no option {number}: the last `suggest` listed {last}.")
        return self._write("setFieldValue", {"path": path, "suggestionIndex": listing.base + number})

    def do_add(self, rest: str) -> ExitCode:
        [path], value_text = parse.take_words(rest, 1, "add PATH [VALUE]")
        args: dict[str, Any] = {"path": path, "action": "add"}
        if value_text.strip():
            args["value"] = parse.value(value_text)
        return self._write("editArray", args)

    def do_remove(self, rest: str) -> ExitCode:
        [path], index_text = parse.take_words(rest, 1, "remove PATH [INDEX]")
        args: dict[str, Any] = {"path": path, "action": "remove"}
        if index_text.strip():
            args["index"] = parse.integer(index_text.strip(), "INDEX")
        else:
            node = self._node(self._current(), path)
            if node.item_index is not None and node.parent is not None and node.parent.is_list:
                args = {"path": node.parent.path, "action": "remove", "index": node.item_index}
        return self._write("editArray", args)

    def do_variant(self, rest: str) -> ExitCode:
        [path, number], extra = parse.take_words(rest, 2, "variant PATH N")
        if extra:
            raise UsageError("usage: variant PATH N")
        node = self._node(self._current(), path)
        selector = node if node.is_selector else next((c for c in node.children if c.is_selector), None)
        if selector is not None:
            target = selector.path
        elif node.skeleton is not None and node.skeleton.variants and not node.children:
            target = node.full_key + "/$oneOf"  # an object not in the record yet: choosing creates it
        else:
            raise UsageError(
                f"{node.path} has no variants; `show` marks the fields that have (they list variant 0, 1...)."
            )
        return self._write("setFieldValue", {"path": target, "value": parse.integer(number, "N")})

    def do_errors(self, rest: str) -> ExitCode:
        lines = form_view.error_lines(self._current())
        if not lines:
            self.printer.success("No errors: the record is valid.")
        for line in lines:
            self.printer.print(line, style="red")
        return ExitCode.OK

    def do_diff(self, rest: str) -> ExitCode:
        changed = form_view.diff_lines(self._current())
        if not changed:
            self.printer.note("No unsaved edits: the record is as it was loaded (or last saved).")
        for pointer, old, new in changed:
            self.printer.print(f"{pointer}: {old} -> {new}")
        return ExitCode.OK

    def do_save(self, rest: str) -> ExitCode:
        flag = rest.strip()
        if flag not in ("", "--allow-invalid"):
            raise UsageError("usage: save [--allow-invalid]")
        tools = self.tools
        if flag or self.allow_invalid:
            from ..context import open_form_group

            name = self.group.name if self.context.spec is not None else None
            tools = open_form_group(self.context, name, allow_invalid=True).toolset()
        return self._answer(self._call("saveForm", {}, tools))

    def do_reload(self, rest: str) -> ExitCode:
        result = self._call("reloadForm", {})
        if result.ok:
            self.undo_stack.clear()
            self.last_suggest = None
        return self._answer(result)

    def do_undo(self, rest: str) -> ExitCode:
        if not self.undo_stack:
            raise UsageError("nothing to undo: no write was made in this REPL (or every one was undone).")
        before, after = self.undo_stack[-1]
        if self._document() != after:
            self.undo_stack.clear()
            raise UsageError(
                "the record changed since your last write (a reload, a save that started again, or another "
                "process): undo would overwrite that, so it was not done. `diff` shows the unsaved edits."
            )
        if before is None:
            raise UsageError("the record had no document before that write; `reload` starts again from the source.")
        result = self._call("setData", {"data": before, "merge": False})
        if result.ok:
            self.undo_stack.pop()
            self.printer.success("Undone: the record is back as it was before your last write.")
            return ExitCode.OK
        return self._answer(result)
