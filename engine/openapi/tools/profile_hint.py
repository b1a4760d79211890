"""Which x-agent profiles offer a name (a tool, an editor group) that the loaded ones do not: a
caller who asked for ``sample_dataset_line`` under the default profile ``read`` learns that the
profile ``write`` has it, rather than only that it is missing."""

from __future__ import annotations

from typing import Any

from .load import analyse
from .profiles import declared_profiles

# A document declares a handful of profiles; looking through more than this many for a name is
# not worth an error message's time.
MAX_PROFILES_SEARCHED = 32


def profiles_offering(document: dict[str, Any], name: str, *, loaded: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The declared profiles (not among ``loaded``), in document order, whose tools or editor
    groups include ``name``. Each profile is analysed without lint, offline; nothing is fetched."""
    found = []
    for profile in list(declared_profiles(document))[:MAX_PROFILES_SEARCHED]:
        if profile in loaded:
            continue
        analysis = analyse(document, profiles=[profile], lint="off")
        names = {plain.operation.tool_name for plain in analysis.plain}
        for group in analysis.editors:
            names.add(group.name)
            names.update(group.tool_names)
        if name in names:
            found.append(profile)
    return found
