"""Property tests: any legal play from any seed and player count keeps Unity's invariants, and
building a play card by card reaches exactly the legal plays (enumerated here by brute force over
every subset of a small hand, with the rules written out again), never a dead end.

Examples per test come from the Hypothesis profile: HYPOTHESIS_PROFILE, else "ci" (1000) when CI
is set, else "dev" (100).
"""

from __future__ import annotations

import json
import os
import random
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames.engine.unity import GAME, plays
from cardgames.engine.unity.deck import E_OBJECT, EVIL, HUMAN, POINTS, POLE, RIGHTEOUS, UNITY, deck_for
from cardgames.engine.unity.state import OVER
from gamekit.replay import record_of, replay

from .unity_tables import card_dicts

settings.register_profile("ci", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
PROFILE_NAME = os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE_NAME)
PROFILE = settings.get_profile(PROFILE_NAME)  # pinned on each test: other modules may load their own

LIMIT = 200  # free turns: the house-rule turn limit used here, so each example stays short


def _check(state, seats=None):
    """Cards are conserved and the views of `seats` (all, and a spectator, by default) leak nothing."""
    n = state.deck.ncards
    zones = [c for h in state.hands for c in h] + state.pile + state.attack + [c for p in state.discard
                                                                                  for c in p]
    assert sorted(zones) == list(range(n)), "cards are conserved"
    assert all(h == sorted(h) for h in state.hands)
    public = set(state.attack) | {c for p in state.discard for c in p}
    public |= {c for h in state.hands for c in h if state.shown[c]}
    for seat in [None, *range(state.n)] if seats is None else seats:
        view = GAME.view(state, seat)
        json.dumps(view)
        own = set(state.hands[seat]) if seat is not None else set()
        assert {c["id"] for c in card_dicts(view)} <= public | own, "no hidden card leaks into a view"
        assert view["hand_counts"] == [len(h) for h in state.hands]


def _without_dice(dump):
    return {k: v for k, v in dump.items() if k != "dice"}


@PROFILE
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), choices=st.randoms(use_true_random=False))
def test_random_legal_play_keeps_invariants(seed, players, choices):
    state = GAME.new_game({"max_turns": LIMIT, "verbose": False}, [f"p{i}" for i in range(players)],
                          seed=seed)
    steps = 0
    while not GAME.is_over(state):
        (seat,) = GAME.to_move(state)
        _check(state, ([None, *range(players)][steps % (players + 1)],))  # each view in turn
        legal = GAME.legal_actions(state, seat)
        assert legal, "a player to move always has an action"
        assert all(GAME.legal_actions(state, other) == [] for other in range(players) if other != seat)
        json.dumps(legal)
        action = choices.choice(legal)
        for event in GAME.apply(state, action, seat):
            if event.kind in ("drew", "pick"):
                assert event.see == (seat,) or event.see == (event.data["seat"],)
        steps += 1
        assert state.turns <= LIMIT + 1
    _check(state)
    result = GAME.result(state)
    assert state.phase == OVER
    assert (result["winner"] is None) == (result["reason"] == "turn limit")
    if result["winner"] is not None:
        assert state.hands[result["winner"]] == []
    assert steps < 200 * LIMIT


@PROFILE
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), cut=st.integers(0, 400))
def test_replay_dump_and_determinize_agree(seed, players, cut):
    state = GAME.new_game({"max_turns": 100}, [f"p{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    events = []
    while not GAME.is_over(state) and len(state.actions) < cut:
        (seat,) = GAME.to_move(state)
        events.append(GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat))
    again, again_events = replay(GAME, record_of(GAME, state))
    assert again.dice.log == state.dice.log
    assert _without_dice(GAME.dump(again)) == _without_dice(GAME.dump(state))
    assert [[e.as_dict() for e in es] for es in again_events] == [[e.as_dict() for e in es] for es in events]
    loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    assert GAME.dump(loaded) == GAME.dump(state)
    if GAME.is_over(state):
        return
    (seat,) = GAME.to_move(state)
    for looker in range(players):
        guess = GAME.determinize(state, looker, random.Random(seed))
        _check(guess)
        assert GAME.view(guess, looker) == GAME.view(state, looker)
    assert GAME.legal_actions(GAME.determinize(state, seat, rng), seat) == GAME.legal_actions(state, seat)


# --- building a play ---------------------------------------------------------------------

DECK = deck_for({})
RIGHT = [c for c in range(DECK.ncards) if DECK.side[c] == RIGHTEOUS]
WRONG = [c for c in range(DECK.ncards) if DECK.side[c] == EVIL]
CHAIN_CATS = sorted({DECK.cat[c] for c in RIGHT})


def subsets(hand):
    for k in range(1, len(hand) + 1):
        yield from combinations(hand, k)


def evil_rule(cards, beat):
    cats = {DECK.cat[c] for c in cards if not DECK.flags[c] & E_OBJECT}
    poles = sum(1 for c in cards if DECK.flags[c] & POLE)
    return len(cats) <= 1 + poles and sum(DECK.value[c] for c in cards) > beat


def unity_rule(cards, beat):
    if any(not DECK.flags[c] & (POINTS | UNITY) for c in cards) or sum(bool(DECK.flags[c] & UNITY)
                                                                        for c in cards) > 1:
        return False
    points = [DECK.value[c] for c in cards if DECK.flags[c] & POINTS]
    cats = {DECK.cat[c] for c in cards if DECK.flags[c] & HUMAN}
    unity = any(DECK.flags[c] & UNITY for c in cards)
    return bool(cats) and (len(cats) == 1 or unity) and sum(points) > beat >= sum(points) - min(points)


def reachable(picks, valid, hand, arg):
    """Every play reachable by picks; asserts that no partial selection is a dead end."""
    found = set()

    def walk(sel):
        nxt = picks(DECK, hand, sel, arg)
        if sel and valid(DECK, sel, arg):
            found.add(tuple(sel))
        elif sel:
            assert nxt, f"dead end at {sel}"
        for c in nxt:
            walk([*sel, c])

    walk([])
    return found


@PROFILE
@given(hand=st.lists(st.sampled_from(WRONG), min_size=1, max_size=8, unique=True),
       beat=st.integers(-1, 30))
def test_evil_picks_reach_exactly_the_legal_evil_plays(hand, beat):
    hand = sorted(hand)
    expected = {s for s in subsets(hand) if evil_rule(s, beat)}
    assert reachable(plays.evil_picks, plays.evil_valid, hand, beat) == expected


@PROFILE
@given(hand=st.lists(st.sampled_from(RIGHT), min_size=1, max_size=9, unique=True), beat=st.integers(0, 30))
def test_unity_picks_reach_exactly_the_plays_with_no_card_more_than_needed(hand, beat):
    hand = sorted(hand)
    expected = {s for s in subsets(hand) if unity_rule(s, beat)}
    assert reachable(plays.unity_picks, plays.unity_valid, hand, beat) == expected


@PROFILE
@given(hand=st.lists(st.sampled_from(RIGHT), min_size=1, max_size=8, unique=True),
       chain=st.sets(st.sampled_from(CHAIN_CATS), max_size=3))
def test_righteous_picks_reach_exactly_the_invitations_and_entries(hand, chain):
    hand = sorted(hand)
    mask = sum(1 << k for k in chain)
    expected = {s for s in subsets(hand) if plays.right_valid(DECK, list(s), mask)}
    assert reachable(plays.right_picks, plays.right_valid, hand, mask) == expected
