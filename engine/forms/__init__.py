"""JSON-Schema forms: a schema becomes a form state that the form tools read and write.

Five layers, each a subpackage (engine/forms/README.md): ``schema``, ``state``, ``sources``,
``sessions``, ``tools``, each importing only those before it in that list.

1. ``schema.compile.prepare_schema`` — bundling of local references, the vjsf-v2 keyword
   translation (``compat_v2``), string layouts normalised;
2. ``schema.compile.compile_form(schema, version)`` -> ``CompiledForm`` — the schema's skeleton,
   cached per process by version (``compile_stats()`` counts compilations and hits);
3. ``state.state.FormState`` — the data as loaded, changed only by the tools' writes (defaults
   filled in only for a new record: ``fill_defaults``), its conditions (``tree``), validation with
   jsonschema-rs (``schema.validation``, worded by ``messages``) and errors on fields
   (``errors``), modified flags against a base copy, the options of choice fields
   (``suggestions``); ``snapshot()`` / ``FormState.from_snapshot`` carry it between processes as
   plain JSON;
4. ``tools.tools.form_tools(open_state, prefix=, title=)`` — the six tools as text, for a host that
   supplies the state per call; ``state.text`` renders; ``tools.guide.fill_form_guide`` is the
   skill text. Sessions kept between calls (``sessions``) over files or APIs (``sources``) are
   served by ``tools.session_tools``.

Schema expressions (``layout.if``, option lists, URL templates) run in a sandboxed JavaScript
engine (``schema.expressions``), loaded only when a schema has some.

Typical use::

    from deskcheck.engine.forms import compile_form, FormState, form_toolset

    form = compile_form(schema, version="v1")
    state = FormState(form, data, base=data)
    tools = form_toolset(state, prefix="form", title="contact")
    tools.call("form_setFieldValue", {"path": "/name", "value": "Bob"})
    saved = state.snapshot()                      # plain JSON, for a store
    again = FormState.from_snapshot(form, saved)  # in another call or process
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_exports import lazy_exports

# Public name -> the module that defines it. A name is imported when it is first used, so a
# process that needs a part of the engine (the session store, one tool) loads only that part.
_EXPORTS = {
    "CompiledForm": "schema.compile",
    "CompileOptions": "schema.compile",
    "FormSchemaError": "schema.compile",
    "clear_compile_cache": "schema.compile",
    "compile_form": "schema.compile",
    "compile_stats": "schema.compile",
    "prepare_schema": "schema.compile",
    "fill_form_guide": "tools.guide",
    "FormError": "state.state",
    "FormState": "state.state",
    "Fetcher": "state.suggestions",
    "ItemsRequest": "state.suggestions",
    "VERBS": "tools.tools",
    "form_tools": "tools.tools",
    "form_toolset": "tools.tools",
}

__all__ = [
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
]

if TYPE_CHECKING:
    from .schema.compile import (
        CompiledForm,
        CompileOptions,
        FormSchemaError,
        clear_compile_cache,
        compile_form,
        compile_stats,
        prepare_schema,
    )
    from .state.state import FormError, FormState
    from .state.suggestions import Fetcher, ItemsRequest
    from .tools.guide import fill_form_guide
    from .tools.tools import VERBS, form_tools, form_toolset


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
