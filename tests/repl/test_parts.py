"""The REPL's small parts on plain data: reading words and values, the toolbar from a
``ReplState``, the highlighting of the line being typed, and that every command of the tables
has a handler."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deskcheck.cli.errors import UsageError
from deskcheck.cli.repl import commands, parse
from deskcheck.cli.repl.form_mode import FormMode
from deskcheck.cli.repl.highlight import ReplLexer
from deskcheck.cli.repl.loop import Shell
from deskcheck.cli.repl.review_mode import ReviewMode
from deskcheck.cli.repl.state import ReplState
from deskcheck.cli.repl.toolbar import toolbar_tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12", 12),
        ("true", True),
        ("null", None),
        ('["a", 1]', ["a", 1]),
        ('{"k": {"n": 2}}', {"k": {"n": 2}}),
        ('"12"', "12"),
        ("Ada Lovelace", "Ada Lovelace"),
        ("  spaced  ", "spaced"),
        ("3O", "3O"),
    ],
)
def test_values_are_json_or_plain_text(text, expected):
    assert parse.value(text) == expected


@pytest.mark.parametrize("text", ['{"unclosed": 1', "[1, 2", '"no end', ""])
def test_text_that_starts_like_json_must_be_json(text):
    with pytest.raises(UsageError):
        parse.value(text)


def test_arrow_texts_and_quoting():
    usage = "replace BLOCK FIND => REPLACE"
    assert parse.split_arrow("old words => new words", usage) == ("old words", "new words")
    assert parse.split_arrow("gone =>", usage) == ("gone", "")
    assert parse.split_arrow('"a => b" => c', usage) == ("a => b", "c")
    assert parse.split_arrow('x => " padded "', usage) == ("x", " padded ")
    with pytest.raises(UsageError, match="separated by =>"):
        parse.split_arrow("no arrow here", usage)
    assert parse.split_first('  "/first name"  Ada  ') == ("/first name", "Ada  ")
    assert parse.take_words("after 1A2B some text", 2, "insert") == (["after", "1A2B"], "some text")
    with pytest.raises(UsageError, match="usage: insert"):
        parse.take_words("after", 2, "insert")


@given(st.text(min_size=1, max_size=30).filter(lambda t: "\x00" not in t))
def test_a_quoted_word_reads_back_as_it_was(text):
    word = parse.quote_if_needed(text)
    assert parse.words(word) == [word]
    assert parse.unquote(word) == text


def test_the_toolbar_shows_what_is_open_and_its_flags():
    form = ReplState("form", '"Event"', status="stale", valid=False, error_count=2, modified=True)
    tokens = toolbar_tokens(form)
    text = "".join(t for _, t in tokens)
    assert 'form: "Event"' in text and "stale" in text and "invalid: 2 errors" in text and "modified" in text
    assert ("class:bottom-toolbar.warn", " stale ") in tokens
    clean = "".join(t for _, t in toolbar_tokens(ReplState("form", "x", status="ready", valid=True)))
    assert " valid " in clean and "modified" not in clean
    review = ReplState("review", "charter.docx", document_version="1b7cba20", pending_ops=3)
    text = "".join(t for _, t in toolbar_tokens(review))
    assert "version 1b7cba20" in text and "3 pending ops" in text
    assert review.summary() == (
        "review charter.docx · documentVersion 1b7cba20 · 3 pending operations · nothing unsaved"
    )


def test_the_line_is_highlighted_by_part():
    lexer = ReplLexer(frozenset({"set", "replace", "call"}))

    def tokens(line):
        from prompt_toolkit.document import Document

        return lexer.lex_document(Document(line))(0)

    assert tokens("set /name Ada")[:2] == [("", ""), ("class:command", "set")]
    assert tokens("sett /name")[1] == ("class:unknown-command", "sett")
    assert ("class:arrow", "=>") in tokens("replace 1A2B old => new")
    call = tokens('call find_text {"query": "x", "matchCase": true}')
    assert ("class:json.key", '"query"') in call and ("class:json.string", '"x"') in call
    assert ("class:json.literal", "true") in call
    assert "".join(t for _, t in call) == 'call find_text {"query": "x", "matchCase": true}'


@pytest.mark.parametrize(("mode", "cls"), [("form", FormMode), ("review", ReviewMode)])
def test_every_command_has_a_handler(mode, cls):
    for command in commands.table(mode):
        assert hasattr(Shell, f"do_{command.name}") or hasattr(cls, f"do_{command.name}"), command.name
        assert command.usage.startswith(command.name) and command.summary.endswith((".", ")"))
    names = [name for c in commands.table(mode) for name in (c.name, *c.aliases)]
    assert len(names) == len(set(names))


def test_json_arguments_of_call():
    assert parse.json_object("", "ARGS") == {}
    assert parse.json_object('{"a": 1}', "ARGS") == {"a": 1}
    with pytest.raises(UsageError, match="must be a JSON object"):
        parse.json_object("[1]", "ARGS")
    with pytest.raises(UsageError, match="is not valid JSON"):
        parse.json_object("{", "ARGS")
    assert json.loads(json.dumps(parse.value('{"nested": [1, {"x": null}]}'))) == {"nested": [1, {"x": None}]}


def test_the_repl_page_names_every_command_of_the_tables():
    from tests.docs import page

    section = page("repl.md")
    for mode in ("form", "review"):
        for command in commands.table(mode):
            assert f"`{command.name}" in section, f"docs/repl.md does not mention {command.name}"


def test_tool_messages_read_in_the_repl_s_words():
    from deskcheck.cli.repl.words import form_words, review_words

    assert form_words("the form has 1 more error(s) elsewhere: describeState lists them") == (
        "the form has 1 more error(s) elsewhere: `errors` lists them"
    )
    assert form_words("Read it with getData on /a, change it, and write it back with sample_line_setFieldValue.") == (
        "Read it with `get` on /a, change it, and write it back with `set`."
    )
    assert form_words("call `form_reloadForm` to get the current copy") == "call `reload` to get the current copy"
    assert form_words("nothing to translate here: setFieldValueX") == "nothing to translate here: setFieldValueX"
    assert review_words("re-read it (read_document or find_text) and retry") == (
        "re-read it (`blocks` or `find TEXT`) and retry"
    )


def test_queued_text_checks():
    from deskcheck.cli.repl.queued_text import place_comment, replace_problem, rewrites

    text = "Pay within thirty (30) days of receipt."
    ops = [{"type": "replaceInBlock", "blockId": "B", "find": "thirty (30)", "replace": "forty-five (45)"}]
    assert rewrites(text, ops, "B")[0] == "Pay within forty-five (45) days of receipt."
    assert rewrites(text, ops, "OTHER")[0] == text
    assert replace_problem(text, "days", ops, "B") is None
    assert "overlaps the text queued replace 1" in replace_problem(text, "(30) days", ops, "B")
    assert "is only in the text a queued replace writes" in replace_problem(text, "forty", ops, "B")
    assert place_comment(text, "forty-five", ops, "B").rides_with == 1
    assert place_comment(text, "receipt", ops, "B") == (None, None)
    assert "no longer be in block B" in place_comment(text, "thirty", ops, "B").problem
    assert "runs across" in place_comment(text, "within forty", ops, "B").problem


def test_the_toolbar_hint_is_shortened_not_cut_on_a_narrow_screen():
    review = ReplState("review", "a-contract-with-a-rather-long-name.docx", document_version="1b7cba20", pending_ops=3)
    wide = "".join(text for _, text in toolbar_tokens(review, 200))
    assert wide.endswith(" help · Tab completes · Ctrl-D leaves ")
    for width in (80, 60):
        narrow = "".join(text for _, text in toolbar_tokens(review, width))
        assert len(narrow) <= width, (width, narrow)
        assert narrow.endswith((" help · Ctrl-D leaves ", " help ")), "the hint is whole, only shorter"
        assert "3 pending ops" in narrow
