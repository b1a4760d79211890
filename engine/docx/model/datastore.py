"""The document's XML data store, and the XPath subset Word writes to point into it.

A data-bound content control (``w:sdt`` with ``w:dataBinding``) shows the value of one node of
the store: a custom XML part (``customXml/itemN.xml``, related from the main part, named by the
``ds:itemID`` of its properties part), or one of the three stores Word builds from the package
itself, named by fixed ids (the core properties, the extended properties, and the cover page
properties, which Word keeps as an ordinary custom XML part).

The binding names its node with ``w:xpath`` (prefixes declared by ``w:prefixMappings``). Word
writes absolute location paths only: element steps with a prefix or none, each with optional
positional predicates (``/ns0:invoice[1]/ns0:lines[1]/ns0:line[2]``), optionally ending in an
attribute (``/@currency``) or ``text()``. That subset is all this module evaluates, by walking
the parsed part itself: no XPath engine, no functions, no axes, no variables, so no expression
can run code, reach the network or cost more than the walk. Anything else is not evaluated
(``Unchecked``): the control's stored text is read instead, and reported as unread, since Word may
evaluate it and show a value from the store.

``storeItemID`` (compared without regard to case, as Word does) picks the part; when it is
missing or names no part, the path is tried against every custom XML part in order and the
first that has the node answers (what ECMA-376 17.5.2.6 asks for an unnamed store).

Cost: every element a path visits is counted against ``MAX_STEPS`` for the whole document; past
it, further bindings are not evaluated (``Unchecked``, reported as unread). Results are cached
per (store, path, prefixes).
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ..package.docx_package import RT, DocxPackage, resolve_part_name

CORE_PROPERTIES_ID = "{6C3C8BC8-F283-45AE-878A-BAB7291924A1}"
EXTENDED_PROPERTIES_ID = "{6668398D-A668-4E3E-A5EB-62B293D839F1}"

MAX_PATH_CHARS = 4_000
MAX_PATH_STEPS = 100
MAX_STEPS = 2_000_000  # elements visited by every path of one document together

_DS_ITEM_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/customXml}itemID"
_NAME = r"[A-Za-z_][\w.\-]*"
_STEP = re.compile(rf"(?:({_NAME}):)?({_NAME}|\*)((?:\[[1-9][0-9]{{0,8}}\])*)$")
_ATTRIBUTE = re.compile(rf"@(?:({_NAME}):)?({_NAME})$")
_MAPPING = re.compile(rf"""xmlns:({_NAME})\s*=\s*(?:'([^']*)'|"([^"]*)")""")


class Step(NamedTuple):
    kind: str  # "element", "attribute" or "text"
    namespace: str | None  # None: no namespace (an unprefixed name)
    local: str  # "*" for any element
    positions: tuple[int, ...]


class Found(NamedTuple):
    """A resolved binding: the node's string value and the part that holds it."""

    value: str
    part: str


class Unchecked(NamedTuple):
    """A binding this module did not evaluate, and why: Word may show a value from the store
    there, so the stored text a reader gets instead is reported as unread, not as Word's."""

    reason: str


OUTSIDE_SUBSET = Unchecked(
    "its XPath is outside the subset Word writes that deskcheck evaluates (absolute element steps, positions, an "
    "attribute or text() last), so the value the data store gives it is not read"
)
OVER_BUDGET = Unchecked(
    f"the document's bindings together visit more than {MAX_STEPS:,} elements of the data store, deskcheck's limit, "
    "so the value this one shows is not read"
)


def prefix_mappings(text: str | None) -> dict[str, str]:
    """``xmlns:ns0='uri' xmlns:ns1="uri"`` as {prefix: uri}."""
    if not text:
        return {}
    return {match.group(1): match.group(2) if match.group(2) is not None else match.group(3)
            for match in _MAPPING.finditer(text)}  # fmt: skip


def compile_path(xpath: str | None, mappings: dict[str, str]) -> list[Step] | None:
    """The steps of an XPath in the subset Word writes, or None for anything else (a relative
    path, ``//``, an axis, a function, a predicate that is not a position, an undeclared
    prefix)."""
    if not xpath or len(xpath) > MAX_PATH_CHARS or not xpath.startswith("/") or "//" in xpath:
        return None
    parts = xpath[1:].split("/")
    if len(parts) > MAX_PATH_STEPS:
        return None
    steps: list[Step] = []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if last and part == "text()":
            steps.append(Step("text", None, "", ()))
            continue
        attribute = _ATTRIBUTE.match(part)
        if attribute is not None:
            if not last:
                return None
            namespace = _namespace(attribute.group(1), mappings)
            if namespace is False:
                return None
            steps.append(Step("attribute", namespace or None, attribute.group(2), ()))
            continue
        element = _STEP.match(part)
        if element is None:
            return None
        namespace = _namespace(element.group(1), mappings)
        if namespace is False:
            return None
        positions = tuple(int(n) for n in re.findall(r"\d+", element.group(3)))
        steps.append(Step("element", namespace or None, element.group(2), positions))
    return steps if steps and steps[0].kind == "element" else None


def _namespace(prefix: str | None, mappings: dict[str, str]) -> str | bool | None:
    if prefix is None:
        return None
    uri = mappings.get(prefix)
    return False if uri is None else uri


class DataStore:
    """The data store of one package (see the module docstring)."""

    def __init__(self, package: DocxPackage) -> None:
        self.package = package
        self._items: list[tuple[str | None, str]] | None = None
        self._cache: dict[tuple, Found | Unchecked | None] = {}
        self.steps = 0

    @property
    def exhausted(self) -> bool:
        return self.steps > MAX_STEPS

    def items(self) -> list[tuple[str | None, str]]:
        """(item id in upper case or None, part name) of every store, custom XML parts first in
        relationship order, then the package's properties."""
        if self._items is None:
            package = self.package
            items: list[tuple[str | None, str]] = []
            for part in package.related_parts(package.main_part, RT.CUSTOM_XML):
                items.append((_item_id(package, part), part))
            for rel_type, item_id in ((RT.CORE_PROPERTIES, CORE_PROPERTIES_ID),
                                      (RT.EXTENDED_PROPERTIES, EXTENDED_PROPERTIES_ID)):  # fmt: skip
                part = package.related_part("", rel_type)
                if part is not None:
                    items.append((item_id, part))
            self._items = items
        return self._items

    def find(self, store_id: str | None, xpath: str | None, mappings_text: str | None) -> Found | Unchecked | None:
        """The value a binding points to; None when it points to nothing; ``Unchecked`` when this
        module did not evaluate it (see the module docstring)."""
        key = ((store_id or "").upper(), xpath, mappings_text)
        if key in self._cache:
            return self._cache[key]
        found: Found | Unchecked | None = None
        steps = compile_path(xpath, prefix_mappings(mappings_text))
        if steps is None and xpath:
            found = OUTSIDE_SUBSET
        elif self.exhausted:
            found = OVER_BUDGET
        elif steps is not None:
            wanted = key[0]
            named = [part for item_id, part in self.items() if wanted and item_id == wanted]
            candidates = named or [part for item_id, part in self.items() if item_id not in _BUILT_IN]
            for part in candidates:
                root = self.package.xml(part)
                value = self._evaluate(root, steps)
                if value is not None:
                    found = Found(value, part)
                    break
            if found is None and self.exhausted:
                found = OVER_BUDGET
        self._cache[key] = found
        return found

    def _evaluate(self, root: Any, steps: list[Step]) -> str | None:
        nodes = [root.getroottree()]
        first = True
        for step in steps:
            if step.kind == "attribute":
                name = step.local if step.namespace is None else f"{{{step.namespace}}}{step.local}"
                for node in nodes:
                    value = node.get(name)
                    if value is not None:
                        return value
                return None
            if step.kind == "text":
                for node in nodes:
                    if node.text is not None:
                        return node.text
                return None
            matched: list[Any] = []
            for node in nodes:
                children = [node.getroot()] if first else node
                # With one position ([1], as Word writes), the rest of the children cannot match.
                enough = step.positions[0] if len(step.positions) == 1 else None
                selected = []
                for child in children:
                    self.steps += 1
                    if _matches(child, step):
                        selected.append(child)
                        if len(selected) == enough:
                            break
                for position in step.positions:
                    selected = selected[position - 1 : position]
                matched.extend(selected)
            if self.exhausted or not matched:
                return None
            nodes = matched
            first = False
        return _string_value(nodes[0])


_BUILT_IN = frozenset({CORE_PROPERTIES_ID, EXTENDED_PROPERTIES_ID})


def _matches(element: Any, step: Step) -> bool:
    tag = element.tag
    if not isinstance(tag, str):
        return False  # a comment or processing instruction
    if step.local == "*":
        return step.namespace is None or tag.startswith("{" + step.namespace + "}")
    if step.namespace is None:
        return tag == step.local
    return tag == f"{{{step.namespace}}}{step.local}"


def _string_value(element: Any) -> str:
    """XPath's string value of an element: its text and all text inside it, in order."""
    from lxml import etree

    return etree.tostring(element, method="text", encoding="unicode", with_tail=False)


def _item_id(package: DocxPackage, part: str) -> str | None:
    """The ``ds:itemID`` of a custom XML part's properties part, in upper case."""
    for rel in package.relationships(part):
        if rel.type == RT.CUSTOM_XML_PROPS and not rel.external:
            props = resolve_part_name(part, rel.target)
            if package.has_part(props):
                item_id = package.xml(props).get(_DS_ITEM_ID)
                return item_id.upper() if item_id else None
    return None
