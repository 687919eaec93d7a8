"""Printable battle sheets: a Battle's armies, units and Morale on paper for the table, with tick boxes for the
piles and a QR code that opens where its result is entered, so a result from the field takes seconds."""

from __future__ import annotations

from typing import Any

import segno

from battles.models import Battle
from campaign.campaigns.permissions import Action, can
from campaign.models import Membership

PILES = ("Killed", "Disabled", "Exhausted")


def battle_sheet_unit_seats(*, battle: Battle, membership: Membership) -> list[int]:
    """The sides whose units this member's sheet lists; none means they may not print it.

    Only a GM or one of the two commanders' players prints a sheet. At a table both armies lie face up, so a
    logged Battle lists every unit; a live Battle's hands are secret (the engine's view), so a player's sheet
    lists only their own side's units.
    """
    seats = [0, 1]
    if can(membership, Action.ACT_FOR_ANY):
        return seats
    own = [seat for seat, commander in enumerate(battle.commanders) if commander.player_id == membership.user_id]
    return seats if own and battle.mode == Battle.Mode.LOGGED else own


def battle_sheet_sides(*, battle: Battle, unit_seats: list[int]) -> list[dict[str, Any]]:
    """Each commander as the sheet prints them: Morale counts a Base's bonus, and the units are listed only for
    `unit_seats` (None for a side kept hidden), the Oathbound's designated unit marked."""
    sides = []
    for seat, commander in enumerate(battle.config["commanders"]):
        units = None
        if seat in unit_seats:
            units = [{**unit, "oathbound": unit["id"] == commander.get("oathbound")} for unit in commander["units"]]
        sides.append({**commander, "seat": seat, "units": units, "unit_count": len(commander["units"]),
                      "morale_total": commander["morale"] + commander.get("base_morale", 0)})
    return sides


def battle_sheet_qr_svg(*, url: str) -> str:
    """The QR code of `url` as inline SVG (medium error correction survives a creased or smudged sheet)."""
    return segno.make(url, error="m", micro=False).svg_inline(scale=4, border=4, omitsize=True,
                                                              title="QR code: open this Battle on Muster")
