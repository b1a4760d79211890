"""``ReplState``: the small summary of what is open that the toolbar and the key bindings read.
The modes fill it in after every command; nothing else of the REPL reaches them."""

from __future__ import annotations

from dataclasses import dataclass

from ..render.draw import plural


@dataclass
class ReplState:
    mode: str  # "form" or "review"
    title: str  # what is open: a form's title and record, or the file under review
    status: str = ""  # form: the session's status (ready, stale, error...); review: the working copy's
    valid: bool | None = None  # forms only: None when unknown
    error_count: int = 0
    modified: bool = False  # form: unsaved edits in the session; review: working-copy changes saved nowhere
    document_version: str | None = None  # reviews only
    pending_ops: int = 0  # reviews only: operations waiting for `apply`

    def summary(self) -> str:
        """One line, for `status` and the end of a script."""
        parts = [f"{self.mode} {self.title}"]
        if self.status:
            parts.append(self.status)
        if self.mode == "form":
            if self.valid is not None:
                parts.append("valid" if self.valid else f"not valid ({plural(self.error_count, 'error')})")
            parts.append("unsaved edits" if self.modified else "no unsaved edits")
        else:
            if self.document_version:
                parts.append(f"documentVersion {self.document_version}")
            parts.append(plural(self.pending_ops, "pending operation"))
            parts.append("changes not saved" if self.modified else "nothing unsaved")
        return " · ".join(parts)
