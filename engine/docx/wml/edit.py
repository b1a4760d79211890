"""Small structural edits shared by the docx writers."""

from __future__ import annotations

from typing import Any

from .ns import NS, qn


def ensure_root_namespaces(root: Any, prefixes: tuple[str, ...], ignorable: tuple[str, ...] = ()) -> Any:
    """Return a root element that declares ``prefixes`` (and lists ``ignorable`` prefixes in
    ``mc:Ignorable``, so older consumers skip attributes they do not know). lxml cannot add a
    declaration to an existing element, so a new root is built when one is missing and the
    children are moved into it; the caller stores the returned root (``set_xml``)."""
    from lxml import etree

    missing = {p: NS[p] for p in prefixes if root.nsmap.get(p) != NS[p]}
    if ignorable and "mc" not in prefixes and root.nsmap.get("mc") != NS["mc"]:
        missing["mc"] = NS["mc"]
    new_root = root
    if missing:
        nsmap = dict(root.nsmap)
        nsmap.update(missing)
        new_root = etree.Element(root.tag, attrib=dict(root.attrib), nsmap=nsmap)
        new_root.text = root.text
        new_root.extend(list(root))
    if ignorable:
        attr = qn("mc:Ignorable")
        current = (new_root.get(attr) or "").split()
        for prefix in ignorable:
            if prefix not in current:
                current.append(prefix)
        new_root.set(attr, " ".join(current))
    return new_root


def remove_keeping_tail(element: Any) -> None:
    """Remove ``element``; text that trails it (``tail``) stays where it was, unless it is only
    the whitespace that separates elements."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    previous = element.getprevious()
    parent.remove(element)
    if tail and tail.strip():
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
