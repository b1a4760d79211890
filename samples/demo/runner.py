"""``run_demo``: start the sample API, run every part's steps, stop everything.

Whatever happens (a failed step, an unexpected error, Ctrl-C), the sample API, its temporary
database, the session store, the HTTP connections and the temporary state directory are closed
and removed before ``run_demo`` returns or raises: nothing is left running.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from .context import DemoContext
from .steps import Step, StepFailed

# Seconds per HTTP request: the API is local, so anything slower is a fault worth reporting.
REQUEST_TIMEOUT = 10.0
DEFAULT_OUTPUT_DIR = Path("deskcheck-demo")


@dataclass(frozen=True)
class DemoOptions:
    output_dir: Path = DEFAULT_OUTPUT_DIR  # where the reviewed contract goes
    state_dir: Path | None = None  # keep the demo's form sessions here (default: a temporary folder)


def contract_path(stack: ExitStack) -> Path:
    """The shipped sample contract as a file path (valid until ``stack`` closes)."""
    from importlib import resources

    return stack.enter_context(resources.as_file(resources.files("deskcheck.samples") / "contract.docx"))


def run_demo(options: DemoOptions, report: Callable[[Step], None] = lambda step: None) -> list[Step]:
    """Run the whole demo; ``report(step)`` is called as each step ends (the CLI prints it then).
    Returns every step; a step that failed has ``ok`` False and its ``error``, and the steps after
    it in the same part are skipped (they build on it), while the other parts still run."""
    from deskcheck.engine.forms.sessions.store import STORE_FILE, SessionStore
    from deskcheck.engine.http.client import HttpxClient
    from deskcheck.samples.records_api import SampleApi, openapi_path

    from .docx_part import DocxPart
    from .forms_part import FormsPart
    from .openapi_part import OpenApiPart

    steps: list[Step] = []

    def done(step: Step) -> None:
        steps.append(step)
        report(step)

    with ExitStack() as stack:
        if options.state_dir is not None:
            state_dir = options.state_dir
        else:
            state_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="deskcheck-demo-state-")))
        store = SessionStore(state_dir / STORE_FILE)
        stack.callback(store.close)  # registered after the folder: closed before it is removed
        api = SampleApi(port=0)
        stack.callback(api.stop)
        # Closed before the API stops, which would otherwise wait for its keep-alive connections.
        client = HttpxClient(timeout=REQUEST_TIMEOUT)
        stack.callback(client.close)

        setup = Step(
            "demo.setup",
            "demo",
            "Start the sample API",
            "The sample dataset-records API runs in this process on a free loopback port, over a fresh "
            "temporary database; it stops when the demo ends.",
        )
        _run(setup, lambda step: _start(step, api, state_dir, options))
        done(setup)

        ctx = DemoContext(
            api=api,
            store=store,
            client=client,
            openapi_path=openapi_path(),
            contract_path=contract_path(stack),
            output_dir=options.output_dir,
        )
        for part, needs_api in ((FormsPart(ctx), True), (DocxPart(ctx), False), (OpenApiPart(ctx), True)):
            blocked = None if setup.ok or not needs_api else "the sample API did not start"
            for spec in part.steps():
                step = Step(spec.name, part.name, spec.title, spec.story)
                if blocked:
                    step.skip(f"not run: {blocked}.")
                else:
                    _run(step, spec.run)
                    if not step.ok:
                        blocked = f"{step.name} failed"
                done(step)
    return steps


def _start(step: Step, api, state_dir: Path, options: DemoOptions) -> None:
    from deskcheck.samples.records_api import SampleApiError

    try:
        api.start()
    except SampleApiError as exc:
        step.fail(f"the sample API cannot start: {exc}")
        return
    step.action(
        "start the sample API on 127.0.0.1",
        lambda: {
            "baseUrl": api.base_url,
            "openapi": api.openapi_url,
            "stateDir": str(state_dir),
            "temporaryStateDir": options.state_dir is None,
            "outputDir": str(options.output_dir),
        },
    )


def _run(step: Step, run: Callable[[Step], None]) -> None:
    try:
        run(step)
    except StepFailed as exc:
        step.fail(str(exc))
    except Exception as exc:  # the demo's boundary: a surprise in one step is that step's failure
        step.fail(f"unexpected error: {type(exc).__name__}: {exc}")
