"""Instructions for an agent: the document's skills (selected by profile) and the tag guides."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from ..document.text import localize
from .operations import Operation


@dataclass(frozen=True)
class Skill:
    """A root ``x-agent.skills`` entry. ``body`` is its full text when the document gives it inline
    (or the description when it gives none); a linked body (``href``) is not fetched: deskcheck
    sends no request the user did not ask for, so ``body`` is None and ``href`` says where it is."""

    id: str
    name: str
    description: str
    body: str | None
    href: str | None
    tools: tuple[str, ...] = ()
    profiles: tuple[str, ...] | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "description": self.description}
        if self.body is not None:
            out["body"] = self.body
            out["digest"] = "sha256:" + hashlib.sha256(self.body.encode("utf-8")).hexdigest()
        if self.href is not None:
            out["href"] = self.href
        if self.tools:
            out["tools"] = list(self.tools)
        if self.profiles is not None:
            out["profiles"] = list(self.profiles)
        return out


def select_skills(document: dict[str, Any], selected: set[str], locale: str, source_url: str | None) -> list[Skill]:
    root = document.get("x-agent")
    entries = root.get("skills") if isinstance(root, dict) else None
    out: list[Skill] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        profiles = entry.get("profiles")
        if isinstance(profiles, list) and not selected.intersection(profiles):
            continue
        description = (localize(entry.get("description"), locale) or "").strip()
        href = localize(entry.get("href"), locale)
        if href is not None and source_url and not href.startswith(("http://", "https://")):
            href = urljoin(source_url, href)
        body = localize(entry.get("body"), locale)
        if body is None and href is None:
            body = description
        listed = entry.get("tools") if isinstance(entry.get("tools"), list) else []
        tools = tuple(t for t in listed if isinstance(t, str))
        out.append(
            Skill(
                id=entry["name"],
                name=entry["name"],
                description=description,
                body=body.strip() if isinstance(body, str) else None,
                href=href,
                tools=tools,
                profiles=tuple(p for p in profiles if isinstance(p, str)) if isinstance(profiles, list) else None,
            )
        )
    return out


def tag_guide(document: dict[str, Any], operations: list[Operation], locale: str) -> str:
    """``## <tag>`` sections for the tags with a ``skill`` that at least one selected tool carries,
    in the order the document lists its tags."""
    used = {tag for operation in operations for tag in operation.tags}
    sections = []
    tags = document.get("tags")
    for tag in tags if isinstance(tags, list) else []:
        if not isinstance(tag, dict) or tag.get("name") not in used:
            continue
        agent = tag.get("x-agent")
        text = localize(agent.get("skill"), locale) if isinstance(agent, dict) else None
        if text and text.strip():
            sections.append(f"## {tag['name']}\n\n{text.strip()}")
    return "\n\n".join(sections)


def skill_entry(skill: Skill) -> str:
    parts = [f"## {skill.name}", skill.description]
    if skill.tools:
        parts.append("Tools: " + ", ".join(skill.tools))
    if skill.body is not None and skill.body != skill.description:
        parts.append(f'Its full text is the body of the skill "{skill.id}".')
    elif skill.href is not None:
        parts.append(f"Its full text is linked: {skill.href}")
    return "\n\n".join(p for p in parts if p)


def build_instructions(skills: list[Skill], guide: str) -> str:
    return "\n\n".join([*(skill_entry(s) for s in skills), *([guide] if guide else [])])
