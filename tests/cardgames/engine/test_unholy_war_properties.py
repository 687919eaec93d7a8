"""Properties of Unholy War under any sequence of legal actions from any seed.

Examples per test come from a Hypothesis profile: ``ci`` (1000) or ``dev`` (100), chosen by
``HYPOTHESIS_PROFILE``, else ``ci`` when ``CI`` is set and ``dev`` otherwise. The profile is
applied to these tests only, so other test modules keep their own settings.
"""

from __future__ import annotations

import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames.engine.unholy_war import GAME
from cardgames.engine.unholy_war.table import DICE
from gamekit.replay import record_of, replay

settings.register_profile("ci", max_examples=1000, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
PROFILE = settings(settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE")
                                        or ("ci" if os.environ.get("CI") else "dev")),
                   suppress_health_check=[HealthCheck.too_slow])

MAX_ACTIONS = 20_000
"""No game may run longer (the round limit ends every game well before)."""

house_rules = st.fixed_dictionaries({
    "attacker_wins_ties": st.booleans(),
    "ambush_protects_facedown": st.booleans(),
    "discard_cost": st.integers(0, 2),
    "round_limit": st.integers(1, 40),
    "start_dice": st.integers(1, 6),
})
games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32 - 1),
    "players": st.integers(2, 4),
    "house_rules": house_rules,
    "choices": st.lists(st.integers(0, 2**16), max_size=200),
})


def start(game: dict):
    names = [f"P{i}" for i in range(game["players"])]
    return GAME.new_game({"house_rules": game["house_rules"]}, names, seed=game["seed"])


def moves(state, choices):
    """Yield (seat, action) chosen first by Hypothesis, then by a generator seeded from the game."""
    pick = random.Random(state.seed)
    for step in range(MAX_ACTIONS):
        if GAME.is_over(state):
            return
        seat = GAME.to_move(state)[0]
        legal = GAME.legal_actions(state, seat)
        assert legal, "the seat to move always has a legal action"
        yield seat, legal[choices[step] % len(legal)] if step < len(choices) else pick.choice(legal)
    raise AssertionError("the game did not end")


@PROFILE
@given(games)
def test_any_legal_play_conserves_cards_and_dice_and_ends(game):
    state = start(game)
    decks = [Counter(h) + Counter(d) for h, d in zip(state.hand, state.deck, strict=True)]
    start_dice = game["house_rules"]["start_dice"]
    injuries = Counter(e.data["seat"] for e in state.opening_events if e.kind == "injury")
    for seat, action in moves(state, game["choices"]):
        before = [state.total_dice(s) for s in range(len(state.players))]
        events = GAME.apply(state, action, seat)
        injuries.update(e.data["seat"] for e in events if e.kind == "injury")
        for s, deck in enumerate(decks):
            cards = Counter(state.hand[s]) + Counter(state.deck[s]) + Counter(state.discard[s]) \
                + Counter(c[0] for c in state.field[s])
            assert cards == deck
            assert state.total_dice(s) == start_dice + injuries[s]
            assert state.total_dice(s) >= before[s]
            assert state.pool[s] >= 0
            assert all(c[DICE] >= 1 for c in state.field[s])
            if not state.out[s]:
                assert state.total_dice(s) <= state.max_dice
    result = GAME.result(state)
    assert sum(result["scores"]) == 1.0
    assert result["winner"] is None or not state.out[result["winner"]]


@PROFILE
@given(games, st.integers(0, 2**16))
def test_no_view_shows_a_hidden_card(game, rng_seed):
    """A view is the same whatever the hidden cards are: re-dealing them never changes it."""
    state = start(game)
    rng = random.Random(rng_seed)
    for i, (seat, action) in enumerate(moves(state, game["choices"])):
        GAME.apply(state, action, seat)
        if i % 7 == 0:
            for s in range(len(state.players)):
                assert GAME.view(GAME.determinize(state, s, rng), s) == GAME.view(state, s)
        if i >= 300:
            break


@PROFILE
@given(games)
def test_public_events_never_name_a_hidden_card(game):
    state = start(game)
    private = {"drew", "played", "bottomed"}
    for seat, action in moves(state, game["choices"]):
        for event in GAME.apply(state, action, seat):
            if event.kind in private:
                assert event.see == (event.data["seat"],)
            elif event.kind == "play" and action[2] == "down":
                assert event.data["card"] is None


@settings(PROFILE, max_examples=min(PROFILE.max_examples, 200))
@given(games)
def test_replay_and_load_reproduce_any_game(game):
    state = start(game)
    events = [GAME.apply(state, a, s) for s, a in moves(state, game["choices"])]
    again, replayed = replay(GAME, record_of(GAME, state))
    assert GAME.dump(again) == GAME.dump(state)
    assert [[e.as_dict() for e in b] for b in replayed] == [[e.as_dict() for e in b] for b in events]
    assert GAME.dump(GAME.load(GAME.dump(state))) == GAME.dump(state)
