"""Small structural edits shared by the docx writers."""

from __future__ import annotations

import re
from typing import Any

from .ns import NS, qn


def ensure_root_namespaces(root: Any, prefixes: tuple[str, ...], ignorable: tuple[str, ...] = ()) -> Any:
    """Return a root element that declares ``prefixes`` (and lists ``ignorable`` prefixes in
    ``mc:Ignorable``, so older consumers skip attributes they do not know). The caller stores
    the returned root (``set_xml``) when it is a new one.

    The declarations are added to the root in place (lxml's ``cleanup_namespaces`` with
    ``top_nsmap``, keeping every prefix declared anywhere, since attribute values such as
    ``mc:Choice/@Requires`` name prefixes too). Moving the children into a new root instead
    costs time quadratic in the part (a document of 40,000 tracked changes took minutes). A
    prefix the root binds to another namespace is the one case still handled with a new root."""
    from lxml import etree

    missing = {p: NS[p] for p in prefixes if root.nsmap.get(p) != NS[p]}
    if ignorable and "mc" not in prefixes and root.nsmap.get("mc") != NS["mc"]:
        missing["mc"] = NS["mc"]
    new_root = root
    if missing and any(p in root.nsmap for p in missing):
        nsmap = dict(root.nsmap)
        nsmap.update(missing)
        new_root = etree.Element(root.tag, attrib=dict(root.attrib), nsmap=nsmap)
        new_root.text = root.text
        new_root.extend(list(root))
    elif missing:
        declared = {match.decode() for match in _DECLARED_PREFIX.findall(etree.tostring(root))}
        etree.cleanup_namespaces(root, top_nsmap=missing, keep_ns_prefixes=sorted(declared | set(missing)))
    if ignorable:
        attr = qn("mc:Ignorable")
        current = (new_root.get(attr) or "").split()
        for prefix in ignorable:
            if prefix not in current:
                current.append(prefix)
        new_root.set(attr, " ".join(current))
    return new_root


_DECLARED_PREFIX = re.compile(rb"xmlns:([^=\s]+)\s*=")


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


def is_attached(element: Any, root: Any) -> bool:
    """Whether ``element`` is still inside ``root`` (an edit may have taken it, or an ancestor,
    out of the tree)."""
    node = element
    while node is not None:
        if node is root:
            return True
        node = node.getparent()
    return False
