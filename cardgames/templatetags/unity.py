"""The Unity view laid out for a phone: the phase and what is on the table (an evil attack, a chain of
righteousness, a festival), my moves in words, my hand as cards with the moves that use each card, every
player's hand size (mine first), and the draw and discard piles. Reads the engine's view for this seat,
which already hides other hands and gives each card's side and text, and shows each move with the engine's
own label (`describe_action`); only where a move goes is decided here."""

from __future__ import annotations

import json
from typing import Any

from django import template

from cardgames.engine.unity.deck import deck_for

from .board_parts import Moves, plural, seats_from

register = template.Library()

PHASES = {"free": "Free turn", "attack": "Evil attack", "righteousness": "Entering into righteousness",
          "festival": "Festival", "over": "The game is over"}
GROUPS = {"play": "Your play", "draw": "No righteous answer in your hand", "decline": "Or stay out"}
"""Titles of the moves that use no card of the hand."""
ENDINGS = {"turn limit": "The turn limit was reached: the game ends with no winner."}
"""How a game ended, beyond the winner the table already names."""
PILES = (("righteous", "Righteous"), ("evil", "Evil"), ("festival", "Festival"))


def _moves(table) -> Moves:
    """The engine's labelled moves: one that uses a card of the hand goes on that card (the first card it
    names, by id); playing the picks, drawing and declining are grouped."""
    moves = Moves()
    for label, action in table.actions:
        parts = json.loads(action)
        if len(parts) > 1:
            moves.add_to_card(parts[1], label, action)
        else:
            moves.add(parts[0], label, action, title=GROUPS.get(parts[0], "Moves"))
    return moves


def _parts(view: dict[str, Any]) -> list[tuple[int, str]]:
    """(seat, part) for each seat's part in what is under way: attacking, attacked, festival host, leading."""
    if "attack" in view:
        return [(view["attack"]["attacker"], "attacking"), (view["attack"]["defender"], "attacked")]
    if "festival" in view:
        return [(view["festival"]["host"], "host")]
    if "chain" in view:
        return [(view["chain"]["leader"], "leads")]
    return []


def _player(view: dict[str, Any], seat: int, table) -> dict[str, Any]:
    """A player as everyone sees them: hand size, part in what is under way, cards seen going into the hand."""
    return {"seat": seat, "name": view["players"][seat], "me": seat == table.seat, "to_move": seat in table.to_move,
            "hand_size": view["hand_counts"][seat], "roles": [part for s, part in _parts(view) if s == seat],
            "shown": view["shown"][seat]}


def _chain(view: dict[str, Any]) -> dict[str, Any] | None:
    chain = view.get("chain")
    if chain is None:
        return None
    return {**chain, "leader_name": view["players"][chain["leader"]],
            "entries": [{**entry, "name": view["players"][entry["seat"]]} for entry in chain["entries"]]}


def _festival(view: dict[str, Any]) -> dict[str, Any] | None:
    festival = view.get("festival")
    if festival is None:
        return None
    return {**festival, "host_name": view["players"][festival["host"]],
            "waiting_names": [view["players"][s] for s in festival["waiting"]]}


def _attack(view: dict[str, Any]) -> dict[str, Any] | None:
    attack = view.get("attack")
    if attack is None:
        return None
    return {"cards": attack["cards"], "strength": attack["strength"],
            "attacker": view["players"][attack["attacker"]], "defender": view["players"][attack["defender"]]}


def _hint(view: dict[str, Any]) -> str:
    """What the player to move may do now, in the rules' words (for the seat to move only)."""
    phase, players = view["phase"], view["players"]
    if phase == "free":
        target = players[(view["turn"] + 1) % len(players)]
        return (f"Pick the cards of your play one at a time, then play them: evil cards attack {target}, "
                "righteous cards of one category invite everyone into righteousness, a festival is celebrated.")
    if phase == "attack":
        return (f"Defeat {view['attack']['strength']} points of evil: human righteous cards of one category worth "
                "more (in unity), a special card, or evil cards worth more (then you draw two).")
    if phase == "righteousness":
        return (f"Enter with cards of {' or '.join(view['chain']['categories'])}, or decline and draw "
                f"{plural(view['chain']['played'], 'card')}.")
    return "Discard a card the festival asks for."


def _help_keys(view: dict[str, Any], config: dict[str, Any]) -> list[str]:
    """What the rules glossary explains on this table (unity/glossary.py): the category of each card in my hand,
    in the evil attack and in the chain of righteousness, and the power of each that has one (read from the
    match's deck, which the view does not repeat)."""
    powers = {card["name"]: card.get("power") for card in deck_for(config).data["cards"]}
    chain = [card for entry in (view.get("chain") or {}).get("entries", ()) for card in entry["cards"]]
    shown = [*(view.get("hand") or ()), *(view.get("attack") or {}).get("cards", ()), *chain]
    return [*(f"category:{card['category']}" for card in shown),
            *(f"power:{powers[card['name']]}" for card in shown if powers.get(card["name"]))]


@register.simple_tag
def unity_board(table) -> dict[str, Any]:
    """The view of `table` (a selectors.TableView) arranged for the template."""
    view = table.view
    me = table.seat
    moves = _moves(table)
    selection = view.get("selection") or []
    hand = [{**c, "picked": c["id"] in selection, "moves": moves.on_card.get(c["id"], [])}
            for c in view.get("hand") or ()]
    return {
        "phase": PHASES.get(view["phase"], view["phase"]),
        "ending": ENDINGS.get(view["reason"]),
        "turn": view["players"][view["turn"]] if view["turn"] is not None else None,
        "attack": _attack(view), "chain": _chain(view), "festival": _festival(view),
        "players": [_player(view, seat, table) for seat in seats_from(len(view["players"]), me)],
        "hand": hand, "picked": [c for c in hand if c["picked"]],
        "piles": [{"key": key, "title": title, "cards": view["discards"][key]}
                  for key, title in PILES],
        "groups": moves.groups(),
        "hint": _hint(view) if table.actions else None,
        "help_keys": _help_keys(view, table.match.config),
    }
