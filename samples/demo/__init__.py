"""``deskcheck demo``: the whole main job on the shipped samples, as steps a person or a script
can follow.

Three parts, each calling the same tools the CLI calls: a form session over a record of the sample
API (``forms_part``), a review of the sample contract as tracked changes (``docx_part``), and
``openapi check`` of the sample API's document (``openapi_part``). ``run_demo`` starts the sample
API in-process, runs the steps, reports each one as it ends, and stops everything; the CLI
(``deskcheck.cli.commands.demo``) only renders the steps.
"""

from .runner import DEFAULT_OUTPUT_DIR, DemoOptions, run_demo
from .steps import Call, Step

__all__ = ["DEFAULT_OUTPUT_DIR", "Call", "DemoOptions", "Step", "run_demo"]
