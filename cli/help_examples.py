"""One example of each tool's arguments, for its verb's --help and ``docx tools NAME``.

The docx examples work on the shipped sample contract as written, from the repository root
(the block ids are the file's own); the ones that change a document write ``reviewed.docx`` and
the ones after them read it. ``tests/cli/test_tool_help.py`` runs each of them and checks every
example against its tool's input schema, so neither can drift from the tools.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

SAMPLE = "samples/contract.docx"
REVIEWED = "reviewed.docx"

# tool -> (the document it works on, the options before ARGS, ARGS)
DOCX: dict[str, tuple[str, tuple[str, ...], dict[str, Any]]] = {
    "read_document": (SAMPLE, (), {"maxBlocks": 20}),
    "get_document_outline": (SAMPLE, (), {"maxDepth": 2}),
    "read_section": (SAMPLE, (), {"headingBlockId": "223761A8", "maxBlocks": 5}),
    "list_stories": (SAMPLE, (), {}),
    "read_story": (SAMPLE, (), {"handle": {"type": "footer", "relationshipId": "rIdFooter1"}}),
    "find_text": (SAMPLE, (), {"query": "thirty (30) days"}),
    "read_comments": (SAMPLE, (), {"filter": "open"}),
    "read_changes": (SAMPLE, (), {}),
    "suggest_changes": (
        SAMPLE,
        ("-o", REVIEWED),
        {
            "operations": [
                {
                    "type": "replaceInBlock",
                    "blockId": "2B165965",
                    "find": "thirty (30) days",
                    "replace": "forty-five (45) days",
                    "comment": "Our payment cycle is 45 days.",
                }
            ]
        },
    ),
    "add_comment": (
        REVIEWED,
        (),
        {"blockId": "4D9EF6F2", "quote": "limited to the Charges paid", "text": "Is one year of Charges enough?"},
    ),
    "reply_comment": (REVIEWED, (), {"commentId": "1", "text": "Agreed, 45 days."}),
    "resolve_comment": (REVIEWED, (), {"commentId": "1"}),
    "accept_change": (REVIEWED, ("--dry-run",), {"changeIds": ["1", "2"]}),
    "reject_change": (REVIEWED, ("--dry-run",), {"changeIds": ["3"]}),
    "compare_versions": (REVIEWED, (), {"previous": SAMPLE}),
}

# form tool verb -> ARGS, for a file-backed form of a contact record (name, email, phones).
FORM: dict[str, dict[str, Any]] = {
    "describeState": {},
    "getData": {"path": "/email"},
    "setData": {"data": {"name": "Ann Lee", "email": "ann@example.org"}},
    "setFieldValue": {"path": "/email", "value": "ann@example.org"},
    "getFieldSuggestions": {"path": "/country", "query": "fra"},
    "editArray": {"path": "/phones", "action": "add"},
    "saveForm": {},
    "reloadForm": {},
}
FORM_CONTEXT = ("--schema", "contact.schema.json", "--data", "contact.json")


def docx_example(tool: str) -> str:
    """The example command line of a docx tool."""
    document, options, args = DOCX[tool]
    return command_line(["deskcheck", "docx", tool.replace("_", "-"), document, *options], args)


def form_example(tool_verb: str, verb: str) -> str:
    """The example command line of a form tool verb (``setFieldValue``, ``set-field-value``)."""
    return command_line(["deskcheck", "form", verb, *FORM_CONTEXT], FORM[tool_verb])


def command_line(words: list[str], args: dict[str, Any]) -> str:
    """``words`` then ``args`` as one shell-quoted JSON word (none when empty)."""
    tail = [json.dumps(args, ensure_ascii=False)] if args else []
    return " ".join(shlex.quote(word) for word in [*words, *tail])
