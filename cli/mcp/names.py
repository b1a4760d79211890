"""The names a client calls, and the text that mentions them.

Several model APIs refuse tool names longer than 64 characters, and MCP allows only letters,
digits, ``_``, ``-`` and ``.``. A prefix (``contract_`` for ``--docx contract.docx`` beside
``--docx nda.docx``) is the file's name cut at a word boundary, short enough that every tool
of its context stays within 64; a name still too long (an operation id of 70 characters) keeps
its start and ends with a short hash, so it stays unique. Descriptions, instructions and
messages that name a tool are rewritten with the name served, so that a model never reads
"call sample_dataset_line_reloadForm" from a server that serves ``api_sample_dataset_line_reloadForm``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping

MAX_NAME = 64
MAX_PREFIX = 24
_NOT_NAME = re.compile(r"[^A-Za-z0-9_.-]+")
_WORD_CHARACTERS = re.compile(r"[^A-Za-z0-9]+")


def prefix_word(source: str, longest_name: int, fallback: str) -> str:
    """The prefix's word for a context read from ``source`` (a path or URL): the file's name
    without its extension, letters and digits, cut after a whole word so that the word, ``_`` and
    a name of ``longest_name`` characters fit in ``MAX_NAME``."""
    name = source.rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0].split(".", 1)[0]
    words = [w for w in _WORD_CHARACTERS.split(name) if w]
    budget = min(MAX_PREFIX, MAX_NAME - longest_name - 1)
    kept: list[str] = []
    for word in words:
        if len("_".join([*kept, word])) > budget:
            break
        kept.append(word)
    if not kept and words and budget >= 3:
        kept = [words[0][:budget]]
    return "_".join(kept) or fallback[: max(budget, 1)]


def fit(name: str) -> str:
    """``name`` within ``MAX_NAME`` characters of the allowed alphabet, unique for a unique name."""
    clean = _NOT_NAME.sub("_", name)
    if len(clean) <= MAX_NAME and clean == name:
        return name
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    return f"{clean[: MAX_NAME - 9].rstrip('_')}_{digest}" if len(clean) > MAX_NAME else f"{clean}_{digest}"


class Renamer:
    """Rewrites whole-word mentions of a context's tool names (``inner -> served``)."""

    def __init__(self, names: Mapping[str, str]) -> None:
        changed = {inner: served for inner, served in names.items() if inner != served}
        self._names = changed
        self._pattern = (
            re.compile(
                r"(?<![A-Za-z0-9_])("
                + "|".join(re.escape(name) for name in sorted(changed, key=len, reverse=True))
                + r")(?![A-Za-z0-9_])"
            )
            if changed
            else None
        )

    def __call__(self, text: str) -> str:
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(lambda m: self._names[m.group(1)], text)

    def __bool__(self) -> bool:
        return self._pattern is not None


def too_long(names: Iterable[str]) -> list[str]:
    return [name for name in names if len(name) > MAX_NAME]
