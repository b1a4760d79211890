"""Size and cost limits for untrusted .docx packages, with the reasoning behind each number.

A .docx is a zip archive, so a small file can claim (or really hold) enormous content, and a
modest part can hold markup that costs far more once parsed than its bytes suggest (a 140 KB file
of empty paragraphs and comments used to take 1.4 GB). These caps refuse such files, with exit
code 2 and a message naming the limit, before they cost memory or time. Real Word documents sit
far below all of them.

Each limit can be changed for one run with an environment variable named after it,
``DESKCHECK_`` + its name (``DESKCHECK_MAX_XML_NODES=5000000``): a whole number, read when
deskcheck starts. Raising one raises what a hostile document may cost, too.
"""

from __future__ import annotations

import os


def _setting(name: str, default: int) -> int:
    text = os.environ.get("DESKCHECK_" + name, "").strip().replace("_", "")
    return int(text) if text.isdigit() and int(text) > 0 else default


# The file itself: Word documents with many images reach tens of MiB; 256 MiB leaves room for
# huge scanned attachments while keeping a whole-file read in memory reasonable.
MAX_PACKAGE_BYTES = _setting("MAX_PACKAGE_BYTES", 256 * 1024 * 1024)

# Members in the zip: a long document with hundreds of images has a few hundred parts.
MAX_MEMBERS = _setting("MAX_MEMBERS", 10_000)

# Uncompressed size of one part, and of all parts together. Images are stored, not parsed, so
# these mostly bound what a save copies.
MAX_MEMBER_BYTES = _setting("MAX_MEMBER_BYTES", 256 * 1024 * 1024)
MAX_TOTAL_BYTES = _setting("MAX_TOTAL_BYTES", 1024 * 1024 * 1024)

# Compression ratio of one large part (uncompressed / compressed). Repetitive XML compresses up to
# roughly 100:1; zip bombs reach 1000:1 and more. Small parts are exempt because a tiny
# compressed stream can have any ratio without costing anything.
MAX_COMPRESSION_RATIO = _setting("MAX_COMPRESSION_RATIO", 250)
RATIO_CHECK_FROM_BYTES = _setting("RATIO_CHECK_FROM_BYTES", 8 * 1024 * 1024)

# What the parsed XML of one package may cost, summed over every part deskcheck parses (the
# document, headers, footers, notes, comments, styles, numbering, relationships...). Memory and
# time follow the markup, not the bytes, so the markup is what is counted. The values keep the
# costliest command on the costliest pair of accepted documents (a redline of two rewritten
# versions, each at the limits) under 1 GB and 30 s of CPU (bench/hostile.py):
# - bytes of XML parsed: document.xml of a 1,000-page contract is around 20 MiB, the largest of 336
#   real files from 23 projects 12.6 MB. Bare text is what costs most per byte (every character
#   is hashed, seeds a minted id and is profiled for comparison): a compare of two documents of
#   64 MiB of text each took 46 s of CPU, so the limit is half that;
# - nodes: elements, attributes (namespace declarations included), comments and processing
#   instructions, each about 250 bytes once parsed. A 1,000-page contract of dense formatting has
#   about 1.3 million;
# - paragraphs: the costliest node (each becomes a block: about 1 KB and 30 us, more in a
#   redline). Real documents have one paragraph per 20 to 50 nodes; 80,000 paragraphs is some
#   2,400 pages. At 100,000 a redline of two one-table documents of as many rows peaked at
#   1015 MiB;
# - runs: the next costliest (each is a piece of text to compare and, in a redline, a new run:
#   about 2 KB). Real documents have one run per 15 to 20 nodes.
MAX_XML_BYTES = _setting("MAX_XML_BYTES", 32 * 1024 * 1024)
MAX_XML_NODES = _setting("MAX_XML_NODES", 1_000_000)
MAX_PARAGRAPHS = _setting("MAX_PARAGRAPHS", 80_000)
MAX_RUNS = _setting("MAX_RUNS", 250_000)
