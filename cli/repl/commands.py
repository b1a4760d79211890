"""The REPL's command tables: name, usage, completion kinds of the arguments, help, and the
handler (``do_<name>`` on the shell for the common commands, on the mode for the others).

Completion kinds (see ``suggest``): ``command``; form paths ``field`` (any), ``settable``,
``list``, ``selector``, ``options`` (fields with suggestions); ``variant`` and ``item`` (the
variants of the selector, the items of the list named just before); ``pick`` (the options of the
last `suggest`); review ids ``block``, ``comment``, ``change``, ``op``; ``place`` (after or
before); ``filter`` (open or resolved); ``tool``; ``text`` (free text, nothing offered).

Each command says which tool it calls, so that what the REPL does is also a CLI verb.
"""

from __future__ import annotations

from typing import NamedTuple

from .suggest import CommandInfo


class Command(NamedTuple):
    name: str
    usage: str
    summary: str
    details: str = ""
    args: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    def info(self) -> CommandInfo:
        return CommandInfo(self.name, self.summary, self.args)


COMMON: tuple[Command, ...] = (
    Command(
        "help",
        "help [COMMAND]",
        "List the commands, or explain one.",
        "F1 shows the help of the command being typed, keeping the line. Enter with a completion chosen in "
        "the menu takes it (the next Enter runs the line).",
        ("command",),
        ("?",),
    ),
    Command(
        "call",
        "call TOOL [JSON]",
        "Run any tool of this context with a JSON object of arguments; prints the CLI's envelope.",
        'The same as `deskcheck call`: prints {"ok": true, "result": ...} or {"ok": false, "error": ...}. '
        "In a form session the record's path parameters are added when the tool takes them and the "
        "JSON leaves them out; in a review the tools work on the review's working copy.",
        ("tool", "text"),
    ),
    Command("tools", "tools", "List the tools `call` can run, with their first sentence."),
    Command("status", "status", "Print what is open and its state (the toolbar's line)."),
    Command(
        "quit",
        "quit",
        "Leave the REPL (Ctrl-D does the same).",
        "A form's unsaved edits stay in its session, and a review's working copy stays in the state "
        "directory: running the same `deskcheck repl` again resumes them. Operations not applied yet are "
        "dropped; you are asked first.",
        (),
        ("exit",),
    ),
)

FORM: tuple[Command, ...] = (
    Command(
        "show",
        "show [PATH]",
        "The fields as a tree: label, path, type, value, error (!) and modified (*) marks.",
        "Without PATH, the whole form. Long values are folded to one line (`get PATH` prints them whole); "
        "a list inside the part shown prints its first items (`show LIST` prints all of them). "
        "Tool: <group>_describeState gives the same facts as text.",
        ("field",),
    ),
    Command(
        "get",
        "get [PATH]",
        "Print the value at PATH (the whole record without PATH) as JSON.",
        "Tool: <group>_getData.",
        ("field",),
    ),
    Command(
        "set",
        "set PATH VALUE",
        "Write one field. VALUE is JSON (12, true, null, [1], {...}) or plain text taken as a string.",
        'To write a string that reads as JSON, quote it: set /code "12". For a variant selector, VALUE is '
        "the variant's number (or use `variant`). Tool: <group>_setFieldValue.",
        ("settable", "text"),
    ),
    Command(
        "unset",
        "unset PATH",
        "Clear a field (writes null, which removes its value).",
        "Tool: <group>_setFieldValue with value null.",
        ("settable",),
    ),
    Command(
        "suggest",
        "suggest PATH [QUERY]",
        "List the options of a field (filtered by QUERY); then `pick N` writes one.",
        "Each answer is numbered from 0. Tool: <group>_getFieldSuggestions (whose own indices keep counting "
        "across calls on a field, for an agent; `pick` translates).",
        ("options", "text"),
    ),
    Command(
        "pick",
        "pick N",
        "Write option N of the last `suggest` into its field.",
        "Tool: <group>_setFieldValue with suggestionIndex.",
        ("pick",),
    ),
    Command(
        "add",
        "add PATH [VALUE]",
        "Add an item at the end of a list (empty, or VALUE as JSON or text).",
        "Tool: <group>_editArray with action add.",
        ("list", "text"),
    ),
    Command(
        "remove",
        "remove PATH [INDEX]",
        "Remove an item of a list: INDEX, the item PATH names (/list/2), or the last one.",
        "Tool: <group>_editArray with action remove.",
        ("list", "item"),
    ),
    Command(
        "variant",
        "variant PATH N",
        "Choose variant N of a field with variants (PATH: the field or its selector).",
        "Tool: <group>_setFieldValue on the selector (its path ends in /$oneOf).",
        ("selector", "variant"),
    ),
    Command("errors", "errors", "List the validation errors of the whole record.", "Tool: <group>_describeState."),
    Command(
        "diff",
        "diff",
        "The fields whose value differs from the copy loaded (or last saved): before -> now.",
        "Inside a list, each item's changed fields are named; items are matched by their id, key, name or "
        "title first, so an item added or removed is one line (a removed one named by its old place). "
        "Tool: <group>_getData, compared with the loaded copy the session keeps.",
    ),
    Command(
        "save",
        "save [--allow-invalid]",
        "Send the record to its source (the data file, or the API). Refused while invalid unless allowed.",
        "When the source changed since the record was loaded, the save is refused as a conflict and your "
        "edits stay: `reload` gets the current copy (dropping your edits), then re-apply them. "
        "Tool: <group>_saveForm (`deskcheck form save-form`).",
    ),
    Command(
        "reload",
        "reload",
        "Load the current copy from the source, dropping unsaved edits.",
        "Tool: <group>_reloadForm.",
    ),
    Command(
        "undo",
        "undo",
        "Take back the last write made in this REPL (repeat to go further back).",
        "Refused when the record changed otherwise since that write (another process, a reload). "
        "Tool: <group>_setData with merge false and the record as it was before the write.",
    ),
)

REVIEW: tuple[Command, ...] = (
    Command(
        "blocks",
        "blocks [FROM] [COUNT]",
        "List blocks (id, kind, text): from block number FROM (or a block id), COUNT of them (20).",
        "Tool: read_document.",
        ("block", "text"),
    ),
    Command("find", "find TEXT", "Find TEXT in the document (any case); shows each match's block.", "Tool: find_text."),
    Command(
        "comments",
        "comments [open|resolved]",
        "List the comment threads (all, or only open or resolved ones) with their ids, anchors and replies.",
        "Tool: read_comments.",
        ("filter",),
    ),
    Command(
        "changes",
        "changes",
        "List the pending tracked changes with their ids (for accept / reject).",
        "Tool: read_changes.",
    ),
    Command(
        "replace",
        "replace BLOCK FIND => REPLACE",
        "Queue a tracked replacement of FIND (occurring once in BLOCK) by REPLACE.",
        'Quote a text that contains => as a JSON string: replace 1A2B "a => b" => c. An empty REPLACE '
        "deletes FIND. Operation: replaceInBlock (sent by `apply`).",
        ("block", "text"),
    ),
    Command(
        "insert",
        "insert after|before BLOCK TEXT",
        "Queue a new paragraph with TEXT after or before BLOCK.",
        "Operations: insertAfterBlock, insertBeforeBlock (sent by `apply`).",
        ("place", "block", "text"),
    ),
    Command(
        "delete",
        "delete BLOCK",
        "Queue the tracked deletion of BLOCK.",
        "Operation: deleteBlock (sent by `apply`).",
        ("block",),
    ),
    Command(
        "comment",
        "comment BLOCK [QUOTE =>] TEXT",
        "Queue a comment on BLOCK (on QUOTE, text occurring once in it, when given).",
        "Operation: commentOnBlock (sent by `apply`).",
        ("block", "text"),
    ),
    Command(
        "reply",
        "reply ID TEXT",
        "Reply to comment ID now (written to the working copy at once).",
        "Tool: reply_comment.",
        ("comment", "text"),
    ),
    Command(
        "resolve",
        "resolve ID [--reopen]",
        "Mark comment ID resolved (or open again) now.",
        "Tool: resolve_comment.",
        ("comment",),
    ),
    Command(
        "ops",
        "ops",
        "List the operations waiting for `apply`.",
        "Each carries the blockTextHash of its block as read when it was queued, so a block that "
        "changes before `apply` is skipped instead of edited blindly.",
    ),
    Command(
        "drop",
        "drop N|all",
        "Remove operation N (as `ops` numbers them), or all of them, from the batch.",
        "",
        ("op",),
    ),
    Command(
        "apply",
        "apply",
        "Send the pending operations as one suggest_changes call; shows what was applied and skipped.",
        "Skipped operations stay in the batch with their reason: fix or `drop` them. The edits go to the "
        "working copy; `save` writes the file. Tool: suggest_changes.",
    ),
    Command(
        "accept",
        "accept ID...|all",
        "Accept tracked changes by id (see `changes`), or all of them.",
        "A replacement is two changes (a deletion and an insertion): give both ids. A change in a header, "
        "footer or note is named STORY/ID as `changes` lists it (footnote:1/7); one command takes the "
        "changes of one story. "
        "Tools: accept_change (`deskcheck docx accept-change`); all: `deskcheck docx accept-all`.",
        ("change", "..."),
    ),
    Command(
        "reject",
        "reject ID...|all",
        "Reject tracked changes by id (see `changes`), or all of them.",
        "Tools: reject_change (`deskcheck docx reject-change`); all: `deskcheck docx reject-all`.",
        ("change", "..."),
    ),
    Command(
        "save",
        "save [PATH] [--force]",
        "Write the working copy to the file (atomically), or to PATH.",
        "The review works on a copy kept in the state directory; nothing touches the file until `save`. "
        "When the file changed on disk since the review started, save refuses: `save --force` overwrites "
        "it, `save OTHER.docx` writes elsewhere, `revert` starts again from the file.",
        ("text",),
    ),
    Command(
        "revert",
        "revert",
        "Drop the working copy's changes (and the pending operations): start again from the file.",
    ),
)


def table(mode: str) -> tuple[Command, ...]:
    """The commands of a mode (``form`` or ``review``), common ones first."""
    return COMMON + (FORM if mode == "form" else REVIEW)


def lookup(commands: tuple[Command, ...], name: str) -> Command | None:
    for command in commands:
        if command.name == name or name in command.aliases:
            return command
    return None
