"""A rule as ``deskcheck openapi rule NAME`` tells it: what it finds, why it matters, how to fix
it and its default severity, all from the rule table (``rules.RULES``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .rules import RULES, Rule


@dataclass(frozen=True)
class RuleDoc:
    """A rule as ``openapi rule`` tells it."""

    id: str
    severity: str
    area: str
    what: str
    why: str
    fix: str

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def rule_doc(rule: Rule) -> RuleDoc:
    return RuleDoc(rule.id, rule.severity, rule.area, rule.summary, rule.why, rule.fix)


def all_rule_docs() -> list[RuleDoc]:
    """Every rule of the table, in its order."""
    return [rule_doc(rule) for rule in RULES.values()]
