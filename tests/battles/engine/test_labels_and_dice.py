"""Button labels for actions, and the state's dice stored through gamekit's Dice.dump / Dice.load."""

import json
import random

import pytest

from battles.engine import GAME
from gamekit.dice import Dice
from gamekit.errors import RuleError

from .helpers import SOLDIER_FX, act, battle, config, unit
from .test_protocol import full_config, play_random


def labels(st) -> list[str]:
    return [GAME.describe_action(st, a) for a in GAME.legal_actions(st, st.actor)]


def test_labels_for_the_first_turn_and_playing_cards():
    st = GAME.new_game(config([unit(1, "Spearmen", traits=("Reach",))], [unit(1)]), ["a", "b"],
                       dice=Dice.scripted([1, 3, 2]))
    assert labels(st) == ["Take the first turn", "Let B take the first turn"]
    act(st, ("first", 0))
    assert labels(st) == ["Play Spearmen (Str 2) on Offense", "Pass (lose 1 Morale)"]
    act(st, ("play", 1))
    assert labels(st) == ["Play Soldier (Str 2) on Defense", "Pass"]
    assert GAME.describe_action(st, ["play", 1]) == "Play Soldier (Str 2) on Defense"  # JSON lists too


def test_labels_in_the_reaction_window_and_for_a_save():
    a = [unit(1, "Spearmen", role="Healer"), unit(2, effects=SOLDIER_FX)]
    b = [unit(1, "Big", 8, "Healer"), unit(2)]
    st = battle(a, b, dice=[1, 6], a={"influence": 1, "is_player_character": True})
    act(st, ("play", 1), ("play", 1))
    assert labels(st) == ["Discard Soldier: Add 1 to Spearmen on Offense", "Discard Soldier: Add 1 to Big on Defense",
                          "Do not react"]
    act(st, ("decline",))
    assert labels(st) == ["Spend 1 Influence to save Spearmen", "Let Spearmen be Killed"]


def test_labels_for_powers_and_playing_as_another_role():
    st = battle([unit(1, "Spearmen", role="Healer"), unit(2)], [unit(1), unit(2)], dice=[3, 3],
                a={"power": "Evoker"}, b={"power": "Master of Arms"})
    act(st, ("play", 1))
    assert "Play Soldier (Str 2) on Defense" in labels(st)
    act(st, ("play", 1))
    assert labels(st) == ["Evoker: Add 2 to Spearmen on Offense", "Evoker: Add 2 to Soldier on Defense", "Do not react"]
    st = battle([unit(1, "Spearmen", role="Healer")], [unit(1)], a={"power": "Master of Arms"})
    assert labels(st)[:2] == ["Play Spearmen (Str 2) on Offense", "Play Spearmen (Str 2) as Aggressor on Offense"]


def test_unknown_actions_are_refused():
    st = battle([unit(1)], [unit(1)])
    with pytest.raises(RuleError):
        GAME.describe_action(st, ("dance",))
    with pytest.raises(RuleError):
        GAME.describe_action(st, ("play", 99))


@pytest.mark.parametrize("seed", range(40))
def test_every_legal_action_of_random_battles_has_a_label(seed):
    rng = random.Random(seed)
    names = ["Mender", "Necromancer", "Cleric", "Shapeshifter", "Etherealist", "Psionicist", "Illusionist",
             "Evoker", "Adept", "Master of Arms", "Chirurgeon", "Rogue"]
    st = GAME.new_game(full_config(rng.choice(names), rng.choice(names)), ["a", "b"], seed=seed)
    while not GAME.is_over(st):
        seat = GAME.to_move(st)[0]
        actions = GAME.legal_actions(st, seat)
        for action in actions:
            label = GAME.describe_action(st, action)
            assert label[0].isupper()
            assert "'" not in label  # words, not a tuple's repr
        GAME.apply(st, rng.choice(actions), seat)


def test_dice_are_stored_with_cores_dump_and_continue_identically():
    for make in (lambda: GAME.new_game(full_config(), ["a", "b"], seed=3),  # seeded, logged
                 lambda: GAME.clone(GAME.new_game(full_config(), ["a", "b"], seed=3))):  # unlogged stream
        state = make()
        rng = random.Random(1)
        for _ in range(12):
            seat = GAME.to_move(state)[0]
            GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat)
        data = json.loads(json.dumps(GAME.dump(state)))
        assert data["dice"] == state.dice.dump()
        loaded = GAME.load(data)
        play_random(state, random.Random(4))
        play_random(loaded, random.Random(4))
        assert GAME.dump(loaded) == GAME.dump(state)


def test_scripted_dice_keep_what_is_left_of_the_script():
    st = battle([unit(1, role="Healer")], [unit(1, role="Healer")], dice=[3, 2, 6, 6])
    act(st, ("play", 1), ("play", 1))
    loaded = GAME.load(json.loads(json.dumps(GAME.dump(st))))
    assert loaded.dice.scripted_left == st.dice.scripted_left == 2
    assert loaded.dice.log == st.dice.log
