"""Small builders for battle tests: units, commanders, a battle with scripted dice."""

from __future__ import annotations

from typing import Any

from battles.engine import GAME
from battles.engine.state import PILES, BattleState
from gamekit.dice import Dice
from gamekit.events import Event

SOLDIER_FX = [{"when": "discard", "do": "add", "amount": 1, "to": "either"}]


def unit(
    uid: int,
    name: str = "Soldier",
    strength: int | None = 2,
    role: str | None = "Aggressor",
    path: str | None = "Steel",
    traits: tuple[str, ...] = (),
    effects: list | None = None,
    retinue: bool = False,
) -> dict[str, Any]:
    return {
        "id": uid,
        "name": name,
        "strength": strength,
        "role": role,
        "path": path,
        "traits": list(traits),
        "effects": effects or [],
        "retinue": retinue,
    }


def commander(name: str, units: list[dict], **kw: Any) -> dict[str, Any]:
    return {
        "name": name,
        "morale": 5,
        "influence": 0,
        "is_player_character": False,
        "power": None,
        "units": units,
        **kw,
    }


def config(
    a_units: list[dict], b_units: list[dict], a: dict | None = None, b: dict | None = None, **extra: Any
) -> dict[str, Any]:
    return {"commanders": [commander("A", a_units, **(a or {})), commander("B", b_units, **(b or {}))], **extra}


def battle(
    a_units: list[dict],
    b_units: list[dict],
    dice: list[int] = (),
    first: int = 0,
    a: dict | None = None,
    b: dict | None = None,
    **extra: Any,
) -> BattleState:
    """A battle where seat 0 is chosen (scripted d2 = 1) and picks `first` to attack."""
    st = GAME.new_game(config(a_units, b_units, a, b, **extra), ["pa", "pb"], dice=Dice.scripted([1, *dice]))
    GAME.apply(st, ("first", first))
    return st


def act(st: BattleState, *actions: tuple) -> list[Event]:
    events: list[Event] = []
    for action in actions:
        events += GAME.apply(st, action)
    return events


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def pile(st: BattleState, seat: int, uid: int) -> str:
    return PILES[st.where[st.roster.index[seat][uid]]]


def legal(st: BattleState) -> list[tuple]:
    return GAME.legal_actions(st, st.actor)
