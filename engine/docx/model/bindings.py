"""What a data-bound content control shows: the value in the data store, as Word displays it.

A content control with ``w:sdtPr/w:dataBinding`` shows the value of a node of the XML data store
(``datastore``), not the runs stored in its ``w:sdtContent``: Word refreshes the content from the
store when it opens the file, so the stored runs may be a stale copy ("EUR 10" where the person
sees "EUR 1,000,000"). ``resolve_binding`` says what the control shows:

- a plain-text control (``w:text``) and a rich-text control whose value is plain text: the value,
  line breaks included (a reader drops them, as it drops ``w:br``);
- a date control (``w:date``): the value formatted by its date picture (``date_pictures``); the
  stored text when the control's ``w:fullDate`` is the same day (Word wrote it in the document's
  language); the value as it is when it is not a date, or when the control stores its value as
  text (``w:storeMappedDataAs`` ``text``);
- a drop-down list or combo box: the display text of the list item whose value it is, else the
  value;
- a check box (``w14:checkbox``): its checked or unchecked symbol, by the value (``true``/``1``);
- a rich-text control whose value is a Word document in Flat OPC form (as Word 2013 and later
  store rich text in the store): that document's paragraphs (``embedded``);
- an empty value: the stored content (Word shows the control's placeholder).

A binding that finds no node leaves the stored content shown, and says so (``BOUND_CACHED``). One
that is not evaluated (a path outside the XPath subset Word writes, the walk's budget spent) or
whose rich-text value is not read shows the stored content too, and ``Bound.unread`` says why, for
the reader's list of unread content. Picture controls (no text), building-block
galleries, groups, citations and equations are not data-bound text: their stored content is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..wml.ns import W_DATABINDING, W_SDTPR, W_VAL, qn
from .scan import BOUND, BOUND_CACHED

if TYPE_CHECKING:
    from ..package.docx_package import DocxPackage
    from .datastore import DataStore
    from .embedded import ImportedParagraph

_W14 = "{http://schemas.microsoft.com/office/word/2010/wordml}"
_IGNORED = frozenset(qn(f"w:{name}") for name in ("picture", "docPartObj", "docPartList", "group", "citation",
                                                  "bibliography", "equation"))  # fmt: skip
_LISTS = frozenset({qn("w:dropDownList"), qn("w:comboBox")})
_DATE = qn("w:date")
_CHECKBOX = _W14 + "checkbox"
_XPATH, _STORE, _PREFIXES = qn("w:xpath"), qn("w:storeItemID"), qn("w:prefixMappings")


class Bound(NamedTuple):
    """What a bound control shows. ``text`` None: its stored content (``flag`` says whether the
    store agrees, ``BOUND``, or the binding found nothing, ``BOUND_CACHED``); ``paragraphs``: a
    rich-text value's paragraphs (``text`` then joins them, for a control inside a paragraph)."""

    flag: int
    text: str | None
    paragraphs: list[ImportedParagraph] | None = None
    unread: str | None = None  # why the value Word may show was not read (the stored text stands in)


def data_binding(sdt: Any) -> Any | None:
    """The ``w:dataBinding`` of content control ``sdt``, if it has one."""
    sdtpr = sdt.find(W_SDTPR)
    return sdtpr.find(W_DATABINDING) if sdtpr is not None else None


def resolve_binding(sdt: Any, store: DataStore, package: DocxPackage, depth: int) -> Bound | None:
    """What bound control ``sdt`` shows (see the module docstring); None when it is not bound
    (or its kind of control shows no bound text)."""
    bound = _resolve(sdt, store, package, depth)
    if bound is not None and bound.text:
        from .embedded import storable

        bound = bound._replace(text=storable(bound.text))  # no control characters in a .docx
    return bound


def _resolve(sdt: Any, store: DataStore, package: DocxPackage, depth: int) -> Bound | None:
    binding = data_binding(sdt)
    if binding is None:
        return None
    sdtpr = binding.getparent()
    kinds = {child.tag for child in sdtpr}
    if kinds & _IGNORED:
        return None
    from .datastore import Unchecked

    found = store.find(binding.get(_STORE), binding.get(_XPATH), binding.get(_PREFIXES))
    if found is None:
        return Bound(BOUND_CACHED, None)
    if isinstance(found, Unchecked):
        return Bound(BOUND_CACHED, None, unread=found.reason)
    value = found.value
    if _DATE in kinds:
        return Bound(BOUND, _date_text(sdtpr.find(_DATE), value))
    if value == "":
        return Bound(BOUND, None)
    if kinds & _LISTS:
        return Bound(BOUND, _list_text(sdtpr, value))
    if _CHECKBOX in kinds:
        return Bound(BOUND, _checkbox_text(sdtpr.find(_CHECKBOX), value))
    if qn("w:text") not in kinds and value.lstrip().startswith("<") and "xmlPackage" in value[:4096]:
        return _rich_text(value, found.part, package, depth)
    return Bound(BOUND, value)


def _date_text(date: Any, value: str) -> str | None:
    from .date_pictures import format_date, parse_xml_date, same_day  # datetime: only for dates

    stored_as = date.find(qn("w:storeMappedDataAs"))
    if stored_as is not None and stored_as.get(W_VAL) == "text":
        return value or None
    moment = parse_xml_date(value)
    if moment is None:
        return value or None
    if same_day(value, date.get(qn("w:fullDate"))):
        return None  # the stored text is Word's own rendering of this very date
    picture = date.find(qn("w:dateFormat"))
    return format_date(moment, picture.get(W_VAL) if picture is not None else None)


def _list_text(sdtpr: Any, value: str) -> str:
    for item in sdtpr.iter(qn("w:listItem")):
        if item.get(qn("w:value")) == value:
            return item.get(qn("w:displayText")) or value
    return value


def _checkbox_text(checkbox: Any, value: str) -> str:
    from ..wml.text import char_of_code

    checked = value.strip().lower() in ("true", "1")
    state = checkbox.find(_W14 + ("checkedState" if checked else "uncheckedState"))
    code = state.get(_W14 + "val") if state is not None else None
    if code is None:
        return "\u2612" if checked else "\u2610"
    return char_of_code(code)  # as for a w:sym, a symbol-font glyph stands for no text


def _rich_text(value: str, part: str, package: DocxPackage, depth: int) -> Bound:
    from .embedded import Unreadable, read_flat_opc

    try:
        imported = read_flat_opc(value.encode("utf-8"), part, package, depth + 1)
    except Unreadable as exc:
        reason = f"its value in the data store is a Word document that is not read: {exc}"
        return Bound(BOUND_CACHED, None, unread=reason)
    return Bound(BOUND, " ".join(p.text for p in imported.paragraphs if p.text), imported.paragraphs)
