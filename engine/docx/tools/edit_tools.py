"""Handlers of the editing tools: suggest_changes and add_comment (see ``edit``), and
reply_comment / resolve_comment (see ``comment_edits``).

Every handler opens a private copy of the document, edits it in memory, and writes it once,
atomically, to the file itself or to ``--output``; with ``--dry-run`` nothing is written, and
with ``--queue`` a suggest_changes batch is parked in the queue file instead. An expected
failure (a malformed call, a replay conflict) writes nothing, so the input stays byte-identical.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ... import progress
from ...files import read_regular_file, write_atomically
from ...tools import ToolResult, fail
from ..edit.decode import decode_batch, new_operation_id
from ..edit.fields import DecodeError, Decoding, block_id_field, string_field
from ..edit.options import SuggestOptions
from ..edit.spec import Operation

DEFAULT_AUTHOR = "deskcheck"
RESULT_VERSION = 1


def author_of(session) -> str:
    return session.options.author or DEFAULT_AUTHOR


def _open(session):
    from ...errors import InputError
    from ..model.document import DocxDocument
    from ..package.strict_ooxml import refuse_writing

    if session.path is None:
        raise InputError("no .docx file was given; pass one with --docx FILE.", code="missingFile")
    doc = DocxDocument.open(session.path)
    refuse_writing(doc.package)  # before any work: a dry run or a queued batch is refused alike
    return doc


def _write(session, doc, changed: bool, *, stamped: bool = False) -> str | None:
    """Save when something changed (or when an output file was asked for); returns where.
    ``stamped``: the paragraph ids were written before editing (``edit.execute``), so the
    save need not walk the document again to mint them."""
    from ..model.document import forget_document

    options = session.options
    if options.dry_run:
        return None
    target = options.output if options.output is not None else session.path
    if not changed and options.output is None:
        return None
    if not changed:
        from ..package import limits

        unchanged = read_regular_file(
            session.path, limits.MAX_PACKAGE_BYTES, subject=str(session.path), wanted="a .docx file"
        )
        write_atomically(target, unchanged)
    else:
        from ..package.docx_package import DocxPackage

        with progress.phase(f"writing {Path(target).name}"):
            if not stamped:
                doc.stamp_minted_ids()
            data = doc.package.to_bytes()
            write_atomically(target, data)
        # The version of what was written, from the zip's own checksums (re-serialising the
        # edited parts to compute it would cost as much as the save).
        session.written_version = DocxPackage.from_bytes(data, str(target)).version
    forget_document(target)
    return str(target)


def _version(session, doc, written: str | None) -> str:
    return session.written_version if written is not None else doc.version


def run_batch(
    session,
    operations: list[Operation],
    *,
    mode: str,
    author: str,
    normalizations: list[dict[str, Any]],
    document_version: str | None,
    queue: Any = None,
    table_revisions: str = "cells",
) -> dict[str, Any] | ToolResult:
    """Run decoded operations on the session's file and build the result envelope."""
    from ..edit.execute import ReplayConflict, run_operations

    doc = _open(session)
    try:
        outcome = run_operations(
            doc,
            operations,
            mode=mode,
            author=author,
            document_version=document_version,
            apply=True,
            table_revisions=table_revisions,
        )
    except ReplayConflict as exc:
        return fail(str(exc), code="replayConflict")
    result: dict[str, Any] = {"version": RESULT_VERSION, "mode": mode}
    body = outcome.result(operations)
    if queue is not None and not session.options.dry_run:  # a dry run parks nothing either
        from ..edit.queue import park

        queued = [op for op in outcome.applied]
        entry = park(queue, session.path, queued, outcome, mode=mode, author=author, table_revisions=table_revisions)
        result["status"] = "queued"
        result["queued"] = body.pop("applied")
        result["batchId"] = entry["batchId"]
        result.update(body)
        result["normalizations"] = normalizations
        result["documentVersion"] = outcome.version_before
        result["queue"] = str(queue)
        return result
    changed = bool(outcome.applied)
    written = _write(session, doc, changed, stamped=True)
    result["status"] = "previewed" if session.options.dry_run else "applied"
    result.update(body)
    result["normalizations"] = normalizations
    # A dry run reports the version of the file as it is (it stays that way).
    result["documentVersion"] = session.written_version if written is not None and changed else outcome.version_before
    result["output"] = written
    return result


def suggest_changes(session, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
    options = SuggestOptions.from_docx_options(session.options)
    try:
        batch = decode_batch(args, options)
    except DecodeError as exc:
        return fail(str(exc), code="invalidOperations")
    return run_batch(
        session,
        batch.operations,
        mode=options.mode,
        author=author_of(session),
        normalizations=batch.normalizations,
        document_version=batch.document_version,
        queue=session.options.queue,
        table_revisions=options.table_revisions,
    )


_ADD_COMMENT_FIELDS = (
    block_id_field(),
    string_field("text", "The comment text.", required=True, non_empty=True),
    string_field("quote", "Text of the block to anchor the comment on; it must occur exactly once."),
)


def add_comment(session, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
    """A commentOnBlock operation through the same path as suggest_changes."""
    from ..edit.fields import PRECONDITION_FIELD

    state = Decoding()
    fields: dict[str, Any] = {}
    try:
        for field in (*_ADD_COMMENT_FIELDS, PRECONDITION_FIELD):
            if field.name in args and args[field.name] is not None:
                fields[field.name] = field.decode(args[field.name], f"add_comment's `{field.name}`", state)
            elif field.required:
                raise DecodeError(f"add_comment needs `{field.name}`: {field.help}")
        if not fields["text"].strip():
            raise DecodeError("add_comment's `text` must not be blank.")
    except DecodeError as exc:
        return fail(str(exc), code="invalidArguments")
    op_fields = {"blockId": fields["blockId"], "comment": fields["text"]}
    for name in ("quote", "precondition"):
        if fields.get(name):
            op_fields[name] = fields[name]
    op = Operation(0, new_operation_id().replace("op-", "comment-"), "commentOnBlock", op_fields, True)
    return run_batch(
        session,
        [op],
        mode=session.options.mode,
        author=author_of(session),
        normalizations=state.normalizations,
        document_version=None,
    )


def _comment_id(args: dict[str, Any], tool: str) -> str | ToolResult:
    value = args.get("commentId")
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        return fail(f"{tool} needs `commentId`: the id of a comment from read_comments.", code="invalidArguments")
    return value


def _find(doc, comment_id: str, tool: str):
    from ..review.comments import load_comments

    comments = load_comments(doc)
    by_id = {c.id: c for c in comments}
    comment = by_id.get(comment_id)
    if comment is None:
        known = ", ".join(sorted(by_id, key=lambda c: (len(c), c))[:20]) or "none"
        return (
            None,
            comments,
            fail(
                f"there is no comment {comment_id!r} in this document (its comment ids: {known}); "
                "read_comments lists them.",
                code="missingComment",
            ),
        )
    return comment, comments, None


def reply_comment(session, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
    from ..review.comment_edits import CommentWriter
    from ..review.comments import threads
    from ..wml.revisions import revision_date

    comment_id = _comment_id(args, "reply_comment")
    if isinstance(comment_id, ToolResult):
        return comment_id
    text = args.get("text")
    state = Decoding()
    try:
        text = string_field("text", "", required=True, non_empty=True).decode(text, "reply_comment's `text`", state)
    except DecodeError as exc:
        return fail(str(exc), code="invalidArguments")
    if not text.strip():
        return fail("reply_comment's `text` must not be blank.", code="invalidArguments")
    doc = _open(session)
    comment, comments, error = _find(doc, comment_id, "reply_comment")
    if error is not None:
        return error
    roots = threads(comments)
    root = next(r for r in roots if r is comment or comment in r.replies)
    writer = CommentWriter(doc, author_of(session), revision_date())
    new_id = writer.reply(root, text)
    doc.package.mark_dirty(doc.main_part)
    doc.invalidate()
    written = _write(session, doc, True)
    return {
        "replied": True,
        "commentId": new_id,
        "threadId": root.id,
        "documentVersion": _version(session, doc, written),
        "output": written,
    }


def resolve_comment(session, args: dict[str, Any]) -> dict[str, Any] | ToolResult:
    from ..review.comment_edits import CommentWriter
    from ..wml.revisions import revision_date

    comment_id = _comment_id(args, "resolve_comment")
    if isinstance(comment_id, ToolResult):
        return comment_id
    reopen = args.get("reopen", False)
    if not isinstance(reopen, bool):
        return fail("resolve_comment's `reopen` must be true or false.", code="invalidArguments")
    doc = _open(session)
    comment, _comments, error = _find(doc, comment_id, "resolve_comment")
    if error is not None:
        return error
    changed = comment.done == reopen
    if changed:
        CommentWriter(doc, author_of(session), revision_date()).set_done(comment, not reopen)
        doc.invalidate()
    written = _write(session, doc, changed)
    return {
        "resolved": not reopen,
        "commentId": comment.id,
        "changed": changed,
        "documentVersion": _version(session, doc, written) if changed else doc.version,
        "output": written,
    }
