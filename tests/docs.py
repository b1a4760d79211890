"""The user documentation the tests read: the README (the front page) and the pages of docs/."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"


def page(name: str) -> str:
    """The text of one page of docs/, such as ``"openapi-check.md"``."""
    return (DOCS / name).read_text(encoding="utf-8")


def pages() -> list[Path]:
    """The README, then every page of docs/ in name order."""
    return [README, *sorted(DOCS.glob("*.md"))]


def all_text() -> str:
    """The README and every page, one after the other."""
    return "\n".join(path.read_text(encoding="utf-8") for path in pages())
