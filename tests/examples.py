"""The command examples of the README and docs/, as the example runner reads them.

Conventions the pages follow (docs/development.md describes them for writers):

- Every ```sh block runs, except the README's first (the set-up commands, which CI and the
  newcomer test run) and a block right after ``<!-- not run: REASON -->``. So does every
  ```python block, as one command (``python -``) in the same folder.
- A command exits 0, unless its last line ends with a comment saying ``exit N``.
- A command whose comment says ``until Ctrl-C`` is a server: it must print something and still be
  running a moment later; then it is stopped.
- ``<!-- output of: COMMAND -->`` right before a ```text block: that block is exactly what the
  page's COMMAND (as written, without its comment) prints on stdout.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

BLOCK = re.compile(r"(?:<!-- not run: (?P<reason>[^>]+?) -->\n)?```(?P<language>sh|python)\n(?P<body>.*?)```", re.S)
OUTPUT_BLOCK = re.compile(r"<!-- output of: (?P<command>[^>]+?) -->\n```text\n(?P<text>.*?)```", re.S)
# In the comment that ends a command's last line (no quote after the #).
EXPECTED_EXIT = re.compile(r"#[^'\"]*\bexit (\d+)\b[^'\"]*$")
SERVER = re.compile(r"#[^'\"]*\buntil Ctrl-C\b[^'\"]*$")
COMMENT = re.compile(r"\s+#[^'\"]*$")


@dataclass
class Command:
    text: str
    expected_exit: int = 0
    server: bool = False


@dataclass
class Block:
    page: str
    line: int
    commands: list[Command]
    not_run: str | None = None


@dataclass
class Page:
    name: str
    blocks: list[Block] = field(default_factory=list)
    outputs: dict[str, str] = field(default_factory=dict)  # command -> the text shown


def split_commands(block: str) -> list[str]:
    """The commands of a shell block: a line ending with a backslash, or inside a single-quoted
    string, goes on in the next line."""
    commands, current = [], ""
    for line in block.splitlines():
        current = f"{current}\n{line}" if current else line
        if current.strip() and not current.endswith("\\") and current.count("'") % 2 == 0:
            commands.append(current)
            current = ""
    assert not current, f"an unfinished command at the end of a block: {current!r}"
    return commands


def command(text: str) -> Command:
    last = text.splitlines()[-1]
    expected = EXPECTED_EXIT.search(last)
    return Command(text, int(expected.group(1)) if expected else 0, SERVER.search(last) is not None)


def without_comment(text: str) -> str:
    """A command as written, without the comment at its end."""
    return COMMENT.sub("", text).strip()


def read_page(path: Path, name: str) -> Page:
    text = path.read_text(encoding="utf-8")
    page = Page(name)
    for match in BLOCK.finditer(text):
        if name == "README.md" and match.start() == text.index("```sh"):
            continue  # the set-up commands: .ci/run and tests/acceptance/test_newcomer.py run them
        line = text.count("\n", 0, match.start("body"))
        body = match.group("body")
        if match.group("language") == "python":
            commands = [Command(f"python - <<'__PYTHON__'\n{body}__PYTHON__")]
        else:
            commands = [command(c) for c in split_commands(body) if not c.lstrip().startswith("#")]
        page.blocks.append(Block(name, line, commands, match.group("reason")))
    for match in OUTPUT_BLOCK.finditer(text):
        page.outputs[match.group("command")] = match.group("text")
    return page


def block_script(block: Block, out_dir: Path, server_wait: float = 30.0) -> str:
    """A bash script that runs the block's commands in order in one shell (so a variable set by
    one is seen by the next), writes each one's stdout, stderr and exit code to ``out_dir`` as
    ``N.out``, ``N.err``, ``N.rc`` (``running`` for a server that was still running), and goes
    on after a failure."""
    out = shlex.quote(str(out_dir))
    lines = ["exec </dev/null"]
    for index, cmd in enumerate(block.commands):
        files = f">{out}/{index}.out 2>{out}/{index}.err"
        if cmd.server:
            # Background commands of a non-interactive shell ignore SIGINT: stop it with SIGTERM.
            lines += [
                f"( exec {cmd.text}\n) {files} &",
                "__pid=$!",
                # Wait for its first output (or its end), then give it a moment to fail.
                f"for __i in $(seq {int(server_wait * 10)}); do",
                f"  [ -s {out}/{index}.out ] || [ -s {out}/{index}.err ] && break",
                "  kill -0 $__pid 2>/dev/null || break",
                "  sleep 0.1",
                "done",
                "sleep 1",
                f"if kill -0 $__pid 2>/dev/null; then kill -TERM $__pid; wait $__pid; echo running >{out}/{index}.rc;",
                f"else wait $__pid; echo $? >{out}/{index}.rc; fi",
            ]
        else:
            lines += [f"{{\n{cmd.text}\n}} {files}", f"echo $? >{out}/{index}.rc"]
    return "\n".join(lines) + "\n"
