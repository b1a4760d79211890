"""What a document shows beyond its stories' own runs, read once per document.

``Display`` answers the block walker (``walk``) and the paragraph scan (``scan``) for the two
places where what a person sees is not the text stored where it stands:

- ``chunk(part, element)``: a ``w:altChunk``'s content (``chunks``), as fresh ``w:p`` elements
  for each ``w:altChunk`` (two references to one part are two sets of blocks), each reference
  counted against the package's budget; or the reason it is left unread;
- ``binding(sdt)``: what a data-bound content control shows (``bindings``).

Unread content is what the walk reports (``Unread``): the tools list it in every result, so a
reader is told what it did not see and where.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ...errors import InputError
from ..wml.ns import W_P
from .bindings import Bound, data_binding, resolve_binding

if TYPE_CHECKING:
    from ..package.docx_package import DocxPackage
    from .chunks import Chunk
    from .datastore import DataStore


class Unread(NamedTuple):
    """Content left unread: an imported part (``kind`` "altChunk"), a linked subdocument
    ("subDoc"), a data-bound control's value ("dataBinding"), and why."""

    kind: str
    part: str | None
    format: str
    reason: str
    digest: str | None
    position: int = 0  # walked paragraphs of the story before it (with ``inside``: up to its own)
    inside: bool = False  # it stands inside the paragraph at ``position``, not after it
    paragraph: Any = None  # with ``inside``: that paragraph (the walk turns it into ``position``)


MAX_UNREAD_LISTED = 200  # entries of an ``unread`` list; a result says how many there were in all


def unread_fields(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """A result's ``unread`` (the first ``MAX_UNREAD_LISTED`` entries) and, when there were more,
    ``totalUnread``: a document of ten thousand references to an unreadable file does not make
    every answer ten thousand entries long."""
    if not entries:
        return {}
    fields: dict[str, Any] = {"unread": entries[:MAX_UNREAD_LISTED]}
    if len(entries) > MAX_UNREAD_LISTED:
        fields["totalUnread"] = len(entries)
    return fields


class ChunkView(NamedTuple):
    """One ``w:altChunk`` as read: its blocks' elements, or None with ``unread`` saying why."""

    chunk: Chunk
    elements: list[Any] | None
    unread: list[Unread]


class Display:
    def __init__(self, package: DocxPackage, depth: int = 0) -> None:
        self.package = package
        self.depth = depth  # how deep this document sits inside imported documents
        self._parts: dict[str | None, Chunk] = {}
        self._chunks: dict[Any, ChunkView] = {}
        self._bindings: dict[Any, Bound | None] = {}
        self._bound_elements: dict[Any, list[Any]] = {}
        self._store: DataStore | None = None
        self._store_digest: str | None = None

    def chunk(self, part: str, element: Any) -> ChunkView:
        view = self._chunks.get(element)
        if view is None:
            view = self._chunks[element] = self._read_chunk(part, element)
        return view

    def _read_chunk(self, part: str, element: Any) -> ChunkView:
        # (the readers of other formats load only for documents that import something)
        from .chunks import chunk_target, paragraph_elements, read_chunk

        target = chunk_target(self.package, part, element)
        chunk = self._parts.get(target)
        if chunk is None:
            chunk = self._parts[target] = read_chunk(self.package, target, self.depth)
        if chunk.paragraphs is None:
            return ChunkView(chunk, None, [self._unread(chunk, chunk.reason or "")])
        try:
            # What it left unread inside is listed again at each reference: counted like its
            # paragraphs, or a chunk of many unread references, referenced many times, makes a
            # list as long as their product (a 5 KB file: 9 million entries, 4.6 GB).
            self.package.charge_blocks(target or "", len(chunk.paragraphs) + len(chunk.unread), chunk.characters)
        except InputError as exc:
            from .embedded import over_budget

            return ChunkView(chunk, None, [self._unread(chunk, over_budget(exc))])
        inner = [Unread("altChunk", part_name, kind, reason, None) for part_name, kind, reason in chunk.unread]
        return ChunkView(chunk, paragraph_elements(chunk.paragraphs), inner)

    @staticmethod
    def _unread(chunk: Chunk, reason: str) -> Unread:
        return Unread("altChunk", chunk.part, chunk.format, reason, chunk.digest)

    def subdocument(self, part: str, element: Any, paragraph: Any) -> Unread:
        """A ``w:subDoc`` in ``paragraph``: the content of another file, which this one only
        links to."""
        from .chunks import R_ID

        rel = self.package.relationship(part, element.get(R_ID) or "")
        target = rel.target if rel is not None else None
        reason = "it is a subdocument: its content is in another file, which the document only links to"
        return Unread("subDoc", target, "docx", reason, None, inside=True, paragraph=paragraph)

    def binding(self, sdt: Any) -> Bound | None:
        if sdt in self._bindings:
            return self._bindings[sdt]
        bound = None
        if data_binding(sdt) is not None:
            bound = resolve_binding(sdt, self.store, self.package, self.depth)
            if bound is not None and bound.text:
                # Each control showing a value costs its length: a long value shown by many
                # controls counts as often, against the document's budget (InputError past it).
                self.package.charge_blocks("the values of data-bound content controls", 0, len(bound.text))
        self._bindings[sdt] = bound
        return bound

    def binding_unread(self, sdt: Any, bound: Bound | None) -> Unread | None:
        """The unread entry of control ``sdt`` when the value it shows was not read (its stored
        text stands in): placed in its paragraph, or its first one for a block-level control.
        Its hash is the data store's, so that a compare sees a change to what it did not read."""
        if bound is None or bound.unread is None:
            return None
        paragraph = next(sdt.iterancestors(W_P), None)
        if paragraph is None:
            paragraph = next(sdt.iter(W_P), None)
        if self._store_digest is None:
            import hashlib

            digest = hashlib.sha256()
            for _, part in self.store.items():
                digest.update(part.encode("utf-8", "surrogatepass") + b"\0" + self.package.read_bytes(part))
            self._store_digest = digest.hexdigest()[:16]
        return Unread(
            "dataBinding", "customXml", "xml", bound.unread, self._store_digest, inside=True, paragraph=paragraph
        )

    @property
    def store(self) -> DataStore:
        if self._store is None:
            from .datastore import DataStore

            self._store = DataStore(self.package)
        return self._store

    def bound_elements(self, sdt: Any, bound: Bound) -> list[Any]:
        """The elements a block-level control bound to a rich-text value shows, built once."""
        from .chunks import paragraph_elements

        elements = self._bound_elements.get(sdt)
        if elements is None:
            elements = self._bound_elements[sdt] = paragraph_elements(bound.paragraphs or [])
        return elements
