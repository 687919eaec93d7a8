"""Exact Skirmish odds (army-combat.txt "Skirmishes", "Killing a Unit", "Roles"; RULINGS.md)."""

import json
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battles.engine.odds import (
    AGGRESSOR,
    EQUIPMENT,
    GUARDIAN,
    HEALER,
    KILL_MARGIN,
    RANGED,
    REACH,
    ROLES,
    SAVANT,
    Die,
    SkirmishOdds,
    SkirmishSide,
    main,
    skirmish_dice,
    skirmish_odds,
    strength_before_roll,
)

SPEARMEN = SkirmishSide(strength=2, role=AGGRESSOR, traits=frozenset({REACH}))
SOLDIER = SkirmishSide(strength=2)


def stuck(ties: int, outcomes: int, reroll_limit: int = 100) -> Fraction:
    """Chance that the first roll and every re-roll tie."""
    return Fraction(ties, outcomes) ** (reroll_limit + 1)


def odds(offense_wins, offense_killed, defense_killed, *, stuck_chance=Fraction(0)) -> SkirmishOdds:
    """Expected odds from first-roll chances among decided rolls; `stuck_chance` goes to the attacker."""
    keep = 1 - stuck_chance
    return SkirmishOdds(
        offense_wins=offense_wins * keep + stuck_chance,
        defense_wins=(1 - offense_wins) * keep,
        offense_killed=offense_killed * keep,
        defense_killed=defense_killed * keep,
    )


# Hand-computed cases


def test_one_against_one_plain_d6_is_even_after_rerolls():
    # 36 outcomes: 15 offense higher, 15 defense higher, 6 ties re-rolled; 6 of each 15 win by 3+.
    result = skirmish_odds(offense=SkirmishSide(strength=1), defense=SkirmishSide(strength=1))
    assert result == odds(Fraction(1, 2), Fraction(1, 5), Fraction(1, 5), stuck_chance=stuck(6, 36))
    assert float(result.offense_wins) == 0.5


def test_aggressor_on_offense_keeps_the_best_of_2d6():
    # Best of 2d6 shows k with weight 2k-1 of 36: it beats a d6 in 125/216, ties 36/216, loses 55/216;
    # it wins by 3+ in 58/216 and loses by 3+ in 14/216.
    result = skirmish_odds(offense=SkirmishSide(strength=1, role=AGGRESSOR), defense=SkirmishSide(strength=1))
    assert result == odds(Fraction(125, 180), Fraction(14, 180), Fraction(58, 180), stuck_chance=stuck(1, 6))
    assert result.offense_wins > Fraction(25, 36)


def test_guardian_on_defense_keeps_the_best_of_2d6():
    result = skirmish_odds(offense=SkirmishSide(strength=1), defense=SkirmishSide(strength=1, role=GUARDIAN))
    assert result == odds(Fraction(55, 180), Fraction(58, 180), Fraction(14, 180), stuck_chance=stuck(1, 6))


@pytest.mark.parametrize(
    ("offense_role", "defense_role"),
    [(AGGRESSOR, GUARDIAN), (GUARDIAN, AGGRESSOR), (GUARDIAN, None), (None, AGGRESSOR), (HEALER, SAVANT)],
)
def test_role_benefits_negated_or_out_of_place_roll_plain_d6(offense_role, defense_role):
    result = skirmish_odds(
        offense=SkirmishSide(strength=1, role=offense_role),
        defense=SkirmishSide(strength=1, role=defense_role),
    )
    assert result == odds(Fraction(1, 2), Fraction(1, 5), Fraction(1, 5), stuck_chance=stuck(6, 36))


@pytest.mark.parametrize(
    ("offense_role", "defense_role", "expected"),
    [
        (None, None, (Die.D6, Die.D6)),
        (AGGRESSOR, None, (Die.BEST_OF_2D6, Die.D6)),
        (AGGRESSOR, GUARDIAN, (Die.D6, Die.D6)),
        (None, GUARDIAN, (Die.D6, Die.BEST_OF_2D6)),
        (GUARDIAN, AGGRESSOR, (Die.D6, Die.D6)),
        (AGGRESSOR, EQUIPMENT, (Die.BEST_OF_2D6, Die.NONE)),
        (EQUIPMENT, GUARDIAN, (Die.NONE, Die.BEST_OF_2D6)),
        (EQUIPMENT, EQUIPMENT, (Die.NONE, Die.NONE)),
    ],
)
def test_skirmish_dice(offense_role, defense_role, expected):
    offense = SkirmishSide(strength=1, role=offense_role)
    defense = SkirmishSide(strength=1, role=defense_role)
    assert skirmish_dice(offense=offense, defense=defense) == expected


def test_equipment_rolls_no_die():
    # Equipment 3 against 1 + d6: d6=1 loses to it, d6=2 ties and the higher base Strength (3) wins,
    # d6 of 3-6 beats it, and 5-6 beat it by 3 or more.
    result = skirmish_odds(offense=SkirmishSide(strength=3, role=EQUIPMENT), defense=SkirmishSide(strength=1))
    assert result == SkirmishOdds(Fraction(1, 3), Fraction(2, 3), Fraction(1, 3), Fraction(0))


@pytest.mark.parametrize("opponent_strength", [0, 1, 5])
def test_equipment_with_strength_zero_is_always_killed(opponent_strength):
    equipment = SkirmishSide(strength=0, role=EQUIPMENT, card_bonuses=(6,))
    opponent = SkirmishSide(strength=opponent_strength)
    assert skirmish_odds(offense=equipment, defense=opponent).offense_killed == 1
    assert skirmish_odds(offense=opponent, defense=equipment).defense_killed == 1


def test_equipment_with_strength_zero_is_killed_even_when_its_total_wins():
    # 0 + 7 against 0 + d6 always wins on the totals (by 3+ on a roll of 1-4), and is Killed all the same.
    result = skirmish_odds(
        offense=SkirmishSide(strength=0, role=EQUIPMENT, power_bonus=7), defense=SkirmishSide(strength=0)
    )
    assert result == SkirmishOdds(Fraction(1), Fraction(0), Fraction(1), Fraction(2, 3))


def test_two_strength_zero_equipment_tie_forever_and_the_attacker_wins():
    equipment = SkirmishSide(strength=0, role=EQUIPMENT)
    result = skirmish_odds(offense=equipment, defense=equipment)
    assert result == SkirmishOdds(Fraction(1), Fraction(0), Fraction(1), Fraction(1))


def test_equal_totals_without_dice_reroll_until_the_limit_then_the_attacker_disables():
    equipment = SkirmishSide(strength=2, role=EQUIPMENT)
    assert skirmish_odds(offense=equipment, defense=equipment) == SkirmishOdds(1, 0, 0, 0)


def test_reach_adds_one_against_a_unit_without_reach_or_ranged():
    # Offense 2 + d6 against 1 + d6: higher on 21/36, tied (re-rolled) on 5/36, lower on 10/36;
    # by 3 or more on 10/36 one way and 3/36 the other.
    reach = SkirmishSide(strength=1, traits=frozenset({REACH}))
    result = skirmish_odds(offense=reach, defense=SkirmishSide(strength=1))
    assert result == odds(Fraction(21, 31), Fraction(3, 31), Fraction(10, 31), stuck_chance=stuck(5, 36))


@pytest.mark.parametrize("opponent_traits", [{REACH}, {RANGED}, {REACH, RANGED}])
def test_reach_or_ranged_opponent_cancels_reach(opponent_traits):
    reach = SkirmishSide(strength=1, traits=frozenset({REACH}))
    opponent = SkirmishSide(strength=1, traits=frozenset(opponent_traits))
    assert strength_before_roll(side=reach, opponent=opponent) == 1
    assert skirmish_odds(offense=reach, defense=opponent) == skirmish_odds(
        offense=SkirmishSide(strength=1), defense=SkirmishSide(strength=1)
    )


def test_ranged_alone_adds_nothing_and_reach_works_on_defense():
    ranged = SkirmishSide(strength=1, traits=frozenset({RANGED}))
    reach = SkirmishSide(strength=1, traits=frozenset({REACH}))
    plain = SkirmishSide(strength=1)
    assert strength_before_roll(side=ranged, opponent=plain) == 1
    assert strength_before_roll(side=reach, opponent=plain) == 2
    assert skirmish_odds(offense=plain, defense=reach).defense_wins == Fraction(21, 31) * (1 - stuck(5, 36))


def test_equal_totals_go_to_the_higher_base_strength():
    # Both stand at 2 before the roll; the 6/36 ties go to the base Strength 2 unit, with no re-roll.
    stronger = SkirmishSide(strength=2)
    boosted = SkirmishSide(strength=1, power_bonus=1)
    assert skirmish_odds(offense=stronger, defense=boosted) == SkirmishOdds(
        Fraction(21, 36), Fraction(15, 36), Fraction(6, 36), Fraction(6, 36)
    )
    assert skirmish_odds(offense=boosted, defense=stronger) == SkirmishOdds(
        Fraction(15, 36), Fraction(21, 36), Fraction(6, 36), Fraction(6, 36)
    )


def test_reroll_limit_zero_gives_the_first_tie_to_the_attacker():
    result = skirmish_odds(offense=SkirmishSide(strength=1), defense=SkirmishSide(strength=1), reroll_limit=0)
    assert result == SkirmishOdds(Fraction(21, 36), Fraction(15, 36), Fraction(6, 36), Fraction(6, 36))


def test_reroll_limit_one_sums_two_rolls():
    result = skirmish_odds(offense=SkirmishSide(strength=1), defense=SkirmishSide(strength=1), reroll_limit=1)
    assert result.offense_wins == Fraction(15, 36) + Fraction(6, 36) * Fraction(15, 36) + Fraction(6, 36) ** 2


@pytest.mark.parametrize(
    ("side", "expected"),
    [
        (SkirmishSide(strength=1, role=SAVANT, card_bonuses=(1,)), 4),
        (SkirmishSide(strength=1, role=SAVANT, card_bonuses=(1, 2)), 8),
        (SkirmishSide(strength=1, role=SAVANT, card_bonuses=(-1,)), 0),
        (SkirmishSide(strength=1, role=SAVANT, card_bonuses=(0,)), 1),
        (SkirmishSide(strength=1, role=SAVANT, power_bonus=2), 3),
        (SkirmishSide(strength=1, role=SAVANT, card_bonuses=(1,), power_bonus=1), 5),
        (SkirmishSide(strength=1, role=HEALER, card_bonuses=(1, 2)), 4),
        (SkirmishSide(strength=1, role=SAVANT, traits=frozenset({REACH})), 2),
    ],
)
def test_savant_gains_two_per_card_bonus_but_not_from_commander_powers(side, expected):
    assert strength_before_roll(side=side, opponent=SkirmishSide(strength=1)) == expected


def test_savant_with_a_card_bonus_matches_a_plain_unit_four_stronger_before_the_roll():
    savant = SkirmishSide(strength=1, role=SAVANT, card_bonuses=(1,))
    # Equal totals before the roll, so every roll matches the 1 vs 1 case except that ties
    # go to the higher base Strength (the defender's 4).
    result = skirmish_odds(offense=savant, defense=SkirmishSide(strength=4))
    assert result == SkirmishOdds(Fraction(15, 36), Fraction(21, 36), Fraction(6, 36), Fraction(6, 36))


# The Example Skirmish: Spearmen (Aggressor, Reach) on Offense against a Soldier. The text gives
# no Strengths; with 2 each, the example's totals 7 and 4 are a best roll of 4 and a roll of 2.


def test_example_skirmish_rolls_and_totals():
    assert skirmish_dice(offense=SPEARMEN, defense=SOLDIER) == (Die.BEST_OF_2D6, Die.D6)
    spearmen_total = strength_before_roll(side=SPEARMEN, opponent=SOLDIER) + 4
    soldier_total = strength_before_roll(side=SOLDIER, opponent=SPEARMEN) + 2
    assert (spearmen_total, soldier_total) == (7, 4)
    assert spearmen_total - soldier_total >= KILL_MARGIN  # "enough for the Soldier to be Killed"
    helped = SkirmishSide(strength=2, card_bonuses=(1,))  # the discarded Soldier's +1
    assert spearmen_total - (strength_before_roll(side=helped, opponent=SPEARMEN) + 2) < KILL_MARGIN


def test_example_skirmish_odds():
    # Best-of-2d6 + 3 against d6 + 2 over 216: Spearmen higher 161, tied 25, lower 30;
    # higher by 3+ in 90, lower by 3+ in 5.
    result = skirmish_odds(offense=SPEARMEN, defense=SOLDIER)
    assert result == odds(
        Fraction(161, 191), Fraction(5, 191), Fraction(90, 191), stuck_chance=stuck(25, 216)
    )
    helped = skirmish_odds(offense=SPEARMEN, defense=SkirmishSide(strength=2, card_bonuses=(1,)))
    assert helped.defense_killed < result.defense_killed


# Properties against an independent enumeration


def sides():
    return st.builds(
        SkirmishSide,
        strength=st.integers(0, 6),
        role=st.sampled_from([None, *sorted(ROLES)]),
        traits=st.frozensets(st.sampled_from([REACH, RANGED, "Fast"]), max_size=2),
        card_bonuses=st.lists(st.integers(-2, 3), max_size=2).map(tuple),
        power_bonus=st.integers(-2, 3),
    )


def enumerated_odds(offense: SkirmishSide, defense: SkirmishSide, reroll_limit: int) -> SkirmishOdds:
    """Every pair of die faces with its chance, re-rolls followed one at a time."""
    faces = {
        Die.D6: [(face, Fraction(1, 6)) for face in range(1, 7)],
        Die.BEST_OF_2D6: [(max(a, b), Fraction(1, 36)) for a in range(1, 7) for b in range(1, 7)],
        Die.NONE: [(0, Fraction(1))],
    }
    offense_die, defense_die = skirmish_dice(offense=offense, defense=defense)
    offense_flat = strength_before_roll(side=offense, opponent=defense)
    defense_flat = strength_before_roll(side=defense, opponent=offense)
    win = {"offense": Fraction(0), "defense": Fraction(0)}
    kill = {"offense": Fraction(0), "defense": Fraction(0)}
    tie = Fraction(0)
    for off_face, off_chance in faces[offense_die]:
        for def_face, def_chance in faces[defense_die]:
            chance = off_chance * def_chance
            margin = offense_flat + off_face - defense_flat - def_face
            if margin == 0 and offense.strength != defense.strength:
                win["offense" if offense.strength > defense.strength else "defense"] += chance
            elif margin > 0:
                win["offense"] += chance
                kill["defense"] += chance if margin >= 3 else 0
            elif margin < 0:
                win["defense"] += chance
                kill["offense"] += chance if margin <= -3 else 0
            else:
                tie += chance
    reach = Fraction(1)
    total = SkirmishOdds(Fraction(0), Fraction(0), Fraction(0), Fraction(0))
    for _ in range(reroll_limit + 1):
        total = SkirmishOdds(
            total.offense_wins + reach * win["offense"],
            total.defense_wins + reach * win["defense"],
            total.offense_killed + reach * kill["offense"],
            total.defense_killed + reach * kill["defense"],
        )
        reach *= tie
    return SkirmishOdds(
        total.offense_wins + reach,
        total.defense_wins,
        1 if offense.role == EQUIPMENT and offense.strength == 0 else total.offense_killed,
        1 if defense.role == EQUIPMENT and defense.strength == 0 else total.defense_killed,
    )


@given(offense=sides(), defense=sides(), reroll_limit=st.integers(0, 4))
def test_matches_enumeration_roll_by_roll(offense, defense, reroll_limit):
    assert skirmish_odds(offense=offense, defense=defense, reroll_limit=reroll_limit) == enumerated_odds(
        offense, defense, reroll_limit
    )


@given(offense=sides(), defense=sides())
def test_wins_sum_to_one_and_only_the_loser_is_killed(offense, defense):
    result = skirmish_odds(offense=offense, defense=defense)
    assert result.offense_wins + result.defense_wins == 1
    for value in (result.offense_wins, result.defense_wins, result.offense_killed, result.defense_killed):
        assert 0 <= value <= 1
    if not (offense.role == EQUIPMENT and offense.strength == 0):
        assert result.offense_killed <= result.defense_wins
    if not (defense.role == EQUIPMENT and defense.strength == 0):
        assert result.defense_killed <= result.offense_wins


@given(offense=sides(), defense=sides())
def test_a_bonus_never_hurts(offense, defense):
    result = skirmish_odds(offense=offense, defense=defense)
    stronger = SkirmishSide(
        strength=offense.strength,
        role=offense.role,
        traits=offense.traits,
        card_bonuses=offense.card_bonuses,
        power_bonus=offense.power_bonus + 1,
    )
    better = skirmish_odds(offense=stronger, defense=defense)
    assert better.offense_wins >= result.offense_wins
    assert better.defense_killed >= result.defense_killed
    assert better.offense_killed <= result.offense_killed


# Cross-check against a seeded simulation that reads the rules on its own


def simulate(offense: SkirmishSide, defense: SkirmishSide, rng: random.Random, reroll_limit: int):
    """One Skirmish with real dice: (offense won, offense Killed, defense Killed)."""

    def flat(side, opponent):
        reach = REACH in side.traits and not opponent.traits & {REACH, RANGED}
        savant = 2 * sum(bonus > 0 for bonus in side.card_bonuses) if side.role == SAVANT else 0
        return side.strength + sum(side.card_bonuses) + side.power_bonus + reach + savant

    def roll(side, best_of_two):
        if side.role == EQUIPMENT:
            return 0
        if best_of_two:
            return max(rng.randint(1, 6), rng.randint(1, 6))
        return rng.randint(1, 6)

    offense_best = offense.role == AGGRESSOR and defense.role != GUARDIAN
    defense_best = defense.role == GUARDIAN and offense.role != AGGRESSOR
    margin = 0
    for _ in range(reroll_limit + 1):
        margin = flat(offense, defense) + roll(offense, offense_best) - flat(defense, offense)
        margin -= roll(defense, defense_best)
        if margin or offense.strength != defense.strength:
            break
    offense_won = margin > 0 or (margin == 0 and offense.strength >= defense.strength)
    offense_killed = margin <= -KILL_MARGIN or (offense.role == EQUIPMENT and offense.strength == 0)
    defense_killed = margin >= KILL_MARGIN or (defense.role == EQUIPMENT and defense.strength == 0)
    return offense_won, offense_killed, defense_killed


@pytest.mark.parametrize(
    ("offense", "defense", "reroll_limit"),
    [
        (SPEARMEN, SOLDIER, 100),
        (SkirmishSide(strength=1), SkirmishSide(strength=1), 0),
        (SkirmishSide(strength=3, role=AGGRESSOR), SkirmishSide(strength=3, role=GUARDIAN), 100),
        (SkirmishSide(strength=2, traits=frozenset({REACH})), SkirmishSide(strength=3, role=GUARDIAN), 1),
        (
            SkirmishSide(strength=3, role=EQUIPMENT),
            SkirmishSide(strength=1, role=SAVANT, card_bonuses=(1,)),
            100,
        ),
        (SkirmishSide(strength=0, role=EQUIPMENT, power_bonus=3), SkirmishSide(strength=1), 100),
        (
            SkirmishSide(strength=2, role=AGGRESSOR, power_bonus=-1),
            SkirmishSide(strength=2, role=HEALER),
            100,
        ),
    ],
)
def test_agrees_with_a_seeded_simulation(offense, defense, reroll_limit):
    trials = 20_000
    rng = random.Random(20_240_601)
    results = [simulate(offense, defense, rng, reroll_limit) for _ in range(trials)]
    exact = skirmish_odds(offense=offense, defense=defense, reroll_limit=reroll_limit)
    for index, chance in enumerate((exact.offense_wins, exact.offense_killed, exact.defense_killed)):
        observed = sum(result[index] for result in results) / trials
        p = float(chance)
        # Five standard errors of a binomial proportion: a correct engine fails about once in 1.7 million.
        assert abs(observed - p) <= 5 * math.sqrt(p * (1 - p) / trials) + 1e-12


# Input checks, output and the command line


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strength": -1}, "Strength of 0 or more"),
        ({"strength": 1, "role": "Ritual"}, "Unknown Role 'Ritual'"),
        ({"strength": 1, "role": "aggressor"}, "Unknown Role"),
    ],
)
def test_bad_sides_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SkirmishSide(**kwargs)


def test_traits_and_card_bonuses_must_be_immutable():
    with pytest.raises(TypeError, match="frozenset"):
        SkirmishSide(strength=1, traits={REACH})
    with pytest.raises(TypeError, match="tuple"):
        SkirmishSide(strength=1, card_bonuses=[1])


def test_negative_reroll_limit_is_refused():
    with pytest.raises(ValueError, match="re-roll limit"):
        skirmish_odds(offense=SOLDIER, defense=SOLDIER, reroll_limit=-1)


def test_as_dict_gives_floats():
    result = skirmish_odds(offense=SkirmishSide(strength=2), defense=SkirmishSide(strength=1, power_bonus=1))
    assert result.as_dict() == {
        "offense_wins": 21 / 36,
        "defense_wins": 15 / 36,
        "offense_killed": 1 / 6,
        "defense_killed": 1 / 6,
    }


def test_command_line_prints_the_example_skirmish(capsys):
    assert main(["--offense", "2,Aggressor,Reach", "--defense", "2,none"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == skirmish_odds(offense=SPEARMEN, defense=SOLDIER).as_dict()


def test_command_line_reads_bonuses_and_any_case(capsys):
    argv = ["--offense", "1,savant", "--offense-card", "1", "--offense-card", "1", "--offense-power", "1"]
    assert main([*argv, "--defense", "3,guardian,reach", "--reroll-limit", "0"]) == 0
    expected = skirmish_odds(
        offense=SkirmishSide(strength=1, role=SAVANT, card_bonuses=(1, 1), power_bonus=1),
        defense=SkirmishSide(strength=3, role=GUARDIAN, traits=frozenset({REACH})),
        reroll_limit=0,
    )
    assert json.loads(capsys.readouterr().out) == expected.as_dict()


@pytest.mark.parametrize("side", ["x", "1,Ritual", "-1"])
def test_command_line_refuses_a_bad_side(side, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--offense", side, "--defense", "1"])
    assert exit_info.value.code == 2
    assert "--offense" in capsys.readouterr().err
