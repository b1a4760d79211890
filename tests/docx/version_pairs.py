"""Versions of the same document, for the compare and redline tests.

The powertools-wc corpus holds files that share a prefix (``WC001-Digits.docx``,
``WC001-Digits-Mod.docx``, ...): versions of one document. ``corpus_pairs()`` gives every ordered
pair within a group (previous, current), so each edit is seen in both directions;
``owned_versions()`` writes the project's own pair, for the tests that must run without the corpus.
``texts(doc)`` and ``note_texts(doc)`` read what a version shows (every paragraph of the main
story, blank ones too, and the text of each non-empty footnote or endnote), the views our own
accept-all / reject-all of a redline must reproduce.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from pathlib import Path

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.model.scan import DROP_ACCEPTED
from deskcheck.engine.docx.model.stories import list_stories, story_text
from deskcheck.engine.docx.review.revisions import resolve_all
from tests.conftest import CORPUS
from tests.docx.builders import rewrite_parts

WC = CORPUS / "powertools-wc"


def owned_versions(folder: Path) -> tuple[Path, Path]:
    """The project's own two versions of a document, written into ``folder``: the sample contract
    before and after two reviewers' changes (reject-all and accept-all of
    tests/docx/tracked_contract.py). Between them: a replacement, a formatting change, a deleted,
    an added and a moved paragraph, an added table row, and changes in the header and a footnote."""
    from deskcheck.engine.docx.review.revisions import resolve_file
    from tests.docx.tracked_contract import build_tracked_contract

    tracked = build_tracked_contract(folder / "tracked.docx")
    before, after = folder / "contract-v1.docx", folder / "contract-v2.docx"
    resolve_file(tracked, "reject", output=before)
    resolve_file(tracked, "accept", output=after)
    return before, after


# What Word adds to a file it saves, beyond the text: revision session ids in the settings and on
# paragraphs, document ids, the attached template, application properties and a custom property.
WORD_METADATA = {
    "word/settings.xml": [
        ("<w:defaultTabStop ", '<w:attachedTemplate r:id="rIdTemplate"/><w:defaultTabStop '),
        (
            "<w:themeFontLang ",
            '<w:rsids><w:rsidRoot w:val="00A1B2C3"/><w:rsid w:val="00A1B2C3"/><w:rsid w:val="00D4E5F6"/></w:rsids>'
            "<w:themeFontLang ",
        ),
        ("</w:settings>", '<w14:docId w14:val="1A2B3C4D"/></w:settings>'),
    ],
    "word/document.xml": [
        ('<w:p w14:paraId="6605812C"', '<w:p w:rsidR="00A1B2C3" w:rsidRDefault="00D4E5F6" w14:paraId="6605812C"')
    ],
    "docProps/app.xml": [
        (
            "<DocSecurity>",
            "<Template>Contract.dotm</Template><TotalTime>42</TotalTime><Company>Halyard Legal</Company><DocSecurity>",
        )
    ],
    "[Content_Types].xml": [
        (
            "</Types>",
            '<Override PartName="/docProps/custom.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/></Types>',
        )
    ],
    "_rels/.rels": [
        (
            "</Relationships>",
            '<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'custom-properties" Target="docProps/custom.xml"/></Relationships>',
        )
    ],
}
WORD_PARTS = {
    "word/_rels/settings.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rIdTemplate" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        'attachedTemplate" Target="file:///C:/Users/priya/Templates/Contract.dotm" TargetMode="External"/>'
        "</Relationships>"
    ),
    "docProps/custom.xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
        'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
        '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="MatterNumber">'
        "<vt:lpwstr>HL-2024-017</vt:lpwstr></property></Properties>"
    ),
}


def with_word_metadata(path: Path) -> Path:
    """``path`` rewritten with the metadata Word saves (WORD_METADATA, WORD_PARTS), in place."""

    def add_metadata(parts: dict[str, bytes]) -> None:
        for name, edits in WORD_METADATA.items():
            text = parts[name].decode("utf-8")
            for old, new in edits:
                assert old in text, (name, old)
                text = text.replace(old, new, 1)
            parts[name] = text.encode("utf-8")
        parts.update({name: text.encode("utf-8") for name, text in WORD_PARTS.items()})

    return rewrite_parts(path, add_metadata)


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


# -- generated versions -----------------------------------------------------------------------------

_SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "pe", "da", "gro", "sel", "tin", "wex", "bar")
VOCABULARY = sorted({a + b + c for a in _SYLLABLES for b in _SYLLABLES for c in ("", "n", "s", "ter", "ly")})


class EditedVersions:
    """A generated document and an edited copy, with what was done: ``deleted`` and ``inserted``
    texts, ``modified`` as {old text: new text}, ``moved`` texts (unchanged paragraphs placed
    elsewhere)."""

    def __init__(self, previous: list[str], current: list[str], deleted, inserted, modified, moved) -> None:
        self.previous = previous
        self.current = current
        self.deleted = deleted
        self.inserted = inserted
        self.modified = modified
        self.moved = moved

    def write(self, folder: Path, stem: str = "v") -> tuple[Path, Path]:
        from tests.docx.builders import make_docx, p

        previous = make_docx(folder / f"{stem}-previous.docx", "".join(p(text) for text in self.previous))
        current = make_docx(folder / f"{stem}-current.docx", "".join(p(text) for text in self.current))
        return previous, current


def edited_versions(rng, size: int, deletions: int, insertions: int, modifications: int, moves: int):
    """Paragraphs of 6-12 words drawn from ``VOCABULARY`` (all different), then the edits, each
    on different paragraphs; ``rng`` is a ``random.Random``."""

    def sentence() -> str:
        return " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(6, 12))).capitalize() + "."

    previous: list[str] = []
    while len(previous) < size:
        text = sentence()
        if text not in previous:
            previous.append(text)
    chosen = rng.sample(range(size), min(size, deletions + modifications + moves))
    deleted = [previous[i] for i in chosen[:deletions]]
    modified_at = chosen[deletions : deletions + modifications]
    moved = [previous[i] for i in chosen[deletions + modifications :]]
    modified: dict[str, str] = {}
    current = [text for text in previous if text not in deleted and text not in moved]
    for i in modified_at:
        words = previous[i].rstrip(".").split(" ")
        for _ in range(rng.randint(1, 2)):
            position = rng.randrange(len(words))
            words[position] = f"edited{rng.randrange(10_000)}"
        modified[previous[i]] = " ".join(words) + "."
    current = [modified.get(text, text) for text in current]
    for text in moved:
        current.insert(rng.randint(0, len(current)), text)
    inserted: list[str] = []
    for _ in range(insertions):
        text = sentence()
        if text in previous or text in current:
            continue
        inserted.append(text)
        current.insert(rng.randint(0, len(current)), text)
    return EditedVersions(previous, current, deleted, inserted, modified, moved)
