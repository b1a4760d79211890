"""Documents built to cost more than their size suggests (issue 15 items 3 and 7): what the
parsed XML of one package may cost is bounded in bytes, nodes and paragraphs, counted before a
part is parsed, whatever the markup is spelled with; a DTD is refused wherever it stands."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from deskcheck.engine.docx.model.document import DocxDocument
from deskcheck.engine.docx.package import docx_package as package_module
from deskcheck.engine.docx.package import limits
from deskcheck.engine.errors import InputError
from tests.docx.builders import W_NS, make_docx, p
from tests.helpers import run_cli, run_process

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
STRICT_W = "http://purl.oclc.org/ooxml/wordprocessingml/main"


def with_document(path: Path, document: bytes, **extra: bytes) -> Path:
    """A package whose document.xml is ``document`` (bytes as given), plus ``extra`` parts."""
    make_docx(path, p("x"))
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    parts["word/document.xml"] = document
    parts.update({name.replace("__", "/"): data for name, data in extra.items()})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return path


def document(body: bytes, root: bytes = b"<w:document " + W_NS.encode() + b">") -> bytes:
    return b'<?xml version="1.0" encoding="UTF-8"?>' + root + b"<w:body>" + body + b"</w:body></w:document>"


def refused(path: Path, *, stories: bool = False) -> InputError:
    with pytest.raises(InputError) as info:
        doc = DocxDocument.open(path)
        doc.blocks  # noqa: B018 - parsing happens on access
        if stories:
            doc.stories()
    return info.value


def test_the_issue_shape_is_refused_before_its_tree_is_built(tmp_path, monkeypatch):
    """22,500 x (60 empty paragraphs and a comment): 8 MB under the ratio check's threshold,
    1.35 million elements. It took 1.1-1.4 GB and 37-60 s; now it is refused before lxml sees it."""
    path = with_document(tmp_path / "bomb.docx", document((b"<w:p/>" * 60 + b"<!--abcd-->") * 22_500))
    parsed = []
    real_parse = package_module.parse_xml
    monkeypatch.setattr(package_module, "parse_xml", lambda data: parsed.append(len(data)) or real_parse(data))
    run = run_cli("docx", "read-document", str(path), expect=2)
    error = run.json["error"]
    assert "too costly to process" in error and "word/document.xml" in error
    assert "more than 1,000,000 XML elements and attributes" in error and "DESKCHECK_MAX_XML_NODES" in error
    assert max(parsed) < 1_000_000, "document.xml was parsed before it was refused"


# Each shape spells a lot of markup a different way; the budget is lowered so that a small file
# shows the mechanism (the default values are exercised by the issue shape above and the bench).
SMALL = {"MAX_XML_NODES": 5_000, "MAX_PARAGRAPHS": 500, "MAX_RUNS": 2_000, "MAX_XML_BYTES": 200_000}


@pytest.mark.parametrize(
    ("name", "body", "limit"),
    [
        ("empty paragraphs", b"<w:p/>" * 501, "MAX_PARAGRAPHS"),
        ("paragraphs with attributes on new lines", b'<w:p\n w:rsidR="1"/>' * 501, "MAX_PARAGRAPHS"),
        ("comments", b"<w:p/>" + b"<!--x-->" * 5_000, "MAX_XML_NODES"),
        ("processing instructions", b"<w:p/>" + b"<?x y?>" * 5_000, "MAX_XML_NODES"),
        ("attributes", b"<w:p " + b" ".join(b'a%d=""' % n for n in range(5_000)) + b"/>", "MAX_XML_NODES"),
        ("namespace declarations", b"<w:p " + b" ".join(b'xmlns:n%d="u"' % n for n in range(5_000)) + b"/>",
         "MAX_XML_NODES"),
        ("runs", b"<w:p>" + b"<w:r><w:t>a</w:t></w:r>" * 2_500 + b"</w:p>", "MAX_XML_NODES"),
        ("runs within the nodes", b"<w:p>" + b"<w:r><w:t>a</w:t></w:r>" * 2_100 + b"</w:p>", "MAX_RUNS"),
        ("text", b"<w:p><w:r><w:t>" + b"a" * 200_000 + b"</w:t></w:r></w:p>", "MAX_XML_BYTES"),
    ],
)  # fmt: skip
def test_every_kind_of_markup_counts(tmp_path, monkeypatch, name, body, limit):
    for key, value in SMALL.items():
        monkeypatch.setattr(limits, key, value)
    error = refused(with_document(tmp_path / "x.docx", document(body)))
    assert error.code == "tooLarge" and f"DESKCHECK_{limit}" in error.message, (name, error.message)


@pytest.mark.parametrize(
    "root",
    [
        b'<x:document xmlns:x="' + W.encode() + b'">',  # another prefix
        b'<document xmlns="' + W.encode() + b'">',  # a default namespace, no prefix at all
        b'<w:document xmlns:w="' + STRICT_W.encode() + b'">',  # Strict OOXML's namespace
        f'<ü:document xmlns:ü="{W}">'.encode(),  # a prefix in letters past ASCII (issue 26)
        f'<段落:document xmlns:段落="{W}">'.encode(),
    ],
)
def test_paragraphs_count_whatever_their_prefix(tmp_path, monkeypatch, root):
    monkeypatch.setattr(limits, "MAX_PARAGRAPHS", 500)
    prefix = root[1 : root.index(b"document")]
    data = document(b"", root).replace(b"<w:body></w:body></w:document>", b"")
    end = b"</" + prefix + b"document>"
    data += b"<" + prefix + b"body>" + (b"<" + prefix + b"p/>") * 501 + b"</" + prefix + b"body>" + end
    path = with_document(tmp_path / "x.docx", data)
    with pytest.raises(InputError, match="paragraphs"):
        DocxDocument.open(path).package.xml("word/document.xml")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("prefix", ["w", "ü"])
def test_a_utf16_part_is_counted_too(tmp_path, monkeypatch, prefix, codec):
    """In either byte order, with or without a byte order mark: big-endian without one (which
    libxml2 reads) was decoded little-endian by the count, and 300,000 paragraphs went through."""
    monkeypatch.setattr(limits, "MAX_PARAGRAPHS", 500)
    text = document(b"<w:p/>" * 501).decode().replace('encoding="UTF-8"', 'encoding="UTF-16"')
    text = text.replace("<w:", f"<{prefix}:").replace("</w:", f"</{prefix}:").replace("xmlns:w=", f"xmlns:{prefix}=")
    error = refused(with_document(tmp_path / "x.docx", text.encode(codec)))
    assert "DESKCHECK_MAX_PARAGRAPHS" in error.message


@pytest.mark.parametrize("codec", ["utf-32", "utf-32-le", "utf-32-be"])
def test_a_utf32_part_is_refused_not_counted_as_empty(tmp_path, codec):
    """UTF-32 (with or without its byte order mark) was read as UTF-16 by the count, which then
    found no paragraphs at all, while libxml2 built every one: the README promises UTF-8 and
    UTF-16 only."""
    text = document(b"<w:p/>" * 50).decode().replace('encoding="UTF-8"', 'encoding="UTF-32"')
    path = with_document(tmp_path / "x.docx", text.encode(codec))
    run = run_cli("docx", "read-document", str(path), expect=2)
    assert "UTF-32" in run.json["error"] and "UTF-8 or UTF-16" in run.json["error"]
    # Well-formed XML in an encoding Word files do not use: refused, not called damaged.
    assert "cannot be read" in run.json["error"] and "damaged" not in run.json["error"]


def test_the_budget_is_for_the_whole_package_not_one_part(tmp_path, monkeypatch):
    """Ten headers under the budget each, over it together (small parts escape the ratio check)."""
    monkeypatch.setattr(limits, "MAX_PARAGRAPHS", 500)
    header = f'<?xml version="1.0"?><w:hdr {W_NS}>'.encode() + b"<w:p/>" * 60 + b"</w:hdr>"
    path = with_document(tmp_path / "x.docx", document(b""), **{f"word__header{n}.xml": header for n in range(10)})
    package = DocxDocument.open(path).package
    for n in range(8):
        package.xml(f"word/header{n}.xml")  # 8 x 60 = 480 paragraphs: within the budget
    with pytest.raises(InputError, match=r"header8\.xml"):
        package.xml("word/header8.xml")


@pytest.mark.parametrize(
    ("data", "accepted"),
    [
        (b'<?xml version="1.0" encoding="UTF-7"?><w:document ' + W_NS.encode() + b"/>", False),
        ('<?xml version="1.0"?><w:document/>'.encode("cp500"), False),  # EBCDIC
        (b'<?xml version="1.0" encoding="ISO-8859-1"?><w:document ' + W_NS.encode() + b"><w:body/></w:document>", True),
    ],
)
def test_parts_must_be_in_an_encoding_the_count_can_read(tmp_path, data, accepted):
    """In UTF-7 or EBCDIC, markup is not spelled with the bytes the budget counts."""
    path = with_document(tmp_path / "x.docx", data)
    if accepted:
        assert DocxDocument.open(path).blocks == []
    else:
        assert refused(path).code == "corruptPackage"


@pytest.mark.slow
def test_a_raised_limit_comes_from_the_environment(tmp_path):
    path = with_document(tmp_path / "x.docx", document(b"<w:p><w:r><w:t>a</w:t></w:r></w:p>" * 300))
    low = run_process("docx", "read-document", str(path), expect=2, env={"DESKCHECK_MAX_PARAGRAPHS": "200"})
    assert "more than 200 paragraphs" in low.json["error"]
    run_process("docx", "read-document", str(path), expect=0, env={"DESKCHECK_MAX_PARAGRAPHS": "400"})


# -- DTDs (item 7) -------------------------------------------------------------------------------

DTD = b'<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'


@pytest.mark.parametrize(
    "data",
    [
        # after 4,096 bytes of comment: the old check looked no further
        document(b"<w:p><w:r><w:t>&xxe;</w:t></w:r></w:p>").replace(
            b"?><w:document", b"?><!--" + b"c" * 5_000 + b"-->" + DTD + b"<w:document", 1
        ),
        # in UTF-16, whose bytes the old check did not match
        document(b"<w:p><w:r><w:t>&xxe;</w:t></w:r></w:p>")
        .replace(b"?><w:document", b"?>" + DTD + b"<w:document", 1)
        .replace(b'encoding="UTF-8"', b'encoding="UTF-16"')
        .decode()
        .encode("utf-16"),
        # a bare document type, no entities
        document(b"<w:p/>").replace(b"?><w:document", b"?><!DOCTYPE w:document><w:document", 1),
    ],
)
def test_a_dtd_is_refused_wherever_it_stands(tmp_path, data):
    path = with_document(tmp_path / "x.docx", data)
    before = path.read_bytes()
    operations = '{"operations": [{"type": "replaceInBlock", "blockId": "1A2B3C4D", "find": "a", "replace": "b"}]}'
    run = run_cli("docx", "suggest-changes", str(path), operations, expect=2)
    assert "DTD" in run.json["error"]
    assert path.read_bytes() == before  # in place: the input is left as it was, readable


# -- non-regular files (item 4) -----------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path):
    import os

    path = tmp_path / "pipe.docx"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["docx", "read-document", "{fifo}"],
        ["docx", "compare-versions", "{docx}", '{{"previous": "{fifo}"}}'],
        ["docx", "compare-versions", "{docx}", '{{"previous": "/dev/zero"}}'],
        ["docx", "compare", "/dev/zero", "{docx}"],
        ["call", "--docx", "{fifo}", "read_document"],
    ],
)
@pytest.mark.slow
def test_a_fifo_or_a_device_is_refused_not_read(tmp_path, fifo, argv):
    """Reading a FIFO waited for a writer forever; /dev/zero was read until MemoryError."""
    docx = make_docx(tmp_path / "a.docx", p("x"))
    args = [a.format(fifo=fifo, docx=docx) for a in argv]
    run = run_process(*args, expect=2, timeout=60)
    assert "not a regular file" in run.json["error"]


# -- work that grows faster than the document (within the limits) ------------------------------
# Counted in calls, not timed: each case was quadratic or worse before.


def test_redline_copies_a_chain_of_thousands_of_styles(tmp_path):
    """Each style based on the next: the copy recursed once per link (RecursionError past
    ~980) and searched the styles linearly for each (90 s for 50,000)."""
    from deskcheck.engine.docx.versions.redline import redline_files

    style = '<w:style w:type="paragraph" w:styleId="s{0}"><w:name w:val="s{0}"/><w:basedOn w:val="s{1}"/></w:style>'
    chain = "".join(style.format(n, n + 1) for n in range(3_000))
    plain = make_docx(tmp_path / "plain.docx", p("Same."))
    styled = make_docx(tmp_path / "styled.docx", p("Same.") + p("New.", ppr='<w:pStyle w:val="s0"/>'), styles=chain)
    redline_files(plain, styled, tmp_path / "redline.docx")
    with zipfile.ZipFile(tmp_path / "redline.docx") as archive:
        assert archive.read("word/styles.xml").count(b"<w:style ") == 3_000


def test_redline_maps_many_lists_with_linear_work(tmp_path, monkeypatch):
    """Every copied list compared itself with every list already there, finding each one's
    definition by a linear scan: 1,000 lists took 388 s."""
    from deskcheck.engine.docx.versions import transplant
    from deskcheck.engine.docx.versions.redline import redline_files

    lists = 300
    definition = (
        '<w:abstractNum w:abstractNumId="{0}"><w:lvl w:ilvl="0"><w:start w:val="{1}"/><w:numFmt w:val="decimal"/>'
        '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum>'
    )
    numbering = "".join(definition.format(n, n + 1) for n in range(lists)) + "".join(
        f'<w:num w:numId="{n + 1}"><w:abstractNumId w:val="{n}"/></w:num>' for n in range(lists)
    )
    items = "".join(
        p(f"Item {n}", ppr=f'<w:numPr><w:ilvl w:val="0"/><w:numId w:val="{n + 1}"/></w:numPr>') for n in range(lists)
    )
    plain = make_docx(tmp_path / "plain.docx", p("Intro."))
    current = make_docx(tmp_path / "current.docx", p("Intro.") + items, numbering=numbering)
    calls = []
    real = transplant._num_signature
    monkeypatch.setattr(transplant, "_num_signature", lambda *a: calls.append(1) or real(*a))
    redline_files(plain, current, tmp_path / "redline.docx")
    assert len(calls) <= 3 * lists, f"{len(calls)} signatures for {lists} lists"
    with zipfile.ZipFile(tmp_path / "redline.docx") as archive:
        assert archive.read("word/numbering.xml").count(b"<w:num ") == lists


def test_relationships_are_read_once_not_per_lookup(tmp_path, monkeypatch):
    """list_stories resolved each relationship by scanning them all: 450,000 of them never
    finished."""
    count = 5_000
    rels = b"".join(
        b'<Relationship Id="rL%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        b'hyperlink" Target="https://example.com/%d" TargetMode="External"/>' % (n, n)
        for n in range(count)
    )
    path = make_docx(tmp_path / "x.docx", p("x"))
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    parts["word/_rels/document.xml.rels"] = parts["word/_rels/document.xml.rels"].replace(
        b"</Relationships>", rels + b"</Relationships>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    made = []
    real = package_module.Relationship
    monkeypatch.setattr(package_module, "Relationship", lambda *a, **k: made.append(1) or real(*a, **k))
    doc = DocxDocument.open(path)
    doc.stories()
    for n in range(count):
        doc.package.resolve_target(doc.main_part, f"rL{n}")
    assert len(made) < 3 * (count + 10), f"{len(made)} relationships read for {count}"


def test_compare_scores_a_bounded_number_of_pairs(tmp_path, monkeypatch):
    """Two rewritten versions: every paragraph of a gap was scored against 49 neighbours and the
    pairing filled a dense table of gap x gap cells (150,000 paragraphs: never finished)."""
    from deskcheck.engine.docx.versions import diff_text
    from deskcheck.engine.docx.versions.compare import compare_versions

    monkeypatch.setattr(diff_text, "MAX_SIMILARITY_SCORES", 2_000)
    monkeypatch.setattr(diff_text, "MAX_DIFF_CELLS", 10_000)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    old = "".join(p(f"Clause {n} {words[n % 8]} {words[(n * 3) % 8]} terms") for n in range(600))
    new = "".join(p(f"Section {n} {words[(n + 1) % 8]} {words[(n * 5) % 8]} rules") for n in range(600))
    scored = []
    real = diff_text.TextProfile.similarity
    monkeypatch.setattr(diff_text.TextProfile, "similarity", lambda a, b: scored.append(1) or real(a, b))
    result = compare_versions(make_docx(tmp_path / "a.docx", old), make_docx(tmp_path / "b.docx", new))
    assert result["changes"]
    assert len(scored) <= 2_000 + 4 * 1_200, len(scored)  # the budget, plus re-anchoring's few per paragraph


def test_the_sparse_pairing_finds_what_the_dense_one_does(monkeypatch):
    from deskcheck.engine.docx.versions import diff_text

    def score(i, j):
        return 0.9 if j == i + 2 else (0.5 if j == i else 0.0)

    dense = diff_text.pair_by_similarity(300, 310, score)
    monkeypatch.setattr(diff_text, "MAX_DIFF_CELLS", 1_000)
    assert diff_text.pair_by_similarity(300, 310, score) == dense
    budget = diff_text.Budget(scores=300)  # one score per block: the diagonal only
    found = diff_text.pair_by_similarity(300, 310, score, budget=budget)
    assert found and budget.scores == 0 and found == sorted(set(found))
    assert diff_text.pair_by_similarity(300, 310, score, budget=budget) == []  # nothing left to score


def test_declaring_a_namespace_on_a_large_part_keeps_its_root(tmp_path):
    """A new root with every child moved into it cost quadratic time (minutes for 40,000
    tracked changes); the declaration is now added in place, and a prefix only named in an
    attribute value stays declared."""
    from lxml import etree

    from deskcheck.engine.docx.wml.edit import ensure_root_namespaces

    wps = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
    mc = "http://schemas.openxmlformats.org/markup-compatibility/2006"
    root = etree.fromstring(
        f'<w:document xmlns:w="{W}"><w:body><mc:AlternateContent xmlns:mc="{mc}" xmlns:wps="{wps}">'
        '<mc:Choice Requires="wps"/></mc:AlternateContent></w:body></w:document>'.encode()
    )
    result = ensure_root_namespaces(root, ("w14",), ignorable=("w14",))
    assert result is root and root.nsmap["w14"] == "http://schemas.microsoft.com/office/word/2010/wordml"
    assert b'xmlns:wps="' in etree.tostring(root) and root.get(f"{{{mc}}}Ignorable") == "w14"


class _LinesRun:
    """Counts the lines executed in one module's code (a measure of work that does not depend
    on the machine's speed)."""

    def __init__(self, module_file: str) -> None:
        self.file = module_file
        self.count = 0
        self.outer = None

    def __enter__(self) -> _LinesRun:
        self.outer = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc) -> None:
        sys.settrace(self.outer)

    def _call(self, frame, event, arg):
        return self._line if frame.f_code.co_filename == self.file else None

    def _line(self, frame, event, arg):
        if event == "line":
            self.count += 1
        return self._line


def _words_of_runs(count: int, version: int) -> str:
    """One paragraph of ``count`` words, each spelled in one-letter runs, spaces in runs of their
    own; in version 1 every fourth word is changed and the one after it made bold."""
    runs = []
    for n in range(count):
        word = f"{'x' if version and n % 4 == 0 else 'w'}{n}"
        bold = "<w:rPr><w:b/></w:rPr>" if version and n % 4 == 1 else ""
        runs.extend(f"<w:r>{bold}<w:t>{letter}</w:t></w:r>" for letter in word)
        runs.append('<w:r><w:t xml:space="preserve"> </w:t></w:r>')
    return p(runs="".join(runs))


def test_redlining_one_paragraph_of_many_changed_runs_is_linear(tmp_path):
    """Each changed range of a paragraph (a deletion, an insertion, a formatting change) scanned
    all the paragraph's pieces: one paragraph of 250,000 one-letter runs never finished. The work
    of the paragraph redliner per piece of the paragraph must not grow with its length."""
    from deskcheck.engine.docx.versions import redline_paragraph
    from deskcheck.engine.docx.versions.redline import redline_files
    from tests.docx.version_pairs import resolved, texts

    per_piece = []
    for count in (150, 600):
        previous = make_docx(tmp_path / f"a{count}.docx", _words_of_runs(count, 0))
        current = make_docx(tmp_path / f"b{count}.docx", _words_of_runs(count, 1))
        out = tmp_path / f"out{count}.docx"
        with _LinesRun(redline_paragraph.__file__) as lines:
            redline_files(previous, current, out)
        pieces = sum(len(f"w{n}") + 1 for n in range(count))
        per_piece.append(lines.count / pieces)
        assert texts(resolved(out, "accept")) == texts(resolved(current, "accept"))
        assert texts(resolved(out, "reject")) == texts(resolved(previous, "accept"))
    assert per_piece[1] < 1.5 * per_piece[0], per_piece


def _shuffled(count: int, seed: int) -> str:
    """``count`` paragraphs of 120 words from a vocabulary of four, in another order per seed:
    each pair of versions of a paragraph has a long word diff."""
    import random

    rng = random.Random(seed)
    return "".join(p(" ".join(rng.choice(["ab", "cd", "ef", "gh"]) for _ in range(120))) for _ in range(count))


@pytest.mark.parametrize("command", ["compare", "redline"])
def test_the_word_diffs_of_one_comparison_share_a_bounded_amount_of_work(tmp_path, monkeypatch, command):
    """Each paragraph's word diff was bounded, the sum over a document was not: 11,000 paragraphs
    shuffled against their other versions would have taken a compare or redline 30 minutes.
    Past the comparison's budget the remaining paragraphs are rewrites, and the result stays
    right: accepting gives the current version, rejecting the previous one."""
    from deskcheck.engine.docx.versions import diff_text
    from deskcheck.engine.docx.versions.compare import compare_versions
    from deskcheck.engine.docx.versions.redline import redline_files
    from tests.docx.version_pairs import resolved, texts

    previous = make_docx(tmp_path / "a.docx", _shuffled(40, 1))
    current = make_docx(tmp_path / "b.docx", _shuffled(40, 2))
    spent: list[int] = []
    finished: list[bool] = []
    real = diff_text._myers

    def counted(a, b, max_steps, budget=None):
        before = budget.work if budget is not None else 0
        found = real(a, b, max_steps, budget)
        spent.append(before - budget.work if budget is not None else 10**9)  # no budget: a failure
        finished.append(found is not None)
        return found

    def run() -> dict:
        spent.clear()
        finished.clear()
        if command == "compare":
            return compare_versions(previous, current)
        out = tmp_path / "out.docx"
        redline_files(previous, current, out)
        assert texts(resolved(out, "accept")) == texts(resolved(current, "accept"))
        assert texts(resolved(out, "reject")) == texts(resolved(previous, "accept"))
        return {}

    monkeypatch.setattr(diff_text, "_myers", counted)
    run()
    unbounded = sum(spent)
    monkeypatch.setattr(diff_text, "MAX_DIFF_WORK", unbounded // 4)
    result = run()
    assert all(finished[:5]) and not any(finished[-5:]), finished  # the last paragraphs are rewrites
    assert unbounded // 4 <= sum(spent) <= unbounded // 4 + max(spent), (sum(spent), unbounded)
    if command == "compare":
        segments = [change["segments"] for change in result["changes"] if change["type"] == "modified"]
        assert len(segments) == 40
        assert len(segments[0]) > 4  # diffed word by word
        kinds = [segment["type"] for segment in segments[-1]]
        assert kinds in (["del", "ins"], ["equal", "del", "ins"], ["del", "ins", "equal"]), kinds
