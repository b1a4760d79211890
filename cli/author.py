"""Who signs a review: the author of tracked changes and comments, set once rather than on each
command. The first of these that gives one wins:

1. ``--author NAME`` on the command line;
2. the environment variable ``DESKCHECK_AUTHOR``;
3. ``author = "NAME"`` in the project's configuration: the nearest ``.deskcheck.toml`` (top
   level), or ``pyproject.toml`` with ``[tool.deskcheck]``, from the working directory up to the
   repository's root (the working directory only outside a repository): the file ``openapi
   check`` reads;
4. ``author = "NAME"`` in the user's configuration file, ``config.toml`` in the platform's
   per-user configuration directory (``~/.config/deskcheck/config.toml`` on Linux,
   ``$XDG_CONFIG_HOME`` honoured);
5. none: the engine's default ("deskcheck", "deskcheck compare" for a redline).

A name a .docx cannot store, or a file that is not TOML, is bad usage naming where it came from.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import UsageError

ENVIRONMENT_VARIABLE = "DESKCHECK_AUTHOR"
USER_CONFIG_NAME = "config.toml"
MAX_CONFIG_BYTES = 1024 * 1024  # a few settings; a bigger file is the wrong file


def review_author(given: str | None) -> str | None:
    """The author a review is signed with: ``given`` (--author) or the configured one (see the
    module docstring); None leaves the engine's default."""
    if given:
        return given
    name, where = configured_author()
    if name is None:
        return None
    problem = _unstorable(name)
    if problem is not None:
        raise UsageError(f"the author set in {where} {problem}")
    return name


def configured_author() -> tuple[str | None, str]:
    """(the configured author or None, where it was set)."""
    from_environment = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if from_environment:
        return from_environment, f"${ENVIRONMENT_VARIABLE}"
    from deskcheck.engine.openapi.check.check_config import find_config

    for path in (find_config(Path.cwd()), user_config_path()):
        if path is not None and path.is_file():
            name = _author_in(path)
            if name is not None:
                return name, str(path)
    return None, ""


def user_config_path() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("deskcheck", appauthor=False)) / USER_CONFIG_NAME


def _author_in(path: Path) -> str | None:
    """The ``author`` key of the configuration file ``path`` (under ``[tool.deskcheck]`` in a
    pyproject.toml), or None."""
    import tomllib

    from deskcheck.engine.errors import InputError
    from deskcheck.engine.files import read_regular_file

    try:
        raw = read_regular_file(path, MAX_CONFIG_BYTES, subject=f"the configuration file {path}", wanted="a TOML file")
        data = tomllib.loads(raw.decode("utf-8"))
    except InputError as exc:
        raise UsageError(exc.message) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"the configuration file {path} is not valid TOML: {exc}.") from None
    if path.name == "pyproject.toml":
        tool = data.get("tool")
        data = tool.get("deskcheck", {}) if isinstance(tool, dict) else {}
        data = data if isinstance(data, dict) else {}
    author = data.get("author")
    if author is None:
        return None
    if not isinstance(author, str) or not author.strip():
        raise UsageError(f"author in {path} must be a name (a non-empty string), not {author!r}.")
    return author.strip()


def _unstorable(name: str) -> str | None:
    from deskcheck.engine.docx.wml.text import check_author
    from deskcheck.engine.errors import InputError

    try:
        check_author(name, "the name")
    except InputError as exc:
        return exc.message.removeprefix("the name ")
    return None
