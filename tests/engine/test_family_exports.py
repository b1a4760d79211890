"""The forms and openapi families export their public names from the package itself, whichever
subpackage defines them: a host writes ``from deskcheck.engine.forms import FormState``."""

from __future__ import annotations

import importlib

import pytest

FAMILIES = {
    "deskcheck.engine.forms": {
        "VERBS",
        "CompileOptions",
        "CompiledForm",
        "Fetcher",
        "FormError",
        "FormSchemaError",
        "FormState",
        "ItemsRequest",
        "clear_compile_cache",
        "compile_form",
        "compile_stats",
        "fill_form_guide",
        "form_tools",
        "form_toolset",
        "prepare_schema",
    },
    "deskcheck.engine.openapi": {"OpenApiTools", "check_source", "load_openapi"},
}


@pytest.mark.parametrize("package", sorted(FAMILIES))
def test_each_public_name_imports_from_the_family_package(package):
    family = importlib.import_module(package)
    assert set(family.__all__) == FAMILIES[package]
    for name in FAMILIES[package]:
        value = getattr(family, name)
        defined_in = importlib.import_module(f"{package}.{family._EXPORTS[name]}")
        assert value is getattr(defined_in, name)
        assert name in dir(family)
    with pytest.raises(AttributeError, match="no attribute 'missing_name'"):
        family.missing_name  # noqa: B018


def test_the_public_names_import_with_from():
    from deskcheck.engine.forms import FormState, compile_form, form_toolset
    from deskcheck.engine.openapi import OpenApiTools, check_source, load_openapi

    form = compile_form({"type": "object", "properties": {"name": {"type": "string"}}}, version="t")
    state = FormState(form, {"name": "Ann"}, base={"name": "Ann"})
    tools = form_toolset(state, prefix="form", title="contact")
    tools.call("form_setFieldValue", {"path": "/name", "value": "Bob"})
    assert state.snapshot()["data"] == {"name": "Bob"}
    assert callable(load_openapi) and callable(check_source) and isinstance(OpenApiTools, type)
