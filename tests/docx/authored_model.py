"""Documents that already carry several authors' tracked changes, as a model that knows what each
reviewer decision should read like, and as .docx files built from it.

A model document is the body's items in order: paragraphs and one-column tables. A paragraph
is its pieces of text and its mark, each with *layers*: the revisions wrapped around it, outer
first, as ``(kind, author)`` with kind ``ins``, ``del``, ``moveFrom`` or ``moveTo``. A row has
layers of its own (``w:trPr/w:ins|w:del``). The kinds a paragraph is drawn from (``KINDS``)
are the shapes contracts that went through review carry: a paragraph someone inserted or
deleted, a mark someone inserted (a split) or deleted (a join), insertions and deletions inside
the text, a deletion inside someone else's insertion, property and formatting changes, a move,
and table rows inserted or deleted (with their content marked, as Word writes it, or only the
row: ``rowMarkOnly``, which LibreOffice 7.4 does not act on).

``resolve(items, decisions)`` gives the paragraph texts once every author's changes are
accepted or rejected as ``decisions`` ({author: True to accept}) says, with Word's rules: a
piece or mark stays when every layer stays (an insertion accepted, a deletion rejected); a
paragraph whose mark goes runs into the next paragraph of its container, unless a table or the
container's end comes next (then it stays, or goes when nothing is left in it and it is not a
cell's only paragraph); a row that goes takes everything in it.

Operations of ours are applied to the model as the editing tools describe them
(``insert_paragraph``, ``delete_paragraph``, ``replace_word``), so the model says what accepting
and rejecting them, with any decision on the other authors' changes, must read like.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field

from tests.docx.builders import make_docx

DATE = "2024-03-01T10:00:00Z"
KINDS = (
    "plain", "inserted", "deleted", "markInserted", "markDeleted", "inline", "nested", "propertyChange",
    "formatChange", "moved", "table", "rowMarkOnly",
)  # fmt: skip

Layers = tuple[tuple[str, str], ...]


# Compared by identity: two paragraphs that read alike are still two paragraphs.
@dataclass(eq=False)
class Piece:
    text: str
    layers: Layers = ()


@dataclass(eq=False)
class Para:
    pieces: list[Piece]
    mark: Layers = ()
    extra_ppr: str = ""  # a pPrChange, for instance
    run_change: str = ""  # an rPrChange on the runs
    move: tuple[str, str] | None = None  # ("from" | "to", name): range markers around it

    @property
    def visible(self) -> str:
        """The as-accepted text (what read_document shows)."""
        return "".join(p.text for p in self.pieces if not any(k in ("del", "moveFrom") for k, _ in p.layers))


@dataclass(eq=False)
class Row:
    layers: Layers
    paragraphs: list[Para]


@dataclass(eq=False)
class Table:
    rows: list[Row] = field(default_factory=list)


# -- building -------------------------------------------------------------------------------------


class Words:
    """Distinct words, so that every word occurs once in the document."""

    def __init__(self) -> None:
        self.count = itertools.count(1)

    def __call__(self, n: int = 1) -> str:
        return " ".join(f"w{next(self.count)}" for _ in range(n))


def paragraph_of(kind: str, author: str, other: str, words: Words) -> list[Para | Table]:
    """The items of one drawn ``kind`` (a move gives two paragraphs, a table a table and the
    paragraph Word needs after it)."""
    ins, dele = (("ins", author),), (("del", author),)
    if kind == "plain":
        return [Para([Piece(words(3))])]
    if kind == "inserted":
        return [Para([Piece(words(2), ins)], ins)]
    if kind == "deleted":
        return [Para([Piece(words(2), dele)], dele)]
    if kind == "markInserted":
        return [Para([Piece(words(2))], ins)]
    if kind == "markDeleted":
        return [Para([Piece(words(2))], dele)]
    if kind == "inline":
        return [
            Para([Piece(words() + " "), Piece(words() + " ", ins), Piece(words() + " "),
                  Piece(words() + " ", (("del", other),)), Piece(words())])
        ]  # fmt: skip
    if kind == "nested":
        return [
            Para([Piece(words() + " "), Piece(words() + " ", ins), Piece(words(), (("ins", author), ("del", other)))])
        ]
    if kind == "propertyChange":
        change = (
            f'<w:pPrChange w:id="0" w:author="{author}" w:date="{DATE}"><w:pPr><w:jc w:val="center"/></w:pPr>'
            "</w:pPrChange>"
        )
        return [Para([Piece(words(2))], extra_ppr=change)]
    if kind == "formatChange":
        return [
            Para(
                [Piece(words(2))],
                run_change=f'<w:rPrChange w:id="0" w:author="{author}" w:date="{DATE}"><w:rPr/></w:rPrChange>',
            )
        ]
    if kind == "moved":
        text = words(3)
        name = f"move{text.split()[0]}"
        return [
            Para([Piece(text, (("moveFrom", author),))], (("moveFrom", author),), move=("from", name)),
            Para([Piece(text, (("moveTo", author),))], (("moveTo", author),), move=("to", name)),
        ]
    if kind == "table":
        rows = [
            Row((), [Para([Piece(words(2))])]),
            Row(ins, [Para([Piece(words(2), ins)], ins)]),
            Row((("del", other),), [Para([Piece(words(2), (("del", other),))], (("del", other),))]),
            Row((), [Para([Piece(words(1))], (("del", other),)), Para([Piece(words(2))])]),
        ]
        return [Table(rows), Para([Piece(words(1))])]
    if kind == "rowMarkOnly":  # a row deleted by its row mark alone, its text and marks left as they were
        rows = [Row((), [Para([Piece(words(2))])]), Row(dele, [Para([Piece(words(2))])])]
        return [Table(rows), Para([Piece(words(1))])]
    raise ValueError(kind)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;")


def _wrap(inner: str, layers: Layers) -> str:
    for kind, author in reversed(layers):
        inner = f'<w:{kind} w:id="0" w:author="{author}" w:date="{DATE}">{inner}</w:{kind}>'
    return inner


def _run(piece: Piece, run_change: str) -> str:
    deleted = any(kind == "del" for kind, _ in piece.layers)
    tag = "w:delText" if deleted else "w:t"
    rpr = f"<w:rPr>{run_change}</w:rPr>" if run_change else ""
    return _wrap(f'<w:r>{rpr}<{tag} xml:space="preserve">{_escape(piece.text)}</{tag}></w:r>', piece.layers)


def _paragraph_xml(para: Para) -> str:
    mark = "".join(f'<w:{kind} w:id="0" w:author="{author}" w:date="{DATE}"/>' for kind, author in para.mark)
    ppr = para.extra_ppr + (f"<w:rPr>{mark}</w:rPr>" if mark else "")
    body = "".join(_run(piece, para.run_change) for piece in para.pieces if piece.text)
    if para.move is not None:
        side, name = para.move
        prefix = "w:moveFrom" if side == "from" else "w:moveTo"
        body = (
            f'<{prefix}RangeStart w:id="0" w:author="{para.mark[0][1]}" w:date="{DATE}" w:name="{name}"/>'
            f'{body}<{prefix}RangeEnd w:id="0"/>'
        )
    return f"<w:p>{f'<w:pPr>{ppr}</w:pPr>' if ppr else ''}{body}</w:p>"


def _table_xml(table: Table) -> str:
    rows = []
    for row in table.rows:
        marks = "".join(f'<w:{kind} w:id="0" w:author="{author}" w:date="{DATE}"/>' for kind, author in row.layers)
        trpr = f"<w:trPr>{marks}</w:trPr>" if marks else ""
        cell = (
            '<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>'
            + "".join(_paragraph_xml(p) for p in row.paragraphs)
            + "</w:tc>"
        )
        rows.append(f"<w:tr>{trpr}{cell}</w:tr>")
    return (
        '<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid>'
        + "".join(rows) + "</w:tbl>"
    )  # fmt: skip


def build(path, items: list[Para | Table]):
    """Write ``items`` as a .docx (revision ids numbered from 1, unique in the document)."""
    body = "".join(_table_xml(i) if isinstance(i, Table) else _paragraph_xml(i) for i in items)
    counter = itertools.count(1)
    parts = body.split('w:id="0"')
    numbered = parts[0]
    for part in parts[1:]:
        numbered += f'w:id="{next(counter)}"' + part
    # Move range ends take the id of their start (they are written right after it, one move each).
    numbered = _pair_range_ends(numbered)
    return make_docx(path, numbered + '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>')


def _pair_range_ends(xml: str) -> str:
    import re

    out, last = [], None
    for token in re.split(r"(<w:move(?:From|To)Range(?:Start|End) w:id=\"\d+\")", xml):
        found = re.match(r"<w:move(From|To)Range(Start|End) w:id=\"(\d+)\"", token)
        if found and found.group(2) == "Start":
            last = found.group(3)
        elif found and last is not None:
            token = re.sub(r'w:id="\d+"', f'w:id="{last}"', token)
        out.append(token)
    return "".join(out)


# -- the paragraphs in document order -----------------------------------------------------------


def paragraphs(items: list[Para | Table]) -> list[tuple[Para, list[Para], list]]:
    """Every paragraph in document order with the container list holding it."""
    out = []
    for item in items:
        if isinstance(item, Table):
            for row in item.rows:
                out.extend((p, row.paragraphs, row.layers) for p in row.paragraphs)
        else:
            out.append((item, items, ()))
    return out


# -- our operations --------------------------------------------------------------------------------
# Each takes the target paragraph itself (found with ``paragraphs`` before any operation of a call
# applies, as the tools resolve every operation against the document as read).


def _container_of(items, para: Para) -> list:
    return next(container for p, container, _ in paragraphs(items) if p is para)


def insert_paragraph(items, para: Para, text: str, after: bool, author: str) -> None:
    container = _container_of(items, para)
    new = Para([Piece(text, (("ins", author),))] if text else [], (("ins", author),))
    container.insert(container.index(para) + (1 if after else 0), new)


def delete_paragraph(items, para: Para, author: str, *, keep_mark: bool) -> None:
    """deleteBlock: its live text deleted, and its mark unless no paragraph follows it."""
    for piece in para.pieces:
        if not any(kind in ("del", "moveFrom") for kind, _ in piece.layers):
            piece.layers = (*piece.layers, ("del", author))
    if not keep_mark:
        para.mark = (*para.mark, ("del", author))


def followed_by_paragraph(items, para: Para) -> bool:
    container = _container_of(items, para)
    position = container.index(para)
    return position + 1 < len(container) and isinstance(container[position + 1], Para)


def replace_word(para: Para, word: str, new: str, author: str) -> None:
    """replaceInBlock of one word of a live piece."""
    for number, piece in enumerate(para.pieces):
        if word in piece.text.split() and not any(k in ("del", "moveFrom") for k, _ in piece.layers):
            before, _, after = piece.text.partition(word)
            replaced = [
                Piece(before, piece.layers),
                Piece(word, (*piece.layers, ("del", author))),
                Piece(new, (("ins", author),)),
                Piece(after, piece.layers),
            ]
            para.pieces[number : number + 1] = [p for p in replaced if p.text]
            return
    raise ValueError(f"{word} is not in a live piece")


def live_words(para: Para) -> list[str]:
    return [w for p in para.pieces if not any(k in ("del", "moveFrom") for k, _ in p.layers) for w in p.text.split()]


# -- what a reviewer's decisions give ----------------------------------------------------------------


def resolve(items: list[Para | Table], decisions: dict[str, bool]) -> list[str]:
    """The paragraph texts once each author's changes are accepted (True) or rejected, one author
    after the other in the order of ``decisions``, as a reviewer works through them."""
    items = copy.deepcopy(items)
    for author, accept in decisions.items():
        _decide(items, author, accept)
    return _texts(items)


def _decide(items: list, author: str, accept: bool) -> None:
    def stays(layer: tuple[str, str]) -> bool:
        return accept if layer[0] in ("ins", "moveTo") else not accept

    def settle(layers: Layers) -> Layers | None:
        """The layers left once this author's are decided, or None when the thing goes."""
        if any(who == author and not stays((kind, who)) for kind, who in layers):
            return None
        return tuple((kind, who) for kind, who in layers if who != author)

    # Rows first (a row that goes takes its paragraphs), then pieces, then marks, in order.
    for item in items:
        if isinstance(item, Table):
            item.rows = [row for row in item.rows if settle(row.layers) is not None]
            for row in item.rows:
                row.layers = settle(row.layers)
    joins = []
    for para, _, _ in paragraphs(items):
        para.pieces = [piece for piece in para.pieces if settle(piece.layers) is not None]
        for piece in para.pieces:
            piece.layers = settle(piece.layers)
        mark = settle(para.mark)
        para.mark = mark or ()
        if mark is None:
            joins.append(para)
    for para in joins:
        _join(items, para)


def _join(items: list, para: Para) -> None:
    """The paragraph's mark went: it runs into the next paragraph of its container; with none
    next, it stays while it holds anything (or is its cell's only paragraph)."""
    container = next((c for p, c, _ in paragraphs(items) if p is para), None)
    if container is None:
        return
    position = container.index(para)
    following = container[position + 1] if position + 1 < len(container) else None
    if isinstance(following, Para):
        following.pieces[:0] = para.pieces
        del container[position]
        return
    if para.pieces:
        return
    if container is not items and sum(isinstance(i, Para) for i in container) <= 1:
        return
    del container[position]


def _texts(items: list) -> list[str]:
    return ["".join(piece.text for piece in para.pieces) for para, _, _ in paragraphs(items)]
