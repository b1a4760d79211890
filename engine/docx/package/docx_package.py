"""A .docx package: the zip, its parts, relationships and content types, and atomic saving.

This layer knows zips and Open Packaging Conventions, not Word. Everything else in the docx family
reads and edits parts through it. The internal API, for readers and for the engineers adding
mutations (tracked changes, comments) and package generation (redlines):

    pkg = DocxPackage.open(path)            # InputError (exit 2) for anything that is not a .docx
    pkg = DocxPackage.from_bytes(data, name="in-memory.docx")
    pkg.main_part                           # "word/document.xml" (from the package relationships)
    pkg.has_part(name) / pkg.part_names()   # part names are zip member names, no leading "/"
    pkg.read_bytes(name)                    # current bytes of a part (serialised if edited)
    pkg.part_size(name)                     # its unpacked size, without unpacking it
    root = pkg.xml(name)                    # lxml root, parsed lazily once, through the hardened parser
    pkg.mark_dirty(name)                    # after editing the tree returned by xml(name)
    pkg.set_bytes(name, data)               # replace a part's bytes (drops a parsed tree)
    pkg.related_parts(source, rel_type)     # part names a source part points to with that type
    pkg.relationships(source)               # [Relationship(id, type, target, external)]
    pkg.relationship(source, rel_id)        # the first Relationship with that id (or None)
    pkg.resolve_target(source, rel_id)      # part name of one relationship's target
    pkg.add_part(name, content_type, data=None, root=None,
                 source=pkg.main_part, rel_type=RT.COMMENTS)  # -> relationship id (or None)
    pkg.add_relationship(source, rel_type, target_part)        # -> new rId (url=: an external one)
    pkg.content_type(name)
    pkg.version                             # short token; changes whenever any part changes
    pkg.to_bytes(); pkg.save(path=None)     # save() writes atomically: temp file + rename

Unchanged parts are written back with their exact bytes, in their original order and zip metadata;
only parts marked dirty (or set/added) are re-serialised. ``[Content_Types].xml`` and ``.rels``
parts are themselves parts: ``add_part`` and ``add_relationship`` edit and mark them.
"""

from __future__ import annotations

import io
import os
import posixpath
import zipfile
import zlib
from pathlib import Path
from typing import Any, NamedTuple

from ... import progress
from ...errors import InputError
from ...files import read_regular_file, write_atomically
from ..wml.ns import NS
from ..wml.parser import PartEncodingError, XmlError, element_tags, markup_nodes, parse_xml, serialize_xml
from . import limits, strict_ooxml

CONTENT_TYPES_PART = "[Content_Types].xml"
PACKAGE_RELS_PART = "_rels/.rels"

_CT = "{" + NS["ct"] + "}"
_PR = "{" + NS["pr"] + "}"

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")

MAIN_CONTENT_TYPES = frozenset(
    {
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        "application/vnd.ms-word.document.macroEnabled.main+xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
        "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
    }
)


class RT:
    """Relationship types (transitional OOXML)."""

    _BASE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    OFFICE_DOCUMENT = _BASE + "officeDocument"
    STYLES = _BASE + "styles"
    NUMBERING = _BASE + "numbering"
    COMMENTS = _BASE + "comments"
    HEADER = _BASE + "header"
    FOOTER = _BASE + "footer"
    FOOTNOTES = _BASE + "footnotes"
    ENDNOTES = _BASE + "endnotes"
    SETTINGS = _BASE + "settings"
    # Content of another format Word imports where a w:altChunk stands (HTML, text, a .docx...).
    AF_CHUNK = _BASE + "aFChunk"
    SUBDOCUMENT = _BASE + "subDocument"
    CUSTOM_XML = _BASE + "customXml"
    CUSTOM_XML_PROPS = _BASE + "customXmlProps"
    CORE_PROPERTIES = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
    EXTENDED_PROPERTIES = _BASE + "extended-properties"
    COMMENTS_EXTENDED = "http://schemas.microsoft.com/office/2011/relationships/commentsExtended"
    COMMENTS_IDS = "http://schemas.microsoft.com/office/2016/09/relationships/commentsIds"
    COMMENTS_EXTENSIBLE = "http://schemas.microsoft.com/office/2018/08/relationships/commentsExtensible"


class Relationship(NamedTuple):
    id: str
    type: str
    target: str
    external: bool


def rels_part_for(source: str) -> str:
    """The relationships part of ``source`` ("" is the package itself)."""
    if not source:
        return PACKAGE_RELS_PART
    folder, name = posixpath.split(source)
    return posixpath.join(folder, "_rels", name + ".rels")


def resolve_part_name(source: str, target: str) -> str:
    """The part name a relative (or absolute) relationship target points to."""
    target = target.split("#", 1)[0]
    joined = target[1:] if target.startswith("/") else posixpath.join(posixpath.dirname(source), target)
    return posixpath.normpath(joined).lstrip("/")


def relative_target(source: str, part_name: str) -> str:
    """The relative target a relationship from ``source`` to ``part_name`` should use."""
    return posixpath.relpath(part_name, posixpath.dirname(source) or ".")


class DocxPackage:
    """An opened .docx: original zip members plus whatever has been edited since."""

    def __init__(self, data: bytes, name: str, source: Path | None = None, cost: ParseCost | None = None) -> None:
        self.name = name
        self.source = source
        self._data = data
        self._zip, self._infos = _open_zip(data, name)
        self._order: list[str] = [info.filename for info in self._infos.values()]
        self._trees: dict[str, Any] = {}
        self._dirty: set[str] = set()
        self._replaced: dict[str, bytes] = {}
        self._removed: set[str] = set()
        self._version: str | None = None
        # A package embedded in another (an altChunk) spends its parent's budget.
        self._cost = cost if cost is not None else ParseCost()
        self._rel_indexes: dict[str, _RelationshipIndex] = {}
        # Strict Open XML is read through the transitional names (see strict_ooxml).
        self.strict = strict_ooxml.is_strict(self)
        self.main_part = self._find_main_part()

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> DocxPackage:
        """Read and check the file at ``path``. Raises ``InputError`` when it cannot be used."""
        path = Path(path)
        shown = str(path)
        try:
            data = read_regular_file(path, limits.MAX_PACKAGE_BYTES, subject=shown, wanted="a .docx file")
        except InputError as exc:
            if exc.code == "notAFile":  # a directory, a FIFO, a device: for callers, not a .docx
                exc.code = "notDocx"
            raise
        return cls(data, shown, source=path)

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "document.docx", *, within: DocxPackage | None = None) -> DocxPackage:
        """A package from bytes; ``within`` names the package this one is embedded in, whose parse
        budget it then shares (an embedded document cannot multiply what one file may cost)."""
        if len(data) > limits.MAX_PACKAGE_BYTES:
            raise InputError(
                f"{name} is over the {limits.MAX_PACKAGE_BYTES:,}-byte limit for a .docx.", code="tooLarge"
            )
        return cls(data, name, cost=within._cost if within is not None else None)

    def _find_main_part(self) -> str:
        if not self.has_part(PACKAGE_RELS_PART):
            raise _not_word(self.name, "it has no package relationships (_rels/.rels)")
        rels = self.relationships("")
        targets = [rel for rel in rels if rel.type == RT.OFFICE_DOCUMENT and not rel.external]
        if not targets:
            raise _not_word(self.name, "it has no main document part")
        main = resolve_part_name("", targets[0].target)
        others = sorted({resolve_part_name("", rel.target) for rel in targets} - {main})
        if others:
            # Which one another reader opens is not said anywhere: one could show what this reads not.
            raise InputError(
                f"{self.name} is damaged: it names {len(others) + 1} main document parts ({main}, "
                f"{', '.join(others[:3])}), where a .docx has one. Open and re-save it in Word, or ask for a fresh "
                "copy.",
                code="corruptPackage",
            )
        if not self.has_part(main):
            raise _not_word(self.name, f"its main document part {main} is missing")
        content_type = self.content_type(main)
        if content_type not in MAIN_CONTENT_TYPES:
            what = _describe_content_type(content_type)
            raise _not_word(self.name, f"its main part is {what}")
        return main

    # -- reading ------------------------------------------------------------------------------

    def part_names(self) -> list[str]:
        return [name for name in self._order if name not in self._removed and not name.endswith("/")]

    def has_part(self, name: str) -> bool:
        if name in self._removed:
            return False
        return name in self._replaced or name in self._trees or name in self._infos

    def read_bytes(self, name: str) -> bytes:
        """The current bytes of part ``name``."""
        if name in self._dirty and name in self._trees:
            return serialize_xml(self._trees[name])
        if name in self._replaced:
            return self._replaced[name]
        if name in self._removed or name not in self._infos:
            raise KeyError(name)
        return _read_member(self._zip, self._infos[name], self.name)

    def part_size(self, name: str) -> int:
        """The unpacked size of part ``name``, as the zip declares it (no unpacking) or as edited."""
        if name in self._dirty and name in self._trees:
            return len(self.read_bytes(name))
        if name in self._replaced:
            return len(self._replaced[name])
        info = self._infos.get(name)
        if info is None or name in self._removed:
            raise KeyError(name)
        return info.file_size

    def xml(self, name: str) -> Any:
        """The parsed root element of part ``name`` (parsed once; edits to it are kept in memory
        until saved, provided the caller calls ``mark_dirty``)."""
        tree = self._trees.get(name)
        if tree is None:
            data = self.read_bytes(name)
            try:
                self._cost.charge(self.name, name, data)
                tree = parse_xml(data)
            except PartEncodingError as exc:
                raise InputError(
                    f"{self.name} cannot be read: its part {name} is XML, but {exc}. Open and re-save it "
                    "in Word, or ask the sender for a copy saved by Word.",
                    code="corruptPackage",
                ) from None
            except XmlError as exc:
                raise InputError(
                    f"{self.name} is damaged: its part {name} is not valid XML ({exc}). "
                    "Open and re-save it in Word, or ask the sender for a fresh copy.",
                    code="corruptPackage",
                ) from None
            if self.strict:
                strict_ooxml.to_transitional(tree)
            self._trees[name] = tree
        return tree

    def charge(self, name: str, data: bytes) -> None:
        """Count ``data`` (part ``name``, about to be parsed outside ``xml``) against the
        package's parse budget (``ParseCost``); ``InputError`` when it would go over."""
        self._cost.charge(self.name, name, data)

    def charge_blocks(self, name: str, paragraphs: int, characters: int) -> None:
        """Count content built from part ``name`` without parsing it as WordprocessingML (the text
        of an embedded HTML or text file): ``paragraphs`` paragraphs of ``characters`` characters
        in all, against the same budget; ``InputError`` when it would go over."""
        self._cost.add(self.name, name, size=characters, nodes=3 * paragraphs, paragraphs=paragraphs, runs=paragraphs)

    def xml_if_present(self, name: str | None) -> Any | None:
        if name is None or not self.has_part(name):
            return None
        return self.xml(name)

    def content_type(self, name: str) -> str | None:
        root = self.xml(CONTENT_TYPES_PART) if self.has_part(CONTENT_TYPES_PART) else None
        if root is None:
            return None
        wanted = "/" + name
        for override in root.iter(_CT + "Override"):
            if (override.get("PartName") or "").lower() == wanted.lower():
                return override.get("ContentType")
        extension = posixpath.splitext(name)[1].lstrip(".").lower()
        for default in root.iter(_CT + "Default"):
            if (default.get("Extension") or "").lower() == extension:
                return default.get("ContentType")
        return None

    def relationships(self, source: str) -> list[Relationship]:
        """The relationships of ``source`` ("" for the package), in document order."""
        return list(self._relationship_index(source).all)

    def relationship(self, source: str, rel_id: str) -> Relationship | None:
        """The first relationship of ``source`` with id ``rel_id``."""
        return self._relationship_index(source).first.get(rel_id)

    def _relationship_index(self, source: str) -> _RelationshipIndex:
        """The relationships of ``source``, read once and kept until their part changes: a
        part with 400,000 relationships is looked up by id, not scanned for every reference."""
        rels_name = rels_part_for(source)
        index = self._rel_indexes.get(rels_name)
        if index is None:
            index = _RelationshipIndex([], {}, {})
            if self.has_part(rels_name):
                for rel in self.xml(rels_name).iter(_PR + "Relationship"):
                    index.add(
                        Relationship(
                            id=rel.get("Id") or "",
                            type=rel.get("Type") or "",
                            target=rel.get("Target") or "",
                            external=(rel.get("TargetMode") or "").lower() == "external",
                        )
                    )
            self._rel_indexes[rels_name] = index
        return index

    def related_parts(self, source: str, rel_type: str) -> list[str]:
        """Existing internal parts ``source`` points to with relationships of ``rel_type``."""
        names = []
        for rel in self.relationships(source):
            if rel.type == rel_type and not rel.external:
                name = resolve_part_name(source, rel.target)
                if self.has_part(name):
                    names.append(name)
        return names

    def related_part(self, source: str, rel_type: str) -> str | None:
        parts = self.related_parts(source, rel_type)
        return parts[0] if parts else None

    def resolve_target(self, source: str, rel_id: str) -> str | None:
        rel = self._relationship_index(source).first_internal.get(rel_id)
        return resolve_part_name(source, rel.target) if rel is not None else None

    @property
    def version(self) -> str:
        """A short token derived from every part's name and content: equal for equal packages,
        different as soon as any part changes. Unedited parts contribute the CRC-32 and size the
        zip records for them (checked against the data whenever the part is read), so computing
        the token does not decompress the package."""
        if self._version is None:
            summary = []
            for name in sorted(self.part_names()):
                if name in self._dirty or name in self._replaced:
                    data = self.read_bytes(name)
                    crc, size = zlib.crc32(data), len(data)
                else:
                    info = self._infos[name]
                    crc, size = info.CRC, info.file_size
                summary.append(f"{name}\0{crc:08x}\0{size}\n")
            # Two checksums of the per-part summary make a 64-bit token (no cryptography needed:
            # it tells versions apart, it does not authenticate them).
            data = "".join(summary).encode()
            self._version = f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"
        return self._version

    # -- editing ------------------------------------------------------------------------------

    def mark_dirty(self, name: str) -> None:
        """Record that the tree returned by ``xml(name)`` was edited."""
        if name not in self._trees:
            raise KeyError(f"{name} was not parsed; edit the tree returned by xml() before marking it")
        self._rel_indexes.pop(name, None)
        self._dirty.add(name)
        self._version = None

    def set_bytes(self, name: str, data: bytes) -> None:
        """Replace (or create, without content type or relationship) part ``name``."""
        self._rel_indexes.pop(name, None)
        self._replaced[name] = data
        self._trees.pop(name, None)
        self._dirty.discard(name)
        self._removed.discard(name)
        if name not in self._order:
            self._order.append(name)
        self._version = None

    def set_xml(self, name: str, root: Any) -> None:
        """Use ``root`` as the content of part ``name`` (new or existing)."""
        self._rel_indexes.pop(name, None)
        self._trees[name] = root
        self._replaced.pop(name, None)
        self._removed.discard(name)
        self._dirty.add(name)
        if name not in self._order:
            self._order.append(name)
        self._version = None

    def remove_part(self, name: str) -> None:
        """Drop a part (its relationships and content-type override are the caller's business)."""
        self._rel_indexes.pop(name, None)
        self._removed.add(name)
        self._trees.pop(name, None)
        self._dirty.discard(name)
        self._replaced.pop(name, None)
        self._version = None

    @property
    def is_dirty(self) -> bool:
        return bool(self._dirty or self._replaced or self._removed)

    def add_part(
        self,
        name: str,
        content_type: str,
        *,
        data: bytes | None = None,
        root: Any = None,
        source: str | None = None,
        rel_type: str | None = None,
    ) -> str | None:
        """Add a new part with its content-type override, and (when ``source`` and ``rel_type``
        are given) a relationship from ``source`` to it. Returns the new relationship id."""
        if self.has_part(name):
            raise ValueError(f"part {name} already exists")
        if (data is None) == (root is None):
            raise ValueError("give exactly one of data or root")
        if root is not None:
            self.set_xml(name, root)
        else:
            self.set_bytes(name, data or b"")
        self._set_override(name, content_type)
        if source is not None and rel_type is not None:
            return self.add_relationship(source, rel_type, name)
        return None

    def add_relationship(
        self,
        source: str,
        rel_type: str,
        target_part: str | None = None,
        *,
        url: str | None = None,
        wanted: str | None = None,
    ) -> str:
        """Add a relationship from ``source`` to ``target_part`` (internal) or to ``url``
        (external); returns its id: ``wanted`` when it is free, else the first free ``rIdN``."""
        from lxml import etree

        rels_name = rels_part_for(source)
        index = self._relationship_index(source)
        if self.has_part(rels_name):
            root = self.xml(rels_name)
        else:
            root = etree.Element(_PR + "Relationships", nsmap={None: NS["pr"]})
            self.set_xml(rels_name, root)
            self._ensure_default("rels", "application/vnd.openxmlformats-package.relationships+xml")
        taken = index.first
        if wanted and wanted not in taken:
            rel_id = wanted
        else:
            number = len(taken) + 1
            while f"rId{number}" in taken:
                number += 1
            rel_id = f"rId{number}"
        target = url if url is not None else relative_target(source, target_part or "")
        attributes = {"Id": rel_id, "Type": rel_type, "Target": target}
        if url is not None:
            attributes["TargetMode"] = "External"
        etree.SubElement(root, _PR + "Relationship", attributes)
        self.mark_dirty(rels_name)
        index.add(Relationship(rel_id, rel_type, target, url is not None))
        self._rel_indexes[rels_name] = index  # kept up to date rather than read again
        return rel_id

    def _set_override(self, name: str, content_type: str) -> None:
        from lxml import etree

        root = self.xml(CONTENT_TYPES_PART)
        wanted = "/" + name
        for override in root.iter(_CT + "Override"):
            if (override.get("PartName") or "").lower() == wanted.lower():
                override.set("ContentType", content_type)
                break
        else:
            etree.SubElement(root, _CT + "Override", PartName=wanted, ContentType=content_type)
        self.mark_dirty(CONTENT_TYPES_PART)

    def _ensure_default(self, extension: str, content_type: str) -> None:
        from lxml import etree

        root = self.xml(CONTENT_TYPES_PART)
        for default in root.iter(_CT + "Default"):
            if (default.get("Extension") or "").lower() == extension:
                return
        element = etree.Element(_CT + "Default", Extension=extension, ContentType=content_type)
        root.insert(0, element)
        self.mark_dirty(CONTENT_TYPES_PART)

    # -- saving -------------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The package as .docx bytes. Without edits these are the original file's bytes."""
        if not self.is_dirty:
            return self._data
        strict_ooxml.refuse_writing(self)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for name in self._order:
                if name in self._removed:
                    continue
                original = self._infos.get(name)
                if name.endswith("/"):
                    if original is not None:
                        zf.writestr(original, b"")
                    continue
                data = self.read_bytes(name)
                if original is not None:
                    info = zipfile.ZipInfo(name, date_time=original.date_time)
                    info.compress_type = original.compress_type
                    info.external_attr = original.external_attr
                    info.create_system = original.create_system
                else:
                    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                    info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, data)
        return out.getvalue()

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Write the package to ``path`` (default: the file it came from) atomically: the bytes
        go to a temporary file in the same folder, which then replaces the target in one rename.
        A failure leaves the target untouched."""
        target = Path(path) if path is not None else self.source
        if target is None:
            raise ValueError("this package was not opened from a file; give a path to save it")
        with progress.phase(f"writing {target.name}"):
            data = self.to_bytes()
            write_atomically(target, data)
        return target


class _RelationshipIndex(NamedTuple):
    all: list[Relationship]  # in document order
    first: dict[str, Relationship]  # by id, the first of each
    first_internal: dict[str, Relationship]  # by id, the first internal one of each

    def add(self, rel: Relationship) -> None:
        self.all.append(rel)
        self.first.setdefault(rel.id, rel)
        if not rel.external:
            self.first_internal.setdefault(rel.id, rel)


class ParseCost:
    """What the parts parsed so far cost, against the package's budget (``limits``), counted on
    each part's bytes before it is parsed, so that an over-budget part is never built."""

    def __init__(self) -> None:
        self.bytes = self.nodes = self.paragraphs = self.runs = 0

    def charge(self, package: str, part: str, data: bytes) -> None:
        if self.bytes + len(data) > limits.MAX_XML_BYTES:
            raise _too_costly(package, part, f"more than {limits.MAX_XML_BYTES:,} bytes of XML", "MAX_XML_BYTES")
        nodes = markup_nodes(data)
        if self.nodes + nodes > limits.MAX_XML_NODES:
            what = f"more than {limits.MAX_XML_NODES:,} XML elements and attributes"
            raise _too_costly(package, part, what, "MAX_XML_NODES")
        paragraphs = element_tags(data, "p", limits.MAX_PARAGRAPHS - self.paragraphs)
        runs = element_tags(data, "r", limits.MAX_RUNS - self.runs)
        self.add(package, part, size=len(data), nodes=nodes, paragraphs=paragraphs, runs=runs)

    def add(self, package: str, part: str, *, size: int, nodes: int, paragraphs: int, runs: int) -> None:
        """Add one part's cost, or raise without adding any of it: a part refused on its own (an
        embedded file over the budget, which is then reported unread) leaves the budget as it was
        for the parts read after it."""
        if self.bytes + size > limits.MAX_XML_BYTES:
            raise _too_costly(package, part, f"more than {limits.MAX_XML_BYTES:,} bytes of XML", "MAX_XML_BYTES")
        if self.nodes + nodes > limits.MAX_XML_NODES:
            what = f"more than {limits.MAX_XML_NODES:,} XML elements and attributes"
            raise _too_costly(package, part, what, "MAX_XML_NODES")
        if self.paragraphs + paragraphs > limits.MAX_PARAGRAPHS:
            raise _too_costly(package, part, f"more than {limits.MAX_PARAGRAPHS:,} paragraphs", "MAX_PARAGRAPHS")
        if self.runs + runs > limits.MAX_RUNS:
            raise _too_costly(package, part, f"more than {limits.MAX_RUNS:,} runs of text", "MAX_RUNS")
        self.bytes += size
        self.nodes += nodes
        self.paragraphs += paragraphs
        self.runs += runs


def _too_costly(package: str, part: str, what: str, limit: str) -> InputError:
    return InputError(
        f"{package} is too costly to process: it holds {what} (counted up to its part {part}), the most "
        "deskcheck handles in one document so that a crafted file cannot exhaust memory or time. Split the "
        f"document, or raise the limit for one run with DESKCHECK_{limit} if you trust the file.",
        code="tooLarge",
    )


def _not_word(name: str, why: str) -> InputError:
    return InputError(
        f"{name} is not a Word document: {why}. Give a .docx file saved by Word or a compatible editor.", code="notDocx"
    )


def _describe_content_type(content_type: str | None) -> str:
    if content_type is None:
        return "of no declared type"
    if "spreadsheetml" in content_type:
        return "an Excel workbook"
    if "presentationml" in content_type:
        return "a PowerPoint presentation"
    return f"of type {content_type}"


def _open_zip(data: bytes, name: str) -> tuple[zipfile.ZipFile, dict[str, zipfile.ZipInfo]]:
    head = data[:8]
    if head.startswith(OLE_MAGIC):
        if "EncryptionInfo".encode("utf-16-le") in data or b"E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P" in data:
            raise InputError(
                f"{name} is encrypted (password-protected), so its content cannot be read. Remove the "
                "password in Word (File > Info > Protect Document > Encrypt with Password, clear it), "
                "save, and try again.",
                code="encrypted",
            )
        raise InputError(
            f"{name} is an old binary Office file (such as a Word 97-2003 .doc), not a .docx; "
            "open it in Word and save it as Word Document (.docx).",
            code="notDocx",
        )
    if not head.startswith(ZIP_MAGICS):
        if head.lstrip().startswith(b"{\\rtf"):
            raise _not_word(name, "it is an RTF file")
        if not data:
            raise _not_word(name, "the file is empty")
        raise _not_word(name, "it is not a zip package")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos_list = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise InputError(
            f"{name} is damaged: its zip structure cannot be read ({exc}). Ask for a fresh copy.",
            code="corruptPackage",
        ) from None
    if len(infos_list) > limits.MAX_MEMBERS:
        raise InputError(
            f"{name} holds {len(infos_list):,} zip members, over the limit of {limits.MAX_MEMBERS:,}; "
            "it is not a document deskcheck will open.",
            code="tooLarge",
        )
    infos: dict[str, zipfile.ZipInfo] = {}
    # Part names are the same part whatever their case (ECMA-376 Part 2, 8.1.1.1): two spellings
    # of one name are two versions of one part, and which one another reader shows is unknown.
    folded: dict[str, str] = {}
    total = 0
    for info in infos_list:
        first = folded.setdefault(info.filename.lower(), info.filename)
        if info.filename in infos or first != info.filename:
            spelled = (
                "" if first == info.filename else f", also spelled {info.filename} (case does not make a new part)"
            )
            raise InputError(f"{name} is damaged: the zip holds {first} twice{spelled}.", code="corruptPackage")
        if info.flag_bits & 0x1:
            raise InputError(
                f"{name} has zip-encrypted members, which a .docx never has; it cannot be read.", code="encrypted"
            )
        if info.file_size > limits.MAX_MEMBER_BYTES:
            raise InputError(
                f"{name}: the part {info.filename} unpacks to {info.file_size:,} bytes, over the "
                f"{limits.MAX_MEMBER_BYTES:,}-byte limit.",
                code="tooLarge",
            )
        if info.file_size >= limits.RATIO_CHECK_FROM_BYTES and info.file_size > limits.MAX_COMPRESSION_RATIO * max(
            info.compress_size, 1
        ):
            raise InputError(
                f"{name}: the part {info.filename} is compressed more than {limits.MAX_COMPRESSION_RATIO}:1, "
                "which only zip bombs do; refusing to unpack it.",
                code="tooLarge",
            )
        total += info.file_size
        infos[info.filename] = info
    if total > limits.MAX_TOTAL_BYTES:
        raise InputError(
            f"{name} unpacks to {total:,} bytes, over the {limits.MAX_TOTAL_BYTES:,}-byte limit.", code="tooLarge"
        )
    return archive, infos


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> bytes:
    """Read one member, never more than it declared (a lying header cannot inflate it further)."""
    try:
        with archive.open(info) as handle:
            data = handle.read(info.file_size + 1)
    except (zipfile.BadZipFile, zlib.error, OSError, NotImplementedError, EOFError) as exc:
        raise InputError(
            f"{name} is damaged: its part {info.filename} cannot be unpacked ({exc}). Ask for a fresh copy.",
            code="corruptPackage",
        ) from None
    if len(data) > info.file_size:
        raise InputError(
            f"{name} is damaged: its part {info.filename} holds more data than the zip declares.",
            code="corruptPackage",
        )
    return data
