"""Reading content that a document shows but stores in another form, as paragraphs of text.

Two kinds of markup make Word show text that is not in the story's own runs: ``w:altChunk``
(a part of another format, imported where the element stands: see ``chunks``) and a rich-text
content control bound to the data store (its value is a whole document in Flat OPC form: see
``bindings``). Both are read here into ``ImportedParagraph``s, the text a reader sees paragraph
by paragraph, with its heading level:

- WordprocessingML (a .docx, .docm, .dotx or .dotm part, or a Flat OPC document): opened as a
  package of its own that spends the outer package's parse budget, read through the same block
  model (its own styles, numbering, hidden text, tracked changes accepted, its own chunks and
  bindings, one level deeper), every paragraph a paragraph (table cells and text boxes
  flattened, in reading order), a list paragraph's number before its text;
- HTML and XHTML: parsed by lxml's HTML parser (no network, no entities, comments and
  processing instructions dropped); the text of each block element (``p``, ``div``, ``li``,
  ``td``, headings, ...) is a paragraph, whitespace collapsed as a browser does, ``head``,
  ``script``, ``style`` and elements hidden by the ``hidden`` attribute or an inline
  ``display:none`` / ``visibility:hidden`` left out (style sheets are not evaluated);
- plain text: one paragraph per line (UTF-8 or UTF-16 with a byte order mark, UTF-8 without
  one, Windows-1252 when that fails);
- MHT (web archive): its first HTML part, else its first text part, as above.

Anything else is not read; the caller reports it (``Unreadable``). Characters a .docx cannot
store (control characters) are dropped.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

from ...errors import InputError
from ..wml.text import unstorable_character

if TYPE_CHECKING:
    from ..package.docx_package import DocxPackage

MAX_DEPTH = 3  # a chunk inside a chunk inside a chunk; deeper ones are reported unread
MAX_MHT_BYTES = 16 * 1024 * 1024

_FLAT_OPC = "http://schemas.microsoft.com/office/2006/xmlPackage"
_UNSTORABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SPACES = re.compile(r"[ \t\r\n\f]+")


class ImportedParagraph(NamedTuple):
    text: str
    heading_level: int | None = None


class Unreadable(Exception):
    """Content that is not read, with the reason in words a reader can act on."""


class Imported(NamedTuple):
    paragraphs: list[ImportedParagraph]
    # What the content itself left unread (a chunk inside an embedded document), as
    # (part, format, reason) for the caller to report.
    unread: list[tuple[str, str, str]]


def storable(text: str) -> str:
    return _UNSTORABLE.sub("", text) if unstorable_character(text) else text


# -- WordprocessingML ---------------------------------------------------------------------------


def read_wordprocessing(data: bytes, name: str, within: DocxPackage, depth: int) -> Imported:
    """The paragraphs of an embedded .docx (``data``, zip bytes), read ``depth`` levels down."""
    from ..package.docx_package import DocxPackage

    if depth > MAX_DEPTH:
        raise Unreadable(f"it is a document nested more than {MAX_DEPTH} levels deep in imported documents")
    try:
        package = DocxPackage.from_bytes(data, name, within=within)
        return _document_paragraphs(package, depth)
    except InputError as exc:
        if exc.code == "tooLarge":
            raise Unreadable(over_budget(exc)) from None
        raise Unreadable(f"it is not a Word document deskcheck can open ({exc})") from None


def read_flat_opc(data: bytes, name: str, within: DocxPackage, depth: int) -> Imported:
    """The paragraphs of a Word document in Flat OPC form (one XML document holding every part,
    as Word stores the value of a rich-text control bound to the data store)."""
    import io
    import zipfile

    from ..wml.parser import XmlError, parse_xml

    if depth > MAX_DEPTH:
        raise Unreadable(f"it is a document nested more than {MAX_DEPTH} levels deep in imported documents")
    try:
        within.charge(name, data)
        root = parse_xml(data)
    except XmlError as exc:
        raise Unreadable(f"it is not well-formed XML ({exc})") from None
    except InputError as exc:
        raise Unreadable(over_budget(exc)) from None
    if root.tag != f"{{{_FLAT_OPC}}}package":
        raise Unreadable("it is XML of a kind Word does not import as a document")
    from lxml import etree

    out = io.BytesIO()
    types = []
    written: set[str] = set()
    with zipfile.ZipFile(out, "w") as archive:
        for part in root.iter(f"{{{_FLAT_OPC}}}part"):
            part_name = (part.get(f"{{{_FLAT_OPC}}}name") or "").lstrip("/")
            xml_data = part.find(f"{{{_FLAT_OPC}}}xmlData")
            # Binary parts (pictures) carry no text: they are left out, never decoded.
            if not part_name or part_name in written or xml_data is None or not len(xml_data):
                continue
            written.add(part_name)
            archive.writestr(part_name, etree.tostring(xml_data[0], xml_declaration=True, encoding="UTF-8"))
            content_type = part.get(f"{{{_FLAT_OPC}}}contentType") or ""
            types.append(f'<Override PartName="/{_escape(part_name)}" ContentType="{_escape(content_type)}"/>')
        archive.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
            'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            f'relationships+xml"/>{"".join(types)}</Types>',
        )
    return read_wordprocessing(out.getvalue(), name, within, depth)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _document_paragraphs(package: DocxPackage, depth: int) -> Imported:
    from .document import DocxDocument
    from .stories import list_stories

    doc = DocxDocument(package, depth=depth)
    paragraphs = []
    for block in doc.blocks:
        if block.pending_deletion:
            continue
        text = f"{block.display_label} {block.text}" if block.display_label else block.text
        paragraphs.append(ImportedParagraph(storable(text), block.heading_level))
    unread = [(entry.part, entry.format, entry.reason) for entry in doc.unread_entries()]
    if any(story.handle["type"] in ("footnote", "endnote") for story in list_stories(doc)):
        unread.append((package.name, "docx", "the footnotes and endnotes of this imported document are not read"))
    return Imported(paragraphs, unread)


def over_budget(exc: InputError) -> str:
    return (
        "reading it would take the document over deskcheck's size limits (it is counted with the document "
        "around it); raise the limit named in this message for one run if you trust the file: " + str(exc)
    )


# -- HTML, text, MHT ----------------------------------------------------------------------------------

_BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead",
    "tr", "ul",
})  # fmt: skip
# Elements a browser does not draw as text.
_SKIPPED_TAGS = frozenset({"head", "script", "style", "template", "title", "meta", "link", "iframe", "datalist"})
_HIDDEN_STYLE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))\s*(?:!important)?"
                           r"\s*(?:;|$)", re.IGNORECASE)  # fmt: skip


def read_html(data: bytes, name: str, within: DocxPackage, encoding: str | None = None) -> Imported:
    """The paragraphs of an HTML file, in ``encoding`` when the caller knows it (a web archive's
    part says it), else as the file declares (a byte order mark, a meta charset)."""
    from lxml import etree
    from lxml.html import HTMLParser

    try:
        within.charge(name, data)
    except InputError as exc:
        raise Unreadable(over_budget(exc)) from None
    try:
        parser = HTMLParser(no_network=True, remove_comments=True, remove_pis=True, huge_tree=False, encoding=encoding)
    except LookupError:
        parser = HTMLParser(no_network=True, remove_comments=True, remove_pis=True, huge_tree=False)
    try:
        root = etree.fromstring(data, parser) if data.strip() else None
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise Unreadable(f"its HTML cannot be parsed ({exc})") from None
    # Sloppy HTML is read as a browser would; a limit hit (nesting past 256 levels) would cut the
    # document short, so that is unread rather than half read.
    fatal = [error for error in parser.error_log if error.level_name == "FATAL"]
    if fatal:
        raise Unreadable(f"its HTML goes past the parser's limits ({fatal[0].message.strip()})")
    paragraphs: list[ImportedParagraph] = []
    if root is not None:
        _html_paragraphs(root, paragraphs)
    return Imported(paragraphs, [])


def _html_paragraphs(root: Any, out: list[ImportedParagraph]) -> None:
    from lxml import etree

    buffer: list[str] = []
    preformatted = 0

    def flush(level: int | None = None) -> None:
        text = "".join(buffer)
        buffer.clear()
        if not preformatted:
            text = _SPACES.sub(" ", text).strip(" ")
        text = storable(text)
        if text:
            out.append(ImportedParagraph(text, level))

    walker = etree.iterwalk(root, events=("start", "end"))
    skipped: Any = None
    for event, element in walker:
        tag = element.tag.lower() if isinstance(element.tag, str) else ""
        if event == "start":
            if (
                tag in _SKIPPED_TAGS
                or element.get("hidden") is not None
                or _HIDDEN_STYLE.search(element.get("style") or "")
            ):
                walker.skip_subtree()
                skipped = element
                continue
            if tag in _BLOCK_TAGS:
                flush()
            if tag == "pre":
                preformatted += 1
            buffer.append(element.text or "")
        else:
            if element is skipped:
                skipped = None
            else:
                if tag in _BLOCK_TAGS:
                    level = int(tag[1]) if len(tag) == 2 and tag[0] == "h" and tag[1] in "123456" else None
                    flush(level)
                if tag == "pre":
                    preformatted -= 1
            buffer.append(element.tail or "")
    flush()


def read_text(data: bytes) -> Imported:
    text = _decode(data)
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return Imported([ImportedParagraph(storable(line)) for line in lines], [])


def _decode(data: bytes, charset: str | None = None) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    for encoding in (charset, "utf-8"):
        if encoding:
            try:
                return data.decode(encoding)
            except (LookupError, UnicodeDecodeError):
                continue
    return data.decode("cp1252", errors="replace")


def read_mht(data: bytes, name: str, within: DocxPackage) -> Imported:
    """A web archive (MIME, ``message/rfc822``): its first HTML part, else its first text part.
    The legacy parser keeps header parsing simple; only the content type and transfer encoding of
    each part are used."""
    import email
    from email import policy

    if len(data) > MAX_MHT_BYTES:
        raise Unreadable(f"it is a web archive over the {MAX_MHT_BYTES:,}-byte limit for one imported file")
    message = email.message_from_bytes(data, policy=policy.compat32)
    found = {}
    for part in message.walk():
        kind = part.get_content_type()
        if kind in ("text/html", "text/plain") and kind not in found and not part.is_multipart():
            found[kind] = part
    part = found.get("text/html") or found.get("text/plain")
    if part is None:
        raise Unreadable("it is a web archive with no HTML or text part")
    payload = part.get_payload(decode=True) or b""
    if part.get_content_type() == "text/html":
        return read_html(payload, name, within, part.get_content_charset())
    return read_text(_decode(payload, part.get_content_charset()).encode("utf-8"))
