"""Caps on one suggest_changes call, with the reasoning behind each number."""

# One string (a replacement, an inserted paragraph, a comment): 100,000 characters is about 40
# pages of prose, more than any single edit a reviewer can judge at once.
MAX_STRING_LENGTH = 100_000

# All strings of one call together: 2,000,000 characters keeps one call's XML work and the
# result well under a second of processing and a few MiB of memory.
MAX_TOTAL_TEXT = 2_000_000

# Operations per call: the host chooses 1-200 (default 50). More than 200 redlines in one call
# is more than a reviewer can check, and the response would be too long for a model to read.
MIN_OPERATIONS = 1
MAX_OPERATIONS = 200
DEFAULT_MAX_OPERATIONS = 50

# Operation ids: short, printable, echoed in every result.
MAX_ID_LENGTH = 200

# The record of applied operation ids kept inside the document for replay.
MAX_REPLAY_RECORDS = 20_000
