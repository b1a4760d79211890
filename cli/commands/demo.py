"""``deskcheck demo``: the whole main job on the shipped samples, narrated.

The steps live in ``deskcheck.samples.demo`` and call the same tools as the CLI; this command only
prints them as they end (rich text on a terminal, one JSON object per step with ``--json`` or when
stdout is not a terminal) and turns the outcome into the exit code: 0 when every step worked, 1
when one failed (the summary and the JSON say which), 130 on Ctrl-C. Nothing is left running in
any case.
"""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Annotated

import typer

from ..env import Env, current_env
from ..exit import ExitCode
from ..output.emit import emit_usage_error

OutputDirOpt = Annotated[
    Path,
    typer.Option(
        "--output-dir",
        help="Where to write the reviewed contract (contract.reviewed.docx) and a copy of the original.",
    ),
]
StateDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--state-dir",
        help="Keep the demo's form sessions in this folder (default: a temporary folder, deleted at the end, "
        "so your own sessions are never touched).",
        show_default=False,
    ),
]


def demo(output_dir: OutputDirOpt = Path("deskcheck-demo"), state_dir: StateDirOpt = None) -> None:
    """Show every family at work on the shipped samples: a form session over the sample API (started
    in this process on a free port), a docx review of a sample contract saved to
    ./deskcheck-demo/contract.reviewed.docx, and openapi check. Works offline; takes a few seconds."""
    from deskcheck.samples.demo import DemoOptions, run_demo

    env = current_env()
    for folder, option in ((output_dir, "--output-dir"), (state_dir, "--state-dir")):
        problem = _unusable_folder(folder) if folder is not None else None
        if problem:
            raise typer.Exit(emit_usage_error(env, f"{option} {folder}: {problem}; give a folder you can write to."))
    from deskcheck.engine import progress

    narrate = _reporter(env)
    started = time.monotonic()
    try:
        with progress.phase("running the demo on the shipped samples"):
            steps = run_demo(DemoOptions(output_dir=output_dir, state_dir=state_dir), narrate)
    except KeyboardInterrupt:
        env.stderr.write("interrupted: the sample API is stopped and nothing is left running.\n")
        raise typer.Exit(130) from None
    failed = [step for step in steps if not step.ok and not step.skipped]
    if env.quiet:
        for step in failed:
            env.stderr.write(f"deskcheck demo: {step.name} failed: {step.error}\n")
    elif not env.json_output:
        reviewed = output_dir / "contract.reviewed.docx"
        narrate.summary(steps, time.monotonic() - started, str(reviewed) if reviewed.exists() else None)
        narrate.show()
    raise typer.Exit(ExitCode.TOOL_ERROR if failed else ExitCode.OK)


def _unusable_folder(folder: Path) -> str | None:
    """Why ``folder`` cannot hold the demo's files (created when missing), or None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return "this is a file, not a folder"
    except OSError as exc:
        return f"cannot be created ({exc.strerror or exc})"
    import os

    return None if os.access(folder, os.W_OK | os.X_OK) else "the folder is not writable"


def _reporter(env: Env):
    """What prints each step as it ends: nothing with --quiet (failures are reported at the end),
    a JSON line with --json or when stdout is not a terminal, else the narration."""
    if env.quiet:
        return lambda step: None
    return _json_lines(env) if env.json_output else _Narrator(env)


def _json_lines(env: Env):
    from ..output.envelope import write_json_line

    def report(step) -> None:
        write_json_line(env.stdout, step.as_dict())

    return report


class _Narrator:
    """Prints each step as it ends, with a heading when a new part starts. When the narration may
    go through the pager (``Env.pager``), it is kept until the end and ``show`` pages it if it is
    taller than the screen (progress shows on stderr meanwhile); otherwise it is printed as it
    comes and ``show`` has nothing left to do."""

    def __init__(self, env: Env) -> None:
        from ..output.pretty import console

        self.env = env
        self.out = console(env)
        self.kept: io.StringIO | None = None
        if env.pager and self.out.is_terminal:
            from rich.console import Console

            self.kept = io.StringIO()
            self.out = Console(
                file=self.kept,
                width=self.out.width,
                height=self.out.height,
                color_system=self.out.color_system,
                force_terminal=True,
                no_color=self.out.no_color,
                highlight=False,
                soft_wrap=True,
            )
        self.part: str | None = None
        self.parts = 0

    def show(self) -> None:
        """The kept narration, through the pager when it does not fit on the screen."""
        if self.kept is None:
            return
        from ..output.pager import show_lines

        lines = self.kept.getvalue().splitlines()
        show_lines(self.env.stdout, lines, page=True, height=self.out.height, width=self.out.width)

    def __call__(self, step) -> None:
        from ..demo.view import part_heading, step_lines

        if step.name == "demo.setup":
            self._print_setup(step)
            return
        if step.part != self.part:
            self.part = step.part
            self.parts += 1
            self.out.print()
            from rich.text import Text

            self.out.rule(Text(part_heading(step.part, self.parts), style="bold"), align="left", style="blue")
        self.out.print()
        self._print(step_lines(step))

    def _print_setup(self, step) -> None:
        self.out.print("deskcheck demo: the whole main job on the shipped samples", style="bold", markup=False)
        if not step.ok:
            self.out.print(f"✗ {step.error}", style="red", markup=False)
            return
        info = step.calls[-1].result
        sessions = "a temporary folder" if info["temporaryStateDir"] else info["stateDir"]
        self.out.print(
            f"The sample API runs in this process at {info['baseUrl']} (temporary database); "
            f"form sessions go to {sessions}; files to {info['outputDir']}/.",
            style="dim",
            markup=False,
        )

    def summary(self, steps, seconds: float, reviewed: str | None) -> None:
        from ..demo.view import summary_lines

        self.out.print()
        self._print(summary_lines(steps, seconds, reviewed))

    def _print(self, lines) -> None:
        for line in lines:
            if isinstance(line, tuple):
                style, text = line
                self.out.print(text, style=style or None, markup=False, highlight=False)
            else:
                self._print_view(line)

    def _print_view(self, view) -> None:
        """A tool result's view, indented under its call and cut to a few lines."""
        from ..demo.view import cut
        from ..output.pretty import styler_for
        from ..render.draw import TRANSCRIPT_WIDTH, draw

        width = self.out.width - 4 if self.out.is_terminal else TRANSCRIPT_WIDTH
        drawn = cut(draw(view, width, styler_for(self.out)))
        self.out.file.write("".join(f"    {line}\n" for line in drawn))
        self.out.file.flush()
