"""What the player to move may do now: `legal_actions`, in a stable order, cached per history length. Picks offer
only cards that can still complete a legal play (`plays`), and copies of one card give one action."""

from __future__ import annotations

from cardgames.engine.unity import plays
from cardgames.engine.unity.deck import (
    ANGEL,
    ANSWERS,
    DAVID,
    EVIL,
    GLORY,
    JUDGEMENT,
    RIGHTEOUS,
    TRINITY,
    Deck,
)
from cardgames.engine.unity.state import CELEBRATE, ENTER, FREE, OVER, RESPOND, UnityState

SPECIAL = (("david", DAVID), ("trinity", TRINITY), ("judgement", JUDGEMENT), ("glory", GLORY))


def legal_actions(state: UnityState, player: int) -> list[tuple]:
    if state.phase == OVER or player != state.turn:
        return []
    key = len(state.actions)
    if state.legal is None or state.legal[0] != key:
        state.legal = (key, actions_now(state))
    return list(state.legal[1])


def actions_now(s: UnityState) -> list[tuple]:
    """The mover's legal actions, worked out afresh (no cache)."""
    d, hand, sel, phase = s.deck, s.hands[s.turn], s.sel, s.phase
    if sel:
        return _more(s, hand, sel)
    if phase == FREE:
        return list(map(d.free.__getitem__, _firsts(d, hand)))
    if phase == ENTER:
        acts: list[tuple] = list(map(d.pick.__getitem__, _firsts(d, plays.right_picks(d, hand, sel, s.chain))))
        if not s.drawn:
            acts.append(("decline",))
        return acts
    if phase == CELEBRATE:
        cats = d.festival_asks(s.fest)
        return [("celebrate", c) for c in _firsts(d, [c for c in hand if d.cat[c] in cats])]
    return _defences(s, hand)


def _firsts(d: Deck, cards: list[int]) -> list[int]:
    """Cards of `cards` (ascending) skipping second copies: identical cards give one action."""
    if d.seconds.isdisjoint(cards):
        return cards
    twin = d.twin
    return [c for i, c in enumerate(cards) if not (twin[c] and i and cards[i - 1] == c - 1)]


def _defences(s: UnityState, hand: list[int]) -> list[tuple]:
    """The answers to an evil attack: special cards, a first pick in unity or of evil, or a draw
    while no righteous answer is open."""
    d = s.deck
    beat = sum(map(d.value.__getitem__, s.attack))
    acts = _answers(s, hand)
    righteous = bool(acts)
    good = plays.unity_picks(d, hand, [], beat)
    picks = plays.evil_picks(d, hand, [], beat)
    if good:
        picks = sorted(good + picks)
    acts += map(d.pick.__getitem__, _firsts(d, picks))
    if not righteous and not good and (s.pile or any(s.discard)):
        acts.append(("draw",))
    return acts


def _answers(s: UnityState, hand: list[int]) -> list[tuple]:
    """David, Trinity, God's Judgement, God's Glory and Angel answers open to the defender."""
    d = s.deck
    if d.answers.isdisjoint(hand):
        return []
    flags = d.flags
    acts: list[tuple] = []
    for c in _firsts(d, [c for c in hand if flags[c] & ANSWERS]):
        f = flags[c]
        for kind, flag in SPECIAL:
            if f & flag and (flag != DAVID or any(d.name[x] == d.targets[c] for x in s.attack)):
                acts.append((kind, c))
        if f & ANGEL:
            acts += [("angel", c, x) for x in _firsts(d, [x for x in hand if x != c])
                     if d.side[x] == RIGHTEOUS]
    return acts


def _more(s: UnityState, hand: list[int], sel: list[int]) -> list[tuple]:
    """Go on with a selection: play it if it is complete, or pick one more card."""
    d, phase = s.deck, s.phase
    if d.side[sel[0]] == EVIL:
        beat = sum(map(d.value.__getitem__, s.attack)) if phase == RESPOND else -1
        evil = plays.evil_shape(d, sel)
        valid, picks = plays.evil_valid(d, sel, beat, evil), plays.evil_picks(d, hand, sel, beat, evil)
    elif phase == RESPOND:
        beat = sum(map(d.value.__getitem__, s.attack))
        unity = plays.unity_shape(d, sel)
        valid, picks = plays.unity_valid(d, sel, beat, unity), plays.unity_picks(d, hand, sel, beat, unity)
    else:
        chain = s.chain if phase == ENTER else 0
        right = plays.right_shape(d, sel, chain)
        valid, picks = plays.right_valid(d, sel, chain, right), plays.right_picks(d, hand, sel, chain, right)
    acts: list[tuple] = [("play",)] if valid else []
    if picks:  # often none left: the selection can only be played
        acts += map(d.pick.__getitem__, _firsts(d, picks))
    return acts
