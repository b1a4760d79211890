"""The form tools' answers as text: the field lines of describeState, and the reports of writes.

A field line reads
``- <path> (<type>, <flags>, <constraints>) label="..." value=<value> help="..." — <error>``:
the type an agent sees (text, number, select, array, variant-selector...), then ``required``,
``readOnly``, ``error``, ``modified``, the constraints the form or the validator applies
(``min=``, ``step=``, ``format=``, ``pattern=``, ``maxLength=``...), the options of a choice field
(``values=[...]`` when the list is short and known, ``suggestions`` when getFieldSuggestions has
it, ``suggestions once another field is set`` when the list waits for another value) and the
item count of a list. Values over 1000 characters are named by kind and size, never cut. Under a
variant selector come its variants (a union already listed is named, not repeated); an empty
list shows the fields its items will have.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..schema.layout import agent_type
from ..schema.values import UNSET, json_default
from .errors import FieldError
from .state import ArrayReport, FormError, FormState, SetDataReport, VisibilityChange, WriteReport
from .suggestions import Listing
from .tree import Node

# Values longer than this (as JSON) are named, not printed.
MAX_VALUE_CHARS = 1000
# Help texts longer than this are printed only when the field itself is described.
MAX_INLINE_HELP = 300
# values=[...] is printed when the list is this short (plain) or this short (with titles).
MAX_VALUES_PLAIN = 200
MAX_VALUES_TITLED = 600
# An option whose value is longer than this (as JSON) is applied by index only.
MAX_OPTION_VALUE = 100
# Lists longer than this print their active item in full and the others on one line each.
MAX_FULL_ITEMS = 5
# Items of one list an answer lists (describeState's maxItems; a page, as read_document's).
PAGE_ITEMS = 50
MAX_PAGE_ITEMS = 500
# Items with errors outside the page that the line after it names.
MAX_NAMED_ITEMS = 5
# How many paths a visibility line names.
MAX_NAMED_PATHS = 10


def abbreviate(value: Any) -> str:
    if value is UNSET:
        return "unset"
    text = json.dumps(value, ensure_ascii=False, default=json_default)
    if len(text) <= MAX_VALUE_CHARS:
        return text
    if isinstance(value, list):
        return f"<array of {len(value)} items, {len(text)} chars: read it with getData on this path>"
    if isinstance(value, dict):
        return f"<object, {len(text)} chars: read it with getData on this path>"
    kind = "string" if isinstance(value, str) else type(value).__name__
    return f"<{kind}, {len(text)} chars: read it with getData on this path>"


_TAG = re.compile(r"<[^>]+>")
# A document field an expression reads: rootData.a.b, rootData["a b"], rootData.list[0].
_ROOT_READ = re.compile(r"rootData((?:\.[A-Za-z_$][\w$]*|\[\d+\]|\[\"[^\"]*\"\]|\['[^']*'\])+)")
_ACCESS = re.compile(r"\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[\"([^\"]*)\"\]|\['([^']*)'\]")


def help_to_text(text: str) -> str:
    """Help (markdown, possibly HTML) as one line of plain text."""
    import html  # with its table of entities: only when a help text is shown

    text = re.sub(r"<li[^>]*>", " - ", text, flags=re.I)
    text = _TAG.sub(" ", text)
    text = html.unescape(text)
    return re.sub(r"\s+", " ", text).strip()


class Describer:
    """Prints nodes. A union (its schema pointer) is listed in full once and then named by the
    path where it was listed. A read (``fresh=True``) starts from an empty memory, so everything
    it shows is listed once in it, then adds what it listed to the state's memory; a write's
    answer uses the state's memory, so a list the agent already has is not repeated."""

    def __init__(self, state: FormState, *, fresh: bool, page: Page | None = None) -> None:
        self.state = state
        self.fresh = fresh
        self.memo: dict[str, str] = {} if fresh else state.variants_memo
        self.page = page or Page()

    def remember(self) -> None:
        for pointer, path in self.memo.items():
            self.state.variants_memo.setdefault(pointer, path)

    def lines(self, node: Node, depth: int = 0, *, focus: bool = True) -> list[str]:
        out = [self._line(node, depth, asked=focus and depth == 0)]
        indent = "  " * (depth + 1)
        if node.is_selector:
            out.extend(indent + line for line in self._variant_lines(node, asked=focus and depth == 0))
        children = node.visible_children
        paged = node.is_list and len(children) > self.page.size
        if paged:
            first = self.page.first if node.full_key == self.page.list_key else 0
            page = children[first : first + self.page.size]
        else:
            page = children
        if node.is_list and isinstance(node.data, list) and len(node.data) > MAX_FULL_ITEMS and depth > 0:
            active = self.state.active_items.get(node.full_key)
            for child in page:
                if child.item_index == active and not child.folded:
                    out.extend(self.lines(child, depth + 1, focus=False))
                else:
                    out.append(indent + self._item_summary(child))
            if paged:
                out.append(indent + self._rest_line(node, children, page))
            return out
        if paged:
            out.extend(line for child in page for line in self.lines(child, depth + 1, focus=False))
            out.append(indent + self._rest_line(node, children, page))
            return out
        for child in children:
            if child.wrapper and not child.is_selector and child.comp != "slot" and not child.visible_children:
                continue  # a group with nothing shown in it
            out.extend(self.lines(child, depth + 1, focus=False))
        if not children and not node.is_selector:
            out.extend(indent + line for line in self._declared(node, asked=focus and depth == 0))
        return out

    def _line(self, node: Node, depth: int, *, asked: bool) -> str:
        meta = [agent_type(node.comp)]
        if node.required:
            meta.append("required")
        if node.read_only:
            meta.append("readOnly")
        if node.error:
            meta.append("error")
        if node.modified:
            meta.append("modified")
        if node.entry == "free":
            meta.append("extra key")
        skeleton = node.skeleton
        if skeleton is not None and not node.wrapper:
            meta.extend(f"{k}={_constraint(v)}" for k, v in skeleton.layout_constraints.items())
            meta.extend(
                f"{k}={_constraint(v)}" for k, v in skeleton.constraints.items() if k not in skeleton.layout_constraints
            )
        options = self._options_flag(node)
        if options:
            meta.append(options)
        if node.is_list and isinstance(node.data, list):
            meta.append(f"{len(node.data)} items")
        parts = [f"{'  ' * depth}- {node.path} ({', '.join(meta)})"]
        label = self._label(node)
        if label:
            parts.append(label)
        if not node.visible_children and not node.is_selector and node.comp != "slot":
            parts.append(f"value={abbreviate(node.data)}")
            if node.data is UNSET and skeleton is not None and skeleton.has_default:
                # Shown, not written: the document has no value here (setFieldValue writes it).
                parts.append(f"default={abbreviate(skeleton.default)}")
        if node.comp == "slot" and node.text:
            parts.append(f"text={json.dumps(help_to_text(node.text)[:MAX_INLINE_HELP], ensure_ascii=False)}")
        if skeleton is not None and skeleton.help and not node.wrapper:
            help_text = help_to_text(skeleton.help)
            if len(help_text) <= MAX_INLINE_HELP or asked:
                parts.append(f"help={json.dumps(help_text, ensure_ascii=False)}")
            else:
                parts.append(f"help=<{len(help_text)} chars: describeState {node.path} shows it>")
        line = " ".join(parts)
        if node.error:
            line += f" — {node.error}"
        if not asked and _unopened(node):
            holds = _holds(node)
            if holds:
                line += f" — can hold {holds}: describeState {node.path} lists them"
        for note in node.notes:
            line += f" — note: {note}"
        return line

    def _label(self, node: Node) -> str | None:
        if node.entry is not None:
            # A key of the document's own choosing: its name is what tells entries apart.
            title = node.skeleton.title if node.skeleton is not None else None
            return f"key={json.dumps(node.key, ensure_ascii=False)}" + (f' title="{title}"' if title else "")
        skeleton = node.skeleton
        if node.wrapper or node.is_selector or (skeleton is not None and skeleton.is_composite and node.children):
            title = node.title
            return f'title="{title}"' if title else None
        label = None
        if skeleton is not None:
            label = skeleton.label or skeleton.title
        if label is None and node.item_index is None and not node.key.startswith("$") and node.key:
            label = node.key
        return f'label="{label}"' if label else None

    def _options_flag(self, node: Node) -> str | None:
        if node.items_state is None:
            return None
        if node.items_state in ("static", "resolved") and node.items:
            plain = [i for i in node.items if not i.get("header")]
            scalar = all(not isinstance(i.get("value"), (dict, list)) for i in plain)
            if plain and scalar:
                titled = any(str(i.get("title", "")).casefold() != _plain(i.get("value")).casefold() for i in plain)
                if titled:
                    text = (
                        "["
                        + ", ".join(f"{json.dumps(i['value'], ensure_ascii=False)} ({i['title']})" for i in plain)
                        + "]"
                    )
                    if len(text) <= MAX_VALUES_TITLED:
                        return f"values={text}"
                else:
                    text = json.dumps([i["value"] for i in plain], ensure_ascii=False)
                    if len(text) <= MAX_VALUES_PLAIN:
                        return f"values={text}"
            return "suggestions"
        if node.items_state == "blocked":
            return waiting_flag(node)
        if node.items_state == "failed":
            return None
        return "suggestions"

    def _variant_lines(self, node: Node, *, asked: bool) -> list[str]:
        owner = node.variant_owner
        if owner is None:
            return []
        first = self.memo.get(owner.pointer)
        if first is not None and first != node.path and not asked:
            active = node.active_variant
            active_text = f" (variant {active}: {owner.variant_titles[active]} active)" if active is not None else ""
            return [
                f"- {len(owner.variants)} variants{active_text}, the same list as for {first}: "
                f"describeState {node.path} lists them again"
            ]
        self.memo.setdefault(owner.pointer, node.path)
        out = []
        for index, title in enumerate(owner.variant_titles):
            line = f"- variant {index}: {title}"
            tag = owner.variant_tag(index)
            if owner.discriminator and tag is not None:
                line += f" ({owner.discriminator}={json.dumps(tag, ensure_ascii=False)})"
            if index == node.active_variant:
                line += " (active)"
            out.append(line)
        return out

    def _rest_line(self, node: Node, children: list[Node], page: list[Node]) -> str:
        """What a page of a long list leaves out, and how to page through it."""
        shown = {id(child) for child in page}
        rest = [child for child in children if id(child) not in shown]
        failing = [child.path for child in rest if any(n.error for n in child.walk())]
        flagged = ""
        if failing:
            named = ", ".join(failing[:MAX_NAMED_ITEMS]) + (", ..." if len(failing) > MAX_NAMED_ITEMS else "")
            flagged = f"; {len(failing)} of them with errors ({named})"
        after = page[-1].item_index + 1 if page and page[-1].item_index is not None else 0
        if after >= len(children):
            pointer = json.dumps({"path": node.path, "fromItem": 0})
            return (
                f"... {len(rest)} earlier item(s) of {len(children)} not listed here{flagged}: "
                f"describeState {pointer} starts again"
            )
        pointer = json.dumps({"path": node.path, "fromItem": after})
        return (
            f"... {len(rest)} more item(s) of {len(children)} not listed here{flagged}: "
            f"describeState {pointer} lists the next {self.page.size} (maxItems sets how many)"
        )

    def _item_summary(self, node: Node) -> str:
        title = _item_title(node)
        if node.folded:
            count = len(node.data) if isinstance(node.data, dict) else 0
        else:
            count = sum(1 for _ in node.walk()) - 1
        flags = ", error" if any(n.error for n in node.walk()) else ""
        label = f' title="{title}"' if title else ""
        return (
            f"- {node.path} ({agent_type(node.comp)}{flags}){label} — {count} field(s): "
            f"describeState {node.path} shows them"
        )

    def _declared(self, node: Node, *, asked: bool) -> list[str]:
        skeleton = node.skeleton
        if skeleton is None:
            return []
        if _unopened(node):
            return _declared_object(node) if asked else []
        if node.is_list and skeleton.item is not None:
            item = skeleton.item
            prefix = f"{node.full_key}/0"
            return [
                _declared_line(f"{prefix}/{name}", sub, name in item.required)
                for name, sub in item.properties
                if sub.comp != "none"
            ]
        return []


def _unopened(node: Node) -> bool:
    """An object field whose value is not in the data, so the tree holds nothing under it."""
    skeleton = node.skeleton
    return (
        skeleton is not None
        and not node.children
        and not node.wrapper
        and (skeleton.object_composite or skeleton.tuple_items)
        and not isinstance(node.data, (dict, list))
    )


def _holds(node: Node) -> str:
    """What an object absent from the data can hold, in a few words ("3 fields and 2 variants")."""
    skeleton = node.skeleton
    assert skeleton is not None
    # From the names alone: reading each property's schema would cost what this field spares.
    fields = len(skeleton.property_names) + len(skeleton.tuple_entries)
    parts = [f"{fields} field(s)"] if fields else []
    if skeleton.variants:
        parts.append(f"{len(skeleton.variants)} variants")
    if skeleton.is_map:
        parts.append("keys of your choosing")
    return " and ".join(parts)


def _declared_object(node: Node) -> list[str]:
    """The fields an object absent from the data can hold, one line each (a write to one of
    these paths creates the object)."""
    skeleton = node.skeleton
    assert skeleton is not None
    from .tree import _ptr

    lines = [
        _declared_line(_ptr(node.full_key, name), sub, name in skeleton.required)
        for name, sub in skeleton.properties
        if sub.comp != "none"
    ]
    lines += [
        _declared_line(_ptr(node.full_key, index), sub, False) for index, sub in enumerate(skeleton.tuple_entries)
    ]
    if skeleton.variants:
        listed = ", ".join(f"variant {i}: {title}" for i, title in enumerate(skeleton.variant_titles))
        lines.append(f"- {_ptr(node.full_key, '$oneOf')} (variant-selector, declared) {listed}")
    if skeleton.is_map:
        entry = skeleton.additional or next((sub for _, sub in skeleton.pattern_properties), None)
        kind = (entry.kind or agent_type(entry.comp)) if entry is not None else "json"
        patterns = list(skeleton.schema.get("patternProperties") or {})
        names = f", keys matching {', '.join(patterns)}" if patterns else ""
        lines.append(f"- {node.full_key}/<key> ({kind}, declared map entry{names})")
    return lines


def _declared_line(path: str, skeleton: Any, required: bool) -> str:
    kind = skeleton.kind or agent_type(skeleton.comp)
    meta = [kind, "declared"]
    if required:
        meta.append("required")
    enum = skeleton.schema.get("enum")
    if isinstance(enum, list) and len(json.dumps(enum)) <= MAX_VALUES_PLAIN:
        meta.append(f"enum={json.dumps(enum, ensure_ascii=False)}")
    if skeleton.has_const:
        meta.append(f"const={abbreviate(skeleton.const)}")
    if skeleton.has_default:
        meta.append(f"default={abbreviate(skeleton.default)}")
    return f"- {path} ({', '.join(meta)})"


def _item_title(node: Node) -> str | None:
    skeleton = node.skeleton
    data = node.data
    parent = node.parent
    if parent is not None and parent.skeleton is not None and parent.skeleton.item_title is not None:
        from ..schema.expressions import ExpressionError, evaluate

        try:
            value = evaluate(parent.skeleton.item_title, {"data": data, "item": data})
        except ExpressionError:
            value = None
        if value not in (None, ""):
            return str(value)
    if isinstance(data, dict):
        for key in ("title", "name", "label", "id", "key"):
            if isinstance(data.get(key), (str, int)) and data.get(key) != "":
                return str(data[key])
    if skeleton is not None and skeleton.title:
        return skeleton.title
    return None


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _constraint(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


# -- describeState -------------------------------------------------------------------------------


def validity_header(state: FormState) -> list[str]:
    errors = state.errors
    head = ["valid: true, no errors"] if state.valid else [f"valid: false, {len(errors)} error(s)"]
    if errors:
        head += ["", "Errors:", *error_lines(errors)]
    problems = state.form.schema_problems
    if problems:
        head += ["", "Not checked (a part of the schema deskcheck cannot use):", *(f"- {p}" for p in problems)]
    return head


def error_lines(errors: list[FieldError]) -> list[str]:
    return [f"- {e.path}: {e.message}" for e in errors]


class Page:
    """Which items of long lists an answer lists: ``size`` of each, from item ``first`` of the
    list at ``list_key`` (describeState's fromItem and maxItems)."""

    def __init__(self, size: int = PAGE_ITEMS, first: int = 0, list_key: str | None = None) -> None:
        self.size, self.first, self.list_key = size, first, list_key


def describe(state: FormState, path: Any = None, from_item: Any = None, max_items: Any = None) -> str:
    size = _whole_number(max_items, "maxItems", PAGE_ITEMS, 1, MAX_PAGE_ITEMS)
    first = _whole_number(from_item, "fromItem", 0, 0, None)
    whole = path is None or (isinstance(path, str) and path.strip() in ("", "/"))
    node = state.tree.root if whole else state.node_for_edit(path)
    if from_item is not None and not node.is_list:
        raise FormError(f"fromItem pages through a list; {node.path} is not one.", code="notAList")
    items = node.visible_children if node.is_list else []
    if first and first >= len(items):
        raise FormError(f"fromItem {first} is past the last item of {node.path} ({len(items) - 1}).", code="pastTheEnd")
    page = items[first : first + size]
    if not whole and len(items) > size and any(item.folded for item in page):
        state.unfold_items(page)  # the list asked for shows its page's items in full
        node = state.node(path)
    describer = Describer(state, fresh=True, page=Page(size, first, node.full_key if node.is_list else None))
    if whole:
        text = "\n".join([*validity_header(state), "", "Fields:", *describer.lines(node, focus=False)])
        describer.remember()
        return text
    lines = describer.lines(node)
    describer.remember()
    mine, others = state.scoped_errors(node)
    return "\n".join([*lines, "", *scoped_block(state, mine, others)])


def _whole_number(value: Any, name: str, default: int, low: int, high: int | None) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"from {low}"
        raise FormError(f"{name} must be a whole number {bounds}, not {value!r}.", code="badPage")
    return value


def scoped_block(state: FormState, mine: list[FieldError], others: int) -> list[str]:
    out = ["no errors here"] if not mine else [f"{len(mine)} error(s) here:", *error_lines(mine)]
    if others:
        out.append(f"the form has {others} more error(s) elsewhere: describeState lists them")
    elif not state.valid:
        out.append("the form is not valid yet")
    else:
        out.append("the form is valid")
    return out


def visibility_lines(change: VisibilityChange) -> list[str]:
    out = []
    for paths, word in ((change.shown, "now shown"), (change.hidden, "now hidden")):
        if not paths:
            continue
        named = ", ".join(paths[:MAX_NAMED_PATHS])
        more = f", and {len(paths) - MAX_NAMED_PATHS} more" if len(paths) > MAX_NAMED_PATHS else ""
        out.append(f"{len(paths)} field(s) {word}: {named}{more}")
    return out


# -- write reports -------------------------------------------------------------------------------


def write_report(state: FormState, report: WriteReport) -> str:
    node = report.node
    lines = [f"{node.path} ({agent_type(node.comp)}) = {abbreviate(report.value)}"]
    lines += visibility_lines(report.visibility)
    if report.activated is not None:
        describer = Describer(state, fresh=False)
        lines += ["Fields of the chosen variant (now active):", *describer.lines(report.activated, focus=False)]
    lines += scoped_block(state, report.errors, report.other_errors)
    return "\n".join(lines)


def array_report(state: FormState, report: ArrayReport) -> str:
    if report.key is not None:
        return key_report(state, report)
    if report.action == "add":
        lines = [f"added an item at index {report.index}; the list has {report.length} item(s) now"]
        if report.item is not None:
            describer = Describer(state, fresh=False)
            lines += [
                "Fields of the new item (fill them with setFieldValue):",
                *describer.lines(report.item, focus=False),
            ]
    else:
        lines = [f"removed the item at index {report.index}; {report.length} item(s) left"]
    lines += visibility_lines(report.visibility)
    lines += scoped_block(state, report.errors, report.other_errors)
    return "\n".join(lines)


def key_report(state: FormState, report: ArrayReport) -> str:
    node = report.node
    key = json.dumps(report.key, ensure_ascii=False)
    if report.action == "add":
        lines = [f"added the key {key} to {node.path}"]
    elif report.action == "rename":
        lines = [f"renamed the key {key} of {node.path} to {json.dumps(report.new_key, ensure_ascii=False)}"]
    else:
        lines = [f"removed the key {key} from {node.path}"]
    if report.item is not None and report.action == "add":
        describer = Describer(state, fresh=False)
        lines += ["Its field (fill it with setFieldValue):", *describer.lines(report.item, focus=False)]
    lines += visibility_lines(report.visibility)
    lines += scoped_block(state, report.errors, report.other_errors)
    return "\n".join(lines)


def set_data_report(report: SetDataReport) -> str:
    if report.valid:
        lines = ["the form is valid"]
    else:
        lines = [f"the form is not valid: {len(report.errors)} error(s)", "Errors:", *error_lines(report.errors)]
    if report.whole:
        lines.append("stored the whole document")
    else:
        lines.append(
            f"stored {len(report.written)} key(s): {', '.join(report.written)}" if report.written else "stored no keys"
        )
    lines += visibility_lines(report.visibility)
    if report.removed:
        lines.append(
            f"removed {len(report.removed)} key(s) you did not pass: {', '.join(report.removed)} "
            "(merge=true keeps the keys you leave out)"
        )
    free = [path for path in report.unknown if path not in report.refused]
    if report.refused:
        lines.append(
            f"{len(report.refused)} key(s) this form does not accept: {', '.join(report.refused)} (kept in the data "
            "as errors: remove or rename them with editArray on the object that holds them)"
        )
    if free:
        lines.append(
            f"{len(free)} key(s) match no field of this form: {', '.join(free)} "
            "(kept in the data; check for a typo with describeState)"
        )
    return "\n".join(lines)


def suggestions_report(node: Node, listing: Listing, base: int) -> str:
    if not listing.options:
        if listing.blocked_by:
            return f"No options yet: {waiting_sentence(node, listing.blocked_by)}"
        return (
            "Nothing matched. The list exists but this query found no option in it: try a broader query, or "
            "none to see every option."
        )
    lines = [
        f"{len(listing.options)} option(s). Apply one with setFieldValue on the same path and its "
        "suggestionIndex (a short value can also be written as it is):"
    ]
    for offset, option in enumerate(listing.options):
        index = base + offset
        title = str(option.get("title", ""))
        key = option.get("key")
        line = f"- [{index}] {title}"
        if isinstance(key, (str, int)) and not isinstance(key, bool) and str(key) != title:
            line += f" ({key})"
        value = option.get("value")
        if value is None or (isinstance(value, (str, int, float, bool)) and len(json.dumps(value)) <= MAX_OPTION_VALUE):
            line += f" — value={json.dumps(value, ensure_ascii=False)}"
        else:
            line += f" — apply with suggestionIndex={index}"
        lines.append(line)
    return "\n".join(lines)


def waiting_flag(node: Node) -> str:
    """describeState's flag of a field whose options wait for a value."""
    fields, context = _reads(node, node.items_source_text or "")
    if fields or not context:
        return "suggestions once another field is set"
    return f"suggestions once the context has {', '.join(context)}"


def waiting_sentence(node: Node, expression: str) -> str:
    """What the options of ``node`` wait for, and what to do: set a field (one the form has),
    or, for a value of the host's context (not a field), write a value directly."""
    fields, context = _reads(node, expression)
    start = f"the list of {node.path} is computed from `{expression}`, which reads "
    if fields:
        return start + f"a field that is not set yet ({', '.join(fields)}). Set that field first, then ask again."
    if context:
        return start + (
            f"{', '.join(context)}: a value of the context this session was opened with, not a field of the form, "
            "and it is not set here. Write a value with setFieldValue instead."
        )
    return start + "a value that is not set yet. Write a value with setFieldValue instead."


def _reads(node: Node, expression: str) -> tuple[list[str], list[str]]:
    """``(fields of the form the expression reads, context values it reads)``."""
    root = node
    while root.parent is not None:
        root = root.parent
    fields = [pointer for pointer in _fields_read(expression) if _names_a_field(root.skeleton, pointer)]
    context = []
    for match in _CONTEXT_READ.finditer(expression):
        if match.group(0) not in context:
            context.append(match.group(0))
    return fields, context


def _names_a_field(skeleton: Any, pointer: str) -> bool:
    """Whether the form's schema has a field at the data path ``pointer`` (through properties,
    their wrappers, list items and map entries), whether or not the data has it."""
    from ... import jsonpointer

    for token in jsonpointer.split(pointer) if pointer else []:
        if skeleton is None:
            return False
        if token.isdigit() and skeleton.item is not None:
            skeleton = skeleton.item
            continue
        skeleton = _property(skeleton, token) or skeleton.entry_schema(token)
    return skeleton is not None


def _property(skeleton: Any, name: str) -> Any:
    for key, sub in skeleton.properties:
        if key == name:
            return sub
    wrappers = [*skeleton.all_of, *skeleton.variants, *skeleton.dependent.values()]
    if skeleton.condition is not None:
        wrappers += [branch for branch in skeleton.condition[1:] if branch is not None]
    for wrapper in wrappers:
        found = _property(wrapper, name)
        if found is not None:
            return found
    return None


_CONTEXT_READ = re.compile(r"\bcontext(?:\.[A-Za-z_$][\w$]*|\[\d+\]|\[\"[^\"]*\"\]|\['[^']*'\])+")


def _fields_read(expression: str) -> list[str]:
    """The data paths of the document fields ``expression`` reads (``rootData.source.href`` is
    ``/source/href``), in order, without repeats."""
    from ... import jsonpointer

    found: list[str] = []
    for match in _ROOT_READ.finditer(expression):
        tokens = [
            next(group for group in access.groups() if group is not None) for access in _ACCESS.finditer(match.group(1))
        ]
        pointer = jsonpointer.join(tokens)
        if pointer not in found:
            found.append(pointer)
    return found
