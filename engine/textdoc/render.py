"""New values as JSON or YAML text, in a file's layout (``layout.Layout``).

Only what a save adds or changes is rendered here; everything else keeps its bytes. Line breaks
are ``\\n`` here; the edit converts them to the file's own.
"""

from __future__ import annotations

import functools
import json
import math
import re
from typing import Any

from .layout import Layout

# -- numbers ----------------------------------------------------------------------------------


def number_text(value: int | float, *, yaml: bool = False) -> str:
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return ".nan" if yaml else "NaN"
    if math.isinf(value):
        return (".inf" if yaml else "Infinity") if value > 0 else ("-.inf" if yaml else "-Infinity")
    text = repr(value)
    mantissa, e, exponent = text.partition("e")
    if e:
        # 1e-09 -> 1e-9 (as JavaScript and most JSON writers spell it); YAML 1.1 readers need a
        # dot in the mantissa to see a float.
        sign = exponent[0] if exponent[0] in "+-" else ""
        exponent = sign + (exponent.lstrip("+-").lstrip("0") or "0")
        if yaml and "." not in mantissa:
            mantissa += ".0"
        return f"{mantissa}e{exponent}"
    return text


# -- JSON ---------------------------------------------------------------------------------------


def json_string(value: str, layout: Layout) -> str:
    text = json.dumps(value, ensure_ascii=layout.ascii_only)
    # A lone surrogate (legal in JSON text as an escape) cannot be written as UTF-8.
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def json_scalar(value: Any, layout: Layout) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return number_text(value)
    return json_string(str(value), layout)


def json_value(value: Any, layout: Layout, *, base: str, multiline: bool) -> str:
    """``value`` as JSON; ``base`` is the indentation of the line it starts on."""
    if isinstance(value, dict) and value:
        parts = [
            json_string(str(k), layout)
            + layout.colon
            + json_value(v, layout, base=base + layout.indent, multiline=multiline)
            for k, v in value.items()
        ]
        return _json_wrap("{", "}", parts, layout, base, multiline)
    if isinstance(value, list) and value:
        parts = [json_value(v, layout, base=base + layout.indent, multiline=multiline) for v in value]
        return _json_wrap("[", "]", parts, layout, base, multiline)
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return json_scalar(value, layout)


def _json_wrap(open_: str, close: str, parts: list[str], layout: Layout, base: str, multiline: bool) -> str:
    if not multiline:
        return open_ + layout.comma.join(parts) + close
    inner = base + layout.indent
    return open_ + "\n" + inner + (",\n" + inner).join(parts) + "\n" + base + close


# -- YAML scalars -------------------------------------------------------------------------------

INDICATORS = "-?:,[]{}#&*!|>'\"%@`"
FLOW_INDICATORS = ",[]{}"
# YAML 1.1 readers (PyYAML and others) would read these plain words as booleans or null.
YAML11_WORDS = re.compile(
    r"^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"
    r"|null|Null|NULL|~)$"
)
YAML11_NUMBER = re.compile(
    r"^[-+]?(0b[0-1_]+|0[0-7_]+|(0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(:[0-5]?[0-9])+"
    r"|([0-9][0-9_]*)?\.[0-9_]*([eE][-+][0-9]+)?|[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*|\.(inf|Inf|INF)|\.(nan|NaN|NAN))$"
)
TIMESTAMP = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}")


def _printable(char: str) -> bool:
    code = ord(char)
    return (
        code in (0x09, 0x0A)
        or 0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)
        or 0x10000 <= code <= 0x10FFFF
    ) and code not in (0x2028, 0x2029)


@functools.cache
def _resolver() -> Any:
    from ruamel.yaml.resolver import VersionedResolver

    return VersionedResolver(version=(1, 2))


def _resolves_to_string(text: str) -> bool:
    from ruamel.yaml.nodes import ScalarNode

    if str(_resolver().resolve(ScalarNode, text, (True, False))) != "tag:yaml.org,2002:str":
        return False
    return not (YAML11_WORDS.match(text) or YAML11_NUMBER.match(text) or TIMESTAMP.match(text))


def plain_ok(text: str, *, flow: bool) -> bool:
    """Whether ``text`` can be written unquoted and read back as the same string, by YAML 1.2
    and 1.1 readers alike."""
    if not text or text != text.strip(" ") or text[0] in INDICATORS or text[-1] == ":":
        return False
    if ": " in text or " #" in text or any(c in text for c in "\n\r\t") or not all(map(_printable, text)):
        return False
    if flow and any(c in text for c in FLOW_INDICATORS):
        return False
    return text not in ("<<", "=") and _resolves_to_string(text)


ESCAPES = {
    "\0": "\\0",
    "\a": "\\a",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\v": "\\v",
    "\f": "\\f",
    "\r": "\\r",
    "\x1b": "\\e",
    '"': '\\"',
    "\\": "\\\\",
    "\x85": "\\N",
    "\u2028": "\\L",
    "\u2029": "\\P",
}


def double_quoted(text: str) -> str:
    out = []
    for char in text:
        if char in ESCAPES:
            out.append(ESCAPES[char])
        elif _printable(char):
            out.append(char)
        elif ord(char) <= 0xFF:
            out.append(f"\\x{ord(char):02x}")
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


def single_ok(text: str) -> bool:
    return all(_printable(c) and c not in "\n\t" for c in text)


def literal_ok(text: str) -> bool:
    return "\n" in text.rstrip("\n") and all(_printable(c) for c in text) and not text.startswith("\n")


def literal_block(text: str, indent: int, relative: int | None) -> str | None:
    """A ``|`` block scalar whose content lines start at column ``indent``; ``relative`` is that
    column less its parent's indentation (None: unknown). None when the text needs an
    indentation indicator and ``relative`` is unknown."""
    body = text.rstrip("\n")
    trailing = len(text) - len(body)
    chomp = "-" if trailing == 0 else ("" if trailing == 1 else "+")
    lines = text.split("\n")[:-1] if trailing else text.split("\n")
    first = next((line for line in lines if line.strip(" ")), "")
    needs_indicator = first.startswith(" ") or any(line and not line.strip(" ") for line in lines)
    if needs_indicator and not relative:
        return None
    indicator = str(relative) if needs_indicator else ""
    pad = " " * indent
    content = "\n".join(pad + line if line else "" for line in lines)
    return f"|{indicator}{chomp}\n{content}"


def yaml_scalar(
    value: Any,
    layout: Layout,
    *,
    flow: bool,
    indent: int,
    style: str | None = None,
    block_ok: bool = True,
    relative: int | None = None,
) -> str:
    """A scalar; a string in the style it had (``style``: None plain, quotes, ``|``/``>``) when
    that can hold the new text, else plain when safe, else quoted. Multi-line text becomes a
    ``|`` block where ``block_ok`` (block context, and a line break follows)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return number_text(value, yaml=True)
    text = str(value)
    literal = literal_block(text, indent, relative) if block_ok and not flow and literal_ok(text) else None
    if style in ("|", ">") and literal:
        return literal
    if style == "'" and single_ok(text):
        return "'" + text.replace("'", "''") + "'"
    if style == '"':
        return double_quoted(text)
    if plain_ok(text, flow=flow):
        return text
    if style is None and literal:
        return literal
    if layout.quote == "'" and single_ok(text):
        return "'" + text.replace("'", "''") + "'"
    return double_quoted(text)


def yaml_key(key: str, layout: Layout, *, flow: bool, style: str | None = None) -> str:
    quote = style if style in ("'", '"') else None
    return yaml_scalar(key, layout, flow=flow, indent=0, style=quote, block_ok=False)


# -- YAML collections ---------------------------------------------------------------------------


def yaml_flow(value: Any, layout: Layout) -> str:
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{yaml_key(str(k), layout, flow=True)}: {yaml_flow(v, layout)}" for k, v in value.items())
            + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(yaml_flow(v, layout) for v in value) + "]"
    return yaml_scalar(value, layout, flow=True, indent=0, block_ok=False)


def is_block(value: Any) -> bool:
    return isinstance(value, dict | list) and bool(value)


def yaml_block(value: Any, layout: Layout, indent: int, *, key_style: str | None = None) -> str:
    """A non-empty mapping or list in block style, every line at column ``indent``."""
    pad = " " * indent
    lines = []
    if isinstance(value, dict):
        for key, item in value.items():
            lines.append(
                pad
                + yaml_key(str(key), layout, flow=False, style=key_style)
                + ":"
                + yaml_after_key(item, layout, indent)
            )
    else:
        for item in value:
            lines.append(pad + "- " + yaml_in_item(item, layout, indent + 2))
    return "\n".join(lines)


def yaml_after_key(
    value: Any, layout: Layout, key_indent: int, *, style: str | None = None, block_ok: bool = True
) -> str:
    """What follows ``key:`` for ``value``: a space and a scalar or flow value, or a line break
    and a block one."""
    if isinstance(value, dict) and value:
        return "\n" + yaml_block(value, layout, key_indent + len(layout.indent))
    if isinstance(value, list) and value:
        return "\n" + yaml_block(value, layout, key_indent + layout.seq_offset)
    if isinstance(value, dict | list):
        return " " + yaml_flow(value, layout)
    step = len(layout.indent)
    return " " + yaml_scalar(
        value, layout, flow=False, indent=key_indent + step, style=style, block_ok=block_ok, relative=step
    )


def yaml_in_item(value: Any, layout: Layout, indent: int, *, style: str | None = None, block_ok: bool = True) -> str:
    """A list item's value, starting just after its ``- `` (at column ``indent``)."""
    if is_block(value):
        return yaml_block(value, layout, indent)[indent:]
    if isinstance(value, dict | list):
        return yaml_flow(value, layout)
    return yaml_scalar(value, layout, flow=False, indent=indent, style=style, block_ok=block_ok)
