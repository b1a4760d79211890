"""Size limits for untrusted .docx packages, with the reasoning behind each number.

A .docx is a zip archive, so a small file can claim (or really hold) enormous content. These caps
refuse such files before they cost memory or time. Real Word documents sit far below all of them:
the corpus's largest part is a few MiB.
"""

# The file itself: Word documents with many images reach tens of MiB; 256 MiB leaves room for
# huge scanned attachments while keeping a whole-file read in memory reasonable.
MAX_PACKAGE_BYTES = 256 * 1024 * 1024

# Members in the zip: a long document with hundreds of images has a few hundred parts.
MAX_MEMBERS = 10_000

# Uncompressed size of one part, and of all parts together. document.xml of a 1,000-page
# contract is around 20 MiB; images are stored, not parsed.
MAX_MEMBER_BYTES = 256 * 1024 * 1024
MAX_TOTAL_BYTES = 1024 * 1024 * 1024

# Compression ratio of one large part (uncompressed / compressed). Repetitive XML compresses up to
# roughly 100:1; zip bombs reach 1000:1 and more. Small parts are exempt because a tiny
# compressed stream can have any ratio without costing anything.
MAX_COMPRESSION_RATIO = 250
RATIO_CHECK_FROM_BYTES = 8 * 1024 * 1024
