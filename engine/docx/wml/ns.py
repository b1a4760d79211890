"""Namespace URIs of WordprocessingML and friends, and Clark-name helpers.

Tags are written ``"w:p"`` in code and turned into lxml's Clark notation (``"{uri}p"``) by
``qn``. The constants below are the Clark names the block walker compares against on every
element; computing them once keeps the walk fast.
"""

from __future__ import annotations

from functools import cache

NS: dict[str, str] = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "m": "http://schemas.openxmlformats.org/officeDocument/2006/math",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
    "w15": "http://schemas.microsoft.com/office/word/2012/wordml",
    "w16cid": "http://schemas.microsoft.com/office/word/2016/wordml/cid",
    "w16cex": "http://schemas.microsoft.com/office/word/2018/wordml/cex",
    "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "wps": "http://schemas.microsoft.com/office/word/2010/wordprocessingShape",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "v": "urn:schemas-microsoft-com:vml",
    "ct": "http://schemas.openxmlformats.org/package/2006/content-types",
    "pr": "http://schemas.openxmlformats.org/package/2006/relationships",
}

# Strict Open XML (ISO 29500 strict) uses other URIs for the same vocabulary.
STRICT_W = "http://purl.oclc.org/ooxml/wordprocessingml/main"


@cache
def qn(tag: str) -> str:
    """``"w:p"`` -> ``"{http://...wordprocessingml/2006/main}p"``."""
    prefix, _, local = tag.partition(":")
    return f"{{{NS[prefix]}}}{local}"


_W = "{" + NS["w"] + "}"

# Block-level and run-level WordprocessingML elements the walkers dispatch on.
W_BODY = _W + "body"
W_P = _W + "p"
W_PPR = _W + "pPr"
W_R = _W + "r"
W_RPR = _W + "rPr"
W_T = _W + "t"
W_DELTEXT = _W + "delText"
W_INSTRTEXT = _W + "instrText"
W_DELINSTRTEXT = _W + "delInstrText"
W_TAB = _W + "tab"
W_PTAB = _W + "ptab"
W_BR = _W + "br"
W_CR = _W + "cr"
W_NOBREAKHYPHEN = _W + "noBreakHyphen"
W_SOFTHYPHEN = _W + "softHyphen"
W_SYM = _W + "sym"
W_TBL = _W + "tbl"
W_TR = _W + "tr"
W_TC = _W + "tc"
W_TRPR = _W + "trPr"
W_TCPR = _W + "tcPr"
W_GRIDSPAN = _W + "gridSpan"
W_GRIDBEFORE = _W + "gridBefore"
W_HIDDEN = _W + "hidden"
W_VMERGE = _W + "vMerge"
W_VANISH = _W + "vanish"
W_SDT = _W + "sdt"
W_SDTCONTENT = _W + "sdtContent"
W_SDTPR = _W + "sdtPr"
W_DATABINDING = _W + "dataBinding"
W_ALTCHUNK = _W + "altChunk"
W_SUBDOC = _W + "subDoc"
W_FLDCHAR = _W + "fldChar"
W_CUSTOMXML = _W + "customXml"
W_SMARTTAG = _W + "smartTag"
W_HYPERLINK = _W + "hyperlink"
W_FLDSIMPLE = _W + "fldSimple"
W_DIR = _W + "dir"
W_BDO = _W + "bdo"
W_INS = _W + "ins"
W_DEL = _W + "del"
W_MOVEFROM = _W + "moveFrom"
W_MOVETO = _W + "moveTo"
W_TXBXCONTENT = _W + "txbxContent"
W_PSTYLE = _W + "pStyle"
W_RSTYLE = _W + "rStyle"
W_NUMPR = _W + "numPr"
W_NUMID = _W + "numId"
W_ILVL = _W + "ilvl"
W_OUTLINELVL = _W + "outlineLvl"
W_SECTPR = _W + "sectPr"
W_COMMENTRANGESTART = _W + "commentRangeStart"
W_COMMENTRANGEEND = _W + "commentRangeEnd"
W_COMMENTREFERENCE = _W + "commentReference"
W_RUBY = _W + "ruby"
W_RUBYBASE = _W + "rubyBase"
W_FOOTNOTEREFERENCE = _W + "footnoteReference"
W_ENDNOTEREFERENCE = _W + "endnoteReference"
W_VAL = _W + "val"
W_ID = _W + "id"
W_AUTHOR = _W + "author"
W_DATE = _W + "date"
RSID_PREFIX = _W + "rsid"  # revision session ids (w:rsid, w:rsidR, ...)

MC_ALTERNATECONTENT = "{" + NS["mc"] + "}AlternateContent"
MC_CHOICE = "{" + NS["mc"] + "}Choice"
MC_FALLBACK = "{" + NS["mc"] + "}Fallback"

W14_PARAID = "{" + NS["w14"] + "}paraId"
W14_TEXTID = "{" + NS["w14"] + "}textId"
