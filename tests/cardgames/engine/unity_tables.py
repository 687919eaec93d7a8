"""Stacked Unity tables for the engine tests: deal named cards, find a card in a hand."""

from __future__ import annotations

from cardgames.engine.unity import GAME, stacked_order

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def new(hands, top=(), **config):
    """A game whose seats hold `hands` (card names, seat 0 first) and whose pile has `top` on top."""
    order = stacked_order(hands, list(top))
    return GAME.new_game({"deck_order": order, "hand_size": len(hands[0]), **config}, NAMES[:len(hands)],
                         seed=1)


def cid(state, seat, name):
    """The id of the card called `name` in `seat`'s hand."""
    return next(c for c in state.hands[seat] if state.deck.name[c] == name)


def card_dicts(obj, out=None) -> list:
    """Every card a view shows: the dicts, at any depth, that carry an "id" and a "name"."""
    out = [] if out is None else out
    if isinstance(obj, dict):
        if "id" in obj and "name" in obj:
            out.append(obj)
        for v in obj.values():
            card_dicts(v, out)
    elif isinstance(obj, list):
        for v in obj:
            card_dicts(v, out)
    return out
