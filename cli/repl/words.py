"""The tools' messages in the REPL's words: an agent is told to call ``form_describeState`` or
``read_document``; a person at the prompt has `errors`, `show`, `blocks` and `find` for that.

Only the names of tools (with their group prefix, quoted or not) and the few sentences that
tell how to call them are replaced; everything else in a message stays as the tool wrote it.
"""

from __future__ import annotations

import re

# A tool name as messages write it: bare, prefixed by its group (form_, sample_dataset_line_) and
# maybe in backticks.
_PREFIX = r"`?\b(?:[A-Za-z0-9]+_)*"

_FORM = [
    # Sentences first: what they say needs more than a name swapped.
    (
        re.compile(
            r"Fix the reported errors \(" + _PREFIX + r"describeState`? lists them\) and save again, or allow "
            r"invalid saves \(--allow-invalid\)"
        ),
        "Fix the reported errors (`errors` lists them) and `save` again, or `save --allow-invalid`",
    ),
    (re.compile(_PREFIX + r"describeState`? lists them"), "`errors` lists them"),
    (re.compile(r"allow invalid saves \(--allow-invalid\)"), "`save --allow-invalid`"),
    (re.compile(_PREFIX + r"describeState\b`?"), "`show`"),
    (re.compile(_PREFIX + r"getData\b`?"), "`get`"),
    (re.compile(_PREFIX + r"setFieldValue\b`?"), "`set`"),
    (re.compile(_PREFIX + r"setData\b`?"), "`set`"),
    (re.compile(_PREFIX + r"getFieldSuggestions\b`?"), "`suggest`"),
    (re.compile(_PREFIX + r"editArray\b`?"), "`add` or `remove`"),
    (re.compile(_PREFIX + r"saveForm\b`?"), "`save`"),
    (re.compile(_PREFIX + r"reloadForm\b`?"), "`reload`"),
]

_REVIEW = [
    (re.compile(r"\bread_document or find_text\b"), "`blocks` or `find TEXT`"),
    (re.compile(r"`?\bread_document\b`?"), "`blocks`"),
    (re.compile(r"`?\bfind_text\b`?"), "`find`"),
    (re.compile(r"`?\bread_comments\b`?"), "`comments`"),
    (re.compile(r"`?\bread_changes\b`?"), "`changes`"),
]


def form_words(text: str) -> str:
    """A form tool's message as the REPL's form commands say it."""
    for pattern, words in _FORM:
        text = pattern.sub(words, text)
    return text


def review_words(text: str) -> str:
    """A docx tool's message as the REPL's review commands say it."""
    for pattern, words in _REVIEW:
        text = pattern.sub(words, text)
    return text
