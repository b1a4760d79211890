"""What an API server sends, read within bounds whatever it sends.

- **The body** (``BoundedBody``): at most ``limit`` bytes once decoded. deskcheck asks for
  ``gzip`` or ``deflate`` and decodes the one content coding itself, a bounded step at a time:
  httpx's own decoding inflates each chunk whole, and a 1.8 KB answer of gzip inside gzip took it
  to 2 GB before any size check could run. A body in stacked codings, or in one deskcheck did not
  ask for, is refused.
- **The text** (``decode_text``): decoded by the charset the server declares (UTF-8 when it
  declares none); what does not decode is kept as U+FFFD for messages, and remembered, so that a
  record is never read (and saved back) with its characters replaced.
- **JSON** (``response_json``): parsed with the bounds of untrusted JSON (``engine.json_text``:
  nesting, integers of at most 300 digits, no ``NaN`` or ``Infinity``, no lone surrogate), with
  room for a large answer's values. A breach is a ``ResponseError`` that names what the server
  sent.
"""

from __future__ import annotations

import codecs
import zlib
from typing import TYPE_CHECKING, Any

from ..errors import DeskcheckError, InputError

if TYPE_CHECKING:
    from .client import HttpResponse

# The codings deskcheck asks for (Accept-Encoding) and decodes.
ACCEPT_ENCODING = "gzip, deflate"
# Values in one answer: a 10 MiB answer of records holds well under this.
MAX_RESPONSE_VALUES = 2_000_000


class ResponseError(DeskcheckError):
    """The server's answer cannot be read (too large once decoded, an unknown coding, JSON out of
    bounds); the message says what the server sent."""


class BoundedBody:
    """Feeds the raw bytes of a body, in the coding named by ``content_encoding``, and keeps at
    most ``limit`` decoded bytes: ``feed`` raises ``ResponseError`` (``tooLarge``, its message
    ending with ``hint``) past it."""

    def __init__(self, content_encoding: str | None, limit: int, what: str, hint: str = "") -> None:
        self.limit = limit
        self.what = what
        self.hint = hint
        self.chunks: list[bytes] = []
        self.size = 0
        codings = [c.strip().lower() for c in (content_encoding or "").split(",") if c.strip()]
        codings = [c for c in codings if c != "identity"]
        if len(codings) > 1:
            raise ResponseError(
                f"{what} came in the stacked content codings {', '.join(codings)}; deskcheck reads one coding "
                f"({ACCEPT_ENCODING}) and asked for no more.",
                code="badEncoding",
            )
        self.coding = codings[0] if codings else None
        if self.coding not in (None, "gzip", "x-gzip", "deflate"):
            raise ResponseError(
                f"{what} came in the content coding {self.coding!r}, which deskcheck did not ask for "
                f"(it reads {ACCEPT_ENCODING}).",
                code="badEncoding",
            )
        self._inflater: Any = None
        if self.coding in ("gzip", "x-gzip"):
            self._inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._pending = b""  # deflate: the first bytes, until zlib or raw deflate is known

    def feed(self, raw: bytes) -> None:
        if self.coding is None:
            self._keep(raw)
            return
        if self.coding == "deflate" and self._inflater is None:
            self._pending += raw
            if len(self._pending) < 2:
                return
            raw, self._pending = self._pending, b""
            # "deflate" is zlib data by the standard; some servers send raw deflate.
            zlib_header = raw[0] & 0x0F == 8 and (raw[0] << 8 | raw[1]) % 31 == 0
            self._inflater = zlib.decompressobj(zlib.MAX_WBITS if zlib_header else -zlib.MAX_WBITS)
        self._inflate(raw)

    def finish(self) -> bytes:
        if self._pending:
            self._inflater = zlib.decompressobj(-zlib.MAX_WBITS)
            self._inflate(self._pending)
        if self._inflater is not None:
            try:
                self._keep(self._inflater.flush(self.limit - self.size + 1))
            except zlib.error as exc:
                raise self._corrupt(exc) from None
        return b"".join(self.chunks)

    def _inflate(self, data: bytes) -> None:
        try:
            while data:
                out = self._inflater.decompress(data, self.limit - self.size + 1)
                self._keep(out)
                data = self._inflater.unconsumed_tail
                if self._inflater.eof:
                    # Another gzip member may follow (allowed, and rare).
                    data = self._inflater.unused_data + data
                    if not data or self.coding == "deflate":
                        return
                    self._inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        except zlib.error as exc:
            raise self._corrupt(exc) from None

    def _keep(self, data: bytes) -> None:
        self.size += len(data)
        if self.size > self.limit:
            raise ResponseError(
                f"{self.what} is larger than the {self.limit:,} bytes deskcheck reads"
                + (" (once decompressed)" if self.coding else "")
                + (f"; {self.hint}" if self.hint else "")
                + ".",
                code="tooLarge",
            )
        if data:
            self.chunks.append(data)

    def _corrupt(self, exc: Exception) -> ResponseError:
        return ResponseError(f"{self.what} is not valid {self.coding} data ({exc}).", code="badEncoding")


def decode_text(body: bytes, charset: str | None) -> tuple[str, str | None]:
    """``body`` as text by ``charset`` (UTF-8 when None or unknown), and a sentence saying where
    it did not decode (None when it all did). Undecodable bytes become U+FFFD in the text."""
    encoding = "utf-8"
    if charset:
        try:
            encoding = codecs.lookup(charset).name
        except LookupError:
            encoding = "utf-8"
    try:
        return body.decode(encoding), None
    except UnicodeDecodeError as exc:
        problem = f"is not {charset or 'UTF-8'} text (byte {exc.start:,} cannot be read)"
        return body.decode(encoding, errors="replace"), problem


def response_json(response: HttpResponse, what: str) -> Any:
    """The JSON value of ``response``'s body (None for an empty one), within the bounds of
    untrusted JSON; a ``ResponseError`` naming ``what`` ("the answer of GET /x") otherwise."""
    if response.decode_error:
        raise ResponseError(f"{what} {response.decode_error}.", code="notText")
    if not response.text.strip():
        return None
    from ..json_text import parse_json

    try:
        return parse_json(response.text, what, values=MAX_RESPONSE_VALUES)
    except InputError as exc:
        raise ResponseError(exc.message, code=exc.code or "notJson") from None


# How much of an error body a message quotes when the API gives no message field.
MAX_QUOTED_BODY = 300


def server_message(response: HttpResponse) -> str:
    """The API's own words for a refusal: a ``message`` (or ``error``, ``detail``, ``title``)
    member of a JSON body, else the start of the body."""
    text = response.text.strip()
    if not text:
        return ""
    from ..json_text import parse_json

    try:
        body = parse_json(text, "the answer")
    except InputError:  # not JSON, or JSON out of bounds: quoted as text
        body = None
    if isinstance(body, dict):
        for name in ("message", "error", "detail", "title"):
            value = body.get(name)
            if isinstance(value, str) and value.strip():
                return value.strip()
    if len(text) > MAX_QUOTED_BODY:
        return text[:MAX_QUOTED_BODY].rstrip() + " …"
    return text
