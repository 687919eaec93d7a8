"""Festivals: the card's player celebrates first, then each player in turn, discarding a card the festival asks
for or drawing from the righteous discard pile; the card's player then has another free turn."""

from __future__ import annotations

from bisect import insort

from cardgames.engine.unity.deck import FESTIVAL, RIGHTEOUS
from cardgames.engine.unity.sentences import say
from cardgames.engine.unity.state import CELEBRATE, UnityState
from cardgames.engine.unity.turns import after_play, free_turn, take
from gamekit.events import Event


def festival(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """Every player celebrates in turn from the player of the card, who then plays again."""
    c = action[1]
    d = s.deck
    take(s, seat, [c])
    s.discard[FESTIVAL].append(c)
    say(s, ev, "festival", {"seat": seat, "card": c})
    after_play(s, seat, [c], ev)
    kind, _, count = d.festival[c]
    order = [(seat + k) % s.n for k in range(s.n)]
    if kind == "discard":
        s.phase, s.fest, s.attacker, s.queue = CELEBRATE, c, seat, order
        return
    pile = s.discard[RIGHTEOUS]
    for who in order:
        got = pile[:count]
        del pile[:count]
        for x in got:
            insort(s.hands[who], x)
            s.shown[x] = 1
        if got:
            say(s, ev, "festival_draw", {"seat": who, "cards": got})
    free_turn(s, seat, ev)


def celebrate(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """A player's discard for a festival that asks for one."""
    c = action[1]
    take(s, seat, [c])
    s.discard[s.deck.side[c]].append(c)
    s.queue.pop(0)
    say(s, ev, "celebrate", {"seat": seat, "card": c})
    after_play(s, seat, [c], ev, can_win=False)
