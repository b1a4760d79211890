"""Stories besides the main body: headers, footers, footnotes and endnotes.

Each story has a JSON handle the tools hand out and accept back:

- ``{"type": "main"}``
- ``{"type": "header", "relationshipId": "rId7"}`` / ``{"type": "footer", ...}``: the main
  part's relationship to the header or footer part, in relationship order;
- ``{"type": "footnote", "noteId": 1}`` / ``{"type": "endnote", ...}``: one note (separator
  notes, which only draw the rule above the notes, are left out).

A secondary story's text is its as-accepted text, paragraphs joined, with whitespace normalised
into single spaces (one string; offsets into it count UTF-16 code units).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..package.docx_package import RT
from ..wml.ns import qn
from .hashing import normalize_text
from .scan import DROP_ACCEPTED
from .walk import walk_story

if TYPE_CHECKING:
    from typing import Protocol

    from ..package.docx_package import DocxPackage
    from .blocks import Block
    from .scan import ScanContext
    from .styles import Styles

    class StoryHost(Protocol):
        """What the story readers use of a ``document.DocxDocument`` (whose ``stories()`` calls
        ``list_stories``, so this module cannot import that one)."""

        package: DocxPackage

        @property
        def main_part(self) -> str: ...

        @property
        def styles(self) -> Styles: ...

        @property
        def blocks(self) -> list[Block]: ...

        def scan_context(self, part: str, *, markers: bool = False) -> ScanContext: ...


_SEPARATOR_TYPES = frozenset({"separator", "continuationSeparator", "continuationNotice"})


class Story(NamedTuple):
    handle: dict[str, Any]
    part: str | None
    container: Any | None

    @property
    def key(self) -> tuple:
        return handle_key(self.handle)


def handle_key(handle: dict[str, Any]) -> tuple:
    kind = handle.get("type")
    if kind in ("header", "footer"):
        return (kind, handle.get("relationshipId"))
    if kind in ("footnote", "endnote"):
        return (kind, handle.get("noteId"))
    return (kind,)


def describe_story(handle: dict[str, Any]) -> str:
    """A story named for a message: "the main text", "footnote 1", "header rId7"."""
    kind = handle.get("type")
    if kind in ("header", "footer"):
        return f"{kind} {handle.get('relationshipId')}"
    if kind in ("footnote", "endnote"):
        return f"{kind} {handle.get('noteId')}"
    return "the main text"


def story_parts(doc: StoryHost, *, comments: bool = False) -> list[str]:
    """The main part, then the parts of its headers, footers and notes (and, with ``comments``,
    its comments part)."""
    package = doc.package
    names = [doc.main_part]
    for rel_type in (RT.HEADER, RT.FOOTER, RT.FOOTNOTES, RT.ENDNOTES, *((RT.COMMENTS,) if comments else ())):
        for part in package.related_parts(doc.main_part, rel_type):
            if part not in names:
                names.append(part)
    return names


def list_stories(doc: StoryHost) -> list[Story]:
    """The secondary stories of ``doc`` in the order the tools list them (main excluded)."""
    package = doc.package
    main = doc.main_part
    stories: list[Story] = []
    for kind, rel_type in (("header", RT.HEADER), ("footer", RT.FOOTER)):
        for rel in package.relationships(main):
            if rel.type != rel_type or rel.external:
                continue
            part = package.resolve_target(main, rel.id)
            if part is None or not package.has_part(part):
                continue
            stories.append(Story({"type": kind, "relationshipId": rel.id}, part, package.xml(part)))
    for kind, rel_type in (("footnote", RT.FOOTNOTES), ("endnote", RT.ENDNOTES)):
        part = package.related_part(main, rel_type)
        root = package.xml_if_present(part)
        if root is None:
            continue
        for note in root.iter(qn(f"w:{kind}")):
            if (note.get(qn("w:type")) or "normal") in _SEPARATOR_TYPES:
                continue
            try:
                note_id = int(note.get(qn("w:id")) or "")
            except ValueError:
                continue
            stories.append(Story({"type": kind, "noteId": note_id}, part, note))
    return stories


def find_story(doc: StoryHost, handle: dict[str, Any]) -> Story | None:
    key = handle_key(handle)
    for story in list_stories(doc):
        if story.key == key:
            return story
    return None


def story_text(doc: StoryHost, story: Story) -> str:
    """The normalised as-accepted text of a secondary story."""
    walked = walk_story(story.container, doc.scan_context(story.part or ""))
    paragraphs = [
        "".join([text for text, flags, _ in w.pieces if not flags & DROP_ACCEPTED]) for w in walked if not w.hidden_row
    ]
    return normalize_text("\n".join(paragraphs))


def main_story_text(doc: StoryHost) -> str:
    """The main story as one ``[blockId] ...`` line per block: headings show ``(hN)`` and their
    number when they are numbered, list items their label (``•`` when they have none)."""
    lines = []
    for block in doc.blocks:
        if block.kind == "heading":
            number = f"{block.display_label} " if block.display_label else ""
            lines.append(f"[{block.id}] (h{block.heading_level or 1}) {number}{block.text}")
        elif block.kind == "listItem":
            lines.append(f"[{block.id}] {block.display_label or '•'} {block.text}")
        else:
            lines.append(f"[{block.id}] {block.text}")
    return "\n".join(lines)
