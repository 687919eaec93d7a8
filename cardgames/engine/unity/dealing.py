"""Cards out of the draw pile: the deal that starts a game, drawing (the discards reshuffled when the pile runs
out), and the re-deal of every card a player has not seen, for search."""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from typing import Any

from cardgames.engine.unity.deck import deck_for
from cardgames.engine.unity.sentences import say
from cardgames.engine.unity.state import UnityState, copy_state
from gamekit.dice import Dice
from gamekit.errors import RuleError
from gamekit.events import Event


def new_game(config: dict[str, Any], players: Sequence[str], seed: int | None = None,
             dice: Dice | None = None) -> UnityState:
    """Shuffle, deal `hand_size` cards to each player; the player left of the dealer (seat 0)
    goes first."""
    if not 2 <= len(players) <= 6:
        raise RuleError("players", f"Unity is played by 2 to 6 players, not {len(players)}: "
                                   "add or remove players.")
    config = dict(config or {})
    deck = deck_for(config)
    if seed is None and dice is None:
        seed = random.SystemRandom().randrange(1 << 32)
    s = UnityState(config, list(players), seed, dice or Dice(seed), deck)
    order = config.get("deck_order")
    if order is None:
        s.pile = list(range(deck.ncards))
        s.dice.shuffle(s.pile)
    elif sorted(order) != list(range(deck.ncards)):
        raise RuleError("deck_order", f"A fixed deck order lists every card id 0..{deck.ncards - 1} "
                                      "once, top card first.")
    else:
        s.pile = list(reversed(order))
    size = s.rules["hand_size"]
    if not isinstance(s.rules["max_turns"], int) or s.rules["max_turns"] < 1:
        raise RuleError("max_turns", "The turn limit is a whole number of free turns, at least 1.")
    if not isinstance(size, int) or size < 1 or size * s.n > deck.ncards:
        raise RuleError("hand_size", f"Deal each of the {s.n} players at least 1 card and no more than "
                                     f"the {deck.ncards} cards of the deck allow.")
    for _ in range(size):
        for hand in s.hands:
            hand.append(s.pile.pop())
    for hand in s.hands:
        hand.sort()
    s.turns = 1
    return s


def draw(s: UnityState, seat: int, count: int, ev: list[Event]) -> None:
    """Draw from the pile; an empty pile is refilled by reshuffling the three discard piles."""
    hand, got = s.hands[seat], []
    for _ in range(count):
        if not s.pile:
            s.pile = s.discard[0] + s.discard[1] + s.discard[2]
            if not s.pile:
                break
            s.discard = [[], [], []]
            s.dice.shuffle(s.pile)
            say(s, ev, "reshuffle", {"count": len(s.pile)})
        if s.loose:  # a determinized pile: the top card is any of the loose ones
            pile = s.pile
            j = len(pile) - 1 - s.dice.below(s.loose)
            pile[j], pile[-1] = pile[-1], pile[j]
            s.loose -= 1
        c = s.pile.pop()
        insort(hand, c)
        got.append(c)
    if got:
        say(s, ev, "drew", {"seat": seat, "cards": got}, see=(seat,))
        say(s, ev, "draws", {"seat": seat, "count": len(got)})


def determinize(state: UnityState, player: int, rng: random.Random) -> UnityState:
    """Re-deal every card `player` has not seen (other hands, except cards every player saw go
    there, and the draw pile) at random; hand sizes and all public zones stay. Only the cards dealt
    to other hands are drawn now; the pile's order is left loose and settled one draw at a time
    (`UnityState.loose`), so nothing the search never draws is shuffled."""
    t = copy_state(state, Dice.drawing_from(rng))
    shown, hands = t.shown, t.hands
    hidden = t.pile  # the unseen cards; the last `left` of them are not dealt yet
    for seat, h in enumerate(hands):
        if seat != player:
            hidden.extend(c for c in h if not shown[c])
    left, random_ = len(hidden), rng.random
    for seat, h in enumerate(hands):
        if seat == player:
            continue
        keep = [c for c in h if shown[c]]
        for _ in range(len(h) - len(keep)):  # a partial Fisher-Yates: each card from those left
            j = int(random_() * left)
            left -= 1
            hidden[j], hidden[left] = hidden[left], hidden[j]
            keep.append(hidden[left])
        keep.sort()
        hands[seat] = keep
    del hidden[left:]
    t.loose = left
    if t.turn != player:
        t.sel = []
    return t
