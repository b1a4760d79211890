"""Sequence alignment and word diffs for comparing two versions of a document (pure Python).

- ``tokenize(text)``: words and the whitespace between them (``\\s+`` or ``\\S+``, with
  JavaScript's whitespace set, as the block hashes use), so a diff keeps every character.
- ``diff_matches(a, b)``: the longest common subsequence of two sequences of hashable keys as
  matched index pairs, computed with Myers' O(ND) algorithm after trimming the common ends;
  ``None`` when the edit distance exceeds the budget (the caller falls back).
- ``align(a, b)``: a patience-style alignment for long sequences (block texts): keys that occur
  once on each side anchor the alignment (longest increasing subsequence), the gaps between
  anchors are aligned recursively, and a gap without unique keys gets a Myers LCS within a shared
  cell budget. Equal keys are matched; everything else is left to the caller (similarity).
- ``word_diff(a, b)``: segments ``("equal" | "del" | "ins", text)`` turning ``a`` into ``b``;
  within a change, deletions come before insertions, and whitespace alone between two changes is
  folded into them (``[-a b-]{+x y+}`` rather than ``[-a-]{+x+} [-b-]{+y+}``).
- ``similarity(a, b)``: how alike two texts are, 0..1 (Dice coefficient over words; character
  pairs for short texts), and ``pair_by_similarity`` pairs the blocks of a gap in order.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Hashable, Sequence

from ..model.hashing import JS_WHITESPACE

_TOKEN = re.compile(f"[{JS_WHITESPACE}]+|[^{JS_WHITESPACE}]+")
_WORD = re.compile(f"[^{JS_WHITESPACE}]+")  # the tokens that are not whitespace
_SPACE = re.compile(f"[{JS_WHITESPACE}]+")

# A word diff or gap alignment gives up (whole replacement) beyond this many token or block pairs,
# as the reference system does: past it a diff costs seconds and reads no better than a rewrite.
MAX_DIFF_CELLS = 4_000_000
# Myers' algorithm keeps one vector per edit step; past this many steps a diff is a rewrite.
MAX_EDIT_STEPS = 1_000
# The word diffs of one comparison share this much Myers work (diagonals tried plus tokens matched
# along them; about 2-3 million a second here): each paragraph's diff is bounded by the two limits
# above, but 11,000 paragraphs each shuffled against its other version cost 30 minutes before.
# Past it, the remaining changed paragraphs are shown as rewritten (their common ends kept).
MAX_DIFF_WORK = 10_000_000
# Gaps between aligned blocks are paired by similarity within this band around the diagonal, so
# a long gap costs (length x band) similarity checks instead of (length x length).
SIMILARITY_BAND = 24
# Similarity scores one comparison may compute in its gaps (a few seconds of work): two rewritten
# versions of 150,000 paragraphs would otherwise score 7 million pairs. Past it, the band of the
# remaining gaps narrows, and a gap that cannot afford one score per block is left unpaired.
MAX_SIMILARITY_SCORES = 150_000
# Two blocks of a gap pair up as "modified" from this similarity on.
PAIR_THRESHOLD = 0.4

Segment = tuple[str, str]


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text)


_SPACE_CHARS = " \t\n\v\f\r\u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    chr(code) for code in range(0x2000, 0x200B)
)


def is_space(token: str) -> bool:
    """Whether ``token`` is whitespace only (JavaScript's ``\\s`` set, as ``hashing`` uses)."""
    return bool(token) and not token.strip(_SPACE_CHARS)


# -- LCS --------------------------------------------------------------------------------------


def diff_matches(
    a: Sequence[Hashable], b: Sequence[Hashable], max_steps: int = MAX_EDIT_STEPS, budget: Budget | None = None
) -> list[tuple[int, int]] | None:
    """Matched index pairs of a longest common subsequence of ``a`` and ``b`` (increasing in
    both), or None when more than ``max_steps`` insertions and deletions separate them, or when
    finding out would cost more of ``budget``'s work than it has left."""
    n, m = len(a), len(b)
    start = 0
    while start < n and start < m and a[start] == b[start]:
        start += 1
    end_a, end_b = n, m
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    middle = _myers(a[start:end_a], b[start:end_b], max_steps, budget)
    if middle is None:
        return None
    out = [(i, i) for i in range(start)]
    out.extend((i + start, j + start) for i, j in middle)
    out.extend((end_a + k, end_b + k) for k in range(n - end_a))
    return out


def _myers(
    a: Sequence[Hashable], b: Sequence[Hashable], max_steps: int, budget: Budget | None = None
) -> list[tuple[int, int]] | None:
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return []
    limit = n + m
    if limit > max_steps:
        limit = max_steps
    offset = limit + 1
    v = [0] * (2 * limit + 3)
    trace: list[list[int]] = []
    found = -1
    work = 0  # diagonals tried and tokens matched: what the loops below cost
    left = budget.work if budget is not None else -1
    for d in range(limit + 1):
        trace.append(v[offset - d - 1 : offset + d + 2])
        work += d + 1
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
                x = v[offset + k + 1]
            else:
                x = v[offset + k - 1] + 1
            y = x - k
            start = x
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            work += x - start
            v[offset + k] = x
            if x >= n and y >= m:
                found = d
                break
        if found >= 0 or 0 <= left < work:
            break
    if budget is not None:
        budget.work = max(0, budget.work - work)
        if found < 0 and 0 <= left < work:
            budget.coarse = True
    if found < 0:
        return None
    # Walk back through the saved vectors, collecting the diagonal (matching) moves.
    matches: list[tuple[int, int]] = []
    x, y = n, m
    for d in range(found, 0, -1):
        saved = trace[d]  # v after step d-1, for k = -d-1 .. d+1
        k = x - y
        if k == -d or (k != d and saved[k - 1 + d + 1] < saved[k + 1 + d + 1]):
            prev_k = k + 1
            prev_x = saved[prev_k + d + 1]
            mid_x, mid_y = prev_x, prev_x - prev_k + 1  # a step down: b[mid_y - 1] inserted
        else:
            prev_k = k - 1
            prev_x = saved[prev_k + d + 1]
            mid_x, mid_y = prev_x + 1, prev_x - prev_k  # a step right: a[mid_x - 1] deleted
        while x > mid_x and y > mid_y:
            x -= 1
            y -= 1
            matches.append((x, y))
        x, y = prev_x, prev_x - prev_k
    while x > 0 and y > 0:
        x -= 1
        y -= 1
        matches.append((x, y))
    matches.reverse()
    return matches


# -- patience alignment ---------------------------------------------------------------------------


class Budget:
    """What one comparison may spend: LCS cells (pairs of elements) shared by its alignments,
    similarity scores (each costs tens of microseconds) shared by its gaps, and Myers work
    shared by its word diffs."""

    __slots__ = ("cells", "coarse", "scores", "work")

    def __init__(self, cells: int = MAX_DIFF_CELLS, scores: int | None = None, work: int | None = None) -> None:
        self.cells = cells
        self.scores = MAX_SIMILARITY_SCORES if scores is None else scores
        self.work = MAX_DIFF_WORK if work is None else work
        # Set once a bound made a result coarser than the full search would have: the report
        # says so instead of passing a cheaper answer off as the best one.
        self.coarse = False

    def spend(self, cells: int) -> bool:
        if cells > self.cells:
            self.coarse = True
            return False
        self.cells -= cells
        return True


# What a report says when ``Budget.coarse`` is set.
COARSE_NOTE = (
    "These versions differ in too many ways, or repeat the same paragraphs too often, for a full "
    "search within the comparison's work limits: some changes are reported as a deletion and an "
    "addition, or as one whole-paragraph rewrite, where a finer match exists. Nothing was skipped."
)


def _longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``pairs`` (sorted by their first item) increasing in the second."""
    tails: list[int] = []
    tail_index: list[int] = []
    previous = [-1] * len(pairs)
    for index, (_, j) in enumerate(pairs):
        position = bisect_left(tails, j)
        if position == len(tails):
            tails.append(j)
            tail_index.append(index)
        else:
            tails[position] = j
            tail_index[position] = index
        previous[index] = tail_index[position - 1] if position else -1
    out = []
    index = tail_index[-1] if tail_index else -1
    while index >= 0:
        out.append(pairs[index])
        index = previous[index]
    out.reverse()
    return out


def longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Public form of the LIS filter: ``pairs`` sorted by first item, kept increasing in both."""
    return _longest_increasing(sorted(pairs))


def align(a: Sequence[Hashable], b: Sequence[Hashable], budget: Budget | None = None) -> list[tuple[int, int]]:
    """Matched index pairs (increasing in both) of equal keys of ``a`` and ``b``; see the module
    docstring. ``budget`` bounds the Myers fallback across calls."""
    budget = budget if budget is not None else Budget()
    matches: list[tuple[int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            matches.append((alo, blo))
            alo += 1
            blo += 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
            ahi -= 1
            bhi -= 1
            matches.append((ahi, bhi))
        if alo >= ahi or blo >= bhi:
            continue
        count_a: dict[Hashable, int] = {}
        where_a: dict[Hashable, int] = {}
        for i in range(alo, ahi):
            key = a[i]
            count_a[key] = count_a.get(key, 0) + 1
            where_a[key] = i
        count_b: dict[Hashable, int] = {}
        where_b: dict[Hashable, int] = {}
        for j in range(blo, bhi):
            key = b[j]
            if key in count_a:
                count_b[key] = count_b.get(key, 0) + 1
                where_b[key] = j
        uniques = sorted(
            (where_a[key], where_b[key]) for key, count in count_b.items() if count == 1 and count_a[key] == 1
        )
        anchors = _longest_increasing(uniques)
        if anchors:
            previous_i, previous_j = alo, blo
            for i, j in anchors:
                matches.append((i, j))
                if i > previous_i and j > previous_j:
                    stack.append((previous_i, i, previous_j, j))
                previous_i, previous_j = i + 1, j + 1
            if ahi > previous_i and bhi > previous_j:
                stack.append((previous_i, ahi, previous_j, bhi))
            continue
        if not count_b:
            continue  # nothing in common
        cells = (ahi - alo) * (bhi - blo)
        if not budget.spend(cells):
            continue
        inner = _myers(a[alo:ahi], b[blo:bhi], MAX_EDIT_STEPS)
        if inner:
            matches.extend((i + alo, j + blo) for i, j in inner)
    matches.sort()
    return matches


# -- word diff ----------------------------------------------------------------------------------


def _merge(segments: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for kind, text in segments:
        if not text:
            continue
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + text)
        else:
            out.append((kind, text))
    return out


def _ordered(segments: list[Segment]) -> list[Segment]:
    """Within each run of changes (between equal segments), deletions first, then insertions."""
    out: list[Segment] = []
    dels: list[str] = []
    inss: list[str] = []
    for kind, text in segments:
        if kind == "equal":
            if dels:
                out.append(("del", "".join(dels)))
            if inss:
                out.append(("ins", "".join(inss)))
            dels, inss = [], []
            out.append((kind, text))
        elif kind == "del":
            dels.append(text)
        else:
            inss.append(text)
    if dels:
        out.append(("del", "".join(dels)))
    if inss:
        out.append(("ins", "".join(inss)))
    return out


def fold_whitespace(segments: list[Segment]) -> list[Segment]:
    """Fold an equal segment that is only whitespace, between two changes, into the changes."""
    out = list(segments)
    changed = True
    while changed:
        changed = False
        for index in range(1, len(out) - 1):
            kind, text = out[index]
            if kind == "equal" and is_space(text) and out[index - 1][0] != "equal" and out[index + 1][0] != "equal":
                out[index] = ("del", text)
                out.insert(index + 1, ("ins", text))
                out = _ordered(_merge(out))
                changed = True
                break
    return out


def token_ops(
    a: Sequence[Hashable], b: Sequence[Hashable], budget: Budget | None = None
) -> list[tuple[str, int, int, int, int]]:
    """Opcodes ``(kind, i1, i2, j1, j2)`` turning ``a`` into ``b``: kind ``equal``, ``delete``,
    ``insert`` or ``replace`` (a deletion of ``a[i1:i2]`` before an insertion of ``b[j1:j2]``).
    ``budget`` is the comparison's, whose Myers work the diff spends."""
    matches = None
    if len(a) * len(b) <= MAX_DIFF_CELLS:
        matches = diff_matches(a, b, budget=budget)
    if matches is None:
        # Beyond the budget: keep the common ends, replace the middle.
        start = 0
        while start < len(a) and start < len(b) and a[start] == b[start]:
            start += 1
        end = 0
        while end < len(a) - start and end < len(b) - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
            end += 1
        matches = [(i, i) for i in range(start)] + [(len(a) - end + k, len(b) - end + k) for k in range(end)]
    ops: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for mi, mj in [*matches, (len(a), len(b))]:
        if mi > i or mj > j:
            kind = "replace" if mi > i and mj > j else ("delete" if mi > i else "insert")
            ops.append((kind, i, mi, j, mj))
        if mi < len(a) and mj < len(b):
            if ops and ops[-1][0] == "equal" and ops[-1][2] == mi:
                ops[-1] = ("equal", ops[-1][1], mi + 1, ops[-1][3], mj + 1)
            else:
                ops.append(("equal", mi, mi + 1, mj, mj + 1))
        i, j = mi + 1, mj + 1
    return ops


def word_diff(a: str, b: str, budget: Budget | None = None) -> list[Segment]:
    """Segments turning ``a`` into ``b`` (see the module docstring)."""
    if a == b:
        return [("equal", a)] if a else []
    ta, tb = tokenize(a), tokenize(b)
    segments: list[Segment] = []
    for kind, i1, i2, j1, j2 in token_ops(ta, tb, budget):
        if kind == "equal":
            segments.append(("equal", "".join(ta[i1:i2])))
        else:
            if i2 > i1:
                segments.append(("del", "".join(ta[i1:i2])))
            if j2 > j1:
                segments.append(("ins", "".join(tb[j1:j2])))
    return fold_whitespace(_ordered(_merge(segments)))


# -- similarity -----------------------------------------------------------------------------------


def _words(text: str) -> Counter:
    return Counter(_WORD.findall(text))


def _pairs(text: str) -> Counter:
    squeezed = _SPACE.sub(" ", text).strip()
    return Counter(squeezed[index : index + 2] for index in range(len(squeezed) - 1))


def _dice(a: Counter, b: Counter) -> float:
    total = sum(a.values()) + sum(b.values())
    if not total:
        return 1.0
    common = sum((a & b).values())
    return 2.0 * common / total


class TextProfile:
    """What ``similarity`` needs of a text, computed once per block."""

    __slots__ = ("pairs", "text", "words")

    def __init__(self, text: str) -> None:
        self.text = text
        self.words = _words(text)
        self.pairs: Counter | None = None

    def similarity(self, other: TextProfile) -> float:
        if self.text == other.text:
            return 1.0
        if not self.words or not other.words:
            return 0.0
        score = _dice(self.words, other.words)
        if min(sum(self.words.values()), sum(other.words.values())) <= 4:
            # Short texts: one changed word halves a word score, so compare letters too.
            if self.pairs is None:
                self.pairs = _pairs(self.text)
            if other.pairs is None:
                other.pairs = _pairs(other.text)
            score = max(score, _dice(self.pairs, other.pairs))
        return score


def similarity(a: str, b: str) -> float:
    return TextProfile(a).similarity(TextProfile(b))


def pair_by_similarity(
    left: int,
    right: int,
    score: Callable[[int, int], float],
    threshold: float = PAIR_THRESHOLD,
    band: int = SIMILARITY_BAND,
    budget: Budget | None = None,
) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` (increasing in both) of the ``left`` x ``right`` elements of a gap that
    maximise the summed ``score`` of pairs scoring at least ``threshold``. Only pairs near the
    gap's diagonal (within ``band``, narrowed to what ``budget`` still affords) are scored, and a
    gap past ``MAX_DIFF_CELLS`` chooses among them without a dense table, so long gaps stay
    linear."""
    if not left or not right:
        return []
    if budget is not None:
        affordable = budget.scores // left
        if affordable < 1:
            budget.coarse = True
            return []
        if (affordable - 1) // 2 < band:
            band = (affordable - 1) // 2
            budget.coarse = True
        budget.scores -= left * (2 * band + 1)
    ratio = right / left
    allowed: dict[tuple[int, int], float] = {}
    for i in range(left):
        centre = i * ratio
        low = max(0, int(centre) - band)
        high = min(right, int(centre) + band + 1)
        for j in range(low, high):
            value = score(i, j)
            if value >= threshold:
                allowed[(i, j)] = value
    if not allowed:
        return []
    if left * right > MAX_DIFF_CELLS:
        return heaviest_increasing([(i, j, value) for (i, j), value in sorted(allowed.items())])
    # best[i][j]: best total for left[:i], right[:j]; only rows touching allowed pairs matter,
    # but the table is small (left x right within the band), so keep it simple and dense per row.
    previous = [0.0] * (right + 1)
    choices: list[list[int]] = []
    for i in range(1, left + 1):
        current = [0.0] * (right + 1)
        choice = [0] * (right + 1)  # 0: skip left, 1: skip right, 2: pair
        for j in range(1, right + 1):
            best, how = previous[j], 0
            if current[j - 1] > best:
                best, how = current[j - 1], 1
            value = allowed.get((i - 1, j - 1))
            if value is not None and previous[j - 1] + value > best:
                best, how = previous[j - 1] + value, 2
            current[j] = best
            choice[j] = how
        choices.append(choice)
        previous = current
    pairs = []
    i, j = left, right
    while i > 0 and j > 0:
        how = choices[i - 1][j]
        if how == 2:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
        elif how == 1:
            j -= 1
        else:
            i -= 1
    pairs.reverse()
    return pairs


def heaviest_increasing(candidates: list[tuple[int, int, float]]) -> list[tuple[int, int]]:
    """The pairs ``(i, j)`` of a subsequence of ``candidates`` (``(i, j, weight)``) strictly
    increasing in both ``i`` and ``j`` whose weights sum highest (ties: the earlier pairs)."""
    if not candidates:
        return []
    ordered = sorted(candidates, key=lambda c: (c[0], -c[1]))
    columns = sorted({j for _, j, _ in ordered})
    rank = {j: index + 1 for index, j in enumerate(columns)}
    size = len(columns)
    tree_weight = [0.0] * (size + 1)
    tree_index = [-1] * (size + 1)
    total = [0.0] * len(ordered)
    previous = [-1] * len(ordered)
    for index, (_, j, weight) in enumerate(ordered):
        # Best chain ending in a column before j (Fenwick prefix maximum).
        best, best_index = 0.0, -1
        position = rank[j] - 1
        while position > 0:
            if tree_weight[position] > best:
                best, best_index = tree_weight[position], tree_index[position]
            position -= position & -position
        total[index] = best + weight
        previous[index] = best_index
        position = rank[j]
        while position <= size:
            if total[index] > tree_weight[position]:
                tree_weight[position], tree_index[position] = total[index], index
            position += position & -position
    end = max(range(len(ordered)), key=lambda k: (total[k], -k))
    chain = []
    while end >= 0:
        chain.append((ordered[end][0], ordered[end][1]))
        end = previous[end]
    chain.reverse()
    return chain
