"""Righteousness: an invitation on a free turn, each player's entry into the chain, and declining (one card drawn
per righteous card played so far)."""

from __future__ import annotations

from cardgames.engine.unity.dealing import draw
from cardgames.engine.unity.deck import RIGHTEOUS
from cardgames.engine.unity.sentences import say
from cardgames.engine.unity.state import ENTER, UnityState
from cardgames.engine.unity.turns import after_play, cats, free_turn, take
from gamekit.events import Event


def invite(s: UnityState, seat: int, cards: list[int], ev: list[Event]) -> None:
    """An invitation to enter into righteousness; the next player answers."""
    take(s, seat, cards)
    s.discard[RIGHTEOUS] += cards
    s.chain = cats(s, cards)
    s.chain_count, s.entered, s.best = len(cards), 1, (len(cards), seat)
    s.phase, s.turn, s.drawn = ENTER, (seat + 1) % s.n, False
    say(s, ev, "invite", {"seat": seat, "cards": cards})
    after_play(s, seat, cards, ev)


def enter(s: UnityState, seat: int, cards: list[int], ev: list[Event]) -> None:
    """Entering adds the cards' categories to the chain; when everyone has entered, the player
    who entered with the most cards (the later one on a tie) has the free turn."""
    take(s, seat, cards)
    s.discard[RIGHTEOUS] += cards
    s.chain |= cats(s, cards)
    s.chain_count += len(cards)
    s.entered += 1
    if len(cards) >= s.best[0]:
        s.best = (len(cards), seat)
    say(s, ev, "enter", {"seat": seat, "cards": cards})
    if after_play(s, seat, cards, ev):
        return
    if s.entered == s.n:
        free_turn(s, s.best[1], ev)
    else:
        s.turn, s.drawn = (seat + 1) % s.n, False


def decline(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """Not entering costs one card per righteous card played so far; a matching card may then
    be played, otherwise the chain is broken and the next player has the free turn."""
    say(s, ev, "decline", {"seat": seat})
    draw(s, seat, s.chain_count, ev)
    s.drawn = True
