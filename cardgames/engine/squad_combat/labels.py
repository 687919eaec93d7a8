"""Squad Combat in words: the public facts of a card (what a view shows of it), characters named for a
viewer, and a button label for each action in the rules' words ("Perform Firebolt with your Mage on
Bob's Knight (1 energy, any die)"). Views and buttons only: nothing here is on the `apply` path."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, NamedTuple

from gamekit.errors import RuleError
from gamekit.protocol import Action, as_action
from gamekit.words import plural

from .cards import (
    ATTACK,
    ATTACK_MOD,
    DEFENCE_MOD,
    DRAW,
    EDGE,
    EFFECTS,
    ENERGY,
    HEAL,
    KINDS,
    NO_AIM,
    ROLL,
    WHENS,
    CardSet,
    card_set,
)
from .rules import HANDLERS
from .state import ATTACK_DIE, MODIFIERS, OVER, PAY, STEPS, State

PLACES = ("left", "middle", "right")
"""Characters sit in a row; two of one character in a squad are told apart by place."""
COST_NOTE = re.compile(r"^(?:[^.:]*\.\s*)?[<>\[\]\dC]+:\s*")
"""A card text's timing and cost in the rules' notation ('Play when defending. <1>[3]C: '): the view gives
them as fields, so the text keeps only what the card does."""


def squad_words(keys: list[str], config: dict[str, Any]) -> str:
    """A squad setting by its characters' names, left to right: 'Knight, Mage, Rogue'."""
    cs = card_set(config)
    return ", ".join(cs.ch_names[cs.character(key)] for key in keys)


def deck_words(counts: dict[str, int] | list[str], config: dict[str, Any]) -> str:
    """A deck setting by its cards' names, each with its copies: '3 Sword Strike, 2 Heavy Blow'."""
    cs = card_set(config)
    return ", ".join(f"{n} {name}" for name, n in Counter(cs.names[c] for c in cs.deck_of(counts)).items())


def costs(cs: CardSet, c: int) -> list[str]:
    """Card `c`'s cost in words, energy then dice then cards: ['2 energy', 'die 4+', 'discard 1 card'];
    a die of 1 or more is any die (rules: '[1] means spend 1 die of any value')."""
    words = [f"{cs.energy[c]} energy"] if cs.energy[c] else []
    words += ["any die" if d == 1 else f"die {d}+" for d in cs.dice[c]]
    if cs.discards[c]:
        words.append(f"discard {plural(cs.discards[c], 'card')}")
    return words


def _effect_text(cs: CardSet, c: int) -> str:
    """What card `c` does, for a set that prints no text for it."""
    n, effect = cs.amount[c], cs.effect[c]
    if cs.kind[c] == ATTACK:
        return f"{cs.hit[c]:+d} to hit, {cs.damage[c]} damage."
    if effect == DRAW:
        return f"Draw {plural(n, 'card')}."
    if effect == HEAL:
        return f"Remove the last {'wound' if n == 1 else plural(n, 'wound')} from a character you control."
    if effect == ROLL:
        dice = "a die" if n == 1 else plural(n, "die", "dice")
        return f"Roll {dice} onto this character, then keep no more dice than its dice pool."
    if effect == ENERGY:
        return f"Remove {n} spent energy from this character."
    side = {ATTACK_MOD: "attack", DEFENCE_MOD: "defence"}[effect]
    return f"+{n} to the {side} rating."


def card_facts(cs: CardSet, c: int) -> dict[str, Any]:
    """The public facts of card `c`, enough to draw it: name, kind, timing (edges), traits, cost (as numbers
    and as words), hit modifier and damage (attacks), effect and amount, and the text of what it does."""
    raw = cs.raw["cards"][c]
    attack = cs.kind[c] == ATTACK
    return {
        "key": cs.keys[c], "name": cs.names[c], "kind": KINDS[cs.kind[c]],
        "when": WHENS[cs.when[c]] if cs.kind[c] == EDGE else None,
        "traits": [t for i, t in enumerate(cs.trait_names) if cs.traits[c] >> i & 1],
        "cost": {"energy": cs.energy[c], "dice": list(cs.dice[c]), "cards": cs.discards[c]},
        "costs": costs(cs, c) or ["free"],
        "hit": cs.hit[c] if attack else None, "damage": cs.damage[c] if attack else None,
        "effect": None if attack else EFFECTS[cs.effect[c]], "amount": None if attack else cs.amount[c],
        "text": _capfirst(COST_NOTE.sub("", raw.get("text", ""))) or _effect_text(cs, c),
    }


def _capfirst(text: str) -> str:
    """A card's text opens a sentence once its cost note is gone ('[1]: draw a card.' -> 'Draw a card.')."""
    return text[:1].upper() + text[1:]


def called(st: State, ch: int, viewer: int | None) -> str:
    """Character `ch` as `viewer` reads it: 'your Mage', "Bob's Mage"; by place ('your left Knight') when
    its squad has two of that character, and by seat when two players share a name."""
    seat, slot = divmod(ch, 3)
    names = [st.cs.ch_names[d] for d in st.chdef[3 * seat:3 * seat + 3]]
    name = names[slot] if names.count(names[slot]) == 1 else f"{PLACES[slot]} {names[slot]}"
    if seat == viewer:
        return f"your {name}"
    player = st.players[seat]
    return f"{player}'s {name}" if st.players.count(player) == 1 else f"{player} (seat {seat + 1})'s {name}"


class Move(NamedTuple):
    """One action in words: its `label`, the key of the card it uses (None for pass, refresh, dice and done),
    the character acting (`by`: performing, refreshing, spending a die) and the target (`on`), named for
    the seat to move."""

    label: str
    card: str | None = None
    by: str | None = None
    on: str | None = None


def _refuse(action: Any, why: str) -> RuleError:
    return RuleError("action", f"{action!r} is not a Squad Combat action {why}: choose one of legal_actions.")


def move(st: State, action: Action | list) -> Move:
    """`action` (a tuple or a JSON list) in words, for the seat to move. Raises `RuleError` for anything that
    is not an action of this game in this step, or that names no card, character or die of it."""
    if type(action) is not tuple:
        action = as_action(action)
    if st.step == OVER:
        raise RuleError("game over", "The game is over: there are no actions to describe.")
    word: str = action[0] if action and type(action[0]) is str else ""
    found = HANDLERS[st.step].get(word)
    if found is None:
        raise _refuse(action, f"in this step ({STEPS[st.step]})")
    if len(action) not in found[1] or any(type(x) is not int for x in action[1:]):
        raise _refuse(action, f"(a {word!r} action is {_shape(word)})")
    cs, seat = st.cs, st.cur
    if word == "pass":
        return Move("Pass (no more actions this turn)")
    if word == "done":
        if st.step == MODIFIERS:
            return Move("No more edges")
        return Move(f"Done discarding: draw up to {plural(st.hand_size, 'card')}")
    if word == "refresh":
        ch = 3 * seat + _slot(action, action[1])
        by = called(st, ch, seat)
        return Move(f"Refresh {by}'s dice (cost {cs.ch_refresh[st.chdef[ch]]} energy)", None, by)
    if word == "die":
        value, side = action[1], "attack" if st.step == ATTACK_DIE else "defence"
        if not 0 <= value <= 6:
            raise _refuse(action, "(a die shows 1 to 6, or 0 to decline)")
        by = called(st, st.a_ch if st.step == ATTACK_DIE else st.d_ch, seat)
        if not value:
            return Move(f"Decline the {side} die (counts as 0)", None, by)
        return Move(f"Spend a {value} from {by} as the {side} die", None, by)
    c = _card(cs, action)
    name = cs.names[c]
    if word == "discard":
        if st.step == PAY:
            return Move(f"Discard {name} to pay for {cs.names[st.p_card]}", cs.keys[c])
        return Move(f"Discard {name}", cs.keys[c])
    if (cs.kind[c] == EDGE) != (word == "edge"):
        raise _refuse(action, f"({name} is an {KINDS[cs.kind[c]]})")
    if (len(action) == 5) != (cs.play[c][-1] != NO_AIM):
        raise _refuse(action, f"({name} {'takes no' if len(action) == 5 else 'needs a'} target)")
    by = called(st, 3 * seat + _slot(action, action[2]), seat)
    on = None
    if len(action) == 5:
        if not 0 <= action[3] < st.n:
            raise _refuse(action, f"(there is no seat {action[3]})")
        on = called(st, 3 * action[3] + _slot(action, action[4]), seat)
    target = f" on {on}" if on else ""
    return Move(f"Perform {name} with {by}{target} ({', '.join(costs(cs, c)) or 'free'})", cs.keys[c], by, on)


def _shape(word: str) -> str:
    return {"pass": "['pass']", "done": "['done']", "refresh": "['refresh', slot]", "die": "['die', value]",
            "discard": "['discard', card]"}.get(word, f"['{word}', card, slot] or ['{word}', card, slot, seat, slot]")


def _slot(action: Action, slot: int) -> int:
    if not 0 <= slot < 3:
        raise _refuse(action, f"(characters are slots 0, 1 and 2, not {slot})")
    return slot


def _card(cs: CardSet, action: Action) -> int:
    c = action[1]
    if not 0 <= c < len(cs.keys):
        raise _refuse(action, f"(this set has no card {c})")
    return c
