"""House rules: a campaign's readings of the rules, one key per subject (Campaign.house_rules). The package that
reads a key registers its check here (campaign.apps does it at start), so a game master who saves a rule that
cannot be read is told at once, not when a Battle starts; this package needs to import none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError

_CHECKS: dict[str, Callable[[Any], object]] = {}


def house_rule_check_register(key: str, check: Callable[[Any], object]) -> None:
    """`check(value)` raises ValueError with the sentence that says what to fix."""
    _CHECKS[key] = check


def house_rules_check(rules: Any) -> None:
    """Refuse house rules a registered check cannot read (a ValidationError on house_rules)."""
    if not isinstance(rules, dict):
        raise ValidationError({"house_rules": "House rules are an object of named settings."})
    for key, check in _CHECKS.items():
        if key in rules:
            try:
                check(rules[key])
            except ValueError as exc:
                raise ValidationError({"house_rules": str(exc)}) from None
