"""The exit codes of the CLI contract."""

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    TOOL_ERROR = 1  # the tool ran and reported ok: false
    USAGE = 2  # bad usage or bad input: unknown tool, unparsable JSON, missing file, not a docx
