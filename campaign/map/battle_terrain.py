"""Terrain that gives advantages in Battle: "certain environments on the battlefield may grant advantages or
disadvantages to one side or both" (army-combat.txt, Terrain Features & Bases). A campaign house rule, default
none, keyed by terrain kind (open ground counts as "open"):

    house_rules["terrain_battle"] = {"difficult": [{"side": "defender", "add": 1, "units": {"path": "Nature"},
                                                     "note": "The forest hides its own"}]}

An advantage: ``side`` attacker, defender or both; ``add`` a whole number (negative: a disadvantage);
``units`` optional, one Role, Path or trait the unit must have; ``note`` optional words for the battle page.
Each unit of that side that matches Adds the amount when it is revealed in a Skirmish: an effect of the card
on itself, so it never triggers Savant (battles/engine/effects.py, "reveal"). No Django: the campaign checks
the house rule with it when saved, the battles app applies it when a Battle starts.
"""

from __future__ import annotations

from typing import Any

HOUSE_RULE = "terrain_battle"
TERRAIN_KINDS = ("open", "difficult", "challenging", "impassable")
SIDES = ("attacker", "defender", "both")
UNIT_FILTERS = ("role", "path", "trait")


class TerrainRuleError(ValueError):
    """A terrain house rule that cannot be read; the message says what to fix."""


def _advantage_checked(kind: str, index: int, raw: Any) -> dict[str, Any]:
    where = f"house rule {HOUSE_RULE}, {kind} #{index + 1}"
    if not isinstance(raw, dict):
        raise TerrainRuleError(f"{where}: each advantage is an object with side and add.")
    unknown = set(raw) - {"side", "add", "units", "note"}
    if unknown:
        raise TerrainRuleError(f"{where}: unknown keys {', '.join(sorted(unknown))} (use side, add, units, note).")
    if raw.get("side") not in SIDES:
        raise TerrainRuleError(f"{where}: side must be one of {', '.join(SIDES)}.")
    add = raw.get("add")
    if not isinstance(add, int) or isinstance(add, bool) or add == 0 or abs(add) > 10:
        raise TerrainRuleError(f"{where}: add must be a whole number from -10 to 10, not 0.")
    units = raw.get("units")
    if units is not None and (not isinstance(units, dict) or len(units) != 1
                              or next(iter(units)) not in UNIT_FILTERS
                              or not isinstance(next(iter(units.values())), str)):
        raise TerrainRuleError(f"{where}: units names one role, path or trait, e.g. {{\"path\": \"Nature\"}}.")
    note = raw.get("note", "")
    if not isinstance(note, str) or len(note) > 200:
        raise TerrainRuleError(f"{where}: note is words, at most 200 characters.")
    return {"side": raw["side"], "add": add, "units": dict(units) if units else None, "note": note}


def terrain_rules_checked(raw: Any) -> dict[str, list[dict[str, Any]]]:
    """The house rule read and normalised; a TerrainRuleError says what to fix."""
    if raw in (None, {}):
        return {}
    if not isinstance(raw, dict):
        raise TerrainRuleError(f"house rule {HOUSE_RULE} maps terrain kinds to lists of advantages.")
    checked = {}
    for kind, advantages in raw.items():
        if kind not in TERRAIN_KINDS:
            raise TerrainRuleError(f"house rule {HOUSE_RULE}: {kind!r} is not a terrain kind "
                                   f"({', '.join(TERRAIN_KINDS)}).")
        if not isinstance(advantages, list):
            raise TerrainRuleError(f"house rule {HOUSE_RULE}, {kind}: give a list of advantages.")
        checked[kind] = [_advantage_checked(kind, i, a) for i, a in enumerate(advantages)]
    return checked


def advantage_words(advantage: dict[str, Any]) -> str:
    """One advantage as the battle page says it: "the defender's Nature units Add 1"."""
    side = "both sides'" if advantage["side"] == "both" else f"the {advantage['side']}'s"
    units = f"{next(iter(advantage['units'].values()))} units" if advantage["units"] else "units"
    words = f"{side} {units} Add {advantage['add']}"
    return f"{words} ({advantage['note']})" if advantage["note"] else words


def _matches(unit: dict[str, Any], units: dict[str, str] | None) -> bool:
    if units is None:
        return True
    (key, value), = units.items()
    if key == "trait":
        return value in (unit.get("traits") or [])
    return unit.get(key) == value


def terrain_advantages_apply(config: dict[str, Any], kinds: list[tuple[str, str]],
                             rules: dict[str, list[dict[str, Any]]]) -> None:
    """Give each unit of a Battle's config the advantages of the terrain it is fought on (`kinds`: the
    (name, kind) of each region there, or [("open ground", "open")]) and record them in config["terrain"]
    for the battle page. Seat 0 attacks, seat 1 defends."""
    shown = []
    for name, kind in kinds:
        advantages = rules.get(kind, [])
        for advantage in advantages:
            seats = {"attacker": (0,), "defender": (1,), "both": (0, 1)}[advantage["side"]]
            for seat in seats:
                for unit in config["commanders"][seat]["units"]:
                    if _matches(unit, advantage["units"]):
                        unit["effects"] = [*unit["effects"], {"when": "reveal", "do": "add",
                                                              "amount": advantage["add"], "to": "own"}]
        if kind != "open" or advantages:  # plain open ground goes unsaid
            shown.append({"name": name, "kind": kind, "advantages": [advantage_words(a) for a in advantages]})
    config["terrain"] = shown
