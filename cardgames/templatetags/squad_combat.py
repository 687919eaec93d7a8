"""The Squad Combat view laid out for a phone: the step and any attack under way, my moves in words, my
hand as cards (kind, traits, cost, effect) with the characters able to perform each, then every squad (mine
first): Life, Energy, dice, wounds. Reads the engine's view for this seat, which already hides other hands;
what a card does comes from the match's card set, which every player knows."""

from __future__ import annotations

import re
from typing import Any

from django import template

from cardgames.engine.squad_combat.cards import card_set

from .board_parts import Moves, parsed_moves, plural, seats_from

register = template.Library()

STEPS = {"action": "Action phase", "pay": "Paying a card cost", "attack die": "Attack die",
         "defence die": "Defence die", "modifiers": "Edges", "end of turn": "End of turn", "over": "Over"}
DISCARD_STEPS = ("pay", "end of turn")
"""Steps whose card moves discard the card rather than perform it."""
HINTS = {
    "action": "Perform a card from your hand with a character who shares a trait with it and can pay for it, "
              "refresh a character's dice, or pass.",
    "pay": "Choose the cards to discard for the card cost.",
    "attack die": "Spend one of your attacker's dice, or none.",
    "defence die": "Spend one of your defender's dice against the attack die, or none.",
    "modifiers": "Play edges from your hand; when both sides are done in a row the attack hits or misses.",
    "end of turn": "Discard cards you do not want, then draw up to your hand size.",
}
"""What the seat to move may do, by step."""
WHEN = {"attack": "when attacking", "defence": "when defending", "any": "any time"}
COST_NOTE = re.compile(r"^(?:[^.:]*\.\s*)?[<>\[\]\dC]+:\s*")
"""A card text's cost in the rules' notation ('<1>[3]C: ', after 'Play when defending. '): shown as badges."""


def _catalogue(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each card of the match's set by key: name, kind, timing, traits, cost and what it does."""
    return {c["key"]: _card_facts(c) for c in card_set(config).raw["cards"]}


def _card_facts(card: dict[str, Any]) -> dict[str, Any]:
    """A card of the set as its hand tile shows it; an attack without text says its hit modifier and damage."""
    cost = card.get("cost") or {}
    costs = ([f"{cost['energy']} energy"] if cost.get("energy") else []) + [f"die {d}+" for d in cost.get("dice", [])]
    costs += [f"discard {plural(cost['cards'], 'card')}"] if cost.get("cards") else []
    effect = COST_NOTE.sub("", card.get("text", ""))
    if card["kind"] == "attack":
        effect = effect or f"{card.get('hit', 0):+d} to hit, {card['damage']} damage."
    return {"name": card.get("name", card["key"]), "kind": card["kind"],
            "when": WHEN[card.get("when", "any")] if card["kind"] == "edge" else None,
            "traits": card["traits"], "costs": costs or ["free"], "effect": effect}


def _character_name(view: dict[str, Any], seat: int, slot: int, me: int | None, *, first: bool = False) -> str:
    """'your Mage' ('Your Mage' first in a sentence) or "bastian's Mage"."""
    name = view["sides"][seat]["characters"][slot]["name"]
    if seat == me:
        return f"{'Your' if first else 'your'} {name}"
    return f"{view['sides'][seat]['player']}'s {name}"


def _by_index(view: dict[str, Any], index: int, me: int | None, *, first: bool = False) -> str:
    """A character numbered as the engine numbers them (3 per seat)."""
    return _character_name(view, index // 3, index % 3, me, first=first)


def _roles(view: dict[str, Any]) -> dict[int, str]:
    attack = view.get("attack")
    return {attack["attacker"]: "attacker", attack["defender"]: "defender"} if attack else {}


def _character(c: dict[str, Any], role: str | None, names: dict[str, str]) -> dict[str, Any]:
    """A character with what is left of its Life and Energy (and where its Life bar turns amber and red)."""
    return {**c, "life_left": max(c["life"] - c["damage"], 0), "energy_left": c["energy"] - c["spent"],
            "life_high": c["life"] * 0.6, "life_low": c["life"] * 0.35,
            "wounds": [names[w["card"]] for w in c["wounds"]], "role": role}


def _side(view: dict[str, Any], seat: int, me: int | None, names: dict[str, str]) -> dict[str, Any]:
    side = view["sides"][seat]
    roles = _roles(view)
    return {
        "seat": seat, "name": side["player"], "me": seat == me, "to_move": seat in view["to_move"],
        "passed": side["passed"],
        "first": seat == view["first"], "hand_size": side["hand_size"], "deck_size": side["deck_size"],
        "discard": [names[k] for k in side["discard"]],
        "characters": [_character(c, roles.get(3 * seat + c["slot"]), names) for c in side["characters"]],
    }


def _attack(view: dict[str, Any], me: int | None, names: dict[str, str]) -> dict[str, Any] | None:
    """The attack under way: who attacks whom with what, and the ratings as far as they are known."""
    attack = view.get("attack")
    if attack is None:
        return None
    spent = attack["dice_done"]
    return {
        "text": f"{_by_index(view, attack['attacker'], me, first=True)} attacks "
                f"{_by_index(view, attack['defender'], me)} with {names[attack['card']]} "
                f"({attack['hit_modifier']:+d} to hit, {attack['damage']} damage).",
        "attack_die": attack["attack_die"] if spent or view["step"] == "defence die" else None,
        "defence_die": attack["defence_die"] if spent else None,
        "attack_rating": attack["attack_die"] + attack["hit_modifier"] + attack["attack_modifier"],
        "defence_rating": attack["defence_die"] + attack["defence_modifier"],
        "attack_modifier": attack["attack_modifier"], "defence_modifier": attack["defence_modifier"],
        "dice_spent": spent,
    }


def _paying(view: dict[str, Any], me: int | None, names: dict[str, str]) -> str | None:
    paying = view.get("paying")
    if paying is None:
        return None
    return (f"{_by_index(view, paying['character'], me, first=True)} plays {names[paying['card']]}: "
            f"discard {plural(paying['cards_left'], 'more card')} to pay for it.")


def _card_move(view: dict[str, Any], me: int, parts: list) -> str:
    """Who performs a card, and on whom: 'Knight → bastian's Mage', 'Mage' (no target)."""
    performer = view["sides"][me]["characters"][parts[2]]["name"]
    if len(parts) == 3:
        return performer
    return f"{performer} → {_character_name(view, parts[3], parts[4], me)}"


def _die_group(view: dict[str, Any]) -> str:
    return "Spend your attack die" if view["step"] == "attack die" else "Spend your defence die"


def _moves(view: dict[str, Any], table, keys: list[str]) -> Moves:
    """Card moves go on the card (by key); the rest into groups."""
    me = table.seat
    moves = Moves()
    moves.declare("refresh", "Refresh a character's dice")  # before Pass, which the engine offers first
    for parts, action in parsed_moves(table):
        kind = parts[0]
        if kind in ("play", "edge"):
            moves.add_to_card(keys[parts[1]], _card_move(view, me, parts), action)
        elif kind == "discard":
            moves.add_to_card(keys[parts[1]], "Discard", action)
        elif kind == "pass":
            moves.add("pass", "Pass: no more actions this turn", action, title="Or pass")
        elif kind == "refresh":
            c = view["sides"][me]["characters"][parts[1]]
            moves.add("refresh", f"Refresh {c['name']}'s dice ({c['refresh']} energy)", action)
        elif kind == "die":
            moves.add("die", f"Spend a {parts[1]}" if parts[1] else "Spend none (0)", action, title=_die_group(view))
        elif kind == "done" and view["step"] == "modifiers":
            moves.add("done", "No more edges", action, title="Play an edge from your hand, or")
        elif kind == "done":
            moves.add("done", "Done discarding: draw up", action, title="Discard cards from your hand, or")
    return moves


def _hand(view: dict[str, Any], me: int | None, catalogue: dict, moves: Moves) -> list[dict[str, Any]]:
    """My hand, one card per kind with how many I hold, each with the moves that use it."""
    if me is None:
        return []
    keys = view["sides"][me]["hand"]
    title = None if view["step"] in DISCARD_STEPS else "Performed by"
    return [{**catalogue[key], "count": keys.count(key), "moves": moves.on_card.get(key, []), "moves_title": title}
            for key in dict.fromkeys(keys)]


@register.simple_tag
def squad_combat_board(table) -> dict[str, Any]:
    """The view of `table` (a selectors.TableView) arranged for the template."""
    view = table.view
    me = table.seat
    names = view["card_names"]
    catalogue = _catalogue(table.match.config)
    moves = _moves(view, table, list(names))  # card_names is in the set's order: an action's card index
    return {
        "step": STEPS.get(view["step"], view["step"]),
        "acting": view["sides"][view["acting"]]["player"],
        "attack": _attack(view, me, names),
        "paying": _paying(view, me, names),
        "sides": [_side(view, seat, me, names) for seat in seats_from(len(view["sides"]), me)],
        "hand": _hand(view, me, catalogue, moves),
        "groups": moves.groups(),
        "hint": HINTS[view["step"]] if table.actions else None,
    }
