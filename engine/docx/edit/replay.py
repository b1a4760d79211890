"""The record of applied operation ids, kept inside the .docx so replay works across processes.

An operation id names one operation for the whole document. When an operation is applied, its id
and a fingerprint of its content (type and fields, not the id) are written to a custom XML part
(``customXml/itemN.xml``, root ``<ops:appliedOperations xmlns:ops="urn:deskcheck:operations:1">``,
with its ``itemProps`` part). Custom XML parts are the package's standard place for data of
other applications: Word keeps them when it saves the document.

A later call that sends the same id with the same content gets it back under ``replayed`` and
nothing is applied twice; the same id with different content fails the call.
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from .limits import MAX_REPLAY_RECORDS

if TYPE_CHECKING:
    from ..model.document import DocxDocument
    from .spec import Operation

NAMESPACE = "urn:deskcheck:operations:1"
_OPS = "{" + NAMESPACE + "}"
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


class ReplayRecord:
    def __init__(self, doc: DocxDocument) -> None:
        self.doc = doc
        self.part: str | None = None
        self.root: Any = None
        self.entries: dict[str, str] = {}
        package = doc.package
        for name in package.related_parts(doc.main_part, RT_CUSTOM_XML):
            root = package.xml_if_present(name)
            if root is not None and root.tag == _OPS + "appliedOperations":
                self.part, self.root = name, root
                for entry in root.iter(_OPS + "op"):
                    op_id, digest = entry.get("id"), entry.get("fingerprint")
                    if op_id and digest:
                        self.entries[op_id] = digest
                break

    def lookup(self, op_id: str) -> str | None:
        return self.entries.get(op_id)

    def add(self, operations: list[Operation], date: str) -> None:
        """Record applied operations (written into the package now; saved with it)."""
        if not operations:
            return
        if self.root is None:
            self._create()
        for op in operations:
            digest = fingerprint(op)
            self.entries[op.id] = digest
            self.root.append(self.root.makeelement(_OPS + "op", {"id": op.id, "fingerprint": digest, "at": date}))
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


def _guid() -> str:
    """A random GUID in the registry form Word writes (uuid would import platform: ~10 ms)."""
    import os

    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # RFC 4122 variant
    digits = raw.hex().upper()
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"
