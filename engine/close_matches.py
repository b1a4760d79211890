"""Did-you-mean: the names close to a mistyped one, worded the same way everywhere (argument keys,
field paths, commands, options, option values, rules). Only the standard library's difflib."""

from __future__ import annotations

from collections.abc import Iterable

CUTOFF = 0.6  # difflib's default: below it, names share too little to be a typo of each other
MARGIN = 0.1  # only names about as close as the closest: maxBlock is maxBlocks, not also afterBlockId
# A word this long that already looks somewhat like a name may be that name cut short (trackd for
# tracked-changes): it is also compared with the name's beginning.
PREFIX_LENGTH = 4
PREFIX_FLOOR = 0.45


def close_matches(word: str, candidates: Iterable[str], *, limit: int = 3) -> list[str]:
    """The candidates that look like ``word``, closest first (case is ignored in the comparison,
    so ``MaxBlocks`` finds ``maxBlocks``)."""
    folded_word = str(word).casefold()
    scored: dict[str, float] = {}
    for candidate in candidates:
        name = str(candidate)
        if name not in scored and name != word:
            scored[name] = _score(folded_word, name.casefold())
    ranked = sorted(((score, name) for name, score in scored.items() if score >= CUTOFF), key=lambda r: (-r[0], r[1]))
    if not ranked:
        return []
    best = ranked[0][0]
    return [name for score, name in ranked[:limit] if score >= best - MARGIN]


def did_you_mean(word: str, candidates: Iterable[str], *, quote: str = "") -> str:
    """`` Did you mean X?`` (or ``X or Y``), with a leading space, or "" when nothing is close.
    ``quote`` wraps each name (``"`` for field paths, ``'`` for shell words)."""
    found = close_matches(word, candidates)
    if not found:
        return ""
    names = [f"{quote}{name}{quote}" for name in found]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f" Did you mean {listed}?"


def _score(word: str, name: str) -> float:
    from difflib import SequenceMatcher

    score = SequenceMatcher(None, word, name).ratio()
    if len(word) >= PREFIX_LENGTH and len(name) > len(word) and score >= PREFIX_FLOOR:
        score = max(score, SequenceMatcher(None, word, name[: len(word) + 1]).ratio())
    return score
