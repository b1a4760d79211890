"""The exit codes of the CLI contract."""

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    TOOL_ERROR = 1  # the tool ran and reported ok: false (a batch of operations of which none applied too)
    USAGE = 2  # bad usage or bad input: unknown tool, unparsable JSON, missing file, not a docx
    PARTIAL = 3  # the tool did part of what was asked: some operations applied, others skipped
