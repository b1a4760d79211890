"""Package metadata that can identify people or machines, reported and optionally removed.

A .docx carries more than its text. ``metadata_report(package)`` lists what a generated document
would pass on, by category (the transform that removes it):

- ``remove-attribution``: core ``creator`` and ``lastModifiedBy``; extended ``Company`` and
  ``Manager``;
- ``remove-timestamps``: core ``created``, ``modified`` and ``lastPrinted``; extended
  ``TotalTime`` (minutes spent editing);
- ``remove-descriptive-metadata``: core ``title``, ``subject``, ``keywords``, ``description``,
  ``category`` and ``contentStatus``;
- ``remove-revision-ids``: revision session ids (``w:rsids`` in the settings and every ``w:rsid*``
  attribute, which tie edits to editing sessions), the document ids Word keeps in the settings
  (``w14:docId``, ``w15:docId``) and the core ``revision`` counter;
- ``remove-template``: the attached template (its path often names the user's folders) and the
  extended ``Template``;
- ``remove-custom-properties``: every custom document property.

``scrub_metadata(package, transforms)`` removes the listed categories in place and returns the
report of what was removed and what was kept. Empty elements count as absent. Parts other than
those holding the removed items are left byte for byte.
"""

from __future__ import annotations

from typing import Any

from ...errors import DeskcheckError
from ..wml.ns import NS, RSID_PREFIX, qn
from .docx_package import DocxPackage, resolve_part_name

TRANSFORMS = (
    "remove-attribution",
    "remove-timestamps",
    "remove-descriptive-metadata",
    "remove-revision-ids",
    "remove-template",
    "remove-custom-properties",
)

CORE_PROPERTIES = ("title", "subject", "creator", "keywords", "description", "lastModifiedBy", "revision", "created",
                   "modified")  # fmt: skip

_CP = "http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
_DC = "http://purl.org/dc/elements/1.1/"
_DCTERMS = "http://purl.org/dc/terms/"
_EP = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"
_CUSTOM = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
_REL_CORE = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
_REL_APP = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties"
_REL_CUSTOM = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties"
_REL_SETTINGS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings"
_REL_TEMPLATE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate"

# (element, category) of the core properties part, in the order they are reported.
_CORE = (
    (f"{{{_DC}}}title", "title", "remove-descriptive-metadata"),
    (f"{{{_DC}}}subject", "subject", "remove-descriptive-metadata"),
    (f"{{{_DC}}}creator", "creator", "remove-attribution"),
    (f"{{{_CP}}}keywords", "keywords", "remove-descriptive-metadata"),
    (f"{{{_DC}}}description", "description", "remove-descriptive-metadata"),
    (f"{{{_CP}}}lastModifiedBy", "lastModifiedBy", "remove-attribution"),
    (f"{{{_CP}}}revision", "revision", "remove-revision-ids"),
    (f"{{{_DCTERMS}}}created", "created", "remove-timestamps"),
    (f"{{{_DCTERMS}}}modified", "modified", "remove-timestamps"),
    (f"{{{_CP}}}lastPrinted", "lastPrinted", "remove-timestamps"),
    (f"{{{_CP}}}category", "category", "remove-descriptive-metadata"),
    (f"{{{_CP}}}contentStatus", "contentStatus", "remove-descriptive-metadata"),
)
_APP = (
    ("Company", "remove-attribution"),
    ("Manager", "remove-attribution"),
    ("TotalTime", "remove-timestamps"),
    ("Template", "remove-template"),
)
_DOC_IDS = (qn("w14:docId"), qn("w15:docId"))
_HAS_RSIDS = "boolean(//@*[namespace-uri() = $w and starts-with(local-name(), 'rsid')])"
_WITH_RSIDS = "//*[@*[namespace-uri() = $w and starts-with(local-name(), 'rsid')]]"
# Core properties parts are small; a huge one is not something to parse (a reference-system limit).
MAX_CORE_BYTES = 1024 * 1024


def check_transforms(transforms: Any) -> tuple[str, ...]:
    """The transforms in canonical order; ``DeskcheckError`` for anything unknown."""
    if transforms is None:
        return ()
    if isinstance(transforms, str) or not isinstance(transforms, (list, tuple)):
        raise DeskcheckError(f"privacy transforms must be a list of {', '.join(TRANSFORMS)}.", code="invalidArguments")
    unknown = [t for t in transforms if t not in TRANSFORMS]
    if unknown:
        raise DeskcheckError(
            f"unknown privacy transform {', '.join(map(repr, unknown))}; use any of {', '.join(TRANSFORMS)}.",
            code="invalidArguments",
        )
    return tuple(t for t in TRANSFORMS if t in transforms)


def _package_part(package: DocxPackage, rel_type: str) -> str | None:
    for rel in package.relationships(""):
        if rel.type == rel_type and not rel.external:
            name = resolve_part_name("", rel.target)
            if package.has_part(name):
                return name
            # Some writers get the case of the part name wrong; zip names are case-sensitive.
            for existing in package.part_names():
                if existing.lower() == name.lower():
                    return existing
    return None


def _core_root(package: DocxPackage) -> tuple[str | None, Any]:
    part = _package_part(package, _REL_CORE)
    if part is None:
        return None, None
    if len(package.read_bytes(part)) > MAX_CORE_BYTES:
        raise DeskcheckError(
            f"{package.name}: its core properties part is over {MAX_CORE_BYTES:,} bytes; it is not read.",
            code="coreTooLarge",
        )
    return part, package.xml(part)


def core_properties(package: DocxPackage) -> dict[str, str | None]:
    """The core properties folio compares (empty ones as None)."""
    _, root = _core_root(package)
    values: dict[str, str | None] = dict.fromkeys(CORE_PROPERTIES)
    if root is None:
        return values
    for tag, name, _ in _CORE:
        if name in values:
            element = root.find(tag)
            text = (element.text or "").strip() if element is not None else ""
            values[name] = text or None
    return values


class _Item:
    __slots__ = ("category", "element", "name", "part", "remove", "value")

    def __init__(self, name: str, part: str, category: str, value: str, element: Any, remove) -> None:
        self.name = name
        self.part = part
        self.category = category
        self.value = value
        self.element = element
        self.remove = remove  # callable doing the removal

    def json(self, *, with_value: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"item": self.name, "part": self.part, "category": self.category}
        if with_value:
            out["value"] = self.value
        return out


def _detach(element: Any) -> None:
    parent = element.getparent()
    if parent is not None:
        parent.remove(element)


def _items(package: DocxPackage, story_parts: list[str]) -> list[_Item]:
    items: list[_Item] = []
    part, root = _core_root(package)
    if root is not None:
        for tag, name, category in _CORE:
            for element in root.findall(tag):
                text = (element.text or "").strip()
                if text:
                    items.append(_Item(name, part, category, text, element, lambda e=element: _detach(e)))
    app = _package_part(package, _REL_APP)
    if app is not None:
        app_root = package.xml(app)
        for name, category in _APP:
            for element in app_root.findall(f"{{{_EP}}}{name}"):
                text = (element.text or "").strip()
                if text:
                    items.append(_Item(name, app, category, text, element, lambda e=element: _detach(e)))
    custom = _package_part(package, _REL_CUSTOM)
    if custom is not None:
        for element in package.xml(custom).findall(f"{{{_CUSTOM}}}property"):
            value = "".join(element.itertext()).strip()
            name = element.get("name") or "(unnamed)"
            items.append(
                _Item(
                    f"custom:{name}", custom, "remove-custom-properties", value, element, lambda e=element: _detach(e)
                )
            )
    settings = package.related_part(package.main_part, _REL_SETTINGS)
    if settings is not None:
        settings_root = package.xml(settings)
        rsids = settings_root.find(qn("w:rsids"))
        if rsids is not None and len(rsids):
            items.append(
                _Item(
                    "rsids",
                    settings,
                    "remove-revision-ids",
                    f"{len(rsids)} revision session ids",
                    rsids,
                    lambda e=rsids: _detach(e),
                )
            )
        for tag in _DOC_IDS:
            for element in settings_root.findall(tag):
                value = element.get(tag.replace("docId", "val")) or ""
                items.append(
                    _Item("docId", settings, "remove-revision-ids", value, element, lambda e=element: _detach(e))
                )
        template = settings_root.find(qn("w:attachedTemplate"))
        if template is not None:
            rel_id = template.get(qn("r:id"))
            target = next((rel.target for rel in package.relationships(settings) if rel.id == rel_id), "")
            items.append(
                _Item(
                    "attachedTemplate",
                    settings,
                    "remove-template",
                    target,
                    template,
                    lambda e=template, r=rel_id: _remove_template(package, settings, e, r),
                )
            )
    holders: list[tuple[str, Any]] = []
    for name in story_parts:
        if package.has_part(name) and package.xml(name).xpath(_HAS_RSIDS, w=NS["w"]):
            holders.append((name, package.xml(name)))
    if holders:
        items.append(
            _Item(
                "rsidAttributes",
                ", ".join(name for name, _ in holders),
                "remove-revision-ids",
                "revision session ids on paragraphs, runs and other elements",
                None,
                lambda: _remove_rsid_attributes(package, holders),
            )
        )
    return items


def _remove_template(package: DocxPackage, settings: str, element: Any, rel_id: str | None) -> None:
    _detach(element)
    if rel_id:
        rels_name = settings.rsplit("/", 1)[0] + "/_rels/" + settings.rsplit("/", 1)[1] + ".rels"
        if package.has_part(rels_name):
            rels = package.xml(rels_name)
            for rel in list(rels):
                if rel.get("Id") == rel_id:
                    rels.remove(rel)
            package.mark_dirty(rels_name)


def _remove_rsid_attributes(package: DocxPackage, holders: list[tuple[str, Any]]) -> None:
    for name, root in holders:
        for element in root.xpath(_WITH_RSIDS, w=NS["w"]):
            attrib = element.attrib
            for key in [key for key in attrib if key.startswith(RSID_PREFIX)]:
                del attrib[key]
        package.mark_dirty(name)


def default_story_parts(package: DocxPackage) -> list[str]:
    """The parts whose elements can carry revision session ids."""
    from .docx_package import RT

    parts = [package.main_part]
    for rel_type in (RT.HEADER, RT.FOOTER, RT.FOOTNOTES, RT.ENDNOTES, RT.COMMENTS, RT.STYLES, RT.NUMBERING):
        for part in package.related_parts(package.main_part, rel_type):
            if part not in parts:
                parts.append(part)
    return parts


def metadata_report(package: DocxPackage) -> dict[str, Any]:
    """What the package would pass on (nothing removed)."""
    return {
        "appliedTransforms": [],
        "removed": [],
        "kept": [item.json(with_value=True) for item in _items(package, default_story_parts(package))],
    }


def scrub_metadata(package: DocxPackage, transforms: Any) -> dict[str, Any]:
    """Remove the metadata of the given categories (``TRANSFORMS``) in place; returns the report:
    ``appliedTransforms`` (canonical order), ``removed`` (what was there and is gone) and
    ``kept`` (what remains, with its value)."""
    chosen = check_transforms(transforms)
    removed: list[dict[str, Any]] = []
    kept: list[dict[str, Any]] = []
    dirty: set[str] = set()
    for item in _items(package, default_story_parts(package)):
        if item.category in chosen:
            item.remove()
            removed.append(item.json(with_value=False))
            if item.element is not None:
                dirty.add(item.part)
        else:
            kept.append(item.json(with_value=True))
    for part in dirty:
        package.mark_dirty(part)
    return {"appliedTransforms": list(chosen), "removed": removed, "kept": kept}
