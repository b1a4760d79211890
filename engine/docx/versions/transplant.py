"""Copying content from one .docx package into another (for redlines built from two files).

A paragraph copied from the current version into the previous one brings references that mean
nothing in its new package: relationship ids (pictures, hyperlinks, charts, embedded objects),
style ids, numbering instances, bookmark and drawing ids, paragraph ids. ``Importer.copy``
returns a deep copy of an element whose references are valid in the target package:

- relationships (any ``r:`` attribute): external ones (hyperlinks) are re-created; internal ones
  copy the target part (and, recursively, the parts it points to) under a free name, with its
  content type, once per source part;
- ``w:pStyle`` / ``w:rStyle`` / ``w:tblStyle``: a style the target lacks is copied from the
  source's styles, with the styles it is based on, linked to or followed by;
- ``w:numId``: mapped to a target numbering instance with the same definition, or a copied one;
- bookmarks get fresh ids (and are dropped when the target already has one of that name),
  drawings fresh ``wp:docPr`` ids, and a ``w14:paraId`` already used in the target is removed;
- comment anchors and permission ranges are dropped (the comments stay in their own file).

Footnote and endnote references are left to the caller (``note_references``), which decides
whether a note is copied or paired with an existing one.
"""

from __future__ import annotations

import contextlib
import posixpath
from copy import deepcopy
from typing import Any

from ..package.docx_package import RT, DocxPackage, resolve_part_name
from ..wml.edit import remove_keeping_tail
from ..wml.ns import NS, W14_PARAID, W14_TEXTID, W_COMMENTREFERENCE, W_NUMID, W_VAL, qn

_R = "{" + NS["r"] + "}"
_PR = "{" + NS["pr"] + "}"
_DOCPR = "{" + NS["wp"] + "}docPr"
_STYLE_REFS = (qn("w:pStyle"), qn("w:rStyle"), qn("w:tblStyle"))
_COMMENT_TAGS = (qn("w:commentRangeStart"), qn("w:commentRangeEnd"), qn("w:permStart"), qn("w:permEnd"))
_BOOKMARK_START = qn("w:bookmarkStart")
_BOOKMARK_END = qn("w:bookmarkEnd")
_STYLE_LINKS = (qn("w:basedOn"), qn("w:link"), qn("w:next"))
_STYLE = qn("w:style")
_NUM = qn("w:num")
_ABSTRACT = qn("w:abstractNum")
_ABSTRACT_ID = qn("w:abstractNumId")
_NUM_ID_ATTR = qn("w:numId")
_ABSTRACT_ID_ATTR = qn("w:abstractNumId")
_STYLES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"
_NUMBERING_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"


def _canonical(element: Any) -> tuple:
    attrs = tuple(sorted((k, v) for k, v in element.attrib.items() if not k.endswith("}nsid") and "rsid" not in k))
    return (
        element.tag,
        attrs,
        (element.text or "").strip(),
        tuple(_canonical(c) for c in element if isinstance(c.tag, str)),
    )


class Importer:
    """Copies elements of ``source`` (a ``DocxDocument``) into ``target``; see the module docstring."""

    def __init__(self, source: Any, target: Any) -> None:
        self.source = source
        self.target = target
        self._rels: dict[tuple[str, str, str], str] = {}
        self._parts: dict[str, str] = {}
        self._styles_done: set[str] = set()
        self._pending_styles: list[str] = []
        self._copying_styles = False
        self._style_indexes: dict[int, tuple[Any, dict[str, Any], str]] = {}
        self._numbers: dict[str, str] = {}
        self._numbering_indexes: dict[int, _NumberingIndex] = {}
        self._bookmark_names: set[str] | None = None
        self._next_bookmark = 0
        self._para_ids: set[str] | None = None
        self._next_docpr = 0

    # -- the copy -------------------------------------------------------------------------------

    def copy(self, element: Any, source_part: str, target_part: str) -> Any:
        """A copy of ``element`` valid in the target package (see the module docstring)."""
        clone = deepcopy(element)
        self.adopt(clone, source_part, target_part)
        return clone

    def adopt(self, clone: Any, source_part: str, target_part: str) -> None:
        """Fix the references of ``clone`` (an element copied from ``source_part``) in place."""
        self._drop_comment_anchors(clone)
        self._bookmarks(clone)
        for node in clone.iter():
            if not isinstance(node.tag, str):
                continue
            for name, value in list(node.attrib.items()):
                if name.startswith(_R):
                    mapped = self.relationship(source_part, value, target_part)
                    if mapped is None:
                        del node.attrib[name]
                    else:
                        node.set(name, mapped)
            tag = node.tag
            if tag in _STYLE_REFS:
                value = node.get(W_VAL)
                if value:
                    self.style(value)
            elif tag == W_NUMID:
                value = node.get(W_VAL)
                if value and value != "0":
                    node.set(W_VAL, self.numbering(value))
            elif tag == _DOCPR:
                node.set("id", str(self._docpr_id()))
        self._paragraph_ids(clone)

    # -- relationships and parts ------------------------------------------------------------------

    def relationship(self, source_part: str, rel_id: str, target_part: str) -> str | None:
        key = (source_part, rel_id, target_part)
        if key in self._rels:
            return self._rels[key]
        rel = self.source.package.relationship(source_part, rel_id)
        if rel is None:
            return None
        if rel.external:
            new_id = self.target.package.add_relationship(target_part, rel.type, url=rel.target)
        else:
            part = resolve_part_name(source_part, rel.target)
            if not self.source.package.has_part(part):
                return None
            new_id = self.target.package.add_relationship(target_part, rel.type, self.part(part))
        self._rels[key] = new_id
        return new_id

    def part(self, name: str) -> str:
        """The target name of source part ``name``, copied (with its own relationships) once."""
        if name in self._parts:
            return self._parts[name]
        source, target = self.source.package, self.target.package
        new_name = _free_name(target, name)
        self._parts[name] = new_name
        content_type = source.content_type(name) or "application/octet-stream"
        target.add_part(new_name, content_type, data=source.read_bytes(name))
        for rel in source.relationships(name):
            if rel.external:
                target.add_relationship(new_name, rel.type, url=rel.target, wanted=rel.id)
            else:
                inner = resolve_part_name(name, rel.target)
                if source.has_part(inner):
                    target.add_relationship(new_name, rel.type, self.part(inner), wanted=rel.id)
        return new_name

    # -- styles -----------------------------------------------------------------------------------

    def style(self, style_id: str) -> None:
        """Make sure the target defines ``style_id`` (copying it and its relatives if needed).
        Relatives are followed through a work list, not recursion, and styles are looked up by
        id in an index: a crafted chain of 50,000 styles each based on the next is copied in
        linear time without exhausting the stack."""
        self._pending_styles.append(style_id)
        if self._copying_styles:
            return  # called back through numbering: the running loop takes it
        self._copying_styles = True
        try:
            while self._pending_styles:
                self._copy_style(self._pending_styles.pop())
        finally:
            self._copying_styles = False

    def _copy_style(self, style_id: str) -> None:
        if style_id in self._styles_done:
            return
        self._styles_done.add(style_id)
        target = self._style_index(self.target, create=True)
        if target is None or style_id in target[1]:
            return
        source = self._style_index(self.source, create=False)
        found = source[1].get(style_id) if source is not None else None
        if found is None:
            return
        copy = deepcopy(found)
        target[0].append(copy)
        target[1][style_id] = copy
        self.target.package.mark_dirty(target[2])
        for link in _STYLE_LINKS:
            element = copy.find(link)
            if element is not None and element.get(W_VAL):
                self._pending_styles.append(element.get(W_VAL))
        for numid in copy.iter(W_NUMID):
            value = numid.get(W_VAL)
            if value and value != "0":
                numid.set(W_VAL, self.numbering(value))

    def _style_index(self, doc: Any, *, create: bool) -> tuple[Any, dict[str, Any], str] | None:
        """The styles root of ``doc``, its styles by id (the first of each id, as Word reads
        them) and the part's name, found once."""
        cached = self._style_indexes.get(id(doc))
        if cached is not None:
            return cached
        root = self._styles_root(doc, create=create)
        if root is None:
            return None
        index: dict[str, Any] = {}
        for style in root.iter(_STYLE):
            index.setdefault(style.get(qn("w:styleId")) or "", style)
        self._style_indexes[id(doc)] = cached = (root, index, self._styles_part(doc) or "")
        return cached

    def _styles_part(self, doc: Any) -> str | None:
        return doc.package.related_part(doc.main_part, RT.STYLES)

    def _styles_root(self, doc: Any, *, create: bool) -> Any | None:
        part = self._styles_part(doc)
        if part is not None:
            return doc.package.xml(part)
        if not create:
            return None
        from lxml import etree

        root = etree.Element(qn("w:styles"), nsmap={"w": NS["w"]})
        doc.package.add_part("word/styles.xml", _STYLES_CT, root=root, source=doc.main_part, rel_type=RT.STYLES)
        return root

    # -- numbering --------------------------------------------------------------------------------

    def numbering(self, num_id: str) -> str:
        """The target numbering instance that numbers like the source's ``num_id``. Both parts
        are indexed once (instances and definitions by id, instances by what they number like),
        so copying thousands of lists stays linear."""
        if num_id in self._numbers:
            return self._numbers[num_id]
        source = self._numbering_index(self.source, create=False)
        found_num = source.nums.get(num_id) if source is not None else None
        if source is None or found_num is None:
            self._numbers[num_id] = num_id
            return num_id
        abstract = source.abstract_of(found_num)
        signature = _num_signature(found_num, abstract)
        target = self._numbering_index(self.target, create=True)
        same = target.nums.get(num_id)
        if same is not None and target.signature(same) == signature:
            self._numbers[num_id] = num_id
            return num_id
        mapped = target.numbering_like(signature)
        if mapped is not None:
            self._numbers[num_id] = mapped or num_id
            return mapped or num_id
        # Copy the definition under fresh ids; abstract definitions come before instances.
        new_abstract_id, new_num_id = target.fresh_ids()
        abstract_copy = None
        if abstract is not None:
            abstract_copy = deepcopy(abstract)
            abstract_copy.set(_ABSTRACT_ID_ATTR, new_abstract_id)
        num_copy = deepcopy(found_num)
        num_copy.set(_NUM_ID_ATTR, new_num_id)
        link = num_copy.find(_ABSTRACT_ID)
        if link is not None and abstract is not None:
            link.set(W_VAL, new_abstract_id)
        target.add(abstract_copy, num_copy, signature)
        if abstract_copy is not None:
            for style_ref in abstract_copy.iter(qn("w:pStyle")):
                if style_ref.get(W_VAL):
                    self.style(style_ref.get(W_VAL))
        self.target.package.mark_dirty(target.part)
        self._numbers[num_id] = new_num_id
        return new_num_id

    def _numbering_index(self, doc: Any, *, create: bool) -> _NumberingIndex | None:
        cached = self._numbering_indexes.get(id(doc))
        if cached is None:
            root = _numbering_root(doc, create=create)
            if root is None:
                return None
            part = doc.package.related_part(doc.main_part, RT.NUMBERING) or ""
            cached = self._numbering_indexes[id(doc)] = _NumberingIndex(root, part)
        return cached

    # -- ids ----------------------------------------------------------------------------------------

    def _drop_comment_anchors(self, clone: Any) -> None:
        for marker in list(clone.iter(*_COMMENT_TAGS)):
            remove_keeping_tail(marker)
        for reference in list(clone.iter(W_COMMENTREFERENCE)):
            run = reference.getparent()
            remove_keeping_tail(reference)
            if run is not None and all(child.tag == qn("w:rPr") for child in run):
                remove_keeping_tail(run)

    def _bookmarks(self, clone: Any) -> None:
        if self._bookmark_names is None:
            self._bookmark_names = set()
            highest = 0
            for root in self._story_roots():
                for start in root.iter(_BOOKMARK_START):
                    self._bookmark_names.add(start.get(qn("w:name")) or "")
                    with contextlib.suppress(ValueError):
                        highest = max(highest, int(start.get(qn("w:id")) or 0))
            self._next_bookmark = highest + 1
        renamed: dict[str, str | None] = {}
        for start in list(clone.iter(_BOOKMARK_START)):
            name = start.get(qn("w:name")) or ""
            old = start.get(qn("w:id")) or ""
            if name in self._bookmark_names:
                renamed[old] = None
                remove_keeping_tail(start)
                continue
            self._bookmark_names.add(name)
            new = str(self._next_bookmark)
            self._next_bookmark += 1
            renamed[old] = new
            start.set(qn("w:id"), new)
        for end in list(clone.iter(_BOOKMARK_END)):
            old = end.get(qn("w:id")) or ""
            if old in renamed and renamed[old] is not None:
                end.set(qn("w:id"), renamed[old])
            else:
                remove_keeping_tail(end)

    def _paragraph_ids(self, clone: Any) -> None:
        if self._para_ids is None:
            self._para_ids = set()
            for root in self._story_roots():
                for p in root.iter(qn("w:p")):
                    value = p.get(W14_PARAID)
                    if value:
                        self._para_ids.add(value)
        for p in clone.iter(qn("w:p")):
            value = p.get(W14_PARAID)
            if value is None:
                continue
            if value in self._para_ids:
                del p.attrib[W14_PARAID]
                if W14_TEXTID in p.attrib:
                    del p.attrib[W14_TEXTID]
            else:
                self._para_ids.add(value)

    def _docpr_id(self) -> int:
        if not self._next_docpr:
            highest = 0
            for root in self._story_roots():
                for docpr in root.iter(_DOCPR):
                    with contextlib.suppress(ValueError):
                        highest = max(highest, int(docpr.get("id") or 0))
            self._next_docpr = highest + 1
        value = self._next_docpr
        self._next_docpr += 1
        return value

    def _story_roots(self) -> list[Any]:
        from ..review.revisions import story_parts

        return [self.target.package.xml(part) for part in story_parts(self.target)]


# -- helpers ----------------------------------------------------------------------------------------


def _free_name(package: DocxPackage, name: str) -> str:
    if not package.has_part(name):
        return name
    folder, base = posixpath.split(name)
    stem, extension = posixpath.splitext(base)
    number = 2
    while package.has_part(posixpath.join(folder, f"{stem}_{number}{extension}")):
        number += 1
    return posixpath.join(folder, f"{stem}_{number}{extension}")


def _numbering_root(doc: Any, *, create: bool) -> Any | None:
    part = doc.package.related_part(doc.main_part, RT.NUMBERING)
    if part is not None:
        return doc.package.xml(part)
    if not create:
        return None
    from lxml import etree

    root = etree.Element(qn("w:numbering"), nsmap={"w": NS["w"]})
    doc.package.add_part("word/numbering.xml", _NUMBERING_CT, root=root, source=doc.main_part, rel_type=RT.NUMBERING)
    return root


class _NumberingIndex:
    """A numbering part's instances and definitions by id (the first of each, as Word reads
    them), and its instances by what they number like, built once and kept up to date as
    copies are added."""

    def __init__(self, root: Any, part: str) -> None:
        self.root, self.part = root, part
        abstracts, nums = list(root.iter(_ABSTRACT)), list(root.iter(_NUM))
        self.abstracts: dict[str | None, Any] = {}
        self.nums: dict[str | None, Any] = {}
        for abstract in abstracts:
            self.abstracts.setdefault(abstract.get(_ABSTRACT_ID_ATTR), abstract)
        for num in nums:
            self.nums.setdefault(num.get(_NUM_ID_ATTR), num)
        self._last_abstract = abstracts[-1] if abstracts else None
        self._last_num = nums[-1] if nums else None
        self._next_abstract = 1 + max((_number(a.get(_ABSTRACT_ID_ATTR)) for a in abstracts), default=-1)
        self._next_num = 1 + max((_number(n.get(_NUM_ID_ATTR)) for n in nums), default=0)
        self._by_signature: dict[tuple, str] | None = None

    def abstract_of(self, num: Any) -> Any | None:
        link = num.find(_ABSTRACT_ID)
        return self.abstracts.get(link.get(W_VAL) if link is not None else None)

    def signature(self, num: Any) -> tuple:
        return _num_signature(num, self.abstract_of(num))

    def numbering_like(self, signature: tuple) -> str | None:
        """The id of the first instance numbering like ``signature`` ("" when it has none)."""
        if self._by_signature is None:
            self._by_signature = {}
            for num in self.root.iter(_NUM):
                self._by_signature.setdefault(self.signature(num), num.get(_NUM_ID_ATTR) or "")
        return self._by_signature.get(signature)

    def fresh_ids(self) -> tuple[str, str]:
        return str(self._next_abstract), str(self._next_num)

    def add(self, abstract: Any | None, num: Any, signature: tuple) -> None:
        if abstract is not None:
            if self._last_abstract is not None:
                self._last_abstract.addnext(abstract)
            else:
                self.root.insert(0, abstract)
            self._last_abstract = abstract
            self.abstracts.setdefault(abstract.get(_ABSTRACT_ID_ATTR), abstract)
            self._next_abstract += 1
        if self._last_num is not None:
            self._last_num.addnext(num)
        else:
            self.root.append(num)
        self._last_num = num
        self.nums.setdefault(num.get(_NUM_ID_ATTR), num)
        self._next_num += 1
        if self._by_signature is not None:
            self._by_signature.setdefault(signature, num.get(_NUM_ID_ATTR) or "")


def _number(value: str | None) -> int:
    """A numbering id as a number (0 for one that is not: ids are only compared to pick fresh ones)."""
    try:
        return int(value or 0)
    except ValueError:
        return 0


def _num_signature(num: Any, abstract: Any | None) -> tuple:
    overrides = tuple(_canonical(child) for child in num if child.tag != _ABSTRACT_ID)
    levels = () if abstract is None else tuple(_canonical(child) for child in abstract if child.tag == qn("w:lvl"))
    return overrides, levels
