"""The CLI's own failure: bad usage or bad input, answered with exit code 2."""


class UsageError(Exception):
    """Raised by command code before any tool runs; rendered as an error envelope, exit 2."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
