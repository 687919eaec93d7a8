"""The one error every engine raises for an illegal action or a broken record: `RuleError`, naming the rule."""

from __future__ import annotations


class RuleError(ValueError):
    """An illegal action. `rule` names the rule broken; the message says what to do instead."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
