"""The demo's first part: a form session over a record of the sample API, through the editor group
that the API's OpenAPI document declares (``x-agent.editor`` on ``PUT .../lines/{lineId}``).

The story: the sailing association "Les Voiles de l'Iroise" (record ``asso-001``) moved to the
Arcachon basin. The tools find it, describe its form, correct its contact address (a wrong value
first, to show validation), pick its new département from the API's lookup, add a board member,
save; then another client changes the record, the next save is refused as stale, and a reload
and re-apply get it through.
"""

from __future__ import annotations

import json
from typing import Any

from deskcheck.engine.tools import ToolSet

from .context import DemoContext
from .steps import Step, StepSpec

DATASET = "associations"
RECORD = "asso-001"
LINE = {"id": DATASET, "lineId": RECORD}
GROUP = "sample_dataset_line"
NEW_DESCRIPTION = "Sailing lessons for young people and adults around the Arcachon basin."
OTHER_CLIENT_DOMAINS = ["sport", "environnement", "éducation"]


class FormsPart:
    name = "forms"

    def __init__(self, ctx: DemoContext) -> None:
        self.ctx = ctx
        self._tools: ToolSet | None = None

    @property
    def tools(self) -> ToolSet:
        """The write profile's tools of the sample API's document, as ``deskcheck call --spec
        ... --profile write --base-url ... --token ...`` gets them."""
        if self._tools is None:
            from deskcheck.engine.http.client import Credentials
            from deskcheck.engine.openapi.tools.load import load_openapi

            loaded = load_openapi(
                str(self.ctx.openapi_path),
                profiles=["write"],
                base_url=self.ctx.api.base_url,
                client=self.ctx.client,
                credentials=Credentials.from_options((), self.ctx.api.write_token),
                store=self.ctx.store,
            )
            self._tools = loaded.toolset
        return self._tools

    def editor(self, step: Step, verb: str, *, expect_ok: bool = True, **args: Any):
        return step.call(self.tools, f"{GROUP}_{verb}", {**LINE, **args}, expect_ok=expect_ok)

    def steps(self) -> list[StepSpec]:
        return [
            StepSpec(
                "forms.search",
                "Find the record with a plain API tool",
                "sample_search_records is one of the plain tools the document's x-agent annotations give: "
                "the API's JSON answer comes back as a table an agent can read.",
                self.search,
            ),
            StepSpec(
                "forms.describe",
                "Describe the record's form",
                "The editor group requests the record and its JSON Schema from the API and shows every field "
                "with its type, constraints and value. Every editor tool takes the record's path parameters "
                "(id=associations, lineId=asso-001) besides its own arguments.",
                self.describe,
            ),
            StepSpec(
                "forms.set-fields",
                "Set fields: a wrong value first, then the fix",
                "Every write is validated at once; the error is attached to the field, and nothing is sent to "
                "the API before a save.",
                self.set_fields,
            ),
            StepSpec(
                "forms.suggestions",
                "Ask the API for suggestions and apply one",
                "The département field is an x-fromUrl lookup: the query goes to the API's own search "
                "endpoint, and the chosen suggestion is written whole.",
                self.suggestions,
            ),
            StepSpec(
                "forms.array",
                "Add an item to an array",
                "editArray adds a board member and lists the new item's fields; two writes make the form valid again.",
                self.array,
            ),
            StepSpec(
                "forms.save",
                "Save",
                "The whole record goes back with PUT and an If-Match of the ETag it was loaded with.",
                self.save,
            ),
            StepSpec(
                "forms.conflict",
                "Another client changes the record: the next save is stale",
                "The record changes on the server after our load; saving our edit answers 412, the session "
                "becomes stale and keeps the edit.",
                self.conflict,
            ),
            StepSpec(
                "forms.reload",
                "Reload, re-apply and save",
                "reloadForm takes the server's copy (the other client's change included); the edit is applied "
                "again and saved.",
                self.reload,
            ),
        ]

    # -- the steps ----------------------------------------------------------------------------

    def search(self, step: Step) -> None:
        result = step.call(
            self.tools,
            "sample_search_records",
            {"datasetId": DATASET, "query": "voiles iroise", "select": ["nom", "statut", "departement"]},
        )
        step.expect(RECORD in result.value, f"the search did not list the record {RECORD}.")
        step.note(f"The record's _id, {RECORD}, is the lineId the editor tools take.")

    def describe(self, step: Step) -> None:
        text = self.editor(step, "describeState").value
        step.expect("/departement (autocomplete" in text and "/bureau (array" in text, "the form lacks fields.")
        step.expect("/statuts" not in text and "/region" not in text, "hidden columns are shown to the agent.")
        step.note("statuts (an attachment) and region (computed by the API) are hidden from the form.")

    def set_fields(self, step: Step) -> None:
        wrong = self.editor(step, "setFieldValue", path="/email", value="contact at voiles-arcachon.fr").value
        step.expect("/email: must be an email address" in wrong, "the wrong e-mail address was not reported.")
        fixed = self.editor(step, "setFieldValue", path="/email", value="contact@voiles-arcachon.fr").value
        step.expect("the form is valid" in fixed, "the form is still invalid after the fix.")
        address = {"voie": "1 quai du Capitaine Allègre", "code_postal": "33120", "commune": "Arcachon"}
        merged = self.editor(step, "setData", data={"adresse": address}).value
        step.expect("the form is valid" in merged, "the new address left the form invalid.")
        step.note("setData merges: the address keeps its type (a street address) and gets the new lines.")

    def suggestions(self, step: Step) -> None:
        listed = self.editor(step, "getFieldSuggestions", path="/departement", query="gironde").value
        step.expect("[0] Gironde (33)" in listed, "the lookup did not suggest Gironde.")
        applied = self.editor(step, "setFieldValue", path="/departement", suggestionIndex=0).value
        step.expect('{"code": "33", "nom": "Gironde"}' in applied, "the suggestion was not written whole.")

    def array(self, step: Step) -> None:
        added = self.editor(step, "editArray", path="/bureau", action="add").value
        step.expect("added an item at index 2" in added, "the board member was not added at the end.")
        self.editor(step, "setFieldValue", path="/bureau/2/nom", value="Anne Morvan")
        last = self.editor(step, "setFieldValue", path="/bureau/2/fonction", value="secrétariat").value
        step.expect("the form is valid" in last, "the new board member left the form invalid.")

    def save(self, step: Step) -> None:
        saved = self.editor(step, "saveForm").value
        step.expect(saved.startswith("Saved"), "the save did not say it saved.")
        record = step.action("read the record on the server", lambda: self.ctx.api.get_line(DATASET, RECORD))
        step.expect(record["departement"]["code"] == "33", "the server does not have the new département.")
        step.expect(record["bureau"][-1]["nom"] == "Anne Morvan", "the server does not have the new board member.")
        step.note(f"The API recomputed the region from the département: {record.get('region')}.")

    def conflict(self, step: Step) -> None:
        self.editor(step, "setFieldValue", path="/description", value=NEW_DESCRIPTION)
        step.action(
            "another client changes the record's domaines on the server",
            lambda: self.ctx.api.update_line(DATASET, RECORD, {"domaines": OTHER_CLIENT_DOMAINS}),
        )
        stale = self.editor(step, "saveForm", expect_ok=False)
        step.expect("412" in (stale.error or ""), "the stale save was not refused with 412.")
        step.expect("reloadForm" in (stale.error or ""), "the refusal does not say to reload.")
        record = step.action("read the record on the server", lambda: self.ctx.api.get_line(DATASET, RECORD))
        step.expect(record["description"] != NEW_DESCRIPTION, "the stale save overwrote the record.")
        step.note("Nothing was overwritten: the other client's change stays, and our edit waits in the session.")

    def reload(self, step: Step) -> None:
        reloaded = self.editor(step, "reloadForm").value
        step.expect("/description" in reloaded, "the reload does not list the discarded edit.")
        domaines = json.loads(self.editor(step, "getData", path="/domaines").value)
        step.expect(domaines["data"] == OTHER_CLIENT_DOMAINS, "the reload did not bring the other client's change.")
        self.editor(step, "setFieldValue", path="/description", value=NEW_DESCRIPTION)
        saved = self.editor(step, "saveForm").value
        step.expect(saved.startswith("Saved"), "the save after the reload failed.")
        record = step.action("read the record on the server", lambda: self.ctx.api.get_line(DATASET, RECORD))
        step.expect(
            record["description"] == NEW_DESCRIPTION and record["domaines"] == OTHER_CLIENT_DOMAINS,
            "the server does not have both changes.",
        )
        step.note("The server has both changes: the other client's domaines and our description.")
