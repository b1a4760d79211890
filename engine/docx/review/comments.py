"""Reading comment threads (comments.xml plus the Word 2013+ companion parts).

- ``comments.xml``: each ``w:comment`` has an id, author, initials, date and paragraphs.
- ``commentsExtended.xml`` (w15): keyed by the paraId of a comment's *last* paragraph, it links a
  reply to its parent (``w15:paraIdParent``) and marks a comment resolved (``w15:done="1"``).
- ``commentsIds.xml`` (w16cid) maps that paraId to a durable id, and ``commentsExtensible.xml``
  (w16cex) gives the durable id's UTC date.

Word threads are flat: a reply to a reply belongs to the thread's root. The anchor of a comment
is the text between ``w:commentRangeStart`` and ``w:commentRangeEnd``, in the main story or else
in a header, footer or note (then ``story`` is that story's handle, as list_stories gives it). Its
``quote`` is that text as the reader sees it once every pending change is accepted (deleted and
moved-away text dropped, paragraphs joined with a newline unless a deleted paragraph mark joins
them), and ``original_quote`` the same text with every change rejected; the two differ only when
tracked changes fall inside the range. ``blockId`` is the block holding the first anchored
character, in either view (for a comment without a range, the block holding its reference mark);
null outside the main story, which has no blocks. A comment anchored nowhere has ``blockId`` and
``story`` null and empty quotes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model.blocks import paragraph_mark
from ..model.scan import DEL, DROP_ACCEPTED, DROP_ORIGINAL, HIDDEN, INS, MARK, MOVE_FROM, MOVE_TO
from ..model.walk import walk_story
from ..package.docx_package import RT
from ..wml.ns import NS, W14_PARAID, W_COMMENTRANGEEND, W_COMMENTRANGESTART, W_COMMENTREFERENCE, W_ID, qn

if TYPE_CHECKING:
    from ..model.document import DocxDocument

_COMMENT_MARKERS = (W_COMMENTRANGESTART, W_COMMENTREFERENCE)
_ALL_COMMENT_MARKERS = frozenset({*_COMMENT_MARKERS, W_COMMENTRANGEEND})
_W15 = "{" + NS["w15"] + "}"
_W16CID = "{" + NS["w16cid"] + "}"
_W16CEX = "{" + NS["w16cex"] + "}"


@dataclass
class Comment:
    id: str
    author: str
    initials: str | None
    date: str | None
    text: str
    para_id: str | None
    element: Any
    parent_id: str | None = None
    done: bool = False
    date_utc: str | None = None
    block_id: str | None = None
    quote: str = ""
    original_quote: str = ""
    story: dict[str, Any] | None = None  # the handle of the header, footer or note it is anchored in
    replies: list[Comment] = field(default_factory=list)


def load_comments(doc: DocxDocument) -> list[Comment]:
    """Every comment of the document in comments.xml order, with thread links, resolved state
    and anchors filled in."""
    package = doc.package
    part = package.related_part(doc.main_part, RT.COMMENTS)
    root = package.xml_if_present(part)
    if root is None:
        return []
    ctx = doc.scan_context(part)
    comments: list[Comment] = []
    for element in root.iter(qn("w:comment")):
        walked = walk_story(element, ctx)
        text = "\n".join("".join([t for t, flags, _ in w.pieces if not flags & DROP_ACCEPTED]) for w in walked)
        paragraphs = element.findall(qn("w:p"))
        para_id = paragraphs[-1].get(W14_PARAID) if paragraphs else None
        comments.append(
            Comment(
                id=element.get(W_ID) or "",
                author=element.get(qn("w:author")) or "",
                initials=element.get(qn("w:initials")),
                date=element.get(qn("w:date")),
                text=text,
                para_id=para_id,
                element=element,
            )
        )
    _link_extended(doc, comments)
    _attach_anchors(doc, comments)
    return comments


def _link_extended(doc: DocxDocument, comments: list[Comment]) -> None:
    package = doc.package
    by_para = {c.para_id: c for c in comments if c.para_id}
    extended = package.xml_if_present(package.related_part(doc.main_part, RT.COMMENTS_EXTENDED))
    if extended is not None:
        for entry in extended.iter(_W15 + "commentEx"):
            comment = by_para.get(entry.get(_W15 + "paraId"))
            if comment is None:
                continue
            comment.done = (entry.get(_W15 + "done") or "0") in ("1", "true", "on")
            parent = by_para.get(entry.get(_W15 + "paraIdParent"))
            if parent is not None and parent is not comment:
                comment.parent_id = parent.id
    ids = package.xml_if_present(package.related_part(doc.main_part, RT.COMMENTS_IDS))
    extensible = package.xml_if_present(package.related_part(doc.main_part, RT.COMMENTS_EXTENSIBLE))
    if ids is not None and extensible is not None:
        utc = {
            e.get(_W16CEX + "durableId"): e.get(_W16CEX + "dateUtc")
            for e in extensible.iter(_W16CEX + "commentExtensible")
        }
        for entry in ids.iter(_W16CID + "commentId"):
            comment = by_para.get(entry.get(_W16CID + "paraId"))
            if comment is not None:
                comment.date_utc = utc.get(entry.get(_W16CID + "durableId"))


class _Range:
    """The text a comment range covers so far, in the as-accepted and the original view."""

    __slots__ = ("accepted", "original")

    def __init__(self) -> None:
        self.accepted: list[str] = []
        self.original: list[str] = []

    def finish(self, comment: Comment) -> None:
        comment.quote = "".join(self.accepted).strip("\n")
        comment.original_quote = "".join(self.original).strip("\n")


def _attach_anchors(doc: DocxDocument, comments: list[Comment]) -> None:
    """Anchor each comment in the main story, or else in the first header, footer or note (in
    list_stories order) that holds one of its markers."""
    from ..model.stories import list_stories

    by_id = {c.id: c for c in comments}
    block_ids = {block.element: block.id for block in doc.blocks}
    claimed = _anchor_in(doc.walk_main(markers=True), block_ids, by_id, None, set())
    for story in list_stories(doc):
        if claimed >= by_id.keys():
            break
        if next(story.container.iter(*_COMMENT_MARKERS), None) is None:
            continue
        walked = walk_story(story.container, doc.scan_context(story.part or "", markers=True))
        claimed |= _anchor_in(walked, {}, by_id, story.handle, claimed)


def _anchor_in(
    walked: list, block_ids: dict[Any, str], by_id: dict[str, Comment], story: dict | None, claimed: set[str]
) -> set[str]:
    """Fill in block, quotes and story of the comments anchored in one walked story, leaving out
    those an earlier story already anchored (``claimed``). Returns the comment ids whose markers
    this story holds."""
    by_id = {comment_id: c for comment_id, c in by_id.items() if comment_id not in claimed}
    open_ranges: dict[str, _Range] = {}
    started: set[str] = set()
    located: set[str] = set()
    seen: set[str] = set()
    for walked_paragraph in walked:
        block_id = block_ids.get(walked_paragraph.element)
        for text, flags, element in walked_paragraph.pieces:
            if flags & MARK:
                tag = element.tag
                comment_id = element.get(W_ID)
                if tag not in _ALL_COMMENT_MARKERS or comment_id not in by_id:
                    continue  # a note reference's id is not a comment id
                if comment_id not in seen:
                    seen.add(comment_id)
                    if story is not None:
                        by_id[comment_id].story = dict(story)
                if tag == W_COMMENTRANGESTART:
                    open_ranges.setdefault(comment_id, _Range())
                    started.add(comment_id)
                elif tag == W_COMMENTRANGEEND:
                    covered = open_ranges.pop(comment_id, None)
                    if covered is not None:
                        covered.finish(by_id[comment_id])
                elif tag == W_COMMENTREFERENCE and comment_id not in started and comment_id not in located:
                    located.add(comment_id)
                    by_id[comment_id].block_id = block_id
                continue
            if flags & HIDDEN or not text:
                continue
            for comment_id, covered in open_ranges.items():
                if comment_id not in located:
                    located.add(comment_id)
                    by_id[comment_id].block_id = block_id
                if not flags & DROP_ACCEPTED:
                    covered.accepted.append(text)
                if not flags & DROP_ORIGINAL:
                    covered.original.append(text)
        if open_ranges:
            # A paragraph mark ends a line unless the view drops it (accepting a deleted mark,
            # or rejecting an inserted one, joins the paragraph to the next).
            mark = paragraph_mark(walked_paragraph.element)
            for covered in open_ranges.values():
                if not mark & (DEL | MOVE_FROM):
                    covered.accepted.append("\n")
                if not mark & (INS | MOVE_TO):
                    covered.original.append("\n")
    for comment_id, covered in open_ranges.items():  # a range never closed: quote what it covered
        covered.finish(by_id[comment_id])
    return seen


def threads(comments: list[Comment]) -> list[Comment]:
    """Top-level comments with their replies (flattened to the thread root)."""
    by_id = {c.id: c for c in comments}
    roots: list[Comment] = []
    for comment in comments:
        comment.replies = []
    for comment in comments:
        root = comment
        seen = {root.id}
        while root.parent_id is not None and root.parent_id in by_id and root.parent_id not in seen:
            root = by_id[root.parent_id]
            seen.add(root.id)
        if root is comment:
            roots.append(comment)
        else:
            root.replies.append(comment)
    return roots
