"""The steps every play shares: cards leave a hand, an empty hand wins or draws two, a battle ends, and a new free
turn begins (or the turn limit ends the game)."""

from __future__ import annotations

from cardgames.engine.unity.dealing import draw
from cardgames.engine.unity.deck import EVIL, RIGHTEOUS, UNITY
from cardgames.engine.unity.sentences import say
from cardgames.engine.unity.state import FREE, OVER, UnityState
from gamekit.events import Event


def take(s: UnityState, seat: int, cards: list[int]) -> None:
    """The cards leave `seat`'s hand (face up from now on: no longer a card every player saw go into a hand)."""
    hand = s.hands[seat]
    for c in cards:
        hand.remove(c)
        s.shown[c] = 0


def after_play(s: UnityState, seat: int, cards: list[int], ev: list[Event], *, can_win: bool = True) -> bool:
    """Out of cards: the player wins if the last play was two or more righteous cards or a Unity
    card; otherwise they draw two at once."""
    if s.hands[seat]:
        return False
    d = s.deck
    righteous = sum(1 for c in cards if d.side[c] == RIGHTEOUS)
    if can_win and (righteous >= 2 or any(d.flags[c] & UNITY for c in cards)):
        s.phase, s.winner, s.reason, s.sel = OVER, seat, "won", []
        say(s, ev, "win", {"seat": seat})
        return True
    draw(s, seat, 2, ev)
    return False


def free_turn(s: UnityState, seat: int, ev: list[Event]) -> None:
    """A new free turn; a player left with no cards draws the two still owed."""
    s.phase, s.turn, s.sel = FREE, seat, []
    s.turns += 1
    if s.turns > s.rules["max_turns"]:
        s.phase, s.reason = OVER, "turn limit"
        say(s, ev, "limit", {})
        return
    if not s.hands[seat]:
        draw(s, seat, 2, ev)


def end_battle(s: UnityState, ev: list[Event], free: int | None) -> None:
    """The battle used the attacked player's turn: the next player has the free turn, unless
    the card that defeated the attack gave its player one."""
    s.discard[EVIL] += s.attack
    s.attack = []
    free_turn(s, (s.struck + 1) % s.n if free is None else free, ev)


def cats(s: UnityState, cards: list[int]) -> int:
    """The categories of `cards`, as a bit mask."""
    mask = 0
    for c in cards:
        mask |= 1 << s.deck.cat[c]
    return mask
