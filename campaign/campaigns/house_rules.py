"""House rules: a campaign's readings of the rules (Campaign.house_rules), each a named setting with its default
and the ruling it changes. The package that reads a setting registers it here (in its app's ready()), so the
house rules page is built from what the code knows, and a game master who saves a value that cannot be read is
told at once, not when a Battle starts; this package needs to import none of them.

A setting's key is a path in the house rules object: "battle.reroll_limit" is house_rules["battle"]
["reroll_limit"]. A value equal to its default is not stored.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from django.core.exceptions import ValidationError


@dataclass(frozen=True)
class HouseRule:
    key: str
    label: str
    kind: Literal["bool", "int", "json"]
    default: Any
    ruling: str
    """The rule it changes, in words (shown beside the setting)."""
    check: Callable[[Any], object] | None = None
    """Raises ValueError with the sentence that says what to fix."""
    minimum: int | None = None
    maximum: int | None = None


_RULES: dict[str, HouseRule] = {}


def house_rule_register(rule: HouseRule) -> None:
    _RULES[rule.key] = rule


def house_rules_known() -> list[HouseRule]:
    return sorted(_RULES.values(), key=lambda r: r.key)


_UNSET = object()


def house_rule_value(rules: dict, rule: HouseRule, unset: Any = _UNSET) -> Any:
    """The setting's value in a campaign's house rules; its default (or `unset`) when it is not set."""
    node: Any = rules
    for part in rule.key.split("."):
        if not isinstance(node, dict) or part not in node:
            return rule.default if unset is _UNSET else unset
        node = node[part]
    return node


def _checked(rule: HouseRule, value: Any) -> None:
    if rule.kind == "bool" and not isinstance(value, bool):
        raise ValueError(f"{rule.label}: answer true or false.")
    if rule.kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{rule.label}: give a whole number.")
        if (rule.minimum is not None and value < rule.minimum) or (rule.maximum is not None and value > rule.maximum):
            raise ValueError(f"{rule.label}: give a number from {rule.minimum} to {rule.maximum}.")
    if rule.check is not None:
        rule.check(value)


def house_rules_check(rules: Any) -> None:
    """Refuse house rules a known setting cannot read (a ValidationError on house_rules)."""
    if not isinstance(rules, dict):
        raise ValidationError({"house_rules": "House rules are an object of named settings."})
    for rule in _RULES.values():
        value = house_rule_value(rules, rule, unset=None)
        if value is None:
            continue
        try:
            _checked(rule, value)
        except ValueError as exc:
            raise ValidationError({"house_rules": str(exc)}) from None


def house_rules_with(rules: dict, values: dict[str, Any]) -> dict:
    """The house rules with these settings (by key) set; a value equal to its default is left out. Settings
    nobody registered are kept as they are."""
    merged = json.loads(json.dumps(rules or {}))
    for key, value in values.items():
        rule = _RULES[key]
        *parents, leaf = key.split(".")
        node = merged
        for part in parents:
            node = node.setdefault(part, {})
        if value == rule.default or value in (None, {}, []):
            node.pop(leaf, None)
        else:
            node[leaf] = value
    for key in {k.split(".")[0] for k in values if "." in k}:
        if merged.get(key) == {}:
            merged.pop(key)
    return merged
