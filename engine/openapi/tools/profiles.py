"""x-agent profiles: named subsets of the tools, with ``includes`` expanded transitively."""

from __future__ import annotations

from typing import Any

from ... import jsonpointer
from ..document.problems import Problems, SpecUsageError

DEFAULT_PROFILE = "default"


def declared_profiles(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The root's profile declarations, in document order (the first is the default)."""
    root = document.get("x-agent")
    profiles = root.get("profiles") if isinstance(root, dict) else None
    if not isinstance(profiles, dict):
        return {}
    return {name: value for name, value in profiles.items() if isinstance(value, dict)}


def default_profile(document: dict[str, Any]) -> str:
    declared = declared_profiles(document)
    return next(iter(declared), DEFAULT_PROFILE)


def expand_profiles(declared: dict[str, dict[str, Any]], problems: Problems | None = None) -> dict[str, set[str]]:
    """Each profile name → itself plus every profile it includes, transitively. An include of an
    undeclared name, or a cycle, is reported (and ignored for the expansion)."""
    expanded: dict[str, set[str]] = {}
    reported_cycles: set[frozenset[str]] = set()

    def visit(name: str, trail: list[str]) -> set[str]:
        if name in expanded:
            return expanded[name]
        result = {name}
        includes = declared.get(name, {}).get("includes")
        for index, included in enumerate(includes if isinstance(includes, list) else []):
            if not isinstance(included, str):
                continue
            if included not in declared:
                if problems is not None:
                    problems.add(
                        "profile-include-undeclared",
                        f'profile "{name}" includes "{included}", which is not declared; declare it under '
                        "x-agent.profiles or remove it from includes.",
                        jsonpointer.append("/x-agent/profiles", name, "includes", index),
                    )
                continue
            if included in trail:
                cycle = [*trail[trail.index(included) :], included]
                key = frozenset(cycle)
                if problems is not None and key not in reported_cycles:
                    reported_cycles.add(key)
                    problems.add(
                        "profile-include-cycle",
                        "profile includes form a cycle: " + " → ".join(cycle) + "; a profile cannot include itself.",
                        jsonpointer.append("/x-agent/profiles", trail[-1], "includes", index),
                    )
                continue
            result |= visit(included, [*trail, included])
        expanded[name] = result
        return result

    for name in declared:
        visit(name, [name])
    return expanded


def check_profile_names(document: dict[str, Any], declared: dict[str, dict[str, Any]], problems: Problems) -> None:
    """Report every profile an operation (or one of its views) or a tag lists that the root does
    not declare: no load can select it, so the tool silently leaves that profile (and every
    profile, when it lists no declared one). Without declarations any name may be requested."""
    if not declared:
        return
    from .operations import iter_operations

    places: list[tuple[str, str, Any]] = []
    tags = document.get("tags")
    for index, tag in enumerate(tags if isinstance(tags, list) else []):
        agent = tag.get("x-agent") if isinstance(tag, dict) else None
        if isinstance(agent, dict):
            places.append((f"tag {tag.get('name')!r}", f"/tags/{index}/x-agent", agent))
    for path, method, pointer, operation in iter_operations(document):
        agent = operation.get("x-agent")
        label = operation.get("operationId") or f"{method.upper()} {path}"
        views = agent if isinstance(agent, list) else [agent]
        for index, view in enumerate(views):
            if isinstance(view, dict):
                suffix = f"/{index}" if isinstance(agent, list) else ""
                places.append((f"operation {label}", f"{pointer}/x-agent{suffix}", view))
    listed = ", ".join(declared)
    for label, where, agent in places:
        names = agent.get("profiles")
        if not isinstance(names, list):
            continue
        known = [name for name in names if name in declared]
        for index, name in enumerate(names):
            if not isinstance(name, str) or name in declared:
                continue
            consequence = (
                f"its tool stays in {', '.join(map(repr, known))} only"
                if known
                else "it is in no declared profile, so no load offers its tool"
            )
            problems.add(
                "profile-undeclared",
                f"{label} lists the profile {name!r}, which x-agent.profiles does not declare (declared: {listed}); "
                f"{consequence}. Declare the profile or correct the name.",
                jsonpointer.append(where, "profiles", index),
            )


def select_profiles(requested: list[str], expanded: dict[str, set[str]]) -> set[str]:
    """The union of the expansions of ``requested``; an unknown name selects itself."""
    selected: set[str] = set()
    for name in requested:
        selected |= expanded.get(name, {name})
    return selected


def requested_profiles(document: dict[str, Any], requested: list[str] | tuple[str, ...] | None) -> list[str]:
    """The profiles a load asked for, checked against the declarations; the default when none."""
    declared = declared_profiles(document)
    if requested is None:
        return [default_profile(document)]
    names = list(requested)
    if not names:
        raise SpecUsageError("profiles must name at least one profile.")
    if declared:
        unknown = [name for name in names if name not in declared]
        if unknown:
            raise SpecUsageError(
                f'unknown profile "{unknown[0]}" (declared: {", ".join(declared)}); '
                "choose one of the declared profiles."
            )
    return names
