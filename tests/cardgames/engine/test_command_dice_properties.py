"""Any legal play from any seed keeps the invariants of Command Dice.

Examples per property come from a Hypothesis profile: HYPOTHESIS_PROFILE=ci (1,000, the
default when CI=true) or dev (100, the local default).
"""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames.engine.command_dice import GAME, CommandDiceState

settings.register_profile("command-dice-ci", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("command-dice-dev", max_examples=100, deadline=None)
PROFILE = settings.get_profile(
    "command-dice-" + os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") == "true" else "dev"))
MAX_ACTIONS = 5000
"""Far beyond any real game (about 130 actions at random): a game that reaches it does not end."""

house_rules = st.fixed_dictionaries({}, optional={
    "victories": st.integers(1, 3), "max_dice": st.integers(1, 4), "cards_per_turn": st.integers(1, 4),
})


def check_invariants(state: CommandDiceState, round_start: int, rng: random.Random) -> None:
    rules = state.rules
    for seat in (0, 1):
        spent = [0] * len(rules.colours)
        initial = {c[0].upper(): i for i, c in enumerate(rules.colours)}
        for player, action in state.actions[round_start:]:
            if player == seat and action[0] == "allocate":
                for die in (d for group in action[1:] for d in group):
                    spent[initial[die[0]]] += 1
        assert [p + s for p, s in zip(state.pools[seat], spent, strict=True)] == list(rules.full_pool)
        assert all(n >= 0 for n in state.pools[seat])
    dealt = state.deck[:state.dealt]
    won = [c for seat in (0, 1) for c in state.won[seat]]
    assert len(won) == len(set(won))
    assert set(won) <= set(dealt)
    assert {c for c in state.table if c >= 0} <= set(dealt) - set(won)
    assert sorted(state.deck) == list(range(len(rules.cards)))
    for seat in (0, 1):
        view = GAME.view(state, seat)
        assert GAME.view(GAME.determinize(state, seat, rng), seat) == view
        if GAME.to_move(state) and state.phase == 0 and state.chosen[1 - seat] is not None:
            assert view["chosen"][1 - seat] == "chosen"


@settings(PROFILE)
@given(seed=st.integers(0, 2**32), policy=st.integers(0, 2**32), config=house_rules)
def test_any_legal_play_keeps_dice_cards_and_secrets_and_ends(seed, policy, config):
    state = GAME.new_game(config, ["Ann", "Bob"], seed=seed)
    rng, round_start, current = random.Random(policy), 0, 1
    while not GAME.is_over(state):
        assert len(state.actions) < MAX_ACTIONS
        if state.round != current:
            round_start, current = len(state.actions), state.round
        check_invariants(state, round_start, rng)
        movers = GAME.to_move(state)
        assert movers
        for seat in movers:
            legal = GAME.legal_actions(state, seat)
            assert legal
            GAME.apply(state, rng.choice(legal), seat)
    assert max(state.victories) == state.rules.victories
    assert GAME.to_move(state) == ()
