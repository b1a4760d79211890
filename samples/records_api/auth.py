"""Bearer tokens: reads are open, a known token is required to write.

Two tokens exist: one may write, the other may only read (a write with it is refused with 403,
as a data platform refuses a key that lacks the write permission). A token the API does not know
is refused with 401 on every request, so a typo is noticed on the first call.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from enum import Enum

from .messages import ApiError, Request

DEFAULT_WRITE_TOKEN = "sample-write-token"
DEFAULT_READ_TOKEN = "sample-read-token"

_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="deskcheck sample API"'}


class Access(Enum):
    ANONYMOUS = "anonymous"
    READ = "read"
    WRITE = "write"


@dataclass(frozen=True)
class Tokens:
    write: str = DEFAULT_WRITE_TOKEN
    read: str = DEFAULT_READ_TOKEN

    def __post_init__(self) -> None:
        if not self.write or not self.read:
            raise ValueError("the write and read-only tokens must not be empty")
        if self.write == self.read:
            raise ValueError("the write and read-only tokens must differ")


def access_of(request: Request, tokens: Tokens) -> Access:
    header = request.header("Authorization")
    if not header:
        return Access.ANONYMOUS
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "Send the token as 'Authorization: Bearer <token>'.", headers=_CHALLENGE)
    if hmac.compare_digest(token.encode(), tokens.write.encode()):
        return Access.WRITE
    if hmac.compare_digest(token.encode(), tokens.read.encode()):
        return Access.READ
    raise ApiError(
        401, "This token is not recognised; check it, or ask the server's operator for a valid one.", headers=_CHALLENGE
    )


def require_write(request: Request, tokens: Tokens) -> None:
    access = access_of(request, tokens)
    if access is Access.ANONYMOUS:
        raise ApiError(
            401,
            "Writing needs a token: send 'Authorization: Bearer <write token>' "
            "(with deskcheck: --token or DESKCHECK_TOKEN).",
            headers=_CHALLENGE,
        )
    if access is Access.READ:
        raise ApiError(403, "This token may only read; saving, adding or deleting records needs the write token.")
