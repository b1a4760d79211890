"""What a server serves besides tools: an OpenAPI document's skills and the document itself.

- Each ``x-agent`` skill (and each editor group's guide) is a resource,
  ``deskcheck://skills/<id>`` (Markdown: its description, its tools and its body), and a prompt of
  the same name without arguments, so that what the instructions call "the body of the skill
  editing-records" is one ``resources/read`` or ``prompts/get`` away. A skill whose body is only
  linked (``href``) is served with the link: deskcheck fetches nothing the user did not ask for.
- Each OpenAPI document served is a resource, ``deskcheck://documents/<n>`` (its text as read).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .catalogue import Catalogue

SKILL_URI = "deskcheck://skills/"
DOCUMENT_URI = "deskcheck://documents/"


class Library:
    def __init__(self, catalogue: Catalogue) -> None:
        self.skills: dict[str, tuple[Any, Callable[[str], str]]] = {}
        self.documents: dict[str, tuple[str, str, str]] = {}  # uri -> (name, mime type, text)
        for context in catalogue.contexts:
            for skill in context.skills:
                self.skills.setdefault(skill.id, (skill, context.renamer))
            if context.document_text is not None:
                uri = f"{DOCUMENT_URI}{len(self.documents) + 1}"
                self.documents[uri] = (context.label, context.document_type, context.document_text)

    def instructions(self) -> str:
        """What the instructions add: where the skills and documents are (nothing when none)."""
        parts = []
        if self.skills:
            parts.append(
                f"Each skill above is served in full as the resource {SKILL_URI}<id> and as the prompt <id> "
                f"(for example {SKILL_URI}{next(iter(self.skills))})."
            )
        if self.documents:
            listed = ", ".join(f"{uri} ({name})" for uri, (name, _, _) in self.documents.items())
            parts.append(f"The OpenAPI documents served are resources: {listed}.")
        return "\n\n" + " ".join(parts) if parts else ""

    def skill_text(self, skill_id: str) -> str | None:
        entry = self.skills.get(skill_id)
        if entry is None:
            return None
        skill, rename = entry
        parts = [f"# {skill.name}", skill.description]
        if skill.tools:
            parts.append("Tools: " + ", ".join(rename(tool) for tool in skill.tools))
        if skill.body is not None and skill.body != skill.description:
            parts.append(rename(skill.body))
        elif skill.href is not None:
            parts.append(f"The full text is linked, and not fetched by this server: {skill.href}")
        return "\n\n".join(p for p in parts if p)

    def handlers(self, types: Any, refuse_cursor: Callable[[Any], None]) -> dict[str, Any]:
        """The ``Server`` keyword arguments for resources and prompts (none when nothing is
        served, so that the capabilities stay honest)."""
        if not self.skills and not self.documents:
            return {}
        from mcp.shared.exceptions import MCPError

        async def list_resources(ctx: Any, params: Any) -> Any:
            refuse_cursor(params)
            resources = [
                types.Resource(
                    uri=f"{SKILL_URI}{skill_id}",
                    name=skill_id,
                    title=skill.name,
                    description=skill.description or None,
                    mime_type="text/markdown",
                )
                for skill_id, (skill, _) in self.skills.items()
            ]
            resources += [
                types.Resource(uri=uri, name=name, mime_type=mime, size=len(text.encode("utf-8")))
                for uri, (name, mime, text) in self.documents.items()
            ]
            return types.ListResourcesResult(resources=resources)

        async def read_resource(ctx: Any, params: Any) -> Any:
            uri = str(params.uri)
            if uri in self.documents:
                _, mime, text = self.documents[uri]
                return types.ReadResourceResult(
                    contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)]
                )
            text = self.skill_text(uri[len(SKILL_URI) :]) if uri.startswith(SKILL_URI) else None
            if text is None:
                raise MCPError(code=-32002, message=f"Resource not found: {uri}; resources/list gives what is served.")
            return types.ReadResourceResult(
                contents=[types.TextResourceContents(uri=uri, mime_type="text/markdown", text=text)]
            )

        async def list_prompts(ctx: Any, params: Any) -> Any:
            refuse_cursor(params)
            return types.ListPromptsResult(
                prompts=[
                    types.Prompt(name=skill_id, title=skill.name, description=skill.description or None)
                    for skill_id, (skill, _) in self.skills.items()
                ]
            )

        async def get_prompt(ctx: Any, params: Any) -> Any:
            text = self.skill_text(params.name)
            if text is None:
                raise MCPError(code=-32602, message=f"Invalid params: no prompt {params.name!r}; see prompts/list.")
            skill, _ = self.skills[params.name]
            message = types.PromptMessage(role="user", content=types.TextContent(text=text))
            return types.GetPromptResult(description=skill.description or None, messages=[message])

        handlers: dict[str, Any] = {"on_list_resources": list_resources, "on_read_resource": read_resource}
        if self.skills:
            handlers.update(on_list_prompts=list_prompts, on_get_prompt=get_prompt)
        return handlers
