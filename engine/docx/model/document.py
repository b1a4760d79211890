"""A parsed Word document: the package plus the block model and the stories around it.

``DocxDocument`` is the object every docx tool works on::

    doc = load_document(path)        # cached per process; reloaded when the file changes on disk
    doc.version                      # documentVersion: changes whenever any part changes
    doc.blocks / doc.block(id)       # main-story blocks (see ``blocks``)
    doc.styles / doc.numbering       # parsed styles.xml / numbering.xml helpers
    doc.stories()                    # headers, footers, footnotes, endnotes (see ``stories``)
    doc.walk_main(markers=True)      # walked paragraphs with comment markers, for comments
    doc.scan_context(part)           # how to read a story part: styles, imported chunks, bindings
    doc.unread()                     # content the reading left unread (see ``display``), as JSON
    doc.invalidate()                 # after editing parts: blocks are rebuilt on next access
    doc.save(path=None)              # writes minted paragraph ids, then saves atomically

Mutating code edits ``doc.package.xml(name)`` trees, calls ``doc.package.mark_dirty(name)`` and
``doc.invalidate()``, then ``doc.save()``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ... import progress
from ...errors import InputError
from ..package.docx_package import RT, DocxPackage
from ..package.integrity import check_document_parts
from ..wml.edit import ensure_root_namespaces
from ..wml.ns import W14_PARAID, W14_TEXTID, W_ALTCHUNK, W_BODY, W_DATABINDING, W_P, W_SUBDOC
from .blocks import Block, ParagraphIds, assign_ids, build_blocks
from .display import Display, Unread
from .numbering import Numbering
from .scan import ScanContext
from .stories import Story, list_stories, story_parts
from .styles import Styles
from .walk import WalkedParagraph, walk_story


class DocxDocument:
    def __init__(self, package: DocxPackage, depth: int = 0) -> None:
        # Every tool refuses a package with a damaged part, not only the tools reading that part.
        check_document_parts(package)
        self.package = package
        self.depth = depth  # how deep inside imported documents this one sits (0: the file itself)
        self._display: Display | None = None
        self._main_unread: list[Unread] = []
        self._styles: Styles | None = None
        self._numbering: Numbering | None = None
        self._blocks: list[Block] | None = None
        self._by_id: dict[str, Block] | None = None
        self._ids: ParagraphIds | None = None
        self._walked: list[WalkedParagraph] | None = None

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> DocxDocument:
        return cls(DocxPackage.open(path))

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "document.docx") -> DocxDocument:
        return cls(DocxPackage.from_bytes(data, name))

    @property
    def name(self) -> str:
        return self.package.name

    @property
    def version(self) -> str:
        return self.package.version

    @property
    def main_part(self) -> str:
        return self.package.main_part

    @property
    def body(self) -> Any:
        root = self.package.xml(self.main_part)
        body = root.find(W_BODY)
        if body is None:
            raise InputError(f"{self.name} is not a Word document: its main part has no body.", code="notDocx")
        return body

    @property
    def styles(self) -> Styles:
        if self._styles is None:
            self._styles = Styles(self.package.xml_if_present(self.package.related_part(self.main_part, RT.STYLES)))
        return self._styles

    def new_numbering(self) -> Numbering:
        """Numbering definitions with fresh counters (one pass through a story)."""
        part = self.package.related_part(self.main_part, RT.NUMBERING)
        return Numbering(self.package.xml_if_present(part), self.styles)

    @property
    def display(self) -> Display:
        if self._display is None:
            self._display = Display(self.package, self.depth)
        return self._display

    def scan_context(self, part: str, *, markers: bool = False) -> ScanContext:
        """How to read story part ``part``: its styles, and what the document shows there beyond
        its runs (imported chunks, data-bound values)."""
        return ScanContext(self.styles, markers=markers, display=self.display, part=part)

    def walk_main(self, *, markers: bool = False) -> list[WalkedParagraph]:
        if not markers and self._walked is not None:
            return self._walked
        ctx = self.scan_context(self.main_part, markers=markers)
        walked = walk_story(self.body, ctx)
        if not markers:
            self._walked = walked
            self._main_unread = ctx.unread
        return walked

    def unread_entries(self) -> list[Unread]:
        """What reading the main story, then each other story, left unread."""
        return [entry for _, entry in self._unread_by_story()]

    def unread(self) -> list[dict[str, Any]]:
        """Content left unread (see ``display``), each entry with the story and the place it
        stands (after which block of the main text, or after how many paragraphs of another
        story), what it is and why it was not read."""
        return [self._unread_json(entry, handle) for handle, entry in self._unread_by_story()]

    def _unread_by_story(self) -> list[tuple[dict[str, Any], Unread]]:
        self.walk_main()
        out: list[tuple[dict[str, Any], Unread]] = [({"type": "main"}, entry) for entry in self._main_unread]
        # Only the stories of parts holding a chunk, a subdocument or a data binding are walked again.
        walked_again = (W_ALTCHUNK, W_SUBDOC, W_DATABINDING)
        holding = {part for part in story_parts(self)[1:]
                   if next(self.package.xml(part).iter(*walked_again), None) is not None}  # fmt: skip
        for story in self.stories() if holding else ():
            if story.part in holding:
                ctx = self.scan_context(story.part)
                walk_story(story.container, ctx)
                out.extend((story.handle, entry) for entry in ctx.unread)
        return out

    def _unread_json(self, entry: Unread, handle: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"story": handle}
        if handle["type"] == "main":
            block_id = self.paragraph_ids.ids[entry.position - 1] if entry.position else None
            out["inBlockId" if entry.inside else "afterBlockId"] = block_id
        else:
            out["inParagraph" if entry.inside else "afterParagraph"] = entry.position
        out.update(kind=entry.kind, part=entry.part, format=entry.format, reason=entry.reason)
        if entry.digest:
            out["contentHash"] = entry.digest
        return out

    @property
    def paragraph_ids(self) -> ParagraphIds:
        if self._ids is None:
            self._ids = assign_ids(self.walk_main())
        return self._ids

    @property
    def blocks(self) -> list[Block]:
        if self._blocks is None:
            with progress.phase(f"reading the paragraphs of {Path(self.name).name}"):
                walked = self.walk_main()
                self._blocks = build_blocks(walked, self.paragraph_ids.ids, self.styles, self.new_numbering())
        return self._blocks

    def block(self, block_id: str) -> Block | None:
        if self._by_id is None:
            self._by_id = {block.id: block for block in self.blocks}
        return self._by_id.get(block_id)

    def id_of_paragraph(self, p: Any) -> str | None:
        """The id of any walked main-story paragraph (hidden-row paragraphs included)."""
        for walked, pid in zip(self.walk_main(), self.paragraph_ids.ids, strict=True):
            if walked.element is p:
                return pid
        return None

    def stories(self) -> list[Story]:
        return list_stories(self)

    def invalidate(self) -> None:
        """Forget everything derived from the parts (after an edit)."""
        self._styles = None
        self._blocks = None
        self._by_id = None
        self._ids = None
        self._walked = None
        self._display = None
        self._main_unread = []

    def stamp_minted_ids(self) -> int:
        """Write minted ids into their paragraphs (``w14:paraId``, and ``w14:textId`` when
        missing), declaring the w14 namespace as ignorable when the part lacks it. Returns the
        number of paragraphs stamped."""
        minted = self.paragraph_ids.minted
        if not minted:
            return 0
        main = self.main_part
        root = self.package.xml(main)
        new_root = ensure_root_namespaces(root, ("w14",), ignorable=("w14",))
        if new_root is not root:
            self.package.set_xml(main, new_root)
        for p, block_id in minted.items():
            if p.tag != W_P:
                continue
            p.set(W14_PARAID, block_id)
            if p.get(W14_TEXTID) is None:
                p.set(W14_TEXTID, block_id)
        self.package.mark_dirty(main)
        count = len(minted)
        minted.clear()
        return count

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Stamp minted ids (only when something else changed: a no-op save writes nothing new)
        and save the package atomically."""
        if self.package.is_dirty:
            self.stamp_minted_ids()
        return self.package.save(path)


# -- per-process cache -----------------------------------------------------------------------

_CACHE: dict[str, tuple[tuple[int, int, int], DocxDocument]] = {}


def load_document(path: str | os.PathLike[str]) -> DocxDocument:
    """The document at ``path``, parsed once per process and reused until the file changes on
    disk (size, modification time or inode)."""
    file = Path(path)
    try:
        stat = file.stat()
    except FileNotFoundError:
        raise InputError(f"{path} does not exist; check the path.", code="missingFile") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}.", code="unreadableFile") from None
    key = str(file.resolve())
    signature = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] == signature:
        return cached[1]
    document = DocxDocument.open(file)
    _CACHE[key] = (signature, document)
    return document


def forget_document(path: str | os.PathLike[str]) -> None:
    """Drop a cached document (after writing it, or when a caller edited it in memory)."""
    _CACHE.pop(str(Path(path).resolve()), None)
