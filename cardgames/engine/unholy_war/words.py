"""Button labels for Unholy War actions, in the rules' words, as the seat to move sees the table.

Cards in play are counted from 1 ("card 1"), as everywhere a person reads; actions keep their 0-based
slots. A label names the mover's own cards (facedown ones too: the mover knows them) and another
player's card only when it is face up, so a label never tells more than the mover's view.
"""

from __future__ import annotations

from typing import Any

from gamekit.errors import RuleError
from gamekit.protocol import as_action
from gamekit.words import plural

from .moves import legal_actions
from .table import DICE, KIND, OVER, UP, State, card_no, card_ref, target_ref

HURT = "Hurt yourself: gain a die, shuffle your discard pile into your deck and draw"
DECLINE = "No Ambush: the Engagement resolves"
EXERT = {"tap": "tapping it", "die": "removing one of its dice"}
"""How a card pays to be Exerted (the rules: Tap it, or remove one of its dice)."""


def describe(st: State, action: Any) -> str:
    """A short label for one of the legal actions of the seat to move ("Play Zealot face down with 1 of your
    5 dice"); JSON lists are read as tuples. Anything else is refused with a `RuleError`."""
    if st.phase == OVER:
        raise RuleError("over", "The game is over: there is no action to describe.")
    act = as_action(action)
    seat = st.cur
    if act not in legal_actions(st, seat):
        raise RuleError("action", f"{list(act)!r} is not an action {st.players[seat]} may take now: "
                                  "choose one of the listed actions.")
    kind = act[0]
    if kind == "hurt":
        return HURT
    if kind == "play":
        pool = st.pool[seat]
        dice = "your last die" if pool == 1 else f"1 of your {pool} dice"
        return f"Play {st.names[act[1]]} face {act[2]} with {dice}"
    if kind == "bottom":
        return f"Put {st.names[act[1]]} on the bottom of your deck"
    if kind == "assign":
        dice = st.field[seat][act[1]][DICE]
        return f"Assign a die to your {_own(st, seat, act[1])}: {dice} → {plural(dice + 1, 'die', 'dice')}"
    if kind == "pass":
        return f"Pass with your {_own(st, seat, act[1])}: it Taps"
    if kind == "hide":
        return _hide(st, seat, *act[1:])
    if kind == "engage":
        _, slot, pay, other, target = act
        return f"Engage {_target(st, other, target)} with your {_own(st, seat, slot)}, {EXERT[pay]}"
    if kind == "ambush":
        a_seat, a_slot = _engagement(st)[:2]
        return f"Ambush {_target(st, a_seat, a_slot)} with your {_own(st, seat, act[1])}, {EXERT[act[2]]}"
    if kind == "decline":
        return DECLINE
    slot = _engagement(st)[1]  # "exert": the backlash on the card that Hit a player
    last = act[1] == "die" and st.field[seat][slot][DICE] == 1
    return f"Exert your {_own(st, seat, slot)} by {EXERT[act[1]]}" + (" (its last: it is discarded)" if last else "")


def _engagement(st: State) -> tuple[int, int, int, int]:
    """The Engagement under way (Ambush and backlash happen only during one)."""
    if st.eng is None:
        raise RuleError("engagement", "No Engagement is under way: engage a card or player first.")
    return st.eng


def _own(st: State, seat: int, slot: int) -> str:
    """One of the mover's cards, named and numbered ('Zealot (card 1)', 'facedown Slime (card 3)')."""
    kind, _, up, _ = st.field[seat][slot]
    return card_ref(slot, st.names[kind], bool(up))


def _target(st: State, seat: int, slot: int) -> str:
    """Another player or their card, named only when face up ('bastian's facedown card 2')."""
    if slot < 0:
        return st.players[seat]
    card = st.field[seat][slot]
    return target_ref(st.players[seat], slot, st.names[card[KIND]] if card[UP] else None)


def _hide(st: State, seat: int, slot: int, other: int, dice: int, first: int) -> str:
    """Hide alone, or with a facedown untapped card: how the dice are shared and which is placed first."""
    if other < 0:
        return f"Hide your {_own(st, seat, slot)}"
    field, names = st.field[seat], st.names
    total = field[slot][DICE] + field[other][DICE]
    a, b = f"the {names[field[slot][KIND]]}", f"the {names[field[other][KIND]]}"
    if a == b:  # two cards of a kind: tell them apart by number
        a, b = card_no(slot), card_no(other)
    return (f"Hide your {_own(st, seat, slot)} with your {_own(st, seat, other)}: "
            f"{plural(dice, 'die', 'dice')} on {a}, {total - dice} on {b}; {a if first else b} placed first")
