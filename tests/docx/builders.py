"""Small .docx files built from WordprocessingML fragments, for cases the corpus lacks.

``make_docx(path, body)`` writes a minimal but complete package: content types, package and
document relationships, ``word/document.xml`` with ``body`` inside ``w:body``, and optional
styles, numbering, comments (with commentsExtended) and extra parts. ``rewrite_parts`` changes
the parts of a package (``add_relationship`` is one such change). ``encrypted_file`` writes a file
the package reader must refuse.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

W_NS = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:v="urn:schemas-microsoft-com:vml"'
)
DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
MAIN_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
PARTS = {
    "styles": ("word/styles.xml", "styles",
               "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml", "styles"),
    "numbering": ("word/numbering.xml", "numbering",
                  "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml", "numbering"),
    "comments": ("word/comments.xml", "comments",
                 "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml", "comments"),
    "footnotes": ("word/footnotes.xml", "footnotes",
                  "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml", "footnotes"),
    "header": ("word/header1.xml", "hdr", "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml",
               "header"),
}  # fmt: skip
EXTENDED = (
    "word/commentsExtended.xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml",
    "http://schemas.microsoft.com/office/2011/relationships/commentsExtended",
)


def p(text: str = "", *, ppr: str = "", para_id: str | None = None, runs: str | None = None) -> str:
    attrs = f' w14:paraId="{para_id}"' if para_id else ""
    content = runs if runs is not None else (f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>' if text else "")
    return f"<w:p{attrs}>{f'<w:pPr>{ppr}</w:pPr>' if ppr else ''}{content}</w:p>"


def make_docx(path: Path, body: str, **parts: str) -> Path:
    """Write a .docx at ``path``. ``parts`` maps styles/numbering/comments/footnotes/header to
    the inner XML of that part's root, and ``comments_extended`` to commentsEx entries."""
    overrides = [("/word/document.xml", MAIN_CT)]
    rels = []
    files = {"word/document.xml": f"{DECL}<w:document {W_NS}><w:body>{body}</w:body></w:document>"}
    for number, (key, inner) in enumerate(sorted(parts.items()), start=1):
        if key == "comments_extended":
            name, content_type, rel_type = EXTENDED
            files[name] = f"{DECL}<w15:commentsEx {W_NS}>{inner}</w15:commentsEx>"
        else:
            name, root, content_type, rel_name = PARTS[key]
            rel_type = REL + rel_name
            files[name] = f"{DECL}<w:{root} {W_NS}>{inner}</w:{root}>"
        overrides.append(("/" + name, content_type))
        rels.append(f'<Relationship Id="rId{number}" Type="{rel_type}" Target="{name.split("/", 1)[1]}"/>')
    types = "".join(f'<Override PartName="{n}" ContentType="{t}"/>' for n, t in overrides)
    files["[Content_Types].xml"] = (
        f'{DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        f'<Default Extension="xml" ContentType="application/xml"/>{types}</Types>'
    )
    files["_rels/.rels"] = (
        f'{DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rId1" Type="{REL}officeDocument" Target="word/document.xml"/></Relationships>'
    )
    files["word/_rels/document.xml.rels"] = (
        f'{DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f"{''.join(rels)}</Relationships>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in ("[Content_Types].xml", "_rels/.rels", "word/_rels/document.xml.rels", *sorted(files)):
            if name in files:
                archive.writestr(name, files.pop(name))
    return path


def rewrite_parts(
    path: Path, edit: Callable[[dict[str, bytes]], object], *, compression: int = zipfile.ZIP_DEFLATED
) -> Path:
    """Write the package at ``path`` again, in place, after ``edit`` changed its parts: a dict of
    part name to bytes in the package's order, to change, add to or delete from."""
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    edit(parts)
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return path


def add_relationship(parts: dict[str, bytes], rel_id: str, kind: str, target: str, *, external: bool = False) -> None:
    """In a ``rewrite_parts`` edit: a relationship of the document part, ``rel_id`` of type
    ``kind`` (``hyperlink``, ``image``, ...) to ``target``."""
    mode = ' TargetMode="External"' if external else ""
    added = f'<Relationship Id="{rel_id}" Type="{REL}{kind}" Target="{target}"{mode}/></Relationships>'
    name = "word/_rels/document.xml.rels"
    parts[name] = parts[name].replace(b"</Relationships>", added.encode(), 1)


def encrypted_file(path: Path) -> Path:
    """What Word writes for a password-protected document: an OLE compound file with an
    EncryptionInfo stream, not a zip (the corpus has a real one)."""
    directory = "EncryptionInfo".encode("utf-16-le") + b"\0" * 50 + "EncryptedPackage".encode("utf-16-le")
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504 + directory + b"\0" * 1024)
    return path


HEADING_STYLE = '<w:pStyle w:val="Heading1"/>'


def long_document(path: Path, paragraphs: int, *, edited: bool = False) -> Path:
    """A document of ``paragraphs`` paragraphs (every tenth a heading), for what only shows at size:
    a pager, progress. With ``edited``, the same document as a later version would read: one
    paragraph in 30 reworded, one in 100 removed and one in 100 added."""
    body = []
    for number in range(paragraphs):
        text = f"Paragraph {number}: the parties agree that clause {number % 97} applies to every deliverable."
        if edited and number % 100 == 50:
            continue
        if edited and number % 30 == 7:
            text = text.replace("every deliverable", "each deliverable")
        body.append(p(text, ppr=HEADING_STYLE if number % 10 == 0 else ""))
        if edited and number % 100 == 75:
            body.append(p(f"A clause added after paragraph {number}."))
    return make_docx(path, "".join(body))


CT_PART = "[Content_Types].xml"


def add_override(parts: dict[str, bytes], name: str, content_type: str) -> None:
    """In a ``rewrite_parts`` edit: declare part ``name``'s content type."""
    override = f'<Override PartName="/{name}" ContentType="{content_type}"/></Types>'
    parts[CT_PART] = parts[CT_PART].replace(b"</Types>", override.encode(), 1)


def add_chunk(parts: dict[str, bytes], rel_id: str, name: str, content_type: str, data: bytes) -> None:
    """In a ``rewrite_parts`` edit: part ``name`` of ``content_type`` holding ``data``, related
    from the document part as an imported chunk (``aFChunk``) with id ``rel_id`` (the
    ``w:altChunk r:id`` that shows it)."""
    parts[name] = data
    add_relationship(parts, rel_id, "aFChunk", name.split("/", 1)[1])
    add_override(parts, name, content_type)


def add_custom_xml(parts: dict[str, bytes], number: int, item_id: str, xml: str) -> None:
    """In a ``rewrite_parts`` edit: custom XML part ``customXml/item{number}.xml`` holding
    ``xml``, with its properties part naming it ``item_id`` (what a ``w:dataBinding``'s
    ``w:storeItemID`` points to), related from the document part as Word relates it."""
    item, props = f"customXml/item{number}.xml", f"customXml/itemProps{number}.xml"
    parts[item] = (DECL + xml).encode()
    parts[props] = (
        f'{DECL}<ds:datastoreItem ds:itemID="{item_id}" '
        'xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"/>'
    ).encode()
    parts[f"customXml/_rels/item{number}.xml.rels"] = (
        f'{DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rId1" Type="{REL}customXmlProps" Target="itemProps{number}.xml"/></Relationships>'
    ).encode()
    add_relationship(parts, f"rIdCustom{number}", "customXml", f"../{item}")
    add_override(parts, props, "application/vnd.openxmlformats-officedocument.customXmlProperties+xml")


def bound_control(xpath: str, stored: str, *, store: str | None = None, mappings: str = "", kind: str = "<w:text/>",
                  block: bool = False, extra: str = "") -> str:  # fmt: skip
    """A content control bound to ``xpath`` whose stored content reads ``stored``: a run-level
    one (inside a paragraph), or with ``block`` a block-level one holding a paragraph."""
    store_attr = f' w:storeItemID="{store}"' if store else ""
    mapping_attr = f' w:prefixMappings="{mappings}"' if mappings else ""
    run = f'<w:r><w:t xml:space="preserve">{stored}</w:t></w:r>'
    content = p(runs=run) if block else run
    return (
        f'<w:sdt><w:sdtPr><w:dataBinding{mapping_attr} w:xpath="{xpath}"{store_attr}/>{kind}{extra}</w:sdtPr>'
        f"<w:sdtContent>{content}</w:sdtContent></w:sdt>"
    )
