"""The Squad Combat view laid out for a phone: the step and any attack under way, my moves in words, my
hand as cards (kind, traits, cost, effect) with the characters able to perform each, then every squad (mine
first): Life, Energy, dice, wounds. Reads only the engine's view for this seat, which already hides other
hands: card facts, characters' names for this seat and each move's words come from the engine."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.text import capfirst

from .board_parts import Moves, plural, seats_from

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


def _called(view: dict[str, Any], index: int, *, first: bool = False) -> str:
    """A character numbered as the engine numbers them (3 per seat), as the engine names it for this seat
    ('your Mage', "bastian's Mage"); `first` capitalises it to open a sentence."""
    called = view["sides"][index // 3]["characters"][index % 3]["called"]
    return capfirst(called) if first else called


def _roles(view: dict[str, Any]) -> dict[int, str]:
    attack = view.get("attack")
    return {attack["attacker"]: "attacker", attack["defender"]: "defender"} if attack else {}


def _character(c: dict[str, Any], role: str | None, cards: dict[str, Any]) -> dict[str, Any]:
    """A character with what is left of its Life and Energy (and where its Life bar turns amber and red)."""
    return {**c, "life_left": max(c["life"] - c["damage"], 0), "energy_left": c["energy"] - c["spent"],
            "life_high": c["life"] * 0.6, "life_low": c["life"] * 0.35,
            "wounds": [cards[w["card"]]["name"] for w in c["wounds"]], "role": role}


def _side(view: dict[str, Any], seat: int, me: int | None, cards: dict[str, Any]) -> dict[str, Any]:
    side = view["sides"][seat]
    roles = _roles(view)
    return {
        "seat": seat, "name": side["player"], "me": seat == me, "to_move": seat in view["to_move"],
        "passed": side["passed"],
        "first": seat == view["first"], "hand_size": side["hand_size"], "deck_size": side["deck_size"],
        "discard": [cards[k]["name"] for k in side["discard"]],
        "characters": [_character(c, roles.get(3 * seat + c["slot"]), cards) for c in side["characters"]],
    }


def _attack(view: dict[str, Any], cards: dict[str, Any]) -> dict[str, Any] | None:
    """The attack under way: who attacks whom with what, and the ratings as far as they are known."""
    attack = view.get("attack")
    if attack is None:
        return None
    spent = attack["dice_done"]
    return {
        "text": f"{_called(view, attack['attacker'], first=True)} attacks {_called(view, attack['defender'])} "
                f"with {cards[attack['card']]['name']} ({attack['hit_modifier']:+d} to hit, "
                f"{attack['damage']} damage).",
        "attack_die": attack["attack_die"] if spent or view["step"] == "defence die" else None,
        "defence_die": attack["defence_die"] if spent else None,
        "attack_rating": attack["attack_die"] + attack["hit_modifier"] + attack["attack_modifier"],
        "defence_rating": attack["defence_die"] + attack["defence_modifier"],
        "attack_modifier": attack["attack_modifier"], "defence_modifier": attack["defence_modifier"],
        "dice_spent": spent,
    }


def _paying(view: dict[str, Any], cards: dict[str, Any]) -> str | None:
    paying = view.get("paying")
    if paying is None:
        return None
    return (f"{_called(view, paying['character'], first=True)} plays {cards[paying['card']]['name']}: "
            f"discard {plural(paying['cards_left'], 'more card')} to pay for it.")


def _moves(view: dict[str, Any], table) -> Moves:
    """Card moves go on the card they use, titled by who performs them (and on whom); the rest into groups
    under the engine's labels. The engine's view says what each move uses (`moves`)."""
    facts = {tuple(m["action"]): m for m in view.get("moves", ())}
    moves = Moves()
    moves.declare("refresh", "Refresh a character's dice")  # before Pass, which the engine offers first
    for label, action in table.actions:
        m = facts.get(tuple(json.loads(action))) or {"action": [None], "label": label, "card": None}
        kind = m["action"][0]
        if m["card"] and kind == "discard":
            moves.add_to_card(m["card"], "Discard", action, full=m["label"])
        elif m["card"]:
            by = capfirst(m["by"])
            moves.add_to_card(m["card"], f"{by} → {m['on']}" if m["on"] else by, action, full=m["label"])
        elif kind == "refresh":
            moves.add("refresh", m["label"], action)
        elif kind == "pass":
            moves.add("pass", m["label"], action, title="Or pass")
        elif kind == "die":
            title = "Spend your attack die" if view["step"] == "attack die" else "Spend your defence die"
            moves.add("die", m["label"], action, title=title)
        elif kind == "done" and view["step"] == "modifiers":
            moves.add("done", m["label"], action, title="Play an edge from your hand, or")
        elif kind == "done":
            moves.add("done", m["label"], action, title="Discard cards from your hand, or")
        else:
            moves.add("other", label, action, title="Moves")
    return moves


def _hand(view: dict[str, Any], me: int | None, moves: Moves) -> list[dict[str, Any]]:
    """My hand, one card per kind with how many I hold, each with the engine's facts and the moves that use it."""
    if me is None:
        return []
    keys = view["sides"][me]["hand"]
    title = None if view["step"] in DISCARD_STEPS else "Performed by"
    return [{**view["cards"][key], "when": WHEN.get(view["cards"][key]["when"] or ""), "count": keys.count(key),
             "moves": moves.on_card.get(key, []), "moves_title": title}
            for key in dict.fromkeys(keys)]


CHARACTER_WORDS = ("term:life", "term:energy", "term:dice", "term:refresh", "term:traits")
"""Words every character on the table shows, which the glossary explains."""


def _help_keys(view: dict[str, Any], hand: list[dict[str, Any]]) -> list[str]:
    """What the rules glossary explains on this table (squad_combat/glossary.py): the characters' stats, wounds
    when there are any, and my cards' kinds, costs and what they do."""
    wounded = any(c["wounds"] for side in view["sides"] for c in side["characters"])
    cards = [f"{key}:{card[field]}" for card in hand for key, field in (("power", "kind"), ("effect", "effect"))
             if card[field]]
    return [*CHARACTER_WORDS, *(["term:wounds"] if wounded else []), *(["term:costs", *cards] if hand else [])]


@register.simple_tag
def squad_combat_board(table) -> dict[str, Any]:
    """The view of `table` (a selectors.TableView) arranged for the template."""
    view = table.view
    me = table.seat
    cards = view["cards"]
    moves = _moves(view, table)
    hand = _hand(view, me, moves)
    return {
        "step": STEPS.get(view["step"], view["step"]),
        "acting": view["sides"][view["acting"]]["player"],
        "attack": _attack(view, cards),
        "paying": _paying(view, cards),
        "sides": [_side(view, seat, me, cards) for seat in seats_from(len(view["sides"]), me)],
        "hand": hand,
        "groups": moves.groups(),
        "hint": HINTS[view["step"]] if table.actions else None,
        "help_keys": _help_keys(view, hand),
    }
