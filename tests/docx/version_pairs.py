"""Versions of the same document, for the compare and redline tests.

The powertools-wc corpus holds files that share a prefix (``WC001-Digits.docx``,
``WC001-Digits-Mod.docx``, ...): versions of one document. ``corpus_pairs()`` gives every ordered
pair within a group (previous, current), so each edit is seen in both directions.
``texts(doc)`` and ``note_texts(doc)`` read what a version shows (every paragraph of the main
story, blank ones too, and the text of each non-empty footnote or endnote), the views our own
accept-all / reject-all of a redline must reproduce.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from pathlib import Path

from deskcheck.engine.docx.document import DocxDocument
from deskcheck.engine.docx.revisions import resolve_all
from deskcheck.engine.docx.scan import DROP_ACCEPTED
from deskcheck.engine.docx.stories import list_stories, story_text
from tests.conftest import CORPUS

WC = CORPUS / "powertools-wc"


def corpus_groups() -> dict[str, list[Path]]:
    groups: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(WC.glob("*.docx")):
        match = re.match(r"(WC\d+)-", path.name)
        groups[match.group(1) if match else path.stem].append(path)
    return {name: files for name, files in groups.items() if len(files) > 1}


def corpus_pairs() -> list[tuple[Path, Path]]:
    return [pair for files in corpus_groups().values() for pair in itertools.permutations(files, 2)]


def pair_id(pair: tuple[Path, Path]) -> str:
    return f"{pair[0].stem}->{pair[1].stem}"


def texts(doc: DocxDocument) -> list[str]:
    """Every main-story paragraph's as-accepted text, in order (blank paragraphs included)."""
    return ["".join(t for t, flags, _ in w.pieces if not flags & DROP_ACCEPTED) for w in doc.walk_main()]


def note_texts(doc: DocxDocument) -> list[str]:
    """The text of every footnote and endnote that shows any."""
    out = []
    for story in list_stories(doc):
        if story.handle["type"] in ("footnote", "endnote"):
            text = story_text(doc, story)
            if text:
                out.append(f"{story.handle['type']}: {text}")
    return out


def accepted(path: Path) -> DocxDocument:
    doc = DocxDocument.open(path)
    resolve_all(doc, "accept")
    return doc


def resolved(path: Path, mode: str) -> DocxDocument:
    doc = DocxDocument.open(path)
    resolve_all(doc, mode)
    return doc
