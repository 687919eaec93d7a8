"""Words, not codes (#17 item 2): seeded random games of every engine, with text on, never put a code in a log
line or a button label: no die code ('R3'), raw tuple or list ("('play', 3)", '[2, 5]'), snake_case or
card-key name, bare seat number, side code ('(offense)'), '(s)' plural or '+ -1' sum."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from battles.engine import GAME as BATTLE
from cardgames.engine.command_dice import GAME as COMMAND_DICE
from cardgames.engine.squad_combat import GAME as SQUAD_COMBAT
from cardgames.engine.unholy_war import GAME as UNHOLY_WAR
from cardgames.engine.unity import GAME as UNITY

from .test_replay_hashes import battle_config

CODES = {
    "a die code": re.compile(r"\b[RWB]\d\b"),
    "a raw tuple or list": re.compile(r"[(\[]'|'[)\]]|\[\d|\(\)|\bNone\b|\bTrue\b|\bFalse\b"),
    "a snake_case name": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "a card or character key": re.compile(r"\b(?!re-roll\b)[a-z]+-[a-z]+\b"),
    "a bare seat number": re.compile(r"\b(?:[Ss]eat|[Pp]layer) ?\d|\bp\d\b"),
    "a side code": re.compile(r"\((?:offense|defense)\)"),
    "a lazy plural": re.compile(r"\(s\)"),
    "a sum adding a negative": re.compile(r"\+ -\d"),
}
NAMES = ["Ann", "Bob", "Cyd", "Dee"]
ENGINES = {
    "army-combat": (BATTLE, lambda seed: battle_config(seed, True), 2),
    "command-dice": (COMMAND_DICE, lambda seed: {}, 2),
    "squad-combat": (SQUAD_COMBAT, lambda seed: {}, 3),
    "unholy-war": (UNHOLY_WAR, lambda seed: {}, 3),
    "unity": (UNITY, lambda seed: {}, 4),
}


def words_of(game: Any, config: dict[str, Any], seats: int, seed: int) -> set[str]:
    """Every event text and every label of the mover's choices met in one seeded random game."""
    rng = random.Random(seed)
    state = game.new_game(config, NAMES[:seats], seed=seed)
    said = {e.text for e in getattr(state, "log", ())}
    while not game.is_over(state):
        movers = game.to_move(state)
        for seat in movers:
            actions = game.legal_actions(state, seat)
            if len(movers) == 1:
                said.update(game.describe_action(state, a) for a in actions)
            said.update(e.text for e in game.apply(state, rng.choice(actions), seat))
    return said - {""}


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_no_log_line_or_label_shows_a_code(engine):
    game, config, seats = ENGINES[engine]
    said = set().union(*(words_of(game, config(seed), seats, seed) for seed in range(6)))
    assert len(said) > 50, "the games were too short to say much"
    found = {what: sorted(line for line in said if pattern.search(line))[:3] for what, pattern in CODES.items()}
    assert {what: lines for what, lines in found.items() if lines} == {}


@pytest.mark.parametrize(("what", "line"), [
    ("a die code", "Ann (Red) rolls R1, B3: 4 swords."),
    ("a raw tuple or list", "('play', 3) is not an action"),
    ("a raw tuple or list", "Ann rolls [2, 5]."),
    ("a snake_case name", "Step: mender_pick"),
    ("a card or character key", "Ann discards sword-strike."),
    ("a bare seat number", "Waiting for seat 1"),
    ("a side code", "A discards Soldier (offense)."),
    ("a lazy plural", "Ann draws 2 card(s)."),
    ("a sum adding a negative", "2 + 6 + -1 cards = 7"),
])
def test_each_kind_of_code_is_caught(what, line):
    assert CODES[what].search(line)
