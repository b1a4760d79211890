"""Shell completion (``deskcheck --install-completion``): what a TAB offers on a command line.

Fixed values (``--format``, ``--mode``, …) come from the same tuples the commands check. What
depends on the context reads it from the line itself, offline and without side effects: tool
names of the ``--docx`` file, ``--spec`` document (a local file; a URL is never fetched to
complete a word) or ``--schema``/``--data`` form; the profiles and editor groups a ``--spec``
document declares; and inside ARGS, a block id after ``"blockId": "`` (the ids of the .docx on the
line) or a field path after ``"path": "`` (the fields of the form on the line). A completion that
cannot be computed offers nothing: it never prints an error into the shell.
"""

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

Completion = str | tuple[str, str]

# ARGS members whose value is a block id (the docx tools and their operations).
BLOCK_KEYS = ("blockId", "afterBlockId", "fromBlockId", "headingBlockId", "anchorBlockId", "endBlockId")
PATH_KEYS = ("path",)
_OPEN_STRING = re.compile(r'"(?P<key>[A-Za-z]+)"\s*:\s*"(?P<partial>[^"\\]*)$')


def choices(values: Iterable[str]) -> Callable[[str], list[str]]:
    """A completion of one of ``values``."""
    fixed = tuple(values)

    def complete(incomplete: str) -> list[str]:
        return [value for value in fixed if value.startswith(incomplete)]

    return complete


def tool_names(ctx: Any, args: list[str], incomplete: str) -> list[Completion]:
    """The tools of the context given on the line, with the first sentence of each."""
    tools = _safely(lambda: _toolset(_on_line(ctx, args)))
    if tools is None:
        return []
    return [(tool.name, _first_sentence(tool.description)) for tool in tools if tool.name.startswith(incomplete)]


def profiles(ctx: Any, args: list[str], incomplete: str) -> list[str]:
    """The profiles the ``--spec`` (or positional SPEC) document declares."""
    document = _safely(lambda: _local_document(_on_line(ctx, args)))
    if document is None:
        return []
    from deskcheck.engine.openapi.tools.profiles import declared_profiles

    return [name for name in declared_profiles(document) if name.startswith(incomplete)]


def form_positionals(ctx: Any, args: list[str], incomplete: str) -> list[Completion]:
    """``form <verb>``'s NAME and ARGS: with --spec, the editor groups first; then ARGS."""
    params = _on_line(ctx, args)
    given = [word for word in (params.get("positionals") or []) if word != incomplete]
    if params.get("spec") and not given:
        groups = _safely(lambda: _editor_groups(params)) or []
        return [(name, title) for name, title in groups if name.startswith(incomplete)]
    return tool_args(ctx, args, incomplete)


def tool_args(ctx: Any, args: list[str], incomplete: str) -> list[Completion]:
    """Inside a JSON ARGS word: the block ids of the .docx, or the field paths of the form, on the
    line, after an open ``"blockId": "`` or ``"path": "``."""
    found = _OPEN_STRING.search(incomplete)
    if found is None:
        return []
    key, partial = found.group("key"), found.group("partial")
    params = _on_line(ctx, args)
    if key in BLOCK_KEYS:
        docx = params.get("docx") or params.get("file")
        candidates = _safely(lambda: _block_ids(Path(docx))) if docx else None
    elif key in PATH_KEYS and params.get("schema") and params.get("data"):
        candidates = _safely(lambda: _field_paths(Path(params["schema"]), Path(params["data"])))
    else:
        candidates = None
    head = incomplete[: found.start("partial")]
    return [
        (f'{head}{value}"', help_text)
        for value, help_text in candidates or []
        if value.lower().startswith(partial.lower())
    ]


# -- reading the context ---------------------------------------------------------------------------

_CONTEXT_OPTIONS = {"--docx": "docx", "--spec": "spec", "--schema": "schema", "--data": "data", "--profile": "profile"}
_DOCUMENT_SUFFIXES = (".json", ".yaml", ".yml")


def _on_line(ctx: Any, args: list[str]) -> dict[str, Any]:
    """The context given on the line: what the parser made of it, completed from the words
    themselves (a parser that stops at the option being completed leaves positionals unread)."""
    params = {key: value for key, value in ctx.params.items() if value not in (None, (), [])}
    args = _line_words() or args
    for index, word in enumerate(args[:-1]):
        name = _CONTEXT_OPTIONS.get(word)
        if name == "profile":
            params.setdefault("profile", [])
            if args[index + 1] not in params["profile"]:
                params["profile"] = [*params["profile"], args[index + 1]]
        elif name is not None:
            params.setdefault(name, args[index + 1])
    if "docx" not in params and "file" not in params:
        docx = next((word for word in args if word.lower().endswith(".docx")), None)
        if docx is not None:
            params["file"] = docx
    if args[:1] == ["openapi"] and "spec" not in params and "specs" not in params:
        spec = next((word for word in args[2:] if word.lower().endswith(_DOCUMENT_SUFFIXES)), None)
        if spec is not None:
            params["spec"] = spec
    return params


def _line_words() -> list[str]:
    """The words of the line being completed, as the shell handed them over (without the program
    name): bash gives COMP_WORDS, the other shells Typer's _TYPER_COMPLETE_ARGS."""
    import os

    from typer._completion_classes import click_split_arg_string

    line = os.environ.get("COMP_WORDS") or os.environ.get("_TYPER_COMPLETE_ARGS") or ""
    return click_split_arg_string(line)[1:]


def _toolset(params: dict[str, Any]) -> Any:
    if params.get("docx"):
        from deskcheck.engine.docx.tools.tooldefs import DOCX_TOOL_SPECS

        return [_Named(spec.name, spec.description) for spec in DOCX_TOOL_SPECS]
    if params.get("schema") or params.get("data"):
        from deskcheck.engine.forms.tools.session_tools import SessionGroup

        group = SessionGroup(name="form", title="record", source_for=lambda _params: None)  # type: ignore[arg-type,return-value]
        return group.tools()
    if params.get("spec"):
        from deskcheck.engine.openapi.tools.load import load_openapi

        _local_path(params["spec"])  # never a URL
        return load_openapi(params["spec"], profiles=params.get("profile") or None).tools
    return None


def _local_document(params: dict[str, Any]) -> dict[str, Any] | None:
    spec = params.get("spec") or params.get("specs") or None
    if isinstance(spec, list):
        spec = spec[0] if spec else None
    if not spec:
        return None
    from deskcheck.engine.openapi.document.source import read_source

    return read_source(str(_local_path(spec))).data


def _editor_groups(params: dict[str, Any]) -> list[tuple[str, str]]:
    from deskcheck.engine.openapi.tools.load import analyse

    document = _local_document(params)
    if document is None:
        return []
    analysis = analyse(document, profiles=params.get("profile") or None, every_profile=not params.get("profile"))
    return [(group.name, group.title) for group in analysis.editors]


def _block_ids(path: Path) -> list[tuple[str, str]]:
    from deskcheck.engine.docx.tools.toolset import docx_toolset

    result = docx_toolset(path).call("read_document", {})
    if not result.ok:
        return []
    return [(block["blockId"], _shortened(block.get("text", ""))) for block in result.value.get("blocks", [])]


def _field_paths(schema: Path, data: Path) -> list[tuple[str, str]]:
    from deskcheck.engine.forms import FormState, compile_form
    from deskcheck.engine.forms.sources.sources import FileSource

    from .repl.form_view import field_candidates

    source = FileSource(schema, data)
    fetched = source.schema(None)
    loaded = source.load() if data.exists() else None
    state = FormState(compile_form(fetched.schema, fetched.version), loaded.data if loaded else {})
    values, _ = field_candidates(state)
    return [(candidate.text, candidate.meta) for candidate in values["field"]]


def _local_path(spec: str) -> Path:
    if "://" in spec:
        raise ValueError("a URL is not fetched to complete a word")
    return Path(spec)


class _Named:
    def __init__(self, name: str, description: str) -> None:
        self.name = name
        self.description = description


def _safely(compute: Callable[[], Any]) -> Any:
    # A completion runs in the user's shell on every TAB: whatever goes wrong offers nothing.
    try:
        return compute()
    except Exception:
        return None


def _first_sentence(text: str) -> str:
    return _shortened(text.split(". ")[0])


def _shortened(text: str, limit: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
