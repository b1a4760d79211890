"""The demo's second part: a review of the sample contract as tracked changes and comments.

The shipped contract is copied into the output folder twice: ``contract.docx`` (the original, for
comparing) and ``contract.reviewed.docx``, which the tools edit in place, as ``deskcheck docx
<verb> FILE`` does. The shipped file is only read.

The story: the customer's reviewer reads the agreement, finds the clauses to change, proposes a
longer payment term, a shorter breach notice, a subcontractor clause, no yearly price increase
and a lower hosting fee, with comments; asks a question on the liability cap and answers it;
then compares the reviewed file with the original, as a model would be shown the difference.
"""

from __future__ import annotations

import shutil
from typing import Any

from deskcheck.engine.tools import ToolSet

from .context import DemoContext
from .steps import Step, StepSpec

AUTHOR = "deskcheck demo"
ORIGINAL_NAME = "contract.docx"
REVIEWED_NAME = "contract.reviewed.docx"

# find_text queries, each matching once in the contract, by what the review does with them.
FINDS = {
    "payment": "thirty (30) days of receiving",
    "renewal": "renews automatically",
    "breach": "forty-eight (48) hours",
    "subcontractors": "use subcontractors",
    "indexation": "Consumer Prices Index",
    "hosting fee": "9,500",
    "liability cap": "limited to the Charges paid",
}


class DocxPart:
    name = "docx"

    def __init__(self, ctx: DemoContext) -> None:
        self.ctx = ctx
        self.original = ctx.output_dir / ORIGINAL_NAME
        self.reviewed = ctx.output_dir / REVIEWED_NAME
        self.matches: dict[str, dict[str, Any]] = {}
        self._tools: ToolSet | None = None

    @property
    def tools(self) -> ToolSet:
        """The docx tools over the reviewed copy, as ``deskcheck call --docx FILE --author ...``."""
        if self._tools is None:
            from deskcheck.engine.docx.tools.toolset import DocxOptions, docx_toolset

            self._tools = docx_toolset(self.reviewed, DocxOptions(author=AUTHOR))
        return self._tools

    def steps(self) -> list[StepSpec]:
        return [
            StepSpec(
                "docx.read",
                "Read the contract as blocks",
                "Every paragraph is a block with a stable id, its list label (1., 5.3, (a)) and its text; "
                "the outline lists the clauses, and headers, footers and footnotes are stories of their own.",
                self.read,
            ),
            StepSpec(
                "docx.find",
                "Find the clauses to change",
                "find_text returns each match's block and a range that the edit operations accept as it is.",
                self.find,
            ),
            StepSpec(
                "docx.suggest",
                "Suggest changes as tracked changes",
                "One suggest_changes call proposes six edits; each lands as a tracked change (only the words "
                "that differ) or a comment, for a person to accept or reject in Word or LibreOffice.",
                self.suggest,
            ),
            StepSpec(
                "docx.comments",
                "Comment and reply",
                "A question on the liability cap, anchored on the words it is about, and a reply in the same thread.",
                self.comments,
            ),
            StepSpec(
                "docx.compare",
                "Compare with the original",
                "compare_versions diffs the two files as they read with every change accepted; the text below "
                "is what a model is shown.",
                self.compare,
            ),
        ]

    # -- the steps ----------------------------------------------------------------------------

    def read(self, step: Step) -> None:
        def copy() -> dict[str, str]:
            self.ctx.output_dir.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.ctx.contract_path, self.original)
            shutil.copyfile(self.ctx.contract_path, self.reviewed)
            return {"original": str(self.original), "reviewed": str(self.reviewed)}

        step.action(f"copy the sample contract to {self.ctx.output_dir}", copy)
        page = step.call(self.tools, "read_document", {"maxBlocks": 14}).value
        step.expect(page.get("nextAfterBlockId"), "the first page of blocks did not say where the next one starts.")
        labels = [block.get("displayLabel") for block in page["blocks"]]
        step.expect("1." in labels and "1.1" in labels and "(a)" in labels, "the clause numbers are missing.")
        outline = step.call(self.tools, "get_document_outline", {}).value
        step.expect(len(outline["sections"]) >= 10, "the outline does not list the clauses.")
        stories = step.call(self.tools, "list_stories", {}).value
        kinds = sorted({story["handle"]["type"] for story in stories["stories"]})
        step.expect(kinds == ["footer", "footnote", "header", "main"], f"unexpected stories: {kinds}.")
        step.note(f"{len(outline['sections'])} sections; stories: {', '.join(kinds)}.")

    def find(self, step: Step) -> None:
        for key, query in FINDS.items():
            found = step.call(self.tools, "find_text", {"query": query}).value
            step.expect(found["totalMatches"] == 1, f"{query!r} should occur once, found {found['totalMatches']}.")
            self.matches[key] = found["matches"][0]

    def suggest(self, step: Step) -> None:
        m = self.matches
        operations = [
            {
                "type": "replaceRange",
                "range": m["payment"]["range"],
                "replace": "forty-five (45) days of receiving",
                "comment": "Our finance team pays suppliers on a 45-day cycle.",
            },
            {
                "type": "commentOnRange",
                "range": m["renewal"]["range"],
                "comment": "Automatic renewal may clash with our procurement rules: "
                "should a renewal need both parties' written agreement?",
            },
            {
                "type": "replaceInBlock",
                "blockId": m["breach"]["blockId"],
                "find": "forty-eight (48) hours",
                "replace": "twenty-four (24) hours",
                "comment": "Leaves us time to notify the regulator within 72 hours.",
            },
            {
                "type": "insertAfterBlock",
                "blockId": m["subcontractors"]["blockId"],
                "text": "The Supplier shall ensure that its subcontractors are bound by confidentiality "
                "obligations at least as protective as those in clause 7.",
            },
            {
                "type": "deleteBlock",
                "blockId": m["indexation"]["blockId"],
                "comment": "The hosting fee should stay fixed for the initial term.",
            },
            {
                "type": "replaceInBlock",
                "blockId": m["hosting fee"]["blockId"],
                "find": "9,500",
                "replace": "9,000",
                "comment": "As quoted in the Supplier's tender.",
            },
        ]
        result = step.call(self.tools, "suggest_changes", {"operations": operations}).value
        step.expect(not result["skipped"], f"operations were skipped: {result['skipped']}.")
        step.expect(len(result["applied"]) == len(operations), "not every operation applied.")
        changes = step.call(self.tools, "read_changes", {}).value["changes"]
        step.expect(changes and all(c["author"] == AUTHOR for c in changes), "the tracked changes are missing.")
        step.note(f"{len(changes)} tracked changes by {AUTHOR!r} are pending review in {self.reviewed.name}.")

    def comments(self, step: Step) -> None:
        cap = self.matches["liability cap"]
        added = step.call(
            self.tools,
            "add_comment",
            {
                "blockId": cap["blockId"],
                "quote": "limited to the Charges paid or payable in that year",
                "text": "A cap of one year's Charges is low for a supplier that holds tenants' personal data.",
            },
        ).value
        comment_id = next(
            (
                target["commentId"]
                for receipt in added["receipts"]
                for target in receipt["affected"]
                if target.get("type") == "comment"
            ),
            None,
        )
        step.expect(comment_id, "add_comment did not return the new comment's id.")
        step.call(
            self.tools,
            "reply_comment",
            {
                "commentId": comment_id,
                "text": "Propose 150% of the annual Charges, with a separate cap for data breaches.",
            },
        )
        threads = step.call(self.tools, "read_comments", {}).value["comments"]
        thread = next((t for t in threads if t["id"] == comment_id), None)
        step.expect(thread and len(thread["replies"]) == 1, "the reply did not join the thread.")
        step.note(f"{len(threads)} comment threads in the reviewed contract.")

    def compare(self, step: Step) -> None:
        result = step.call(self.tools, "compare_versions", {"previous": str(self.original)}).value
        counts = result["summaryCounts"]
        step.expect(
            (counts["added"], counts["deleted"], counts["modified"]) == (1, 1, 3),
            f"the comparison does not show the review's edits: {counts}.",
        )
        step.note(f"The reviewed contract: {self.reviewed}")
