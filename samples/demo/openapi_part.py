"""The demo's third part: ``deskcheck openapi check`` on the sample API's annotated document, as a
CI job runs it, then ``--live`` against the running API."""

from __future__ import annotations

from .context import DemoContext
from .steps import Step, StepSpec

LIVE_PARAMS = {"id": "associations", "lineId": "asso-001"}


class OpenApiPart:
    name = "openapi"

    def __init__(self, ctx: DemoContext) -> None:
        self.ctx = ctx

    def steps(self) -> list[StepSpec]:
        return [
            StepSpec(
                "openapi.check",
                "openapi check: the document and its annotations",
                "Everything that would stop a tool from loading or working is an error, with its line and "
                "JSON pointer; openapi tools prints the definitions a host would hand to a model.",
                self.check,
            ),
            StepSpec(
                "openapi.check-live",
                "openapi check --live against the running API",
                "Each editor group's schema is requested from the API and its form built, and the record "
                "named by --param is checked against it: what would fail for an agent shows up before one tries.",
                self.check_live,
            ),
        ]

    def _check(self, step: Step, live=None) -> None:
        from dataclasses import replace

        from deskcheck.engine.openapi.check.check import check_source, has_errors
        from deskcheck.engine.openapi.check.report import CheckReport, text_report
        from deskcheck.engine.openapi.document.source import read_source

        def run() -> dict:
            found = check_source(read_source(str(self.ctx.openapi_path)), live=live)
            findings = [replace(f, artifact=f.artifact or "openapi.json") for f in found]
            return {
                "findings": [finding.as_dict() for finding in findings],
                "report": text_report(CheckReport(["openapi.json"], findings)),
                "errors": has_errors(findings),
            }

        command = "deskcheck openapi check openapi.json"
        if live is not None:
            params = " ".join(f"--param {name}={value}" for name, value in LIVE_PARAMS.items())
            command += f" --live --base-url {self.ctx.api.base_url} {params}"
        result = step.action(command, run)
        step.expect(not result["errors"], f"the check found errors:\n{result['report']}")

    def check(self, step: Step) -> None:
        self._check(step)

        def tools() -> dict:
            from deskcheck.engine.openapi.tools.load import load_openapi

            loaded = load_openapi(str(self.ctx.openapi_path), profiles=["write"])
            return {
                "tools": [tool.name for tool in loaded.tools],
                "editorGroups": [group.name for group in loaded.editor_groups],
            }

        listed = step.action("deskcheck openapi tools openapi.json --profile write", tools)
        step.expect(listed["editorGroups"], "the write profile gives no editor group.")
        step.note(
            f"The write profile gives {len(listed['tools'])} tools, among them the eight form tools of each "
            f"editor group ({', '.join(listed['editorGroups'])})."
        )

    def check_live(self, step: Step) -> None:
        from deskcheck.engine.openapi.check.live_check import LiveOptions

        self._check(step, LiveOptions(self.ctx.api.base_url, dict(LIVE_PARAMS), client=self.ctx.client, timeout=10))
