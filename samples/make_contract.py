"""Build ``samples/contract.docx``, the sample contract that ``deskcheck demo`` and the README tour
review: a services agreement written for deskcheck, with a title, numbered clauses on three levels
(``1.``, ``1.1``, ``(a)``), lettered recitals, defined terms, a payment schedule table, a
signature table, a footnote, and a header and footer.

    python samples/make_contract.py              # rewrites contract.docx, contract-v2.docx, contract-long.docx
    python samples/make_contract.py OUT.docx [OUT-V2.docx [OUT-LONG.docx]]   # writes elsewhere

``contract-v2.docx`` is the counterparty's later draft of the same contract (``REVISIONS``): a
changed date, payment term and fee, a clause added, one removed and one moved, for the documentation's
examples of ``compare`` and ``redline``. ``contract-long.docx`` is the contract with a long
schedule of service levels (about 460 blocks), for paging through a long document.

The package is written from scratch (no template) so that every part is ours and the output is
byte-for-byte the same on every run: fixed zip timestamps, fixed document properties, and
``w14:paraId`` values derived from each paragraph's position, so that block ids (and the README's
commands that quote them) stay the same when the file is rebuilt. A test checks that the
committed file is what this script writes.
"""

from __future__ import annotations

import hashlib
import re
import sys
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

OUTPUT = Path(__file__).with_name("contract.docx")
OUTPUT_V2 = Path(__file__).with_name("contract-v2.docx")
OUTPUT_LONG = Path(__file__).with_name("contract-long.docx")

# -- the text --------------------------------------------------------------------------------------
# Inline markup in texts: **bold** (defined terms), [^N] a reference to footnote N.

SUPPLIER = "Halyard Software Ltd"
CUSTOMER = "Brightwater Housing Association"

FOOTNOTES = {
    1: "The statutory rate for late payment between businesses is 8% a year above the Bank of England "
    "base rate in force on the date the payment became due.",
}

# The contract, one item per line: "kind: text", a long text going on in lines indented by four
# spaces; a table's rows follow its line as "| cell | cell |". Kinds: title, subtitle, body, party
# ("(1)"), heading (not numbered), recital ("A."), clause1 (a numbered heading, "1."), clause2
# ("1.1"), clause3 ("(a)"), table (the payment schedule, with a header row), signatures.
CONTRACT_TEXT = """
title: Software Services Agreement
subtitle: Tenant portal: design, build, hosting and support
body: This Software Services Agreement (the “**Agreement**”) is dated 4 March 2024 and made between:
party: Halyard Software Ltd, a company registered in England and Wales under number 11047263, whose
    registered office is at 14 Chandlery Row, Bristol BS1 6XA (the “**Supplier**”); and
party: Brightwater Housing Association, a registered society with number 30512R, whose principal office is
    at 220 Lock Keeper's Walk, Manchester M4 7QN (the “**Customer**”).
heading: Background
recital: The Customer manages about 4,000 rented homes and wants its tenants to report repairs, pay rent and
    follow their requests online.
recital: The Supplier designs, builds and hosts web applications for social landlords.
recital: The Customer has chosen the Supplier, after a competitive tender, to build and run a tenant portal
    on the terms of this Agreement.
body: The parties agree as follows:
clause1: Definitions and interpretation
clause2: In this Agreement the following words have these meanings:
clause3: “**Acceptance**” means the Customer's written confirmation that a Deliverable meets its
    Specification under clause 4;
clause3: “**Business Day**” means a day other than a Saturday, a Sunday or a public holiday in England;
clause3: “**Charges**” means the fees set out in clause 5 and in the Payment Schedule;
clause3: “**Confidential Information**” means any information about a party's business, tenants, systems or
    plans that the other party receives under this Agreement;
clause3: “**Deliverables**” means the software, documentation and other items the Supplier provides under
    this Agreement;
clause3: “**Effective Date**” means the date of this Agreement;
clause3: “**Services**” means the design, development, hosting and support services described in Schedule 1;
    and
clause3: “**Specification**” means the description of the portal's functions agreed in Schedule 1.
clause2: Clause headings do not affect the interpretation of this Agreement.
clause2: Words in the singular include the plural, and the other way round.
clause1: The Services
clause2: The Supplier shall provide the Services from the Effective Date with the skill and care of a
    competent software supplier.
clause2: The Supplier shall name a project manager, who shall be the Customer's main contact and attend a
    progress meeting with the Customer every two weeks.
clause2: The Supplier may use subcontractors only with the Customer's prior written consent, which shall not
    be unreasonably withheld. The Supplier remains responsible for the work of its subcontractors.
clause2: The Customer shall give the Supplier timely access to the information, staff and systems the
    Supplier reasonably needs to perform the Services.
clause1: Term
clause2: This Agreement starts on the Effective Date and continues for an initial term of thirty-six (36)
    months, unless it is terminated earlier under clause 8.
clause2: At the end of the initial term this Agreement renews automatically for successive periods of twelve
    (12) months, unless either party gives at least ninety (90) days' written notice before the renewal
    date.
clause1: Delivery and acceptance
clause2: The Supplier shall deliver each Deliverable by the due date set out in the Payment Schedule.
clause2: The Customer shall test each Deliverable within ten (10) Business Days of its delivery and either
    confirm Acceptance or give the Supplier a written list of the ways in which it does not meet the
    Specification.
clause2: The Supplier shall correct the listed defects and deliver the Deliverable again within fifteen (15)
    Business Days, after which clause 4.2 applies again.
clause1: Charges and payment
clause2: In return for the Services the Customer shall pay the Charges set out in the payment schedule below
    (the “**Payment Schedule**”). All amounts are in pounds sterling and exclude VAT.
table:
    | Milestone | Deliverable | Due date | Amount (GBP) |
    | 1 | Discovery report and Specification | 30 April 2024 | 18,000 |
    | 2 | Portal beta release | 31 July 2024 | 42,000 |
    | 3 | Production release after Acceptance | 31 October 2024 | 36,000 |
    | 4 | Hosting and support, each quarter | Quarterly in advance | 9,500 |
    |   | Total for development (milestones 1 to 3) |   | 96,000 |
clause2: The Supplier shall invoice each milestone on Acceptance of its Deliverable, and the hosting and
    support fee quarterly in advance.
clause2: The Customer shall pay each undisputed invoice within thirty (30) days of receiving it.
clause2: If the Customer does not pay an undisputed amount on time, the Supplier may charge interest on it
    at the statutory rate[^1] from the due date until the date of payment.
clause2: The Supplier may increase the hosting and support fee once a year, on the anniversary of the
    Effective Date, by no more than the annual change in the Consumer Prices Index.
clause1: Intellectual property
clause2: On payment of the related Charges, the Supplier assigns to the Customer all intellectual property
    rights in the Deliverables created specifically for the Customer.
clause2: The Supplier keeps the rights in its pre-existing software and tools, and grants the Customer a
    non-exclusive, perpetual licence to use them as part of the Deliverables.
clause1: Confidentiality and data protection
clause2: Each party shall keep the other party's Confidential Information secret and use it only to perform
    this Agreement.
clause2: Clause 7.1 does not apply to information that is or becomes public other than through a breach of
    this Agreement, or that a party must disclose by law.
clause2: The Supplier shall process personal data about the Customer's tenants only on the Customer's
    documented instructions and in accordance with the data processing terms in Schedule 2.
clause2: The Supplier shall notify the Customer without undue delay, and in any case within forty-eight (48)
    hours, after becoming aware of a personal data breach.
clause1: Termination
clause2: Either party may terminate this Agreement at once by written notice if the other party:
clause3: commits a material breach that it has not remedied within thirty (30) days of a written notice
    describing the breach; or
clause3: becomes insolvent, enters into liquidation or makes an arrangement with its creditors.
clause2: The Customer may terminate this Agreement for convenience on ninety (90) days' written notice,
    paying the Charges for the work performed up to the termination date.
clause2: On termination the Supplier shall return the Customer's data in a commonly used format within
    thirty (30) days, and then delete its own copies.
clause1: Liability
clause2: Nothing in this Agreement limits liability for death or personal injury caused by negligence, for
    fraud, or for any other liability that cannot be limited by law.
clause2: Subject to clause 9.1, neither party is liable for loss of profits, loss of business or any
    indirect loss.
clause2: Subject to clause 9.1, each party's total liability under this Agreement in each contract year is
    limited to the Charges paid or payable in that year.
clause1: General
clause2: Neither party may assign this Agreement without the other party's prior written consent.
clause2: Notices shall be in writing and sent to the other party's address given above, or to another
    address that party has notified in writing.
clause2: This Agreement is the entire agreement between the parties about its subject matter.
clause2: This Agreement is governed by the law of England and Wales, and the courts of England and Wales
    have exclusive jurisdiction over any dispute arising from it.
body: Signed by the parties' authorised representatives on the date stated at the beginning of this
    Agreement.
signatures:
    | For Halyard Software Ltd | For Brightwater Housing Association |
    | Signature: | Signature: |
    | Name: Priya Raman | Name: Tom Okafor |
    | Title: Managing Director | Title: Director of Customer Services |
    | Date: | Date: |
"""
TABLE_KINDS = ("table", "signatures")

# The second version: each (old, new) replaces text that occurs exactly once in CONTRACT_TEXT.
REVISIONS = [
    ("is dated 4 March 2024", "is dated 18 March 2024"),
    ("within thirty (30) days of receiving it.", "within forty-five (45) days of receiving it."),
    ("| Quarterly in advance | 9,500 |", "| Quarterly in advance | 9,000 |"),
    (
        "clause2: Clause headings do not affect the interpretation of this Agreement.\n"
        "clause2: Words in the singular include the plural, and the other way round.\n",
        "clause2: Words in the singular include the plural, and the other way round.\n"
        "clause2: Clause headings do not affect the interpretation of this Agreement.\n",
    ),
    (
        "clause2: The Supplier may increase the hosting and support fee once a year, on the anniversary of the\n"
        "    Effective Date, by no more than the annual change in the Consumer Prices Index.\n",
        "",
    ),
    (
        "clause1: Term\n",
        "clause2: The Supplier shall keep the portal available for at least 99.5% of each month, outside\n"
        "    maintenance announced five (5) Business Days ahead.\nclause1: Term\n",
    ),
]


MODULES = [
    "rent accounts",
    "repairs",
    "tenancy changes",
    "complaints",
    "anti-social behaviour reports",
    "estate inspections",
    "home swaps",
    "arrears advice",
    "adaptations",
    "new tenant sign-up",
]
SEVERITY_LEVELS = [
    ("critical", "one (1) hour", "four (4) hours"),
    ("major", "four (4) hours", "one (1) Business Day"),
    ("minor", "one (1) Business Day", "five (5) Business Days"),
]


def long_text() -> str:
    """CONTRACT_TEXT followed by a schedule of service levels, one section per portal module."""
    lines = [CONTRACT_TEXT.rstrip("\n"), "heading: Schedule 1: Service levels"]
    for number, module in enumerate(MODULES * 6, start=1):
        lines.append(f"clause1: Module {number}: {module}")
        lines.append(
            f"clause2: The Supplier shall keep the {module} pages of the portal available for at least 99.5% of"
        )
        lines.append("    each month, measured every five minutes from outside its hosting provider.")
        for level, response, fix in SEVERITY_LEVELS:
            lines.append(f"clause3: a {level} fault in the {module} pages is answered within {response} and fixed")
            lines.append(f"    within {fix} of its report;")
        lines.append(f"clause2: Each month the Supplier shall report the availability of the {module} pages and every")
        lines.append("    fault reported in them, with the time it was answered and fixed.")
    return "\n".join(lines) + "\n"


def revised_text() -> str:
    """CONTRACT_TEXT with REVISIONS applied."""
    text = CONTRACT_TEXT
    for old, new in REVISIONS:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def parse_contract(text: str) -> list[tuple[str, str | list[list[str]]]]:
    """The items of ``CONTRACT_TEXT``: (kind, text), or (kind, rows of cell texts) for a table."""
    items: list[list] = []
    for line in text.strip("\n").splitlines():
        if line.startswith("    |"):
            items[-1][1].append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif line.startswith("    "):
            items[-1][1] += " " + line.strip()
        else:
            kind, _, rest = line.partition(":")
            items.append([kind, [] if kind in TABLE_KINDS else rest.strip()])
    return [(kind, content) for kind, content in items]


HEADER_TEXT = f"Software Services Agreement · {SUPPLIER} and {CUSTOMER}"

# -- package pieces ----------------------------------------------------------------------------------

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
ROOT_NS = f'xmlns:w="{W}" xmlns:r="{R}" xmlns:w14="{W14}" xmlns:mc="{MC}" mc:Ignorable="w14"'
DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
REL_BASE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

# A4 in twentieths of a point, 2.5 cm margins: the text is 9,026 twips wide.
PAGE_WIDTH, PAGE_HEIGHT, MARGIN = 11906, 16838, 1440
TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN
ZIP_TIME = (2024, 3, 4, 9, 0, 0)

# numIds of numbering.xml
CLAUSES, RECITALS, PARTIES = 1, 2, 3
PARAGRAPH_STYLE = {
    "title": "Title",
    "subtitle": "Subtitle",
    "body": "BodyText",
    "party": "Party",
    "heading": "Heading1",
    "clause1": "Heading1",
    "clause2": "Clause",
    "clause3": "ClauseItem",
    "recital": "Recital",
}
NUMBERING = {
    "party": (PARTIES, 0),
    "recital": (RECITALS, 0),
    "clause1": (CLAUSES, 0),
    "clause2": (CLAUSES, 1),
    "clause3": (CLAUSES, 2),
}


class ParaIds:
    """``w14:paraId`` values: 8 hex digits below 0x80000000 (as Word requires), derived from the
    paragraph's place in its part so that a rebuilt file gets the same ids."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.count = 0
        self.seen: set[str] = set()

    def next(self) -> str:
        while True:
            self.count += 1
            digest = hashlib.sha256(f"{self.part}:{self.count}".encode()).digest()
            value = f"{int.from_bytes(digest[:4], 'big') & 0x7FFFFFFF:08X}"
            if value not in self.seen and value != "00000000":
                self.seen.add(value)
                return value


_MARKUP = re.compile(r"\*\*(.+?)\*\*|\[\^(\d+)\]")


def runs(text: str, *, bold: bool = False) -> str:
    """Runs for a text with **bold** and [^N] footnote references."""
    out, last = [], 0
    for match in _MARKUP.finditer(text):
        out.append(_run(text[last : match.start()], bold=bold))
        if match.group(1) is not None:
            out.append(_run(match.group(1), bold=True))
        else:
            out.append(
                '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr>'
                f'<w:footnoteReference w:id="{int(match.group(2))}"/></w:r>'
            )
        last = match.end()
    out.append(_run(text[last:], bold=bold))
    return "".join(out)


def _run(text: str, *, bold: bool = False) -> str:
    if not text:
        return ""
    props = "<w:rPr><w:b/></w:rPr>" if bold else ""
    return f'<w:r>{props}<w:t xml:space="preserve">{escape(text)}</w:t></w:r>'


def paragraph(
    ids: ParaIds, text: str, style: str | None = None, *, numbering=None, extra_ppr: str = "", bold: bool = False
) -> str:
    ppr = ""
    if style:
        ppr += f'<w:pStyle w:val="{style}"/>'
    if numbering:
        num_id, level = numbering
        ppr += f'<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num_id}"/></w:numPr>'
    ppr += extra_ppr
    ppr = f"<w:pPr>{ppr}</w:pPr>" if ppr else ""
    return f'<w:p w14:paraId="{ids.next()}" w14:textId="77777777">{ppr}{runs(text, bold=bold)}</w:p>'


def cell(
    ids: ParaIds, text: str, width: int, *, header: bool = False, align: str | None = None, borders: bool = True
) -> str:
    tcpr = f'<w:tcW w:w="{width}" w:type="dxa"/>'
    if header:
        tcpr += '<w:shd w:val="clear" w:color="auto" w:fill="D9E2F3"/>'
    jc = f'<w:jc w:val="{align}"/>' if align else ""
    style = "TableText" if borders else "SignatureText"
    return f"<w:tc><w:tcPr>{tcpr}</w:tcPr>{paragraph(ids, text, style, extra_ppr=jc, bold=header)}</w:tc>"


def payment_table(ids: ParaIds, rows: list[list[str]]) -> str:
    widths = [1150, 3900, 2176, 1800]
    grid = "".join(f'<w:gridCol w:w="{w}"/>' for w in widths)
    out = [
        '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="5000" w:type="pct"/>'
        '<w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="1" w:firstColumn="0" w:lastColumn="0" '
        'w:noHBand="0" w:noVBand="1"/></w:tblPr>',
        f"<w:tblGrid>{grid}</w:tblGrid>",
    ]
    for index, row in enumerate(rows):
        header = index == 0
        total = index == len(rows) - 1
        trpr = "<w:trPr><w:cantSplit/><w:tblHeader/></w:trPr>" if header else "<w:trPr><w:cantSplit/></w:trPr>"
        cells = []
        for column, text in enumerate(row):
            align = "right" if column == 3 else ("center" if column == 0 else None)
            cells.append(cell(ids, text, widths[column], header=header or total, align=align))
        out.append(f"<w:tr>{trpr}{''.join(cells)}</w:tr>")
    out.append("</w:tbl>")
    return "".join(out)


def signature_table(ids: ParaIds, rows: list[list[str]]) -> str:
    width = TEXT_WIDTH // 2
    out = [
        '<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblLook w:val="0000" w:firstRow="0" '
        'w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="1" w:noVBand="1"/></w:tblPr>',
        f'<w:tblGrid><w:gridCol w:w="{width}"/><w:gridCol w:w="{width}"/></w:tblGrid>',
    ]
    for index, row in enumerate(rows):
        cells = "".join(cell(ids, text, width, header=False, borders=False) for text in row)
        if index == 0:
            cells = cells.replace('<w:pStyle w:val="SignatureText"/>', '<w:pStyle w:val="SignatureParty"/>')
        out.append(f"<w:tr><w:trPr><w:cantSplit/></w:trPr>{cells}</w:tr>")
    out.append("</w:tbl>")
    return "".join(out)


def document_xml(text: str) -> str:
    ids = ParaIds("document")
    body = []
    for kind, content in parse_contract(text):
        if kind == "table":
            body.append(payment_table(ids, content))  # type: ignore[arg-type]
        elif kind == "signatures":
            body.append(signature_table(ids, content))  # type: ignore[arg-type]
        else:
            body.append(paragraph(ids, str(content), PARAGRAPH_STYLE[kind], numbering=NUMBERING.get(kind)))
    sect = (
        '<w:sectPr><w:headerReference w:type="default" r:id="rIdHeader1"/>'
        '<w:footerReference w:type="default" r:id="rIdFooter1"/>'
        f'<w:pgSz w:w="{PAGE_WIDTH}" w:h="{PAGE_HEIGHT}"/>'
        f'<w:pgMar w:top="{MARGIN}" w:right="{MARGIN}" w:bottom="{MARGIN}" w:left="{MARGIN}" '
        'w:header="708" w:footer="708" w:gutter="0"/><w:cols w:space="708"/><w:docGrid w:linePitch="360"/>'
        "</w:sectPr>"
    )
    return f"{DECL}<w:document {ROOT_NS}><w:body>{''.join(body)}{sect}</w:body></w:document>"


def footnotes_xml() -> str:
    ids = ParaIds("footnotes")
    notes = [
        f'<w:footnote w:type="separator" w:id="-1"><w:p w14:paraId="{ids.next()}" w14:textId="77777777">'
        '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:separator/></w:r></w:p>'
        "</w:footnote>",
        f'<w:footnote w:type="continuationSeparator" w:id="0"><w:p w14:paraId="{ids.next()}" '
        'w14:textId="77777777"><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
        "<w:r><w:continuationSeparator/></w:r></w:p></w:footnote>",
    ]
    for number, text in FOOTNOTES.items():
        notes.append(
            f'<w:footnote w:id="{number}"><w:p w14:paraId="{ids.next()}" w14:textId="77777777">'
            '<w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr>'
            '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r>'
            f"{_run(' ' + text)}</w:p></w:footnote>"
        )
    return f"{DECL}<w:footnotes {ROOT_NS}>{''.join(notes)}</w:footnotes>"


def header_xml() -> str:
    ids = ParaIds("header1")
    return f"{DECL}<w:hdr {ROOT_NS}>{paragraph(ids, HEADER_TEXT, 'Header')}</w:hdr>"


def footer_xml() -> str:
    ids = ParaIds("footer1")
    field = '<w:fldSimple w:instr=" {0} "><w:r><w:t>1</w:t></w:r></w:fldSimple>'
    body = (
        f'<w:p w14:paraId="{ids.next()}" w14:textId="77777777"><w:pPr><w:pStyle w:val="Footer"/></w:pPr>'
        f"{_run('Page ')}{field.format('PAGE')}{_run(' of ')}{field.format('NUMPAGES')}</w:p>"
    )
    return f"{DECL}<w:ftr {ROOT_NS}>{body}</w:ftr>"


def _level(ilvl: int, fmt: str, text: str, left: int, hanging: int, *, bold: bool = False) -> str:
    rpr = "<w:rPr><w:b/></w:rPr>" if bold else ""
    return (
        f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/>'
        f'<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="{left}" w:hanging="{hanging}"/></w:pPr>{rpr}</w:lvl>'
    )


def numbering_xml() -> str:
    clauses = (
        '<w:abstractNum w:abstractNumId="0"><w:nsid w:val="5C3A1E01"/><w:multiLevelType w:val="multilevel"/>'
        + _level(0, "decimal", "%1.", 567, 567, bold=True)
        + _level(1, "decimal", "%1.%2", 567, 567)
        + _level(2, "lowerLetter", "(%3)", 1134, 567)
        + "</w:abstractNum>"
    )
    recitals = (
        '<w:abstractNum w:abstractNumId="1"><w:nsid w:val="5C3A1E02"/><w:multiLevelType w:val="singleLevel"/>'
        + _level(0, "upperLetter", "%1.", 567, 567)
        + "</w:abstractNum>"
    )
    parties = (
        '<w:abstractNum w:abstractNumId="2"><w:nsid w:val="5C3A1E03"/><w:multiLevelType w:val="singleLevel"/>'
        + _level(0, "decimal", "(%1)", 567, 567)
        + "</w:abstractNum>"
    )
    nums = "".join(
        f'<w:num w:numId="{num}"><w:abstractNumId w:val="{abstract}"/></w:num>'
        for num, abstract in ((CLAUSES, 0), (RECITALS, 1), (PARTIES, 2))
    )
    return f"{DECL}<w:numbering {ROOT_NS}>{clauses}{recitals}{parties}{nums}</w:numbering>"


def _style(
    kind: str,
    style_id: str,
    name: str,
    body: str = "",
    *,
    based_on: str | None = "Normal",
    default: bool = False,
    next_style: str | None = None,
    extra: str = "",
) -> str:
    attrs = ' w:default="1"' if default else ""
    based = f'<w:basedOn w:val="{based_on}"/>' if based_on else ""
    nxt = f'<w:next w:val="{next_style}"/>' if next_style else ""
    return (
        f'<w:style w:type="{kind}"{attrs} w:styleId="{style_id}"><w:name w:val="{name}"/>'
        f"{based}{nxt}{extra}{body}</w:style>"
    )


def styles_xml() -> str:
    font = '<w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Calibri" w:cs="Calibri"/>'
    defaults = (
        f'<w:docDefaults><w:rPrDefault><w:rPr>{font}<w:sz w:val="22"/><w:szCs w:val="22"/>'
        '<w:lang w:val="en-GB" w:eastAsia="en-US" w:bidi="ar-SA"/></w:rPr></w:rPrDefault>'
        '<w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="264" w:lineRule="auto"/></w:pPr></w:pPrDefault>'
        "</w:docDefaults>"
    )
    ui = '<w:uiPriority w:val="1"/><w:qFormat/>'
    border = '<w:{0} w:val="single" w:sz="4" w:space="0" w:color="8EAADB"/>'
    borders = "".join(border.format(side) for side in ("top", "left", "bottom", "right", "insideH", "insideV"))
    styles = [
        _style("paragraph", "Normal", "Normal", based_on=None, default=True, extra=ui),
        _style("character", "DefaultParagraphFont", "Default Paragraph Font", based_on=None, default=True),
        _style(
            "table",
            "TableNormal",
            "Normal Table",
            based_on=None,
            default=True,
            body='<w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/>'
            '<w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/>'
            "</w:tblCellMar></w:tblPr>",
        ),
        _style("numbering", "NoList", "No List", based_on=None, default=True),
        _style(
            "paragraph",
            "Title",
            "Title",
            next_style="Subtitle",
            extra=ui,
            body='<w:pPr><w:spacing w:before="240" w:after="60"/><w:jc w:val="center"/></w:pPr>'
            '<w:rPr><w:b/><w:caps/><w:color w:val="1F3864"/><w:spacing w:val="10"/><w:sz w:val="36"/>'
            '<w:szCs w:val="36"/></w:rPr>',
        ),
        _style(
            "paragraph",
            "Subtitle",
            "Subtitle",
            next_style="BodyText",
            extra=ui,
            body='<w:pPr><w:spacing w:after="360"/><w:jc w:val="center"/></w:pPr>'
            '<w:rPr><w:i/><w:color w:val="44546A"/><w:sz w:val="24"/><w:szCs w:val="24"/></w:rPr>',
        ),
        _style(
            "paragraph",
            "Heading1",
            "heading 1",
            next_style="Clause",
            extra=ui,
            body='<w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="280" w:after="120"/>'
            '<w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:color w:val="1F3864"/><w:sz w:val="24"/>'
            '<w:szCs w:val="24"/></w:rPr>',
        ),
        _style("paragraph", "BodyText", "Body Text", extra=ui, body='<w:pPr><w:jc w:val="both"/></w:pPr>'),
        _style("paragraph", "Party", "Party", extra=ui, body='<w:pPr><w:jc w:val="both"/></w:pPr>'),
        _style("paragraph", "Recital", "Recital", extra=ui, body='<w:pPr><w:jc w:val="both"/></w:pPr>'),
        _style("paragraph", "Clause", "Clause", extra=ui, body='<w:pPr><w:jc w:val="both"/></w:pPr>'),
        _style(
            "paragraph",
            "ClauseItem",
            "Clause Item",
            extra=ui,
            body='<w:pPr><w:spacing w:after="80"/><w:jc w:val="both"/></w:pPr>',
        ),
        _style(
            "paragraph",
            "TableText",
            "Table Text",
            extra=ui,
            body='<w:pPr><w:spacing w:before="40" w:after="40" w:line="240" w:lineRule="auto"/></w:pPr>'
            '<w:rPr><w:sz w:val="20"/><w:szCs w:val="20"/></w:rPr>',
        ),
        _style(
            "paragraph",
            "SignatureParty",
            "Signature Party",
            next_style="SignatureText",
            extra=ui,
            body='<w:pPr><w:keepNext/><w:spacing w:before="360" w:after="240"/></w:pPr><w:rPr><w:b/></w:rPr>',
        ),
        _style(
            "paragraph",
            "SignatureText",
            "Signature Text",
            extra=ui,
            body='<w:pPr><w:keepNext/><w:spacing w:after="200"/></w:pPr>',
        ),
        _style(
            "paragraph",
            "Header",
            "header",
            body='<w:pPr><w:tabs><w:tab w:val="center" w:pos="4513"/><w:tab w:val="right" w:pos="9026"/></w:tabs>'
            '<w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:jc w:val="right"/></w:pPr>'
            '<w:rPr><w:color w:val="7F7F7F"/><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr>',
        ),
        _style(
            "paragraph",
            "Footer",
            "footer",
            body='<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:jc w:val="center"/></w:pPr>'
            '<w:rPr><w:color w:val="7F7F7F"/><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr>',
        ),
        _style(
            "paragraph",
            "FootnoteText",
            "footnote text",
            body='<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
            '<w:rPr><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr>',
        ),
        _style(
            "character",
            "FootnoteReference",
            "footnote reference",
            based_on="DefaultParagraphFont",
            body='<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>',
        ),
        _style(
            "table",
            "TableGrid",
            "Table Grid",
            based_on="TableNormal",
            body=f"<w:tblPr><w:tblBorders>{borders}</w:tblBorders></w:tblPr>",
        ),
    ]
    return f"{DECL}<w:styles {ROOT_NS}>{defaults}{''.join(styles)}</w:styles>"


def settings_xml() -> str:
    return (
        f"{DECL}<w:settings {ROOT_NS}>"
        '<w:zoom w:percent="100"/><w:defaultTabStop w:val="709"/><w:characterSpacingControl w:val="doNotCompress"/>'
        '<w:footnotePr><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr>'
        '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" '
        'w:val="15"/></w:compat>'
        '<w:themeFontLang w:val="en-GB"/><w:decimalSymbol w:val="."/><w:listSeparator w:val=","/>'
        "</w:settings>"
    )


def content_types_xml() -> str:
    main = "application/vnd.openxmlformats-officedocument.wordprocessingml"
    overrides = {
        "/word/document.xml": f"{main}.document.main+xml",
        "/word/styles.xml": f"{main}.styles+xml",
        "/word/numbering.xml": f"{main}.numbering+xml",
        "/word/settings.xml": f"{main}.settings+xml",
        "/word/footnotes.xml": f"{main}.footnotes+xml",
        "/word/header1.xml": f"{main}.header+xml",
        "/word/footer1.xml": f"{main}.footer+xml",
        "/docProps/core.xml": "application/vnd.openxmlformats-package.core-properties+xml",
        "/docProps/app.xml": "application/vnd.openxmlformats-officedocument.extended-properties+xml",
    }
    items = "".join(f"<Override PartName={quoteattr(k)} ContentType={quoteattr(v)}/>" for k, v in overrides.items())
    return (
        f'{DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        f'<Default Extension="xml" ContentType="application/xml"/>{items}</Types>'
    )


def relationships(rels: list[tuple[str, str, str]]) -> str:
    items = "".join(f'<Relationship Id="{rid}" Type="{kind}" Target="{target}"/>' for rid, kind, target in rels)
    return f'{DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{items}</Relationships>'


def core_xml() -> str:
    return (
        f"{DECL}<cp:coreProperties "
        'xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        "<dc:title>Software Services Agreement</dc:title>"
        f"<dc:subject>Tenant portal for {escape(CUSTOMER)}</dc:subject>"
        "<dc:creator>deskcheck samples</dc:creator><cp:lastModifiedBy>deskcheck samples</cp:lastModifiedBy>"
        "<cp:revision>1</cp:revision>"
        '<dcterms:created xsi:type="dcterms:W3CDTF">2024-03-04T09:00:00Z</dcterms:created>'
        '<dcterms:modified xsi:type="dcterms:W3CDTF">2024-03-04T09:00:00Z</dcterms:modified>'
        "</cp:coreProperties>"
    )


def app_xml() -> str:
    return (
        f'{DECL}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
        "<Application>deskcheck samples</Application><DocSecurity>0</DocSecurity></Properties>"
    )


def build(text: str = CONTRACT_TEXT) -> bytes:
    """The contract (or another version's ``text``) as .docx bytes (the same bytes on every run)."""
    import io

    parts = {
        "[Content_Types].xml": content_types_xml(),
        "_rels/.rels": relationships(
            [
                ("rId1", REL_BASE + "officeDocument", "word/document.xml"),
                (
                    "rId2",
                    "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
                    "docProps/core.xml",
                ),
                ("rId3", REL_BASE + "extended-properties", "docProps/app.xml"),
            ]
        ),
        "docProps/core.xml": core_xml(),
        "docProps/app.xml": app_xml(),
        "word/document.xml": document_xml(text),
        "word/_rels/document.xml.rels": relationships(
            [
                ("rIdStyles", REL_BASE + "styles", "styles.xml"),
                ("rIdNumbering", REL_BASE + "numbering", "numbering.xml"),
                ("rIdSettings", REL_BASE + "settings", "settings.xml"),
                ("rIdFootnotes", REL_BASE + "footnotes", "footnotes.xml"),
                ("rIdHeader1", REL_BASE + "header", "header1.xml"),
                ("rIdFooter1", REL_BASE + "footer", "footer1.xml"),
            ]
        ),
        "word/styles.xml": styles_xml(),
        "word/numbering.xml": numbering_xml(),
        "word/settings.xml": settings_xml(),
        "word/footnotes.xml": footnotes_xml(),
        "word/header1.xml": header_xml(),
        "word/footer1.xml": footer_xml(),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in parts.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, text.encode("utf-8"))
    return buffer.getvalue()


def main(argv: list[str]) -> int:
    versions = {OUTPUT: lambda: CONTRACT_TEXT, OUTPUT_V2: revised_text, OUTPUT_LONG: long_text}
    targets = [Path(name) for name in argv] if argv else list(versions)
    for path, text in zip(targets, versions.values(), strict=False):
        path.write_bytes(build(text()))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
