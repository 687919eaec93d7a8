"""What a player may see of a Unity table, and the result of a game."""

from __future__ import annotations

from typing import Any

from cardgames.engine.unity.state import CELEBRATE, ENTER, OVER, PHASES, RESPOND, UnityState, chain_entries

PILES = ("righteous", "evil", "festival")


def view(state: UnityState, player: int | None) -> dict[str, Any]:
    """What `player` may see: their own hand and selection, hand sizes, the face-up piles, the
    table, and cards every player saw go into a hand; never other hands or the deck order.
    Every card shown carries what is printed on it (`Deck.card`), so a client can draw it."""
    s, d = state, state.deck
    out: dict[str, Any] = {
        "game": "unity", "seat": player, "players": list(s.players), "phase": PHASES[s.phase],
        "turn": None if s.phase == OVER else s.turn, "turns": s.turns,
        "hand_counts": [len(h) for h in s.hands], "draw_pile": len(s.pile),
        "discards": {PILES[i]: [d.card(c) for c in s.discard[i]] for i in range(3)},
        "shown": [[d.card(c) for c in h if s.shown[c]] for h in s.hands],
        "winner": s.winner, "reason": s.reason,
    }
    if player is not None:
        out["hand"] = [d.card(c) for c in s.hands[player]]
        out["selection"] = s.sel[:] if player == s.turn else []
        out["picked"] = [d.card(c) for c in out["selection"]]
    if s.phase == RESPOND:
        out["attack"] = {"cards": [d.card(c) for c in s.attack], "attacker": s.attacker,
                         "defender": s.defender, "strength": sum(d.value[c] for c in s.attack)}
    elif s.phase == ENTER:
        out["chain"] = {"categories": [d.categories[i] for i in range(len(d.categories))
                                       if s.chain >> i & 1],
                        "played": s.chain_count, "entered": s.entered, "drawn": s.drawn,
                        "leader": s.best[1], "leader_cards": s.best[0],
                        "entries": [{"seat": seat, "cards": [d.card(c) for c in cards]}
                                    for seat, cards in chain_entries(s)]}
    elif s.phase == CELEBRATE:
        # the card may have been reshuffled into the pile since: show what it says, not which card
        asks = [d.categories[i] for i in sorted(d.festival_asks(s.fest))]
        out["festival"] = {"name": d.name[s.fest], "asks_for": asks, "host": s.attacker,
                           "waiting": s.queue[:], "text": d.text[s.fest]}
    return out


def result(state: UnityState) -> dict[str, Any]:
    """The winner (None at the turn limit), +1/-1 scores, why the game ended and each hand's cards left."""
    w = state.winner
    scores = [0.0] * state.n if w is None else [1.0 if s == w else -1.0 for s in range(state.n)]
    return {"winner": w, "scores": scores, "reason": state.reason, "cards_left": [len(h) for h in state.hands]}
