"""Hostile inputs within the limits: what the worst document deskcheck accepts costs.

Each shape below is a .docx built to be as expensive as the size limits of ``engine/docx/package/limits.py``
allow for one kind of markup (empty paragraphs, XML comments, processing instructions, deep
nesting, attributes, namespace declarations, long text, many small parts, many relationships, ...),
plus the shapes of issue 15. Every docx command that reads a whole document runs on each, as its
own process, and the benchmark reports its CPU time (user + system, steadier than wall time on a
shared machine), wall time, peak resident memory and exit code: either the command finishes
within the budget (1 GiB, 30 s of CPU on this 2-core machine) or it refuses the document with
exit code 2 and a message naming the limit.

Run from the repository root with the project's environment active:
    python bench/hostile.py                    # every shape, every command
    python bench/hostile.py --shape issue --command read-document
    python bench/hostile.py --list             # the shapes and the commands
Each measured process runs under an address-space cap (``--cap-gib``, default 6) and a wall-time
cap (``--timeout``, default 300 s) so that a blow-up is reported instead of taking the machine down;
"capped" in the table means the process hit one of them.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from _common import REFERENCE_DOCX, deskcheck, environment, reference

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml"
MiB = 1024 * 1024

# -- building packages -------------------------------------------------------------------------


def xml_part(root: str, content: bytes, namespaces: str = "") -> bytes:
    head = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{root} xmlns:w="{W_NS}" xmlns:r="{R_NS}"'
    return head.encode() + namespaces.encode() + b">" + content + f"</w:{root}>".encode()


def document(body: bytes, namespaces: str = "") -> bytes:
    return xml_part("document", b"<w:body>" + body + b"</w:body>", namespaces)


class Part(NamedTuple):
    name: str
    content_type: str | None  # an Override; None for parts covered by a Default
    rel_type: str | None  # a relationship from document.xml; None for none
    data: bytes


def package(path: Path, body: bytes, *, parts: tuple[Part, ...] = (), rels: bytes = b"") -> Path:
    """A package holding ``body`` as document.xml, ``parts`` related from it, and ``rels`` (extra
    Relationship elements of document.xml.rels)."""
    overrides = "".join(
        f'<Override PartName="/{part.name}" ContentType="{part.content_type}"/>' for part in parts if part.content_type
    )
    types = (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
        'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/word/document.xml" ContentType="{MAIN}.document.main+xml"/>{overrides}</Types>'
    )
    related = "".join(
        f'<Relationship Id="rIdP{index}" Type="{R_NS}/{part.rel_type}" Target="{part.name.removeprefix("word/")}"/>'
        for index, part in enumerate(parts)
        if part.rel_type
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        archive.writestr("[Content_Types].xml", types)
        archive.writestr(
            "_rels/.rels",
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_RELS}"><Relationship Id="rId1" '
            f'Type="{R_NS}/officeDocument" Target="word/document.xml"/></Relationships>',
        )
        archive.writestr(
            "word/_rels/document.xml.rels",
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_RELS}">'.encode()
            + related.encode()
            + rels
            + b"</Relationships>",
        )
        archive.writestr("word/document.xml", body)
        for part in parts:
            archive.writestr(part.name, part.data)
    return path


_LETTERS = bytes(b"abcdefghijklmnop"[n % 16] for n in range(256))


def noise(count: int, seed: int = 15) -> bytes:
    """``count`` random lowercase letters (they compress about 1.7:1), so that a large part
    passes the compression-ratio check."""
    return random.Random(seed).randbytes(count).translate(_LETTERS)


def spread(unit: bytes, count: int, letters: int, seed: int) -> bytes:
    """``count`` copies of ``unit`` (holding one ``%s``), each with its own ``letters`` random
    letters: enough variety to keep a large part under the compression-ratio limit."""
    pool = noise(count * letters, seed)
    return b"".join(unit % pool[n * letters : (n + 1) * letters] for n in range(count))


def sections_with_headers(count: int) -> bytes:
    """``count`` sections, each using three header parts (default, first page, even pages) of
    the relationships ``package`` makes for its parts, in order."""
    kinds = (b"default", b"first", b"even")
    return b"".join(
        b"<w:p><w:pPr><w:sectPr>"
        + b"".join(
            b'<w:headerReference w:type="%s" r:id="rIdP%d"/>' % (kind, 3 * n + k) for k, kind in enumerate(kinds)
        )
        + b"</w:sectPr></w:pPr></w:p>"
        for n in range(count)
    )


def paragraphs_of(text: bytes, size: int) -> bytes:
    """Paragraphs of one run each, cut from ``text`` in pieces of ``size`` bytes."""
    out = []
    for start in range(0, len(text), size):
        out.append(b"<w:p><w:r><w:t>" + text[start : start + size] + b"</w:t></w:r></w:p>")
    return b"".join(out)


# -- the shapes ----------------------------------------------------------------------------------

SHAPES: dict[str, tuple[str, Callable[..., Path]]] = {}


def shape(name: str, description: str):
    def register(build: Callable[..., Path]) -> Callable[..., Path]:
        SHAPES[name] = (description, build)
        return build

    return register


@shape("issue", "issue 15: 22,500 x (60 empty paragraphs + a 4-letter XML comment), 8.3 MB under 8 MiB")
def _issue(path: Path, seed: int = 0) -> Path:
    return package(path, document((b"<w:p/>" * 60 + b"<!--abcd-->") * 22_500))


@shape("issue-large", "the same, 6 times longer (49 MB of markup; the issue's 789 KB file)")
def _issue_large(path: Path, seed: int = 0) -> Path:
    # Over 8 MiB the compression-ratio check applies: a few random letters per repetition keep
    # the part under 250:1.
    return package(path, document(spread(b"<w:p/>" * 60 + b"<!--%s-->", 135_000, 4, 1)))


@shape("paragraphs", "2,040,000 paragraphs, one in 51 holding three letters (13 MB)")
def _paragraphs(path: Path, seed: int = 0) -> Path:
    return package(path, document(spread(b"<w:p/>" * 50 + b"<w:p><w:r><w:t>%s</w:t></w:r></w:p>", 40_000, 3, 2)))


@shape("comments", "one paragraph and 3,000,000 XML comments (24 MB)")
def _comments(path: Path, seed: int = 0) -> Path:
    return package(path, document(b"<w:p/>" + spread(b"<!--%s-->", 3_000_000, 1, 3)))


@shape("instructions", "one paragraph and 3,000,000 processing instructions (21 MB)")
def _instructions(path: Path, seed: int = 0) -> Path:
    return package(path, document(b"<w:p/>" + spread(b"<?x %s?>", 3_000_000, 1, 4)))


@shape("nesting", "1,500 x content controls nested 120 deep (240 levels of elements)")
def _nesting(path: Path, seed: int = 0) -> Path:
    depth = 120
    unit = b"<w:sdt><w:sdtContent>" * depth + b"<w:p><w:r><w:t>x</w:t></w:r></w:p>" + b"</w:sdtContent></w:sdt>" * depth
    return package(path, document(unit * 1_500))


@shape("tables", "tables nested 80 deep (240 levels), 2,000 times")
def _tables(path: Path, seed: int = 0) -> Path:
    depth = 80
    unit = b"<w:tbl><w:tr><w:tc>" * depth + b"<w:p/>" + b"</w:tc></w:tr></w:tbl><w:p/>" * depth
    return package(path, document(unit * 2_000))


@shape("attributes", "40,000 paragraphs with 500 attributes each (20 million attributes)")
def _attributes(path: Path, seed: int = 0) -> Path:
    pool = noise(1000, 5)
    names = b"".join(b' a%d="%s"' % (i, pool[2 * i : 2 * i + 2]) for i in range(500))
    body = b"".join(b"<w:p" + names.replace(b'="', b'="%d' % n, 1) + b"/>" for n in range(40_000))
    return package(path, document(body))


@shape("one-element-attributes", "one paragraph with 1,000,000 attributes")
def _one_element_attributes(path: Path, seed: int = 0) -> Path:
    body = b"<w:p" + b"".join(b' a%d=""' % i for i in range(1_000_000)) + b"/>"
    return package(path, document(body))


@shape("attribute-values", "20 paragraphs whose style attribute is 9.5 MB long")
def _attribute_values(path: Path, seed: int = 0) -> Path:
    value = noise(9_500_000)
    body = b"".join(b'<w:p w:rsidR="' + value[i:] + value[:i] + b'"/>' for i in range(20))
    return package(path, document(body))


@shape("namespaces", "20,000 paragraphs declaring 300 namespaces each")
def _namespaces(path: Path, seed: int = 0) -> Path:
    declarations = b"".join(b' xmlns:n%d="urn:x:%d"' % (i, i) for i in range(300))
    body = b"".join(b"<w:p" + declarations.replace(b"urn:x:", b"urn:%d:" % n, 1) + b"/>" for n in range(20_000))
    return package(path, document(body))


@shape("long-text", "24 paragraphs of 9.9 MB of text each (238 MB)")
def _long_text(path: Path, seed: int = 0) -> Path:
    return package(path, document(paragraphs_of(noise(24 * 9_900_000), 9_900_000)))


@shape("runs", "one paragraph of 1,500,000 one-letter runs")
def _runs(path: Path, seed: int = 0) -> Path:
    return package(path, document(b"<w:p>" + spread(b"<w:r><w:t>%s</w:t></w:r>", 1_500_000, 1, 6) + b"</w:p>"))


@shape("wide-table", "a table of one row of 100,000 cells")
def _wide_table(path: Path, seed: int = 0) -> Path:
    cells = b"<w:tc><w:p/></w:tc>" * 100_000
    return package(path, document(b"<w:tbl><w:tr>" + cells + b"</w:tr></w:tbl>"))


@shape("tracked", "400,000 tracked insertions and deletions")
def _tracked(path: Path, seed: int = 0) -> Path:
    unit = (
        b'<w:p><w:ins w:id="%d" w:author="a" w:date="2024-01-01T00:00:00Z"><w:r><w:t>x</w:t></w:r></w:ins>'
        b'<w:del w:id="%d" w:author="b"><w:r><w:delText>y</w:delText></w:r></w:del></w:p>'
    )
    return package(path, document(b"".join(unit % (2 * n, 2 * n + 1) for n in range(200_000))))


@shape("comment-ranges", "200,000 comments, each anchored on its own paragraph")
def _comment_ranges(path: Path, seed: int = 0) -> Path:
    anchor = b'<w:p><w:commentRangeStart w:id="%d"/><w:r><w:t>x</w:t></w:r><w:commentRangeEnd w:id="%d"/></w:p>'
    body = b"".join(anchor % (n, n) for n in range(200_000))
    comment = b'<w:comment w:id="%d" w:author="a"><w:p><w:r><w:t>c</w:t></w:r></w:p></w:comment>'
    comments = xml_part("comments", b"".join(comment % n for n in range(200_000)))
    part = Part("word/comments.xml", f"{MAIN}.comments+xml", "comments", comments)
    return package(path, document(body), parts=(part,))


@shape("styles", "50,000 paragraph styles, each based on the previous one")
def _styles(path: Path, seed: int = 0) -> Path:
    style = b'<w:style w:type="paragraph" w:styleId="s%d"><w:name w:val="s%d"/><w:basedOn w:val="s%d"/></w:style>'
    styles = xml_part("styles", b"".join(style % (n, n, n - 1) for n in range(50_000)))
    body = b'<w:p><w:pPr><w:pStyle w:val="s49999"/></w:pPr><w:r><w:t>x</w:t></w:r></w:p>' * 2_000
    part = Part("word/styles.xml", f"{MAIN}.styles+xml", "styles", styles)
    return package(path, document(body), parts=(part,))


@shape("headers", "1,500 sections with 3 headers each, 4,500 header parts of 20,000 paragraphs")
def _headers(path: Path, seed: int = 0) -> Path:
    header = xml_part("hdr", b"<w:p/>" * 20_000)
    parts = tuple(Part(f"word/header{n}.xml", f"{MAIN}.header+xml", "header", header) for n in range(4_500))
    return package(path, document(sections_with_headers(len(parts) // 3)), parts=parts)


@shape("relationships", "1,000,000 relationships and 100,000 hyperlinks using them")
def _relationships(path: Path, seed: int = 0) -> Path:
    rels = b"".join(
        b'<Relationship Id="rL%d" Type="%s/hyperlink" Target="https://example.com/%d" TargetMode="External"/>'
        % (n, R_NS.encode(), n)
        for n in range(1_000_000)
    )
    link = b'<w:p><w:hyperlink r:id="rL%d"><w:r><w:t>link</w:t></w:r></w:hyperlink></w:p>'
    body = b"".join(link % (n * 10) for n in range(100_000))
    return package(path, document(body), rels=rels)


# -- at the limits ------------------------------------------------------------------------------
# The largest documents of each kind the limits of engine/docx/package/limits.py accept (a small margin
# below each), sized from the limits in force: these give the worst accepted cost. ``seed`` varies
# the text, so that the pair commands compare two different documents.


def _margin(limit: int) -> int:
    return limit - max(100, limit // 100)


def _limits():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from deskcheck.engine.docx.package import limits

    return limits


@shape("max-paragraphs", "as many paragraphs as MAX_PARAGRAPHS allows, each with a 6-letter run")
def _max_paragraphs(path: Path, seed: int = 0) -> Path:
    count = _margin(_limits().MAX_PARAGRAPHS)
    return package(path, document(spread(b"<w:p><w:r><w:t>%s</w:t></w:r></w:p>", count, 6, 10 + seed)))


@shape("max-runs", "as many one-letter runs as MAX_XML_NODES and MAX_RUNS allow, 12 to a paragraph")
def _max_runs(path: Path, seed: int = 0) -> Path:
    limits = _limits()  # a paragraph of 12 runs: 2 + 12 x 2 nodes
    runs = min(_margin(limits.MAX_XML_NODES) * 12 // 26, _margin(limits.MAX_RUNS))
    unit = b"<w:p><w:r><w:t>%s</w:t></w:r>" + b"<w:r><w:t>a</w:t></w:r>" * 11 + b"</w:p>"
    return package(path, document(spread(unit, runs // 12, 3, 20 + seed)))


@shape("max-runs-one-paragraph", "as many one-letter runs as MAX_XML_NODES and MAX_RUNS allow, in one paragraph")
def _max_runs_one_paragraph(path: Path, seed: int = 0) -> Path:
    runs = min(_margin(_limits().MAX_XML_NODES) // 2, _margin(_limits().MAX_RUNS))
    return package(path, document(b"<w:p>" + spread(b"<w:r><w:t>%s</w:t></w:r>", runs, 1, 30 + seed) + b"</w:p>"))


@shape("max-text", "MAX_XML_BYTES of text, in paragraphs of 9.9 MB (one text node each)")
def _max_text(path: Path, seed: int = 0) -> Path:
    size = _margin(_limits().MAX_XML_BYTES) - 4096
    return package(path, document(paragraphs_of(noise(size, 40 + seed), 9_900_000)))


@shape("max-shuffled", "paragraphs of 950 two-letter words, shuffled anew per version, as many as MAX_XML_BYTES allows")
def _max_shuffled(path: Path, seed: int = 0) -> Path:
    # Every paragraph of one version differs from its twin in the other at hundreds of places:
    # the most word-diff work a pair of documents can ask for (MAX_DIFF_WORK bounds it).
    rng = random.Random(50 + seed)
    words = (b"ab", b"cd", b"ef", b"gh")
    unit = 60 + 950 * 3
    count = (_margin(_limits().MAX_XML_BYTES) - 4096) // unit
    body = b"".join(
        b'<w:p><w:r><w:t xml:space="preserve">' + b" ".join(rng.choices(words, k=950)) + b"</w:t></w:r></w:p>"
        for _ in range(count)
    )
    return package(path, document(body))


@shape("max-attributes", "as many attributes as MAX_XML_NODES allows, 100 to a paragraph")
def _max_attributes(path: Path, seed: int = 0) -> Path:
    count = _margin(_limits().MAX_XML_NODES) // 101
    names = b"".join(b' w:a%d="%%s"' % n for n in range(100))
    unit = b"<w:p" + names + b"/>"
    pool = noise(count * 100, 50 + seed)
    return package(
        path,
        document(b"".join(unit % tuple(pool[i * 100 + k : i * 100 + k + 1] for k in range(100)) for i in range(count))),
    )


@shape("max-table", "one table with as many one-cell rows as MAX_PARAGRAPHS allows")
def _max_table(path: Path, seed: int = 0) -> Path:
    rows = _margin(_limits().MAX_PARAGRAPHS)
    body = spread(b"<w:tr><w:tc><w:p><w:r><w:t>%s</w:t></w:r></w:p></w:tc></w:tr>", rows, 4, 60 + seed)
    return package(path, document(b"<w:tbl>" + body + b"</w:tbl>"))


@shape("max-wide-table", "one row with as many cells as MAX_PARAGRAPHS allows")
def _max_wide_table(path: Path, seed: int = 0) -> Path:
    cells = _margin(_limits().MAX_PARAGRAPHS)
    body = spread(b"<w:tc><w:p><w:r><w:t>%s</w:t></w:r></w:p></w:tc>", cells, 4, 70 + seed)
    return package(path, document(b"<w:tbl><w:tr>" + body + b"</w:tr></w:tbl>"))


@shape("max-tracked", "as many tracked insertions and deletions as MAX_XML_NODES allows, 10 to a paragraph")
def _max_tracked(path: Path, seed: int = 0) -> Path:
    unit = b'<w:ins w:id="1" w:author="a" w:date="2024-01-01T00:00:00Z"><w:r><w:t>%s</w:t></w:r></w:ins>'
    changes = _margin(_limits().MAX_XML_NODES) * 10 // 61  # 6 nodes a change, 1 a paragraph of 10
    paragraph = b"<w:p>" + unit + unit.replace(b"%s", b"x") * 9 + b"</w:p>"
    return package(path, document(spread(paragraph, changes // 10, 4, 80 + seed)))


@shape("max-comments", "comments anchored 10 to a paragraph, as many as the limits allow")
def _max_comments(path: Path, seed: int = 0) -> Path:
    limits = _limits()  # a comment: 12 nodes, 2 runs, 1.1 paragraphs
    count = min(
        _margin(limits.MAX_PARAGRAPHS) * 10 // 11, _margin(limits.MAX_XML_NODES) // 13, limits.MAX_RUNS // 2 - 100
    )
    anchor = b'<w:commentRangeStart w:id="%d"/><w:r><w:t>x</w:t></w:r><w:commentRangeEnd w:id="%d"/>'
    body = b"".join(
        b"<w:p>" + b"".join(anchor % (n, n) for n in range(i, i + 10)) + b"</w:p>" for i in range(0, count, 10)
    )
    comment = b'<w:comment w:id="%d" w:author="a"><w:p><w:r><w:t>c%d</w:t></w:r></w:p></w:comment>'
    comments = xml_part("comments", b"".join(comment % (n, n + seed) for n in range(count)))
    part = Part("word/comments.xml", f"{MAIN}.comments+xml", "comments", comments)
    return package(path, document(body), parts=(part,))


@shape("max-headers", "4,500 header parts sharing MAX_PARAGRAPHS paragraphs, in 1,500 sections")
def _max_headers(path: Path, seed: int = 0) -> Path:
    per_part = _margin(_limits().MAX_PARAGRAPHS) // 4_500 - 1
    header = xml_part("hdr", b"<w:p><w:r><w:t>h</w:t></w:r></w:p>" * per_part)
    parts = tuple(Part(f"word/header{n}.xml", f"{MAIN}.header+xml", "header", header) for n in range(4_500))
    return package(path, document(sections_with_headers(len(parts) // 3)), parts=parts)


@shape("max-relationships", "as many relationships as MAX_XML_BYTES allows, 40,000 of them used by hyperlinks")
def _max_relationships(path: Path, seed: int = 0) -> Path:
    limits, links = _limits(), 40_000
    relationship = (
        b'<Relationship Id="rL%d" Type="' + R_NS.encode() + b'/hyperlink" Target="https://example.com/%d" '
        b'TargetMode="External"/>'
    )
    link = b'<w:p><w:hyperlink r:id="rL%d"><w:r><w:t>link</w:t></w:r></w:hyperlink></w:p>'
    by_nodes = (_margin(limits.MAX_XML_NODES) - links * 6) // 5
    by_bytes = (_margin(limits.MAX_XML_BYTES) - links * len(link) - 100_000) // (len(relationship) + 8)
    count = min(by_nodes, by_bytes)
    rels = b"".join(relationship % (n, n + seed) for n in range(count))
    body = b"".join(link % (n * (count // links)) for n in range(links))
    return package(path, document(body), rels=rels)


@shape(
    "max-nesting", "content controls nested 127 deep (255 levels, libxml2's limit is 256), as often as the limits allow"
)
def _max_nesting(path: Path, seed: int = 0) -> Path:
    depth = 127
    unit = b"<w:sdt><w:sdtContent>" * depth + b"<w:p><w:r><w:t>x</w:t></w:r></w:p>" + b"</w:sdtContent></w:sdt>" * depth
    return package(path, document(unit * (_margin(_limits().MAX_XML_NODES) // (2 * depth + 3))))


@shape("blank-heavy", "10,000 paragraphs, 98% empty, every labelled one changed between the two versions")
def _blank_heavy(path: Path, seed: int = 0) -> Path:
    # The blanks sit at other places in each version: re-anchoring once paired every unpaired
    # blank of one version with every one of the other (10,000 paragraphs: MemoryError).
    rng = random.Random(90 + seed)
    labelled = set(rng.sample(range(10_000), 200))
    body = b"".join(
        b"<w:p><w:r><w:t>Clause %d, version %d</w:t></w:r></w:p>" % (n, seed) if n in labelled else b"<w:p/>"
        for n in range(10_000)
    )
    return package(path, document(body))


@shape("duplicate-heavy", "20,000 paragraphs of 5 repeated texts, shuffled anew per version")
def _duplicate_heavy(path: Path, seed: int = 0) -> Path:
    texts = [b"Intentionally left blank.", b"Signature:", b"Date:", b"Initials", b"See schedule."]
    rng = random.Random(100 + seed)
    body = b"".join(b"<w:p><w:r><w:t>%s</w:t></w:r></w:p>" % rng.choice(texts) for _ in range(20_000))
    return package(path, document(body))


@shape(
    "one-sided",
    "the 1,500-paragraph reference contract, a blank between clauses; its second version 79,000 blanks (7 KB)",
)
def _one_sided(path: Path, seed: int = 0) -> Path:
    # Only one version needs to be hostile: the pair commands compare the contract with it.
    if seed == 0:
        with zipfile.ZipFile(reference(REFERENCE_DOCX)) as original:
            xml = original.read("word/document.xml")
        # Clauses typed with an empty paragraph between them, as many contracts are.
        return package(path, xml.replace(b"</w:p>", b"</w:p><w:p/>"))
    return package(path, document(b"<w:p/>" * 79_000))


@shape("utf32", "document.xml in UTF-32: 200,000 empty paragraphs (the count once read it as UTF-16 and found none)")
def _utf32(path: Path, seed: int = 0) -> Path:
    return _empty_paragraphs_encoded(path, 200_000, "UTF-32", "utf-32")


def _empty_paragraphs_encoded(path: Path, count: int, declared: str, codec: str) -> Path:
    text = document(b"<w:p/>" * count).decode().replace('encoding="UTF-8"', f'encoding="{declared}"')
    return package(path, text.encode(codec))


@shape("prefix-non-ascii", "300,000 empty paragraphs spelled <\u00fc:p/> (a prefix the count once missed)")
def _prefix_non_ascii(path: Path, seed: int = 0) -> Path:
    body = document(b"<w:p/>" * 300_000).decode()
    return package(
        path, body.replace("<w:", "<\u00fc:").replace("</w:", "</\u00fc:").replace("xmlns:w=", "xmlns:\u00fc=").encode()
    )


@shape("utf16-be", "300,000 empty paragraphs in UTF-16, big-endian, without a byte order mark")
def _utf16_be(path: Path, seed: int = 0) -> Path:
    # The count once decoded this little-endian and found no paragraph.
    return _empty_paragraphs_encoded(path, 300_000, "UTF-16", "utf-16-be")


@shape("chunk-fanout", "3,000 references to a .docx chunk of 3,000 references to one over the limits, 3 deep (5 KB)")
def _chunk_fanout(path: Path, seed: int = 0) -> Path:
    # What each chunk left unread was once listed at every reference: 9 million entries.
    refs = b'<w:altChunk r:id="rIdP0"/>' * 3_000
    level = Part("word/t.txt", "text/plain", "aFChunk", b"a line\n" * 50)
    with tempfile.TemporaryDirectory() as folder:
        for depth in range(3):
            inner = package(Path(folder) / f"c{depth}.docx", document(refs), parts=(level,))
            level = Part(f"word/c{depth}.docx", f"{MAIN}.document", "aFChunk", inner.read_bytes())
    return package(path, document(refs + b"<w:p><w:r><w:t>end %d</w:t></w:r></w:p>" % seed), parts=(level,))


# -- running -------------------------------------------------------------------------------------

# The commands measured on each shape; FILE is the hostile document, PLAIN a small ordinary one.
COMMANDS: dict[str, list[str]] = {
    "read-document": ["docx", "read-document", "FILE", '{"maxBlocks": 20}'],
    "outline": ["docx", "get-document-outline", "FILE"],
    "find-text": ["docx", "find-text", "FILE", '{"query": "zq"}'],
    "list-stories": ["docx", "list-stories", "FILE"],
    "read-comments": ["docx", "read-comments", "FILE"],
    "read-changes": ["docx", "read-changes", "FILE"],
    "suggest-changes": [
        "docx",
        "suggest-changes",
        "FILE",
        "--dry-run",
        '{"operations": [{"type": "replaceInBlock", "blockId": "1A2B3C4D", "find": "a", "replace": "b"}]}',
    ],
    "compare": ["docx", "compare", "PLAIN", "FILE"],
    "redline": ["docx", "redline", "PLAIN", "FILE", "-o", "OUT"],
    "accept-all": ["docx", "accept-all", "FILE", "-o", "OUT"],
    # Two documents of the same shape with different text: what a compare of two hostile
    # versions costs (both within the limits).
    "compare-pair": ["docx", "compare", "FILE", "FILE2"],
    "redline-pair": ["docx", "redline", "FILE", "FILE2", "-o", "OUT"],
}


class Outcome(NamedTuple):
    wall: float
    cpu: float  # user + system seconds: the work done, steadier than wall time on a shared machine
    peak_mib: float
    code: int | None  # None: killed by the time or memory cap
    message: str


def run(command: list[str], cap_gib: float, timeout: float) -> Outcome:
    def limit() -> None:
        cap = int(cap_gib * 1024**3)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(
            [deskcheck(), "--json", *command], stdout=out, stderr=subprocess.STDOUT, env=environment(), preexec_fn=limit
        )
        code: int | None
        try:
            _, status, usage = _wait(proc, timeout)
            code = os.waitstatus_to_exitcode(status)
        except TimeoutError:
            proc.kill()
            _, _, usage = os.wait4(proc.pid, 0)
            code = None
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read(4000).decode("utf-8", "replace")
    if code not in (0, 1, 2):
        message = "capped: " + (text.strip().splitlines() or [""])[-1][:100]
        code = None
    else:
        message = text.strip().splitlines()[0][:160] if text.strip() else ""
    return Outcome(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code, message)


def _wait(proc: subprocess.Popen, timeout: float):
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            return pid, status, usage
        if time.monotonic() > deadline:
            raise TimeoutError
        time.sleep(0.05)


def plain_document(path: Path) -> Path:
    body = b"".join(b"<w:p><w:r><w:t>Paragraph %d of an ordinary document.</w:t></w:r></w:p>" % n for n in range(50))
    return package(path, document(body))


def measured(names: list[str], commands: list[str], cap_gib: float, timeout: float) -> Iterator[tuple]:
    with tempfile.TemporaryDirectory(prefix="deskcheck-hostile-") as folder:
        plain = plain_document(Path(folder) / "plain.docx")
        for name in names:
            description, build = SHAPES[name]
            started = time.perf_counter()
            path = build(Path(folder) / f"{name}.docx")
            built = time.perf_counter() - started
            size = path.stat().st_size
            unpacked = sum(info.file_size for info in zipfile.ZipFile(path).infolist())
            print(f"\n{name}: {description}", flush=True)
            print(f"  {size / 1024:,.0f} KiB file, {unpacked / MiB:,.1f} MiB unpacked (built in {built:.1f} s)")
            second = None
            for command_name in commands:
                if "FILE2" in COMMANDS[command_name] and second is None:
                    second = build(Path(folder) / f"{name}-2.docx", seed=1)
                files = {"FILE": path, "FILE2": second, "PLAIN": plain, "OUT": Path(folder) / "out.docx"}
                command = [str(files[a]) if a in files else a for a in COMMANDS[command_name]]
                outcome = run(command, cap_gib, timeout)
                code = "capped" if outcome.code is None else str(outcome.code)
                print(
                    f"  {command_name:<16} {outcome.cpu:6.1f} s cpu {outcome.wall:6.1f} s wall "
                    f"{outcome.peak_mib:6.0f} MiB  exit {code:<6} {outcome.message[:100]}",
                    flush=True,
                )
                yield name, command_name, outcome
            for built_file in (path, second):
                if built_file is not None:
                    built_file.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES), help="only these shapes (repeatable)")
    parser.add_argument("--command", action="append", choices=list(COMMANDS), help="only these commands")
    parser.add_argument("--cap-gib", type=float, default=6.0, help="address-space cap of a measured process")
    parser.add_argument("--timeout", type=float, default=300.0, help="wall-time cap of a measured process, seconds")
    parser.add_argument("--list", action="store_true", help="list the shapes and commands, then stop")
    options = parser.parse_args()
    if options.list:
        for name, (description, _) in SHAPES.items():
            print(f"{name:<24} {description}")
        print("commands:", ", ".join(COMMANDS))
        return
    names = options.shape or list(SHAPES)
    commands = options.command or list(COMMANDS)
    worst_cpu = worst_peak = 0.0
    over = []
    for name, command, outcome in measured(names, commands, options.cap_gib, options.timeout):
        worst_cpu, worst_peak = max(worst_cpu, outcome.cpu), max(worst_peak, outcome.peak_mib)
        if outcome.code is None or outcome.cpu > 30 or outcome.peak_mib > 1024:
            over.append(f"{name} {command}")
    print(f"\nworst: {worst_cpu:.1f} s cpu, {worst_peak:.0f} MiB peak; over 1 GiB or 30 s: {', '.join(over) or 'none'}")
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
