"""Valid suggest_changes operations for any document, drawn from a random source: used with fixed
seeds for the LibreOffice acceptance tests and with hypothesis for the property test.

``operation_for(doc, kind, rnd)`` returns one operation of type ``kind`` that the document can
take (or None when it has no suitable block); ``random_batch(doc, rnd, size)`` mixes types.
Operations of one batch may overlap: the executor skips the later ones, which the properties
must survive as well.
"""

from __future__ import annotations

import random
import re
from typing import Any

from deskcheck.engine.docx.edit.delete_block import carries_section_break, followed_by_paragraph
from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.model.hashing import text_hash
from deskcheck.engine.docx.model.offsets import splits_cluster, to_utf16

TYPES = (
    "replaceInBlock", "replaceRange", "commentOnRange", "formatRange", "insertAfterBlock", "insertBeforeBlock",
    "replaceBlock", "deleteBlock", "splitBlock", "mergeBlockWithNext", "setBlockParagraphProperties", "commentOnBlock",
)  # fmt: skip
WORDS = ("alpha", "Beta", "gamma-delta", "ščř", "naïve", "日本", "\U0001f600", "x", "Notice", "42")
_WORD = re.compile(r"\w+")


def _text(rnd: random.Random, allow_empty: bool = True) -> str:
    count = rnd.randint(0 if allow_empty else 1, 4)
    return " ".join(rnd.choice(WORDS) for _ in range(count))


def _boundaries(text: str) -> list[int]:
    """Code-point indexes that split no character cluster."""
    return [i for i in range(len(text) + 1) if not splits_cluster(text, i)]


def _range(block, rnd: random.Random) -> dict[str, Any] | None:
    text = block.text
    cuts = _boundaries(text)
    if len(cuts) < 2:
        return None
    first = rnd.randrange(len(cuts) - 1)
    last = rnd.randrange(first + 1, min(len(cuts), first + 12))
    start, end = cuts[first], cuts[last]
    return {
        "type": "textRange",
        "story": "main",
        "blockId": block.id,
        "startOffset": to_utf16(text, start),
        "endOffset": to_utf16(text, end),
        "selectedTextHash": text_hash(text[start:end]),
    }


def _paragraph_styles(doc: DocxDocument) -> list[str]:
    from deskcheck.engine.docx.edit.context import ResolveContext

    return [sid for sid, _ in ResolveContext(doc, "direct").paragraph_styles()]


def operation_for(doc: DocxDocument, kind: str, rnd: random.Random) -> dict[str, Any] | None:
    blocks = [b for b in doc.blocks if not b.pending_deletion]
    texted = [b for b in blocks if b.text.strip()]
    if not blocks:
        return None
    if kind in ("replaceRange", "commentOnRange", "formatRange"):
        if not texted:
            return None
        rng = _range(rnd.choice(texted), rnd)
        if rng is None:
            return None
        if kind == "replaceRange":
            return {"type": kind, "range": rng, "replace": _text(rnd)}
        if kind == "commentOnRange":
            return {"type": kind, "range": rng, "comment": "Range " + _text(rnd, False)}
        flags = rnd.sample(["bold", "italic", "underline"], rnd.randint(1, 3))
        return {"type": kind, "range": rng, "formatting": {flag: rnd.random() < 0.7 for flag in flags}}
    if kind == "replaceInBlock":
        rnd.shuffle(texted)
        for block in texted[:20]:
            unique = [w for w in set(_WORD.findall(block.text)) if block.text.count(w) == 1]
            if unique:
                find = rnd.choice(sorted(unique))
                return {"type": kind, "blockId": block.id, "find": find, "replace": _text(rnd)}
        return None
    block = rnd.choice(blocks)
    if kind in ("insertAfterBlock", "insertBeforeBlock"):
        return {"type": kind, "blockId": block.id, "text": _text(rnd)}
    if kind == "replaceBlock":
        words = block.text.split(" ")
        if words and rnd.random() < 0.7:
            words[rnd.randrange(len(words))] = rnd.choice(WORDS)
        else:
            words.append(rnd.choice(WORDS))
        text = " ".join(words)
        return None if text == block.text else {"type": kind, "blockId": block.id, "text": text}
    if kind == "deleteBlock":
        candidates = [b for b in blocks if not carries_section_break(b.element) and b.text]
        return {"type": kind, "blockId": rnd.choice(candidates).id} if candidates else None
    if kind == "splitBlock":
        cuts = _boundaries(block.text)
        return {"type": kind, "blockId": block.id, "offset": to_utf16(block.text, rnd.choice(cuts))}
    if kind == "mergeBlockWithNext":
        ids = {b.element: b for b in blocks}
        candidates = []
        for b in blocks:
            if carries_section_break(b.element) or not followed_by_paragraph(b.element):
                continue
            following = b.element.getnext()
            while following is not None and following.tag != b.element.tag:
                following = following.getnext()
            if following in ids:
                candidates.append(b)
        return {"type": kind, "blockId": rnd.choice(candidates).id} if candidates else None
    if kind == "setBlockParagraphProperties":
        choice = rnd.randrange(3)
        if choice == 0:
            return {"type": kind, "blockId": block.id, "alignment": rnd.choice(["left", "center", "right", "justify"])}
        if choice == 1:
            styles = _paragraph_styles(doc)
            if not styles:
                return None
            return {"type": kind, "blockId": block.id, "styleId": rnd.choice(styles)}
        return {"type": kind, "blockId": block.id, "indentation": {"left": rnd.choice([0, 18, 36.5])}}
    if kind == "commentOnBlock":
        return {"type": kind, "blockId": block.id, "comment": "Block " + _text(rnd, False)}
    raise ValueError(kind)


def random_batch(doc: DocxDocument, rnd: random.Random, size: int) -> list[dict[str, Any]]:
    batch = []
    for _ in range(size * 3):
        if len(batch) == size:
            break
        op = operation_for(doc, rnd.choice(TYPES), rnd)
        if op is not None:
            batch.append(op)
    return batch
