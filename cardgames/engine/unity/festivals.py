"""Festivals: the card's player celebrates first, then each player in turn, discarding a card the festival asks
for or drawing from the righteous discard pile; the card's player then has another free turn."""

from __future__ import annotations

from bisect import insort
from functools import partial

from cardgames.engine.unity.deck import FESTIVAL, RIGHTEOUS
from cardgames.engine.unity.labels import card_list
from cardgames.engine.unity.state import CELEBRATE, UnityState, say
from cardgames.engine.unity.turns import after_play, free_turn, take
from gamekit.events import Event


def festival(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """Every player celebrates in turn from the player of the card, who then plays again."""
    c = action[1]
    d = s.deck
    take(s, seat, [c])
    s.discard[FESTIVAL].append(c)
    say(s, ev, "festival", lambda: f"{s.players[seat]} celebrates {d.name[c]}.", seat=seat, card=c)
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
            say(s, ev, "festival_draw", partial(_festival_draw_text, s, who, got), seat=who, cards=got)
    free_turn(s, seat, ev)


def _festival_draw_text(s: UnityState, who: int, got: list[int]) -> str:
    return f"{s.players[who]} draws {card_list(s.deck, got)} from the righteous discard pile."


def celebrate(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """A player's discard for a festival that asks for one."""
    c = action[1]
    take(s, seat, [c])
    s.discard[s.deck.side[c]].append(c)
    s.queue.pop(0)
    say(s, ev, "celebrate", lambda: f"{s.players[seat]} discards {s.deck.name[c]} for {s.deck.name[s.fest]}.",
        seat=seat, card=c)
    after_play(s, seat, [c], ev, can_win=False)
