"""Skip codes and the plain-language reason a caller gets for each: what happened and what to do
next. ``explain(code, details)`` fills in the details a skip carries (the offsets around a split
character, the styles a document offers, the operation that claimed a target first, ...)."""

from __future__ import annotations

from typing import Any

SKIP_CODES: dict[str, str] = {
    "replayUnverified": (
        "this document records operation {id} as applied, but what it changed is not in the document as "
        "recorded (the change was accepted, rejected or edited since, or the record was not written by "
        "deskcheck), so it was neither applied again nor reported as done; re-read the document, and send it "
        "with a new id if it is still wanted."
    ),
    "missingBlock": (
        "there is no block {blockId} in this document; re-read it (read_document or find_text) and retry "
        "with a current block id."
    ),
    "changedBlock": (
        "block {blockId} changed after this operation was prepared{since}; re-read the document and send a "
        "fresh operation."
    ),
    "preconditionFailed": (
        "block {blockId} no longer has the blockTextHash your precondition names (it now reads differently); "
        "re-read it and retry with the current text and hash."
    ),
    "ambiguousFind": (
        "`find` occurs {count} times in block {blockId}; make it longer so it matches exactly once, or use "
        "replaceRange with a range from find_text."
    ),
    "missingFind": (
        "`find` does not occur in block {blockId} (the match is exact and case-sensitive); re-read the "
        "block's current text and retry."
    ),
    "staleRange": (
        "the range on block {blockId} no longer selects the text it was copied for; run find_text again and "
        "retry with the fresh range."
    ),
    "overlappingOperation": (
        "operation {earlier} of this call already changes this {what}; send this operation again on its own "
        "after re-reading the document."
    ),
    "pendingDeletion": "block {blockId} is pending deletion ({what}); reject that deletion first, or {instead}.",
    "placeholderText": (
        "block {blockId} shows the placeholder of an empty content control ({placeholder}) where this "
        "operation would change text; that prompt is not document content, so it is left alone. Change the "
        "text around it, insert a new block next to it, or fill the control in a word processor."
    ),
    "importedContent": (
        "block {blockId} is imported from {part} (a {format} file embedded in the document, which Word "
        "shows in its place); its text is not in the document itself, so it cannot be changed or commented "
        "on here. Comment on or change the block before or after it, or ask for a copy with that content "
        "as ordinary text."
    ),
    "boundContent": (
        "block {blockId} shows data-bound text ({value}): Word fills it in from the document's custom XML "
        "data when it opens the file, so a change written here would not be what the person sees. Change "
        "the text around it, or change the data in Word."
    ),
    "missingStyle": (
        "{styleId} is not a paragraph style of this document; use one of its paragraph styles ({styles}), "
        "or null to clear the style."
    ),
    "missingNumbering": "{what}; use the numbering of an existing list block, or start a list with kind newList.",
    "splitsCharacter": (
        "offset {offset} falls inside a character (between {between}); use offset {before} or {after} instead."
    ),
    "payloadDoesNotFit": "{what}; send less content or pick a target that can hold it.",
    "invalidResult": "{what}; nothing of it was applied. Rephrase the operation rather than resending it.",
    "unsupportedBlock": "{what}",
    "unsupportedMode": (
        "{type} cannot be applied in {mode} mode (it supports {modes}); ask the host for a supported mode."
    ),
    "noopOperation": "this operation would not change the document ({why}); leave it out.",
    "documentVersionMismatch": (
        "the document changed since you read it (documentVersion {given}, now {current}); nothing in this "
        "call was applied. Re-read the document and send the call again with the new documentVersion."
    ),
}

# Codes a retry cannot fix by resending unchanged.
FINAL_CODES = frozenset({"noopOperation", "invalidResult"})


# Details a code's reason falls back on when the skip does not give them.
SKIP_DEFAULTS: dict[str, dict[str, str]] = {
    "pendingDeletion": {"what": "a tracked change removes it", "instead": "insert a new block next to it"},
}


class _Defaults(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def explain(code: str, details: dict[str, Any] | None = None) -> str:
    template = SKIP_CODES.get(code)
    if template is None:
        return code
    values = _Defaults({**SKIP_DEFAULTS.get(code, {}), **(details or {})})
    return template.format_map(values)
