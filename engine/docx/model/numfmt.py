"""Rendering one list counter in a ``w:numFmt`` format (decimal, roman, letters, ordinal words,
enclosed digits, ...). Unknown formats fall back to decimal, as Word does for formats it cannot
draw."""

from __future__ import annotations

_ROMAN = (
    (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
    (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
)  # fmt: skip

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["zero", "ten", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_ORDINAL_WORDS = {
    "one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth",
    "twelve": "twelfth",
}  # fmt: skip

_RUSSIAN = "абвгдежзиклмнопрстуфхцчшщэюя"


def roman(value: int) -> str:
    if value <= 0:
        return str(value)
    out = []
    for amount, letters in _ROMAN:
        while value >= amount:
            out.append(letters)
            value -= amount
    return "".join(out)


def letters(value: int, alphabet: str = "abcdefghijklmnopqrstuvwxyz") -> str:
    """Word's letter numbering: a..z, then aa..zz, aaa..., the letter repeated."""
    if value <= 0:
        return str(value)
    size = len(alphabet)
    return alphabet[(value - 1) % size] * ((value - 1) // size + 1)


def cardinal_words(value: int) -> str:
    if value < 0:
        return str(value)
    if value < 20:
        return _ONES[value]
    if value < 100:
        tens, ones = divmod(value, 10)
        return _TENS[tens] + ("-" + _ONES[ones] if ones else "")
    if value < 1000:
        hundreds, rest = divmod(value, 100)
        return _ONES[hundreds] + " hundred" + (" " + cardinal_words(rest) if rest else "")
    if value < 1_000_000:
        thousands, rest = divmod(value, 1000)
        return cardinal_words(thousands) + " thousand" + (" " + cardinal_words(rest) if rest else "")
    return str(value)


def ordinal_words(value: int) -> str:
    words = cardinal_words(value)
    head, sep, last = words.rpartition("-") if "-" in words.split(" ")[-1] else words.rpartition(" ")
    if last in _ORDINAL_WORDS:
        last = _ORDINAL_WORDS[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return head + sep + last


def ordinal_suffix(value: int) -> str:
    suffix = "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
    return f"{value}{suffix}"


def format_counter(value: int, fmt: str | None, custom: str | None = None) -> str:
    """``value`` rendered in numbering format ``fmt``."""
    fmt = fmt or "decimal"
    if fmt == "decimal":
        return str(value)
    if fmt == "none":
        return ""
    if fmt == "upperRoman":
        return roman(value).upper()
    if fmt == "lowerRoman":
        return roman(value)
    if fmt == "upperLetter":
        return letters(value).upper()
    if fmt == "lowerLetter":
        return letters(value)
    if fmt == "decimalZero":
        return f"{value:02d}"
    if fmt == "ordinal":
        return ordinal_suffix(value)
    if fmt == "cardinalText":
        return cardinal_words(value).capitalize()
    if fmt == "ordinalText":
        return ordinal_words(value).capitalize()
    if fmt == "decimalEnclosedCircle" and 1 <= value <= 20:
        return chr(0x2460 + value - 1)
    if fmt == "decimalEnclosedParen":
        return f"({value})"
    if fmt == "decimalEnclosedFullstop":
        return f"{value}."
    if fmt in ("decimalFullWidth", "decimalFullWidth2"):
        return "".join(chr(ord(d) - ord("0") + 0xFF10) for d in str(value))
    if fmt == "russianLower":
        return letters(value, _RUSSIAN)
    if fmt == "russianUpper":
        return letters(value, _RUSSIAN).upper()
    if fmt == "hex":
        return f"{value:X}"
    if fmt == "custom" and custom:
        # A custom format such as "001, 002, 003": pad to the width of its first sample.
        sample = custom.split(",")[0].strip()
        if sample.isdigit():
            return f"{value:0{len(sample)}d}"
    return str(value)
