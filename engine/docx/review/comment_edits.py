"""Writing comments: new comments anchored in the main text, replies, resolving and reopening.

Parts, as Word 2016+ writes them (and LibreOffice reads them):

- ``word/comments.xml``: ``<w:comment w:id w:author w:initials w:date>`` with one paragraph per
  line of the text; the first paragraph starts with the annotation-reference run. Every comment
  paragraph gets a unique ``w14:paraId``.
- the main text: ``w:commentRangeStart`` before the first anchored element, ``w:commentRangeEnd``
  after the last one, then a run holding ``w:commentReference`` — outside any revision wrapper,
  so accepting or rejecting changes never orphans a comment.
- ``word/commentsExtended.xml`` (w15): one ``w15:commentEx`` per comment, keyed by the paraId of
  its last paragraph, with ``w15:done`` (resolved) and, for a reply, ``w15:paraIdParent`` (the
  thread root's last paragraph: Word threads are flat, so a reply to a reply joins the root).
- ``word/commentsIds.xml`` (w16cid): the same paraId mapped to a durable id (8 hex digits below
  0x7FFFFFFF, unique).

Comment ids are the largest id in use (in comments.xml and in any comment marker) plus one, or
the lowest free id when that would not fit 32 bits (documents written by the reference system
carry millisecond timestamps as ids). A reply is anchored like its root: its range markers sit
next to the root's, and its reference run follows the root's; a reply to a comment anchored
nowhere (comments.xml keeps some whose text is gone) is threaded to it but anchored nowhere.

``CommentWriter`` is created per edit session; ``checkpoint()`` / ``rollback()`` undo the
comments of an operation that failed.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Any

from ..model.para_ids import ParaIdAllocator
from ..package.docx_package import RT
from ..wml.edit import ensure_root_namespaces
from ..wml.ns import (
    NS,
    W14_PARAID,
    W14_TEXTID,
    W_AUTHOR,
    W_COMMENTRANGEEND,
    W_COMMENTRANGESTART,
    W_COMMENTREFERENCE,
    W_ID,
    W_P,
    W_R,
    W_RPR,
    W_RSTYLE,
    W_VAL,
    qn,
)
from ..wml.revisions import MAX_ID, IdAllocator, lift_after, lift_before, make_run
from .revisions import story_parts

if TYPE_CHECKING:
    from ..model.document import DocxDocument
    from .comments import Comment

COMMENTS_PART = "word/comments.xml"
EXTENDED_PART = "word/commentsExtended.xml"
IDS_PART = "word/commentsIds.xml"
CT_COMMENTS = "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"
CT_EXTENDED = "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml"
CT_IDS = "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsIds+xml"

_W15 = "{" + NS["w15"] + "}"
_W16CID = "{" + NS["w16cid"] + "}"
W_COMMENT = qn("w:comment")
W_ANNOTATIONREF = qn("w:annotationRef")


def initials(author: str) -> str:
    letters = [word[0] for word in author.split() if word[:1].isalnum()]
    return "".join(letters[:3]).upper() or author[:1].upper() or "A"


class CommentWriter:
    def __init__(
        self,
        doc: DocxDocument,
        author: str,
        date: str,
        para_ids: ParaIdAllocator | None = None,
        revision_ids: IdAllocator | None = None,
    ) -> None:
        self.doc = doc
        self.package = doc.package
        self.author = author or "Unknown"
        self.date = date
        self.para_ids = para_ids or ParaIdAllocator(doc.package)
        # For the revision wrappers a comment's range markers cut in two (see ``add``).
        self._revision_ids = revision_ids
        self._comments: Any = None
        self._extended: Any = None
        self._ids: Any = None
        self._used_ids: set[int] | None = None
        self._durable: set[str] | None = None
        self._added: list[tuple[Any, ...]] = []  # (comment, ex entry, id entry, markers...)

    # -- parts -------------------------------------------------------------------------------

    def _part(self, rel_type: str, default_name: str, content_type: str, root_tag: str, prefixes: tuple) -> Any:
        main = self.doc.main_part
        name = self.package.related_part(main, rel_type)
        if name is None:
            from lxml import etree

            nsmap = {prefix: NS[prefix] for prefix in ("w", "w14", "w15", "w16cid", "mc") if prefix in prefixes}
            root = etree.Element(root_tag, nsmap=nsmap)
            ignorable = [p for p in prefixes if p in ("w14", "w15", "w16cid")]
            root.set(qn("mc:Ignorable"), " ".join(ignorable))
            name = default_name
            suffix = 1
            while self.package.has_part(name):
                suffix += 1
                name = default_name.replace(".xml", f"{suffix}.xml")
            self.package.add_part(name, content_type, root=root, source=main, rel_type=rel_type)
            return root
        root = self.package.xml(name)
        wanted = tuple(p for p in prefixes if p != "mc")
        ignorable = tuple(p for p in wanted if p in ("w14", "w15", "w16cid"))
        new_root = ensure_root_namespaces(root, wanted, ignorable=ignorable)
        if new_root is not root:
            self.package.set_xml(name, new_root)
        else:
            self.package.mark_dirty(name)
        return new_root

    @property
    def comments_root(self) -> Any:
        if self._comments is None:
            self._comments = self._part(RT.COMMENTS, COMMENTS_PART, CT_COMMENTS, qn("w:comments"), ("w", "w14", "mc"))
        return self._comments

    @property
    def extended_root(self) -> Any:
        if self._extended is None:
            self._extended = self._part(
                RT.COMMENTS_EXTENDED, EXTENDED_PART, CT_EXTENDED, _W15 + "commentsEx", ("w15", "mc")
            )
        return self._extended

    @property
    def ids_root(self) -> Any:
        if self._ids is None:
            self._ids = self._part(RT.COMMENTS_IDS, IDS_PART, CT_IDS, _W16CID + "commentsIds", ("w16cid", "mc"))
        return self._ids

    # -- ids ---------------------------------------------------------------------------------

    def _take_comment_id(self) -> str:
        """The largest comment id in use plus one, or (when that would leave 32 bits, as the
        reference system's millisecond ids do) the lowest free one."""
        if self._used_ids is None:
            used: set[int] = set()
            for part in story_parts(self.doc):
                root = self.package.xml(part)
                for element in root.iter(W_COMMENT, W_COMMENTRANGESTART, W_COMMENTRANGEEND, W_COMMENTREFERENCE):
                    with contextlib.suppress(ValueError):
                        used.add(int((element.get(W_ID) or "").strip()))
            self._used_ids = used
        value = max(self._used_ids, default=0) + 1
        if value > MAX_ID:
            value = 0
            while value in self._used_ids:
                value += 1
        self._used_ids.add(value)
        return str(value)

    def _durable_id(self) -> str:
        if self._durable is None:
            self._durable = {
                (entry.get(_W16CID + "durableId") or "").upper() for entry in self.ids_root.iter(_W16CID + "commentId")
            }
        while True:
            value = f"{int.from_bytes(os.urandom(4), 'big') % 0x7FFFFFFE + 1:08X}"
            if value not in self._durable:
                self._durable.add(value)
                return value

    # -- comments ----------------------------------------------------------------------------

    def _reference_run(self, comment_id: str) -> Any:
        r = self.doc.body.makeelement(W_R, {})
        if self.doc.styles.style_element("character", "CommentReference") is not None:
            rpr = r.makeelement(W_RPR, {})
            rpr.append(rpr.makeelement(W_RSTYLE, {W_VAL: "CommentReference"}))
            r.append(rpr)
        r.append(r.makeelement(W_COMMENTREFERENCE, {W_ID: comment_id}))
        return r

    def _comment_element(self, comment_id: str, text: str) -> tuple[Any, str]:
        root = self.comments_root
        comment = root.makeelement(
            W_COMMENT,
            {W_ID: comment_id, W_AUTHOR: self.author, qn("w:date"): self.date, qn("w:initials"): initials(self.author)},
        )
        last_para_id = ""
        for index, line in enumerate(text.split("\n")):
            p = comment.makeelement(W_P, {})
            last_para_id = self.para_ids.new(f"comment:{comment_id}:{index}")
            p.set(W14_PARAID, last_para_id)
            p.set(W14_TEXTID, last_para_id)
            if index == 0:
                ref = p.makeelement(W_R, {})
                if self.doc.styles.style_element("character", "CommentReference") is not None:
                    rpr = ref.makeelement(W_RPR, {})
                    rpr.append(rpr.makeelement(W_RSTYLE, {W_VAL: "CommentReference"}))
                    ref.append(rpr)
                ref.append(ref.makeelement(W_ANNOTATIONREF, {}))
                p.append(ref)
            if line:
                p.append(make_run(line))
            comment.append(p)
        root.append(comment)
        return comment, last_para_id

    def _register(self, para_id: str, parent_para_id: str | None) -> tuple[Any, Any]:
        ext_root = self.extended_root
        entry = ext_root.makeelement(_W15 + "commentEx", {_W15 + "paraId": para_id, _W15 + "done": "0"})
        if parent_para_id:
            entry.set(_W15 + "paraIdParent", parent_para_id)
        ext_root.append(entry)
        ids_root = self.ids_root
        id_entry = ids_root.makeelement(
            _W16CID + "commentId", {_W16CID + "paraId": para_id, _W16CID + "durableId": self._durable_id()}
        )
        ids_root.append(id_entry)
        return entry, id_entry

    def add(self, text: str, first: Any, last: Any) -> str:
        """A new comment spanning ``first`` .. ``last`` (elements inside main-text paragraphs, in
        document order). Returns its id."""
        comment_id = self._take_comment_id()
        start = self.doc.body.makeelement(W_COMMENTRANGESTART, {W_ID: comment_id})
        end = self.doc.body.makeelement(W_COMMENTRANGEEND, {W_ID: comment_id})
        reference = self._reference_run(comment_id)
        # Markers go outside revision wrappers; a wrapper they cut in two gets a fresh id for
        # its second half, as revision ids are unique in a document.
        ids = self._wrapper_ids()
        lift_before(first, ids).addprevious(start)
        after = lift_after(last, ids)
        after.addnext(end)
        end.addnext(reference)
        comment, para_id = self._comment_element(comment_id, text)
        entries = self._register(para_id, None)
        self._added.append((comment, *entries, start, end, reference))
        return comment_id

    def _wrapper_ids(self) -> IdAllocator:
        if self._revision_ids is None:
            self._revision_ids = IdAllocator.scan(self.package.xml(part) for part in story_parts(self.doc))
        return self._revision_ids

    def add_at_end(self, text: str, p: Any) -> str:
        """A comment on a point, the end of paragraph ``p`` (a blank paragraph: there is no text
        to span). Only the reference run marks it, which is how Word stores a point comment."""
        comment_id = self._take_comment_id()
        reference = self._reference_run(comment_id)
        p.append(reference)
        comment, para_id = self._comment_element(comment_id, text)
        entries = self._register(para_id, None)
        self._added.append((comment, *entries, reference))
        return comment_id

    def reply(self, root: Comment, text: str) -> str:
        """A reply in the thread of ``root`` (a top-level comment), anchored next to it. A root
        anchored nowhere (its range and reference mark are in no story) gets a reply anchored
        nowhere too: the thread link in commentsExtended.xml is what makes it a reply, and an
        anchor the root lacks would put the reply on some other text."""
        comment_id = self._take_comment_id()
        markers = _markers(self.doc, root.id)
        if markers is not None:
            self._anchor_reply(comment_id, *markers)
        parent_para_id = self._ensure_para_id(root)
        _comment, para_id = self._comment_element(comment_id, text)
        self._register(para_id, parent_para_id)
        if self._extended_entry(parent_para_id) is None:
            # The root must be listed too, or Word will not see the thread.
            root_entry = self.extended_root.makeelement(
                _W15 + "commentEx", {_W15 + "paraId": parent_para_id, _W15 + "done": "1" if root.done else "0"}
            )
            self.extended_root.insert(0, root_entry)
        return comment_id

    def _anchor_reply(self, comment_id: str, starts: list, ends: list, references: list) -> None:
        """Range markers next to the root's, and a reference run after the root's."""
        reference = self._reference_run(comment_id)
        if starts:
            starts[0].addnext(starts[0].makeelement(W_COMMENTRANGESTART, {W_ID: comment_id}))
        if ends:
            end = ends[-1].makeelement(W_COMMENTRANGEEND, {W_ID: comment_id})
            anchor = _run_of(references[-1]) if references else ends[-1]
            if references and _run_of(references[-1]).getparent() is not ends[-1].getparent():
                anchor = ends[-1]
            anchor.addnext(end)
            end.addnext(reference)
        else:
            _run_of(references[-1]).addnext(reference)

    def set_done(self, comment: Comment, done: bool) -> None:
        para_id = self._ensure_para_id(comment)
        entry = self._extended_entry(para_id)
        if entry is None:
            entry = self.extended_root.makeelement(_W15 + "commentEx", {_W15 + "paraId": para_id})
            if comment.parent_id is not None:
                parent = _find_comment(self.doc, comment.parent_id)
                if parent is not None:
                    entry.set(_W15 + "paraIdParent", self._ensure_para_id(parent))
            self.extended_root.append(entry)
            self.ids_root.append(
                self.ids_root.makeelement(
                    _W16CID + "commentId", {_W16CID + "paraId": para_id, _W16CID + "durableId": self._durable_id()}
                )
            )
        entry.set(_W15 + "done", "1" if done else "0")

    def _extended_entry(self, para_id: str) -> Any | None:
        for entry in self.extended_root.iter(_W15 + "commentEx"):
            if (entry.get(_W15 + "paraId") or "").upper() == para_id.upper():
                return entry
        return None

    def _ensure_para_id(self, comment: Comment) -> str:
        paragraphs = comment.element.findall(W_P)
        if not paragraphs:
            p = comment.element.makeelement(W_P, {})
            comment.element.append(p)
            paragraphs = [p]
        last = paragraphs[-1]
        value = last.get(W14_PARAID)
        if not value:
            value = self.para_ids.new(f"comment:{comment.id}:{comment.text}")
            last.set(W14_PARAID, value)
            _ = self.comments_root  # declares w14 on the comments part and marks it changed
        return value

    # -- undo for one failed operation ---------------------------------------------------------

    def checkpoint(self) -> int:
        return len(self._added)

    def rollback(self, checkpoint: int) -> None:
        while len(self._added) > checkpoint:
            for element in self._added.pop():
                parent = element.getparent()
                if parent is not None:
                    parent.remove(element)


def _run_of(element: Any) -> Any:
    parent = element.getparent()
    return parent if parent is not None and parent.tag == W_R else element


def _markers(doc: DocxDocument, comment_id: str) -> tuple[list, list, list] | None:
    starts, ends, references = [], [], []
    for part in story_parts(doc):
        root = doc.package.xml(part)
        for element in root.iter(W_COMMENTRANGESTART, W_COMMENTRANGEEND, W_COMMENTREFERENCE):
            if element.get(W_ID) != comment_id:
                continue
            if element.tag == W_COMMENTRANGESTART:
                starts.append(element)
            elif element.tag == W_COMMENTRANGEEND:
                ends.append(element)
            else:
                references.append(element)
    if not ends and not references:
        return None
    return starts, ends, references


def _find_comment(doc: DocxDocument, comment_id: str) -> Comment | None:
    from .comments import load_comments

    return next((c for c in load_comments(doc) if c.id == comment_id), None)
