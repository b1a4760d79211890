"""describeState lines (types, flags, constraints, values, help) and path resolution (layout
paths, data paths on tabs, mixed paths, hidden and unknown paths)."""

from __future__ import annotations

from deskcheck.engine.forms.state.text import abbreviate, help_to_text

from .support import Form

CONTACT = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "title": "Name"},
        "age": {"type": "number", "title": "Age"},
        "email": {"type": "string", "format": "email"},
    },
}


def test_the_whole_form_starts_with_validity_then_one_line_per_field():
    text = Form(CONTACT, {"name": "Alice"}).call("describeState")
    assert text.startswith("valid: true, no errors\n\nFields:\n- / (section, required)")
    assert '  - /name (text, required) label="Name" value="Alice"' in text
    assert "comp" not in text and "childError" not in text


def test_errors_are_listed_before_the_fields_and_on_their_line():
    text = Form(CONTACT, {"email": "nope"}).call("describeState")
    assert text.startswith("valid: false, 2 error(s)\n\nErrors:\n")
    assert "- /name: required: give this field a value" in text
    assert "- /email: must be an email address" in text
    assert '- /email (text, error, format=email) label="email" value="nope" — must be an email address' in text


def test_a_plain_string_line():
    form = Form({"type": "object", "properties": {"free": {"type": "string", "title": "Free"}}}, {})
    assert form.line("/free") == '- /free (text) label="Free" value=unset'


def test_constraints_are_printed():
    schema = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}$", "maxLength": 3},
            "mail": {"type": "string", "format": "email"},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5, "uniqueItems": True},
            "count": {"type": "integer", "minimum": 1, "maximum": 100},
            "day": {"type": "string", "format": "date", "formatMinimum": "2020-01-01"},
            "csv": {"type": "string", "layout": {"separator": ","}},
        },
    }
    form = Form(schema, {})
    assert form.line("/code").startswith("- /code (text, pattern=^[A-Z]{3}$, maxLength=3)")
    assert "format=email" in form.line("/mail")
    assert "(combobox, maxItems=5, uniqueItems=true)" in form.line("/tags")
    assert "(number, min=1, max=100, step=1, precision=0)" in form.line("/count")
    assert "(date, min=2020-01-01, format=date)" in form.line("/day")
    assert "(combobox, separator=,)" in form.line("/csv")


def test_component_types():
    schema = {
        "type": "object",
        "properties": {
            "notes": {"type": "string", "layout": "textarea"},
            "when": {"type": "string", "format": "date-time"},
            "ok": {"type": "boolean"},
            "size": {"type": "string", "examples": ["S", "M"]},
            "level": {"type": "integer", "layout": {"comp": "slider"}},
            "color": {"type": "string", "format": "hexcolor"},
            "extra": {"type": "object"},
            "either": {"type": ["string", "number"]},
        },
    }
    form = Form(schema, {})
    assert "(textarea)" in form.line("/notes")
    assert "(datetime, format=date-time)" in form.line("/when")
    assert "(boolean)" in form.line("/ok")
    assert '(combobox, values=["S", "M"])' in form.line("/size")
    assert "(slider, step=1)" in form.line("/level")
    assert "(color-picker)" in form.line("/color")
    assert "(map)" in form.line("/extra"), "a bare object holds keys of the user's choosing"
    assert "(json)" in form.line("/either")


def test_read_only_fields_are_flagged():
    schema = {"type": "object", "properties": {"id": {"type": "string", "readOnly": True}}}
    assert "(text, readOnly)" in Form(schema, {"id": "x"}).line("/id")


def test_values_are_abbreviated_past_a_size_and_readable_by_path():
    assert abbreviate("short") == '"short"' and abbreviate(1815) == "1815" and abbreviate({"a": 1}) == '{"a": 1}'
    big = {"k": "v" * 2000}
    assert abbreviate(big).startswith("<object, 2009 chars") and "vvv" not in abbreviate(big)
    assert abbreviate(["x" * 600, "y" * 600]).startswith("<array of 2 items, ")
    schema = {"type": "object", "properties": {"blob": {"type": "object"}}}
    form = Form(schema, {"blob": big})
    assert "read it with getData on this path" in form.call("setFieldValue", path="/blob", value=big)
    assert form.data("/blob") == big


def test_help_text_is_flattened_and_long_help_is_deferred():
    raw = (
        "<h3>Titre</h3>\n<ul>\n<li><strong>Court :</strong> 150 caractères.  </li>\n</ul>\n"
        "<p>l&#39;auteur &amp; vous</p>"
    )
    assert help_to_text(raw) == "Titre - Court : 150 caractères. l'auteur & vous"
    long_help = "word " * 100
    schema = {
        "type": "object",
        "properties": {
            "short": {"type": "string", "description": "Say **hello**."},
            "long": {"type": "string", "description": long_help},
        },
    }
    form = Form(schema, {})
    assert 'help="Say **hello**."' in form.line("/short")
    assert "help=<499 chars: describeState /long shows it>" in form.line("/long")
    assert long_help.strip() in form.call("describeState", path="/long")


def test_describing_one_field_scopes_the_errors():
    form = Form(CONTACT, {"email": "nope"})
    text = form.call("describeState", path="/email")
    assert text.splitlines()[0].startswith("- /email (text, error")
    assert "1 error(s) here:\n- /email: must be an email address" in text
    assert "the form has 1 more error(s) elsewhere" in text


TABS = {
    "type": "object",
    "layout": {
        "comp": "tabs",
        "children": [{"title": "Apparence", "children": ["theme"]}, {"title": "Navigation", "children": ["menu"]}],
    },
    "properties": {
        "theme": {"type": "object", "properties": {"primary": {"type": "string"}}},
        "menu": {
            "type": "array",
            "items": {"type": "object", "properties": {"title": {"type": "string"}}},
        },
    },
}


def test_data_paths_reach_fields_inside_tabs():
    form = Form(TABS, {})
    assert form.state.node("/theme/primary") is form.state.node("/$comp-1/theme/primary")
    answer = form.call("setFieldValue", path="/theme/primary", value="#123456")
    assert answer.startswith('/$comp-1/theme/primary (text) = "#123456"')
    form.call("editArray", path="/menu", action="add")
    form.call("setFieldValue", path="/menu/0/title", value="Home")
    assert form.data() == {"theme": {"primary": "#123456"}, "menu": [{"title": "Home"}]}
    assert "- /$comp-2/menu/0/title (text)" in form.call("describeState", path="/menu/0")


def test_an_unknown_path_names_the_top_level_fields():
    message = Form(TABS, {}).error("setFieldValue", path="/colors", value="x")
    assert '/$comp-1 ("Apparence")' in message and '/$comp-2 ("Navigation")' in message
    assert "describeState" in message


def test_a_hidden_field_with_data_says_so():
    schema = {
        "type": "object",
        "properties": {
            "assisted": {"type": "boolean"},
            "colors": {"type": "string", "layout": {"if": "!parent.data?.assisted"}},
        },
    }
    form = Form(schema, {"assisted": True, "colors": "red"})
    message = form.error("setFieldValue", path="/colors", value="blue")
    assert "has a value there, but its field is hidden by its condition (layout.if)" in message
    assert "hidden by its condition" in form.error("getData", path="/colors")
    assert form.data()["colors"] == "red", "hiding a field keeps its value"


def test_mixed_paths_combine_a_data_path_and_layout_segments():
    schema = {
        "type": "object",
        "properties": {
            "menu": {
                "type": "object",
                "properties": {
                    "children": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "oneOf": [
                                {"title": "Link", "properties": {"href": {"type": "string"}}},
                                {"title": "Page", "properties": {"page": {"type": "string"}}},
                            ],
                        },
                    }
                },
            }
        },
    }
    form = Form(schema, {"menu": {"children": [{}, {}, {}]}})
    form.call("setFieldValue", path="/menu/children/2/$oneOf", value=1)
    assert "variant 1: Page (active)" in form.call("describeState", path="/menu/children/2/$oneOf")
