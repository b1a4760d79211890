"""The review commands: reading a .docx as blocks, queuing edits and comments into one pending
batch, applying it with one suggest_changes call, replying to and resolving comments, accepting
or rejecting tracked changes, all through the docx tools.

What "save" means here: every tool works on the review's working copy (``working_copy``), never
on the file itself; `save` writes the working copy over the file atomically (or to another
path), and refuses to overwrite a file that changed on disk meanwhile unless forced. Leaving the
REPL keeps a working copy with unsaved changes, and the next REPL on the same file resumes it;
only the operations queued and not applied yet are dropped, after asking.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deskcheck.engine.tools import ToolResult, ToolSet

from ..errors import UsageError
from ..exit import ExitCode
from ..output.emit import exit_code_for
from ..render import docx as docx_views
from ..render.docx import blocks_table, unread_lines
from ..render.draw import plural
from . import parse, review_view
from .queued_text import place_comment, replace_problem
from .render import Printer
from .state import ReplState
from .suggest import Candidate
from .words import review_words
from .working_copy import WorkingCopy

DEFAULT_PAGE = 20
# The operation type the `comment` command queues; not among suggest_changes' default types
# (add_comment covers it for an agent), so the REPL adds it unless --operation-types chose.
COMMENT_TYPE = "commentOnBlock"


class ReviewMode:
    kind = "review"

    def __init__(self, context, printer: Printer, state_dir: Path) -> None:
        self.context = context
        self.printer = printer
        self.copy = WorkingCopy(Path(context.docx), state_dir)
        self.save_target: Path | None = context.output
        self.ops: list[dict[str, Any]] = []
        self.blocks: list[dict[str, Any]] = []
        self.unread: list[dict[str, Any]] = []
        self.comments: list[dict[str, Any]] = []
        self.changes: list[dict[str, Any]] = []
        self.version: str | None = None
        self.tools: ToolSet | None = None
        self.operation_types: tuple[str, ...] = ()
        self._read_mark: tuple[int, int, int] | None = None
        self.state = ReplState("review", Path(context.docx).name)

    # -- start, refresh, leave ------------------------------------------------------------------

    def start(self) -> ExitCode:
        from deskcheck.engine.docx.tools.toolset import DocxOptions, docx_toolset

        from ..author import review_author

        self.operation_types = self._operation_types()
        # The file itself is checked first, so that a file that is not a .docx is reported by
        # its own name (and no working copy is made of it).
        checked = docx_toolset(self.copy.source).call("read_document", {"maxBlocks": 1})
        if not checked.ok:
            self.printer.error(checked.error or "the document could not be read")
            return exit_code_for(checked)
        self.copy.open()
        options = DocxOptions(
            author=review_author(self.context.author),
            mode=self.context.mode,
            table_revisions=self.context.table_revisions,
            operation_types=self.operation_types,
            max_operations=self.context.max_operations,
            require_document_version=self.context.require_document_version,
        )
        self.tools = docx_toolset(self.copy.path, options)
        first = self._call("read_document", {})
        if not first.ok:
            self.printer.error(first.error or "the document could not be read")
            return exit_code_for(first)
        self._read_all(first)
        name = self.copy.source
        self.printer.greet(
            f"Reviewing {name}: {plural(len(self.blocks), 'block')}, {plural(len(self.comments), 'comment thread')}, "
            f"{plural(len(self.changes), 'pending tracked change')}."
        )
        if self.copy.resumed:
            self.printer.notice(
                "Resuming your earlier review: the working copy has changes not saved yet "
                "(`save` writes them, `revert` drops them).",
                "yellow",
            )
            if self.copy.source_changed:
                self.printer.notice(
                    f"{name} changed on disk since that review started: `save` will refuse to overwrite it "
                    "(`save --force`, `save OTHER.docx` or `revert`).",
                    "yellow",
                )
        self.printer.greet(
            "Edits go to a working copy; `save` writes the file. Type `help` for the commands; Tab completes "
            "commands, block ids, comment and change ids.",
            "dim",
        )
        return ExitCode.OK

    def _operation_types(self) -> tuple[str, ...]:
        from deskcheck.engine.docx.edit.options import SuggestOptions
        from deskcheck.engine.errors import InputError

        try:
            chosen = SuggestOptions.build(
                self.context.operation_types, max_operations=self.context.max_operations, mode=self.context.mode
            ).operation_types
        except InputError as exc:
            raise UsageError(exc.message.replace("operationTypes", "--operation-types")) from None
        if not self.context.operation_types and COMMENT_TYPE not in chosen:
            chosen = (*chosen, COMMENT_TYPE)
        return chosen

    def refresh(self) -> None:
        """Re-read blocks, comments and changes when the working copy changed; update the toolbar."""
        mark = self._mark()
        if mark != self._read_mark:
            first = self._call("read_document", {})
            if first.ok:
                self._read_all(first)
        self.state.document_version = self.version
        self.state.pending_ops = len(self.ops)
        self.state.modified = self.copy.unsaved
        self.state.status = "file changed on disk" if self.copy.source_changed else ""

    def _mark(self) -> tuple[int, int, int] | None:
        try:
            stat = self.copy.path.stat()
        except FileNotFoundError:
            return None
        return (stat.st_mtime_ns, stat.st_size, stat.st_ino)

    def _read_all(self, document: ToolResult) -> None:
        self._read_mark = self._mark()
        self.blocks = document.value.get("blocks", [])
        self.unread = document.value.get("unread", [])  # content the reading could not show
        self.version = document.value.get("documentVersion")
        self.comments = self._read_list("read_comments", {}, "comments") or []
        self.changes = self._read_list("read_changes", {}, "changes") or []

    def completion_values(self) -> tuple[dict[str, list[Candidate]], dict[str, dict[str, list[Candidate]]]]:
        ops = [Candidate(str(n), review_view.describe_op(op)) for n, op in enumerate(self.ops, start=1)]
        values = {
            "block": review_view.block_candidates(self.blocks),
            "comment": review_view.comment_candidates(self.comments),
            "change": review_view.change_candidates(self.changes),
            "op": [*ops, Candidate("all", "every pending operation")] if ops else [],
            "place": [Candidate("after", "a new paragraph after the block"), Candidate("before", "… before it")],
            "filter": [Candidate("open", "threads not resolved"), Candidate("resolved", "resolved threads")],
        }
        return values, {}

    def leave(self, ask) -> bool:
        """Whether the REPL may end now: pending operations are dropped only when ``ask`` says
        yes (a script cannot be asked: it fails instead)."""
        if self.ops:
            question = f"Drop the {plural(len(self.ops), 'pending operation')} that were not applied? [y/N] "
            if ask is None:
                self.printer.error(
                    f"the script ended with {plural(len(self.ops), 'operation')} not applied; end it with `apply` "
                    "(or `drop all`)."
                )
                return False
            if not ask(question):
                self.printer.note("Staying: `apply` sends them, `drop all` removes them.")
                return False
        if self.copy.unsaved:
            self.printer.notice(
                f"The working copy keeps changes not saved to {self.copy.source}: the same `deskcheck repl --docx` "
                "command resumes it; `save` writes them to the file.",
                "dim",
            )
        return True

    def close(self) -> None:
        self.copy.close()

    def call_tools(self) -> ToolSet:
        assert self.tools is not None
        return self.tools

    def call_arguments(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        return args

    # -- helpers --------------------------------------------------------------------------------

    def _call(self, tool: str, args: dict[str, Any]) -> ToolResult:
        assert self.tools is not None
        return self.tools.call(tool, args)

    def _failed(self, result: ToolResult) -> ExitCode:
        self.printer.error(review_words(result.error or "the tool failed without a message"))
        return exit_code_for(result)

    def _block(self, word: str) -> dict[str, Any]:
        """The block a word names: its id (any case) or #N / N, its number in `blocks`."""
        wanted = word.lstrip("#")
        if wanted.isdigit() and 1 <= int(wanted) <= len(self.blocks):
            return self.blocks[int(wanted) - 1]
        for block in self.blocks:
            if block["blockId"].casefold() == word.casefold():
                return block
        raise UsageError(f"there is no block {word!r} in the document; `blocks` and `find TEXT` list block ids.")

    def _queue(self, op_type: str, block: dict[str, Any], **fields: Any) -> ExitCode:
        from deskcheck.engine.docx.edit.decode import new_operation_id

        if op_type not in self.operation_types:
            raise UsageError(
                f"{op_type} is not among the operation types this review allows (--operation-types): "
                f"{', '.join(self.operation_types)}."
            )
        op = {
            "id": new_operation_id(),
            "type": op_type,
            "blockId": block["blockId"],
            **fields,
            "precondition": {"blockTextHash": block["blockTextHash"]},
        }
        self.ops.append(op)
        self.printer.print(f"queued {len(self.ops)}. {review_view.describe_op(op)}  (`apply` sends the batch)")
        return ExitCode.OK

    # -- reading --------------------------------------------------------------------------------

    def do_blocks(self, rest: str) -> ExitCode:
        words = [parse.unquote(w) for w in parse.words(rest)]
        if len(words) > 2:
            raise UsageError("usage: blocks [FROM] [COUNT]")
        start = 1
        if words:
            start = self.blocks.index(self._block(words[0])) + 1
        count = parse.integer(words[1], "COUNT") if len(words) > 1 else DEFAULT_PAGE
        shown = self.blocks[start - 1 : start - 1 + max(count, 0)]
        self.printer.view([blocks_table(shown, start), *unread_lines({"unread": self.unread})])
        after = start - 1 + len(shown)
        if after < len(self.blocks):
            self.printer.note(f"{plural(len(self.blocks) - after, 'more block')}: blocks {after + 1}")
        return ExitCode.OK

    def do_find(self, rest: str) -> ExitCode:
        query = parse.text_arg(rest)
        if not query:
            raise UsageError("usage: find TEXT")
        result = self._call("find_text", {"query": query})
        if not result.ok:
            return self._failed(result)
        numbers = {block["blockId"]: n for n, block in enumerate(self.blocks, start=1)}
        self.printer.view(docx_views.find(result.value, {"query": query}, numbers))
        return ExitCode.OK

    def do_comments(self, rest: str) -> ExitCode:
        which = rest.strip() or "all"
        if which not in ("all", "open", "resolved"):
            raise UsageError("usage: comments [open|resolved]")
        comments = self._read_list("read_comments", {"filter": which}, "comments")
        if comments is None:
            return ExitCode.TOOL_ERROR
        if which == "all":
            self.comments = comments
        self.printer.view(docx_views.read_comments({"comments": comments}, {"filter": which}))
        return ExitCode.OK

    def do_changes(self, rest: str) -> ExitCode:
        changes = self._read_list("read_changes", {}, "changes")
        if changes is None:
            return ExitCode.TOOL_ERROR
        self.changes = changes
        self.printer.view(docx_views.read_changes({"changes": changes}, {}))
        return ExitCode.OK

    def _read_list(self, tool: str, args: dict[str, Any], key: str) -> list[dict[str, Any]] | None:
        """The list a read tool returns under ``key`` (None, with the error printed, when it failed)."""
        result = self._call(tool, args)
        if not result.ok:
            self._failed(result)
            return None
        return result.value.get(key, [])

    # -- queuing --------------------------------------------------------------------------------

    def do_replace(self, rest: str) -> ExitCode:
        usage = "replace BLOCK FIND => REPLACE"
        [word], texts = parse.take_words(rest, 1, usage)
        find, replace = parse.split_arrow(texts, usage)
        if not find:
            raise UsageError(f"usage: {usage} (FIND is empty)")
        block = self._block(word)
        problem = replace_problem(str(block.get("text", "")), find, self.ops, block["blockId"])
        if problem is not None:
            raise UsageError(problem)
        return self._queue("replaceInBlock", block, find=find, replace=replace)

    def do_insert(self, rest: str) -> ExitCode:
        [place, word], text = parse.take_words(rest, 2, "insert after|before BLOCK TEXT")
        if place not in ("after", "before"):
            raise UsageError(f"insert takes after or before, not {place!r}: insert after|before BLOCK TEXT")
        op_type = "insertAfterBlock" if place == "after" else "insertBeforeBlock"
        return self._queue(op_type, self._block(word), text=parse.text_arg(text))

    def do_delete(self, rest: str) -> ExitCode:
        [word], extra = parse.take_words(rest, 1, "delete BLOCK")
        if extra:
            raise UsageError("usage: delete BLOCK (one block per operation)")
        return self._queue("deleteBlock", self._block(word))

    def do_comment(self, rest: str) -> ExitCode:
        usage = "comment BLOCK [QUOTE =>] TEXT"
        [word], texts = parse.take_words(rest, 1, usage)
        block = self._block(word)
        if parse.ARROW in texts:
            quote, text = parse.split_arrow(texts, usage)
            fields = {"quote": quote, "comment": text}
        else:
            fields = {"comment": parse.text_arg(texts)}
        if not fields["comment"]:
            raise UsageError(f"usage: {usage} (the comment text is missing)")
        if "quote" in fields:
            placement = place_comment(str(block.get("text", "")), fields["quote"], self.ops, block["blockId"])
            if placement.problem is not None:
                raise UsageError(placement.problem)
            if placement.rides_with is not None:
                return self._comment_with(placement.rides_with, fields["comment"])
        return self._queue(COMMENT_TYPE, block, **fields)

    def _comment_with(self, number: int, text: str) -> ExitCode:
        """Give queued replace ``number`` the comment (its quote is in the text it writes, which a
        comment of its own could not name: the batch is resolved against the text as it is now)."""
        op = self.ops[number - 1]
        if op.get("comment"):
            raise UsageError(
                f"queued replace {number} carries a comment already, on the text it writes; `drop {number}` and "
                "queue it again to change it, or comment after `apply`."
            )
        described = review_view.describe_op(op)
        op["comment"] = text
        self.printer.print(
            f"queued the comment with {number}. {described}: a comment given with an edit covers its whole new "
            f"text ({op['replace']!r})."
        )
        return ExitCode.OK

    def do_ops(self, rest: str) -> ExitCode:
        self.printer.lines(review_view.op_lines(self.ops))
        return ExitCode.OK

    def do_drop(self, rest: str) -> ExitCode:
        word = rest.strip()
        if word == "all":
            count = len(self.ops)
            self.ops.clear()
            self.printer.print(f"Dropped {plural(count, 'operation')}.")
            return ExitCode.OK
        number = parse.integer(word, "N") if word else 0
        if not 1 <= number <= len(self.ops):
            raise UsageError(f"usage: drop N|all, where N is an operation's number in `ops` (1-{len(self.ops)}).")
        op = self.ops.pop(number - 1)
        self.printer.print(f"Dropped {review_view.describe_op(op)}.")
        return ExitCode.OK

    # -- writing --------------------------------------------------------------------------------

    def do_apply(self, rest: str) -> ExitCode:
        if not self.ops:
            self.printer.note("Nothing to apply: queue edits with replace, insert, delete or comment first.")
            return ExitCode.OK
        args: dict[str, Any] = {"operations": self.ops}
        if self.context.require_document_version and self.version:
            args["documentVersion"] = self.version
        result = self._call("suggest_changes", args)
        if not result.ok:
            self.printer.note("The batch was not applied and is still pending (`ops`).")
            return self._failed(result)
        shown = {**result.value, "skipped": [{**entry, "reason": review_words(str(entry.get("reason", "")))}
                                             for entry in result.value.get("skipped", [])]}  # fmt: skip
        self.printer.view(docx_views.edit_result(shown, {}, review_view.op_names(self.ops), written=False))
        done = {entry["id"] for key in ("applied", "replayed") for entry in result.value.get(key, [])}
        self.ops = [op for op in self.ops if op["id"] not in done]
        if self.ops:
            verb = "stays" if len(self.ops) == 1 else "stay"
            self.printer.warn(
                f"{plural(len(self.ops), 'skipped operation')} {verb} in the batch: fix and apply, or `drop` them."
            )
            # As the CLI answers the same call: 3 when some applied, 1 when none did.
            return exit_code_for(result)
        self.printer.note(f"documentVersion {result.value.get('documentVersion')}; `save` writes the file.")
        return ExitCode.OK

    def do_reply(self, rest: str) -> ExitCode:
        [comment_id], text = parse.take_words(rest, 1, "reply ID TEXT")
        result = self._call("reply_comment", {"commentId": comment_id, "text": parse.text_arg(text)})
        if not result.ok:
            return self._failed(result)
        self.printer.print(f"Replied to comment {comment_id}: the reply is comment {result.value.get('commentId')}.")
        return ExitCode.OK

    def do_resolve(self, rest: str) -> ExitCode:
        [comment_id], flag = parse.take_words(rest, 1, "resolve ID [--reopen]")
        if flag.strip() not in ("", "--reopen"):
            raise UsageError("usage: resolve ID [--reopen]")
        reopen = flag.strip() == "--reopen"
        result = self._call("resolve_comment", {"commentId": comment_id, "reopen": reopen})
        if not result.ok:
            return self._failed(result)
        state = "open again" if reopen else "resolved"
        note = "" if result.value.get("changed") else " (it already was)"
        self.printer.print(f"Comment {comment_id} is {state}{note}.")
        return ExitCode.OK

    def do_accept(self, rest: str) -> ExitCode:
        return self._resolve_changes("accept", rest)

    def do_reject(self, rest: str) -> ExitCode:
        return self._resolve_changes("reject", rest)

    def _resolve_changes(self, mode: str, rest: str) -> ExitCode:
        ids = [parse.unquote(w) for w in parse.words(rest)]
        if not ids:
            raise UsageError(f"usage: {mode} ID...|all (`changes` lists the ids)")
        if ids == ["all"]:
            return self._resolve_all(mode)
        refs = [review_view.parse_change_ref(ref) for ref in ids]
        stories = {repr(story) for story, _ in refs}
        args: dict[str, Any] = {"changeIds": [change_id for _, change_id in refs]}
        if len(stories) > 1:
            raise UsageError(f"{mode} changes of one story at a time (`changes` shows footnote:1/7 and the like)")
        if refs[0][0] is not None:
            args["story"] = refs[0][0]
        result = self._call(f"{mode}_change", args)
        if not result.ok:
            return self._failed(result)
        self.printer.view(docx_views.change_resolution(result.value, {}, written=False))
        return ExitCode.OK

    def _resolve_all(self, mode: str) -> ExitCode:
        from deskcheck.engine.docx.review.revisions import resolve_file
        from deskcheck.engine.errors import DeskcheckError

        try:
            result = resolve_file(self.copy.path, mode)
        except DeskcheckError as exc:
            self.printer.error(exc.message)
            return ExitCode.TOOL_ERROR
        verb = "Accepted" if mode == "accept" else "Rejected"
        self.printer.success(f"{verb} {plural(int(result['resolved']), 'tracked change')}.")
        return ExitCode.OK

    def do_save(self, rest: str) -> ExitCode:
        words = [parse.unquote(w) for w in parse.words(rest)]
        force = "--force" in words
        paths = [w for w in words if w != "--force"]
        if len(paths) > 1:
            raise UsageError("usage: save [PATH] [--force]")
        target = Path(paths[0]).expanduser() if paths else self.save_target
        written = self.copy.save(target, force=force)
        self.printer.success(f"Saved the review to {written} (documentVersion {self.version}).")
        if self.ops:
            self.printer.warn(
                f"{plural(len(self.ops), 'operation')} still pending and not in it: `apply`, then save again."
            )
        return ExitCode.OK

    def do_revert(self, rest: str) -> ExitCode:
        dropped = len(self.ops)
        self.ops.clear()
        self.copy.revert()
        self.printer.print(
            f"Started again from {self.copy.source}: dropped the working copy's changes and "
            f"{plural(dropped, 'pending operation')}."
        )
        return ExitCode.OK
