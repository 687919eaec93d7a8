"""The twenty commander powers: the 4 x 5 grid of RULINGS (rows are Roles, columns Paths).

What each does in a battle lives where it acts (skirmish.py for Adds and piles,
legal.py and power_actions.py for the choices); this module names them, checks a commander's setup and
holds the two units powers grant.
"""

from __future__ import annotations

from typing import Any

from gamekit.errors import RuleError

GRID = {
    "Guardian": ("Tactician", "Battlemage", "Oathbound", "Shapeshifter", "Adept"),
    "Healer": ("Chirurgeon", "Necromancer", "Cleric", "Animist", "Mender"),
    "Aggressor": ("Master of Arms", "Evoker", "Dervish", "Scout", "Psionicist"),
    "Savant": ("Rogue", "Illusionist", "Chaplain", "Shaman", "Etherealist"),
}
"""Rows by Role; columns in Path order Steel, Magic, Faith, Nature, Mind."""

POWERS = tuple(name for row in GRID.values() for name in row)

TACTICIAN_CHOICES = tuple(p for p in (*GRID["Guardian"], *(row[0] for row in GRID.values()))
                          if p != "Tactician")
"""Tactician copies one Guardian-row or Steel-column power, chosen at the start of each Battle."""

PER_DAY = ("Cleric",)
"""Powers limited per Day: the campaign passes those already used today in `used_today`."""

EVOKER_USES = 3
ILLUSIONIST_USES = 2
EVOKER_ADD = 2
PSIONICIST_ADD = 3

SHAPESHIFTER_ROLES = ("Aggressor", "Guardian", "Healer", "Savant", "Equipment")

ALCHEMY_LAB_ID = -1
MEDIATING_CHAPLAIN_ID = -2

ALCHEMY_LAB: dict[str, Any] = {
    "name": "Alchemy Lab", "strength": 0, "role": "Equipment", "path": None, "traits": [],
    "effects": [{"when": "discard", "do": "return", "from": "exhausted"}],
}
"""Chirurgeon's free unit (same stats as the catalogue's entry); Killed becomes Disabled."""

MEDIATING_CHAPLAIN: dict[str, Any] = {
    "name": "Mediating Chaplain", "strength": 2, "role": "Savant", "path": "Faith", "traits": [],
    "effects": [{"when": "skirmish", "do": "no_damage"}],
}
"""Chaplain's unit (same stats as the catalogue's entry): neither deals nor receives damage."""


def commander_powers(seat: int, commander: dict[str, Any]) -> frozenset[str]:
    """The powers a commander uses this battle: their own, plus Tactician's pick."""
    power = commander.get("power")
    if power is None:
        return frozenset()
    if power not in POWERS:
        raise RuleError("commander powers", f"Seat {seat}: unknown power {power!r}; use one of "
                                            f"{', '.join(POWERS)}.")
    powers = {power}
    if power == "Tactician":
        choice = commander.get("tactician")
        if choice not in TACTICIAN_CHOICES:
            raise RuleError("Tactician", f"Seat {seat}: a Tactician chooses one power at the start of the "
                                         f"Battle from {', '.join(TACTICIAN_CHOICES)}; set 'tactician'.")
        powers.add(choice)
    return frozenset(powers)


def granted_units(powers: frozenset[str], units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Units a power brings along when the army lacks one: Chirurgeon's Alchemy Lab and
    Chaplain's Mediating Chaplain (ids -1 and -2)."""
    names = {u.get("name") for u in units}
    extra = []
    if "Chirurgeon" in powers and ALCHEMY_LAB["name"] not in names:
        extra.append({**ALCHEMY_LAB, "id": ALCHEMY_LAB_ID, "retinue": False})
    if "Chaplain" in powers and MEDIATING_CHAPLAIN["name"] not in names:
        extra.append({**MEDIATING_CHAPLAIN, "id": MEDIATING_CHAPLAIN_ID, "retinue": False})
    return extra
