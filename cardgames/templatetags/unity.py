"""The Unity view laid out for a phone: the phase and what is on the table (an evil attack, a chain of
righteousness, a festival), my moves in words, my hand as cards with the moves that use each card, every
player's hand size (mine first), and the draw and discard piles. Reads the engine's view for this seat,
which already hides other hands; a card's side and text come from the match's deck list, which every
player knows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template

from cardgames.engine.unity.deck import deck_for

from .board_parts import Moves, parsed_moves, plural, seats_from

register = template.Library()

PHASES = {"free": "Free turn", "attack": "Evil attack", "righteousness": "Entering into righteousness",
          "festival": "Festival", "over": "The game is over"}
ANSWERS = {"david": "David defeats Goliath", "trinity": "Trinity defeats the attack",
           "judgement": "Turn the attack back on the attacker", "glory": "Send the evil back to the attacker's hand"}
ON_CARD = {"festival": "Celebrate this festival", "celebrate": "Discard it for the festival", **ANSWERS}
ENDINGS = {"turn limit": "The turn limit was reached: the game ends with no winner."}
"""How a game ended, beyond the winner the table already names."""
PILES = (("righteous", "Righteous"), ("evil", "Evil"), ("festival", "Festival"))


class Deck:
    """What the match's deck list says of a card beyond the view: its side and its text."""

    def __init__(self, config: dict[str, Any]) -> None:
        data = deck_for(config).data
        self.sides = {name: info["side"] for name, info in data["categories"].items()}
        self.texts = {card["name"]: card.get("text", "") for card in data["cards"]}

    def card(self, card: dict[str, Any], picked: Sequence[int] = ()) -> dict[str, Any]:
        return {**card, "side": self.sides[card["category"]], "text": self.texts.get(card["name"], ""),
                "picked": card["id"] in picked}


def _moves(view: dict[str, Any], table) -> Moves:
    """Moves that use one card go on that card (by id); playing the picks, drawing and declining are grouped."""
    names = {card["id"]: card["name"] for card in view.get("hand") or ()}
    moves = Moves()
    for parts, action in parsed_moves(table):
        kind = parts[0]
        if kind == "pick":
            moves.add_to_card(parts[1], "Add to your play" if view["selection"] else "Pick", action)
        elif kind == "angel":
            moves.add_to_card(parts[1], f"Defeat the attack with {names[parts[2]]}", action)
        elif kind in ON_CARD:
            moves.add_to_card(parts[1], ON_CARD[kind], action)
        elif kind == "play":
            picked = ", ".join(names[c] for c in view["selection"])
            moves.add("play", f"Play {picked}", action, title="Your play")
        elif kind == "draw":
            moves.add("draw", "Draw a card", action, title="No righteous answer in your hand")
        elif kind == "decline":
            played = view["chain"]["played"]
            moves.add("decline", f"Decline: draw {plural(played, 'card')}", action, title="Or stay out")
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


def _player(view: dict[str, Any], seat: int, table, deck: Deck) -> dict[str, Any]:
    """A player as everyone sees them: hand size, part in what is under way, cards seen going into the hand."""
    return {"seat": seat, "name": view["players"][seat], "me": seat == table.seat, "to_move": seat in table.to_move,
            "hand_size": view["hand_counts"][seat], "roles": [part for s, part in _parts(view) if s == seat],
            "shown": [deck.card(c) for c in view["shown"][seat]]}


def _chain(view: dict[str, Any]) -> dict[str, Any] | None:
    chain = view.get("chain")
    if chain is None:
        return None
    return {**chain, "leader_name": view["players"][chain["leader"]]}


def _festival(view: dict[str, Any], deck: Deck) -> dict[str, Any] | None:
    festival = view.get("festival")
    if festival is None:
        return None
    return {**festival, "text": deck.texts.get(festival["name"], ""), "host_name": view["players"][festival["host"]],
            "waiting_names": [view["players"][s] for s in festival["waiting"]]}


def _attack(view: dict[str, Any], deck: Deck) -> dict[str, Any] | None:
    attack = view.get("attack")
    if attack is None:
        return None
    return {"cards": [deck.card(c) for c in attack["cards"]], "strength": attack["strength"],
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


@register.simple_tag
def unity_board(table) -> dict[str, Any]:
    """The view of `table` (a selectors.TableView) arranged for the template."""
    view = table.view
    me = table.seat
    deck = Deck(table.match.config)
    moves = _moves(view, table)
    selection = view.get("selection") or []
    hand = [{**deck.card(c, selection), "moves": moves.on_card.get(c["id"], [])} for c in view.get("hand") or ()]
    return {
        "phase": PHASES.get(view["phase"], view["phase"]),
        "ending": ENDINGS.get(view["reason"]),
        "turn": view["players"][view["turn"]] if view["turn"] is not None else None,
        "attack": _attack(view, deck), "chain": _chain(view), "festival": _festival(view, deck),
        "players": [_player(view, seat, table, deck) for seat in seats_from(len(view["players"]), me)],
        "hand": hand, "picked": [c for c in hand if c["picked"]],
        "piles": [{"key": key, "title": title, "cards": [deck.card(c) for c in view["discards"][key]]}
                  for key, title in PILES],
        "groups": moves.groups(),
        "hint": _hint(view) if table.actions else None,
    }
