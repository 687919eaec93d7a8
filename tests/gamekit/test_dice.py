"""The kit's dice: seeded, scripted, logged, dumped and resumed, shuffled, forked, and read as words."""

import json

import pytest

from gamekit.dice import Dice, DiceScriptExhausted, dice_text
from gamekit.errors import RuleError


def test_seeded_dice_repeat_and_log_every_outcome():
    a, b = Dice(7), Dice(7)
    rolls = [a.d6() for _ in range(50)]
    assert rolls == [b.d6() for _ in range(50)]
    assert a.log == rolls
    assert set(rolls) <= set(range(1, 7))


def test_scripted_dice_give_the_script_then_refuse():
    dice = Dice.scripted([5, 2])
    assert (dice.d6(), dice.d6()) == (5, 2)
    with pytest.raises(DiceScriptExhausted):
        dice.d6()
    with pytest.raises(RuleError, match="must be 1 to 6"):
        Dice.scripted([7]).d6()


@pytest.mark.parametrize("log", [True, False])
def test_dump_and_load_resume_the_same_stream(log):
    dice = Dice(99, log=log)
    for _ in range(13):
        dice.roll(8)
    resumed = Dice.load(json.loads(json.dumps(dice.dump())))
    assert [dice.d6() for _ in range(20)] == [resumed.d6() for _ in range(20)]
    assert resumed.log == dice.log


def test_dump_keeps_what_is_left_of_a_script():
    dice = Dice.scripted([3, 4, 5])
    dice.d6()
    resumed = Dice.load(dice.dump())
    assert resumed.log == [3]
    assert (resumed.d6(), resumed.d6()) == (4, 5)


def test_shuffle_is_a_permutation_recorded_as_outcomes():
    items = list(range(10))
    dice = Dice(3)
    dice.shuffle(items)
    assert sorted(items) == list(range(10))
    assert len(dice.log) == 9
    again = list(range(10))
    Dice.scripted(dice.log).shuffle(again)
    assert again == items


def test_fork_is_independent_and_unlogged():
    dice = Dice(1)
    fork = dice.fork(2)
    fork.d6()
    assert dice.log == []
    assert fork.log is None


def test_dice_read_as_words_in_a_log():
    assert [dice_text(f) for f in ([], [5], [2, 2], [6, 3, 1])] == ["no dice", "5", "2 and 2", "6, 3 and 1"]


@pytest.mark.parametrize("log", [True, False])
def test_a_handful_of_dice_rolls_as_one_die_at_a_time_would(log):
    """Dice.rolls is roll called n times: the same faces, the same log, so a replay does not change."""
    handful, one_by_one = Dice(11, log=log), Dice(11, log=log)
    assert handful.rolls(6, 5) == [one_by_one.roll(6) for _ in range(5)]
    assert handful.rolls(10, 3) == [one_by_one.roll(10) for _ in range(3)]
    assert handful.log == one_by_one.log
    assert Dice.scripted([2, 5, 1]).rolls(6, 3) == [2, 5, 1]
