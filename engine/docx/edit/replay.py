"""The record of applied operation ids, kept inside the .docx so replay works across processes.

An operation id names one operation for the whole document. When an operation is applied, its id
and a fingerprint of its content (type and fields, not the id) are written to a custom XML part
(``customXml/itemN.xml``, root ``<ops:appliedOperations xmlns:ops="urn:deskcheck:operations:1">``,
with its ``itemProps`` part). Custom XML parts are the package's standard place for data of
other applications: Word keeps them when it saves the document.

A later call that sends the same id with the same content gets it back under ``replayed`` and
nothing is applied twice; the same id with different content fails the call.

The record travels inside a document anyone may have written, and its fingerprint is a plain
hash anyone can compute, so an entry is believed only as far as the document bears it out
(issue 26 item 4a). Each entry also lists the evidence the operation left (``marks``): the
tracked changes it made (their ids, under its date) and the comments it anchored, or, for an
edit made without tracked changes, a digest of the blocks it changed as it left them. An entry
whose evidence is not all in the document is *unverified*: the same operation again is skipped
with ``replayUnverified`` (neither reported as done nor applied a second time); a different
operation under that id is not a conflict and is applied.
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from ..wml.ns import W_AUTHOR, W_COMMENTRANGESTART, W_COMMENTREFERENCE, W_DATE, W_ID, qn
from .limits import MAX_REPLAY_RECORDS

if TYPE_CHECKING:
    from ..model.document import DocxDocument
    from .spec import Operation

NAMESPACE = "urn:deskcheck:operations:1"
_OPS = "{" + NAMESPACE + "}"
_W_COMMENT = qn("w:comment")  # a comment carries an id, an author and a date too
DS = "http://schemas.openxmlformats.org/officeDocument/2006/customXml"
RT_CUSTOM_XML = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml"
RT_CUSTOM_XML_PROPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps"
CT_CUSTOM_XML_PROPS = "application/vnd.openxmlformats-officedocument.customXmlProperties+xml"
CT_XML = "application/xml"


def fingerprint(op: Operation) -> str:
    """A digest of what the operation does (its type and fields; not its id)."""
    canonical = json.dumps({"type": op.type, "fields": op.fields}, sort_keys=True, ensure_ascii=False)
    return _sha256()(canonical.encode("utf-8")).hexdigest()[:32]


@cache
def _sha256():
    """SHA-256 from CPython's built-in module when there is one: importing hashlib loads OpenSSL,
    3-5 ms of every suggest_changes process for a digest the built-in computes alike."""
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:
        try:
            from _sha2 import sha256  # Python 3.12 and later
        except ImportError:
            from hashlib import sha256
    return sha256


class Recorded(NamedTuple):
    fingerprint: str
    verified: bool  # its evidence is all in the document


class ReplayRecord:
    def __init__(self, doc: DocxDocument) -> None:
        self.doc = doc
        self.part: str | None = None
        self.root: Any = None
        self._elements: dict[str, Any] = {}
        self._marks: set[str] | None = None
        package = doc.package
        for name in package.related_parts(doc.main_part, RT_CUSTOM_XML):
            root = package.xml_if_present(name)
            if root is not None and root.tag == _OPS + "appliedOperations":
                self.part, self.root = name, root
                for entry in root.iter(_OPS + "op"):
                    op_id, digest = entry.get("id"), entry.get("fingerprint")
                    if op_id and digest:
                        self._elements[op_id] = entry
                break

    def lookup(self, op_id: str) -> Recorded | None:
        entry = self._elements.get(op_id)
        if entry is None:
            return None
        return Recorded(entry.get("fingerprint"), self._verified(entry))

    def _verified(self, entry: Any) -> bool:
        evidence = (entry.get("marks") or "").split()
        if not evidence:
            return False  # written before evidence was kept, or not by deskcheck
        if self._marks is None:
            self._marks = document_marks(self.doc)
        at = entry.get("at") or ""
        for item in evidence:
            kind, _, value = item.partition(":")
            if kind == "b":
                if value != blocks_digest(self.doc, (entry.get("blocks") or "").split()):
                    return False
            elif f"{kind}:{value}@{at if kind == 'r' else ''}" not in self._marks:
                return False
        return True

    def add(self, operations: list[Operation], date: str, evidence: dict[int, tuple[list[str], list[str]]]) -> None:
        """Record applied operations (written into the package now; saved with it) with the
        evidence each left: ``evidence[op.index]`` is its marks and the blocks it changed."""
        if not operations:
            return
        if self.root is None:
            self._create()
        for op in operations:
            marks, blocks = evidence.get(op.index, ([], []))
            attributes = {"id": op.id, "fingerprint": fingerprint(op), "at": date, "marks": " ".join(marks)}
            if blocks:
                attributes["blocks"] = " ".join(blocks)
            stale = self._elements.pop(op.id, None)
            if stale is not None:  # an unverified entry the new operation replaces
                self.root.remove(stale)
            element = self.root.makeelement(_OPS + "op", attributes)
            self.root.append(element)
            self._elements[op.id] = element
        excess = len(self.root) - MAX_REPLAY_RECORDS
        for entry in list(self.root)[: max(excess, 0)]:
            self.root.remove(entry)
        self.doc.package.mark_dirty(self.part)

    def _create(self) -> None:
        from lxml import etree

        package = self.doc.package
        number = 1
        while package.has_part(f"customXml/item{number}.xml") or package.has_part(f"customXml/itemProps{number}.xml"):
            number += 1
        item, props = f"customXml/item{number}.xml", f"customXml/itemProps{number}.xml"
        root = etree.Element(_OPS + "appliedOperations", nsmap={"ops": NAMESPACE})
        package.add_part(item, CT_XML, root=root, source=self.doc.main_part, rel_type=RT_CUSTOM_XML)
        store = etree.Element(f"{{{DS}}}datastoreItem", nsmap={"ds": DS})
        store.set(f"{{{DS}}}itemID", "{" + _guid() + "}")
        refs = etree.SubElement(store, f"{{{DS}}}schemaRefs")
        etree.SubElement(refs, f"{{{DS}}}schemaRef").set(f"{{{DS}}}uri", NAMESPACE)
        package.add_part(props, CT_CUSTOM_XML_PROPS, root=store, source=item, rel_type=RT_CUSTOM_XML_PROPS)
        self.part, self.root = item, root


def document_marks(doc: DocxDocument) -> set[str]:
    """Every mark an operation can leave, as evidence strings: ``r:ID@DATE`` for a tracked change
    (any element with an id and a date), ``c:ID@`` for an anchored comment. Operations edit the
    main text only, so only the main text is searched: a header or a note holding a change with a
    recorded id and date (both are in the record, for anyone to copy) bears out nothing."""
    found: set[str] = set()
    for element in doc.package.xml(doc.main_part).iter():
        ident = element.get(W_ID)
        if ident is None:
            continue
        if element.tag in (W_COMMENTRANGESTART, W_COMMENTREFERENCE):
            found.add(f"c:{ident}@")
        elif element.tag != _W_COMMENT and element.get(W_DATE) is not None and element.get(W_AUTHOR) is not None:
            found.add(f"r:{ident}@{element.get(W_DATE)}")
    return found


def blocks_digest(doc: DocxDocument, block_ids: list[str]) -> str:
    """A digest of the blocks ``block_ids`` as they are now (their markup; "-" for one gone)."""
    from lxml import etree

    digest = _sha256()()
    for block_id in block_ids:
        block = doc.block(block_id)
        digest.update(b"-" if block is None else etree.tostring(block.element))
        digest.update(b"\x00")
    return digest.hexdigest()[:32]


def _guid() -> str:
    """A random GUID in the registry form Word writes (uuid would import platform: ~10 ms)."""
    import os

    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # RFC 4122 variant
    digits = raw.hex().upper()
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"
