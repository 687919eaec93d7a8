"""With event text off (``verbose: False`` and the engines' ``quiet`` games, what search and simulation play),
no engine builds a sentence: every event of a whole seeded game has empty text, and text on still has it."""

from __future__ import annotations

import random

import pytest

from gamekit.players import quiet
from tests.gamekit.test_replay_hashes import BATTLE, COMMAND_DICE, SQUAD_COMBAT, UNHOLY_WAR, UNITY, battle_config

GAMES = {"army-combat": (BATTLE, battle_config(3, True), 2), "unity": (UNITY, {}, 4),
         "command-dice": (COMMAND_DICE, {}, 2), "squad-combat": (SQUAD_COMBAT, {}, 3),
         "unholy-war": (UNHOLY_WAR, {}, 3)}


def event_texts(game, config: dict, seats: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    state = game.new_game(config, [f"p{i}" for i in range(seats)], seed=seed)
    texts = []
    while not game.is_over(state):
        for seat in game.to_move(state):
            texts += [e.text for e in game.apply(state, rng.choice(game.legal_actions(state, seat)), seat)]
    return texts


@pytest.mark.parametrize("name", sorted(GAMES))
def test_with_text_off_no_event_text_is_built(name):
    game, config, seats = GAMES[name]
    assert any(event_texts(game, config, seats, 1))
    off = {**config, "verbose": False} if name != "command-dice" else config
    assert not any(event_texts(quiet(game), off, seats, 1))
