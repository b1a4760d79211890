"""The fill-form guide: how an agent (or a person at the REPL) should use a form's tools, with
the schema's own ``x-agent-guide`` when it has one. It is the ``instructions`` of a form tool set.
"""

from __future__ import annotations

from collections.abc import Sequence


def fill_form_guide(
    title: str,
    prefix: str,
    *,
    agent_guide: str | None = None,
    extra_sections: Sequence[str] = (),
) -> str:
    """Markdown guidance for the tools ``<prefix>_<verb>`` of the form that edits ``title``.
    ``extra_sections`` are appended (a session layer adds how saving works)."""

    def tool(verb: str) -> str:
        return f"{prefix}_{verb}" if prefix else verb

    heading = title[:1].upper() + title[1:]
    parts = [
        f"# Filling in {heading}: a guide to the form tools",
        "",
        f'These tools edit one JSON document, "{title}", through a form built from its JSON Schema. '
        "Every tool answers in text; write answers say at once whether the document is valid.",
    ]
    if agent_guide:
        parts += ["", f"## What to know about this {title}", "", agent_guide.strip()]
    parts += [
        "",
        "## Look before you write",
        "",
        f"Call `{tool('describeState')}` first. It prints one line per field: its path, its type, whether it "
        "is required, its constraints, its current value and its error if it has one. Large values are named "
        "by kind and size rather than printed; call the tool again with a field's path to look closer. "
        "Paths are layout paths as printed (`/shape/$oneOf/1/width`), and every tool also accepts the data "
        "path of a value (`/theme/colors/primary`).",
        "",
        "## Then write",
        "",
        f"When the task gives every value, write them in one call with `{tool('setData')}` (it merges into the "
        "document unless you pass merge=false). Otherwise set fields one at a time with "
        f"`{tool('setFieldValue')}`; do that as well when a value has to be looked up first or when a field "
        "only appears once another one is set. Each write reports the errors it leaves and the fields it "
        "showed or hid, so reading the form again is rarely needed.",
        "",
        "## Fields with a fixed set of values",
        "",
        "Never invent a value for a field whose accepted values are fixed. When the list is short, "
        "describeState states it on the field's line as values=[...]: write one of those values as it is. "
        "When the line says `suggestions`, the list exists only behind a request: call "
        f"`{tool('getFieldSuggestions')}` (optionally with a query) and apply one of the options as that "
        "tool's description explains. A line that says `suggestions once another field is set` waits for "
        "another value: set that one first.",
        "",
        "## Variants",
        "",
        "A field of type `variant-selector` chooses between several shapes of the same part of the document. "
        "Its variants are listed under it as `variant N: label`. Switch by setting the field to that number "
        f"with `{tool('setFieldValue')}`; the answer lists the fields of the variant it activated.",
        "",
        "## Lists",
        "",
        f"Add and remove list items with `{tool('editArray')}`. Adding returns the new item's fields; fill them "
        f"with `{tool('setFieldValue')}`. A list of plain values drawn as one field (a combobox) is written "
        "whole, as a JSON array.",
        "",
        "## Maps and keys",
        "",
        "A field of type `map` is an object whose keys you choose (services, environment variables): each key "
        f"is a field of its own under the map's path. Add a key with `{tool('setFieldValue')}` on the map's path "
        f"plus the key, or with `{tool('editArray')}` (action add, key); rename or remove one with "
        f"`{tool('editArray')}` (action rename with key and newKey, or remove with key). A key the form does not "
        "accept is shown with its error: remove it, or rename it to a key the form takes.",
        "",
        "## Defaults",
        "",
        "A line with `default=X` shows what the schema proposes for a field that has no value: it is not in the "
        "document until you write it.",
        "",
        "## Reading the document",
        "",
        f'`{tool("getData")}` returns the document itself as JSON, `{{"data": ..., "valid": ...}}`, whole or one '
        'part by path; an unset field answers `{"unset": true, ...}`.',
        "",
        "## Errors",
        "",
        f"The errors that `{tool('setFieldValue')}` and `{tool('editArray')}` return are those of the part you "
        "wrote; errors elsewhere are only counted. describeState without a path lists them all.",
    ]
    for section in extra_sections:
        parts += ["", section.strip()]
    return "\n".join(parts) + "\n"
