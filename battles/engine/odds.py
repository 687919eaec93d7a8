"""Exact odds of one Skirmish (army-combat.txt, "Skirmishes", "Killing a Unit", "Roles").

Each side's total is its base Strength, plus modifiers, plus its die:

- A d6, except: an Aggressor on Offense rolls 2d6 and keeps the best unless the
  defending unit is a Guardian; a Guardian on Defense does the same unless the
  attacking unit is an Aggressor; Equipment rolls no die at all.
- Reach: +1 when the opponent has neither Reach nor Ranged (the Example Skirmish).
  The text gives Ranged no effect of its own beyond that, so Ranged only cancels
  the opponent's Reach (a Scout's extra Add 1 is a commander power: pass it as
  ``power_bonus``).
- Savant: +2 more for every other card that adds to its Strength; commander
  powers never trigger it.

The higher total wins. Equal totals go to the higher base Strength; equal base
Strength re-rolls both dice. If the first roll and all ``reroll_limit`` re-rolls
tie (100 by RULINGS.md; 0 gives the first tie straight to the attacker), the
attacker wins and, as there is no margin, the defender is only Disabled. The
winner Kills the loser when its total is higher by 3 or more, otherwise the loser
is Disabled. Equipment with Strength 0 is Killed in any Skirmish, whatever the
totals, even when its total wins. Killed means before any save by Influence or
Morale.

The odds are exact: the dice distributions are enumerated as integer weights and
the re-roll series is summed in closed form with ``fractions.Fraction``.

Command line::

    python -m battles.engine.odds --offense 2,Aggressor,Reach --defense 2,none
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

AGGRESSOR = "Aggressor"
GUARDIAN = "Guardian"
HEALER = "Healer"
SAVANT = "Savant"
EQUIPMENT = "Equipment"
ROLES = frozenset({AGGRESSOR, GUARDIAN, HEALER, SAVANT, EQUIPMENT})
REACH = "Reach"
RANGED = "Ranged"
KILL_MARGIN = 3
SAVANT_CARD_BONUS = 2
DEFAULT_REROLL_LIMIT = 100


class Die(StrEnum):
    """What a unit rolls in a Skirmish."""

    D6 = "d6"
    BEST_OF_2D6 = "best of 2d6"
    NONE = "no die"


# (face, weight) pairs; the weights of one die sum to its number of outcomes.
DIE_FACES: dict[Die, tuple[tuple[int, int], ...]] = {
    Die.D6: tuple((face, 1) for face in range(1, 7)),
    Die.BEST_OF_2D6: tuple((face, 2 * face - 1) for face in range(1, 7)),
    Die.NONE: ((0, 1),),
}


def _difference_table(offense_die: Die, defense_die: Die) -> tuple[int, int, tuple[int, ...]]:
    """(outcomes, lowest difference, weights at_least[i] of offense roll - defense roll >= lowest + i)."""
    weights: dict[int, int] = {}
    for off_face, off_weight in DIE_FACES[offense_die]:
        for def_face, def_weight in DIE_FACES[defense_die]:
            diff = off_face - def_face
            weights[diff] = weights.get(diff, 0) + off_weight * def_weight
    lowest, highest = min(weights), max(weights)
    at_least = [0] * (highest - lowest + 2)
    for diff in range(highest, lowest - 1, -1):
        at_least[diff - lowest] = at_least[diff - lowest + 1] + weights.get(diff, 0)
    return at_least[0], lowest, tuple(at_least)


DIFFERENCE_TABLES = {(off, dfn): _difference_table(off, dfn) for off in Die for dfn in Die}


@dataclass(frozen=True, slots=True)
class SkirmishSide:
    """One unit in a Skirmish and what is adding to its Strength.

    ``card_bonuses`` holds one entry per other card adding to (or taking from) this
    unit's Strength; each positive entry also gives a Savant +2. ``power_bonus`` is
    the sum of commander powers and other non-card Adds (Retinue, Scout, Dervish...).
    """

    strength: int
    role: str | None = None
    traits: frozenset[str] = field(default_factory=frozenset)
    card_bonuses: tuple[int, ...] = ()
    power_bonus: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.strength, int) or self.strength < 0:
            raise ValueError(
                f"A unit in a Skirmish needs a Strength of 0 or more, not {self.strength!r}; "
                "units without a Strength cannot be played."
            )
        if self.role is not None and self.role not in ROLES:
            raise ValueError(
                f"Unknown Role {self.role!r} for a unit in a Skirmish: use one of "
                f"{', '.join(sorted(ROLES))}, or no Role."
            )
        if not isinstance(self.traits, frozenset):
            raise TypeError("Give a unit's traits as a frozenset, for example frozenset({'Reach'}).")
        if not isinstance(self.card_bonuses, tuple):
            raise TypeError("Give card bonuses as a tuple with one entry per card, for example (1, 2).")


@dataclass(frozen=True, slots=True)
class SkirmishOdds:
    """Chances of each outcome; the two wins sum to 1. Killed is before any save."""

    offense_wins: Fraction
    defense_wins: Fraction
    offense_killed: Fraction
    defense_killed: Fraction

    def as_dict(self) -> dict[str, float]:
        """The four chances as floats, for JSON."""
        return {
            "offense_wins": float(self.offense_wins),
            "defense_wins": float(self.defense_wins),
            "offense_killed": float(self.offense_killed),
            "defense_killed": float(self.defense_killed),
        }


def skirmish_dice(*, offense: SkirmishSide, defense: SkirmishSide) -> tuple[Die, Die]:
    """Each side's die: Aggressor and Guardian keep the best of 2d6 unless the other negates it."""
    if offense.role == EQUIPMENT:
        offense_die = Die.NONE
    elif offense.role == AGGRESSOR and defense.role != GUARDIAN:
        offense_die = Die.BEST_OF_2D6
    else:
        offense_die = Die.D6
    if defense.role == EQUIPMENT:
        defense_die = Die.NONE
    elif defense.role == GUARDIAN and offense.role != AGGRESSOR:
        defense_die = Die.BEST_OF_2D6
    else:
        defense_die = Die.D6
    return offense_die, defense_die


def strength_before_roll(*, side: SkirmishSide, opponent: SkirmishSide) -> int:
    """Strength plus Reach, card bonuses (with Savant's +2 each) and commander powers."""
    total = side.strength + side.power_bonus + sum(side.card_bonuses)
    if REACH in side.traits and REACH not in opponent.traits and RANGED not in opponent.traits:
        total += 1
    if side.role == SAVANT:
        total += SAVANT_CARD_BONUS * sum(1 for bonus in side.card_bonuses if bonus > 0)
    return total


def skirmish_odds(
    *, offense: SkirmishSide, defense: SkirmishSide, reroll_limit: int = DEFAULT_REROLL_LIMIT
) -> SkirmishOdds:
    """Exact chances that each side wins and that each unit is Killed in one Skirmish."""
    if reroll_limit < 0:
        raise ValueError(f"The re-roll limit must be 0 or more, not {reroll_limit}.")
    outcomes, lowest, at_least = DIFFERENCE_TABLES[skirmish_dice(offense=offense, defense=defense)]
    lead = strength_before_roll(side=offense, opponent=defense) - strength_before_roll(
        side=defense, opponent=offense
    )
    last = len(at_least) - 1

    def count_at_least(diff: int) -> int:
        """Weight of the outcomes where offense roll - defense roll >= diff."""
        return at_least[min(max(diff - lowest, 0), last)]

    offense_beats = count_at_least(1 - lead)
    defense_beats = outcomes - count_at_least(-lead)
    defense_killed = count_at_least(KILL_MARGIN - lead)
    offense_killed = outcomes - count_at_least(1 - KILL_MARGIN - lead)
    ties = outcomes - offense_beats - defense_beats
    if offense.strength > defense.strength:
        offense_beats, ties = offense_beats + ties, 0
    elif defense.strength > offense.strength:
        defense_beats, ties = defense_beats + ties, 0

    # A roll is decided with weight `decided` out of `outcomes`, and a tie re-rolls. Summed over
    # rolls 0..limit, each side's chance is its weight / decided * (1 - stuck), where
    # stuck = (ties / outcomes)^(limit + 1) is the chance that every roll tied: the attacker
    # wins that, and the defender is only Disabled.
    decided = outcomes - ties or 1  # 0 only when every roll ties; then only `stuck` is left.
    all_rolls = outcomes ** (reroll_limit + 1) if ties else 1
    stuck = ties ** (reroll_limit + 1) if ties else 0
    scale = decided * all_rolls
    resolved = all_rolls - stuck
    return SkirmishOdds(
        offense_wins=Fraction(offense_beats * resolved + stuck * decided, scale),
        defense_wins=Fraction(defense_beats * resolved, scale),
        offense_killed=Fraction(1) if _always_killed(offense) else Fraction(offense_killed * resolved, scale),
        defense_killed=Fraction(1) if _always_killed(defense) else Fraction(defense_killed * resolved, scale),
    )


def _always_killed(side: SkirmishSide) -> bool:
    """Equipment with Strength 0 is Killed in any Skirmish, whatever the totals."""
    return side.role == EQUIPMENT and side.strength == 0


def _parse_side(text: str) -> SkirmishSide:
    """Read STRENGTH[,ROLE[,TRAIT...]] such as "2,Aggressor,Reach" or "2,none"."""
    parts = [part.strip() for part in text.split(",")]
    try:
        strength = int(parts[0])
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"Start a side with its Strength, as in 2,Aggressor,Reach (got {text!r})."
        ) from None
    role_name = parts[1] if len(parts) > 1 else "none"
    roles = {role.lower(): role for role in ROLES}
    if role_name.lower() not in {"none", *roles}:
        raise argparse.ArgumentTypeError(
            f"Unknown Role {role_name!r}: use one of {', '.join(sorted(ROLES))} or none."
        )
    known_traits = {REACH.lower(): REACH, RANGED.lower(): RANGED}
    traits = frozenset(known_traits.get(trait.lower(), trait) for trait in parts[2:] if trait)
    try:
        return SkirmishSide(strength=strength, role=roles.get(role_name.lower()), traits=traits)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    """Print the exact odds of one Skirmish as one JSON line."""
    parser = argparse.ArgumentParser(
        prog="python -m battles.engine.odds",
        description="Exact odds of one army-combat Skirmish (chances, not a simulation).",
        epilog="example (the rules' Example Skirmish, with the Soldier's +1 card):\n"
        "  python -m battles.engine.odds --offense 2,Aggressor,Reach --defense 2,none --defense-card 1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for side in ("offense", "defense"):
        parser.add_argument(
            f"--{side}",
            required=True,
            type=_parse_side,
            metavar="STRENGTH,ROLE[,TRAIT...]",
            help=f"the unit on {side.title()}: base Strength, Role (or none), then traits such as Reach",
        )
        parser.add_argument(
            f"--{side}-card",
            action="append",
            type=int,
            default=[],
            metavar="N",
            help=f"another card adds N to the {side.title()} unit (repeat per card; a Savant gains +2 each)",
        )
        parser.add_argument(
            f"--{side}-power",
            type=int,
            default=0,
            metavar="N",
            help=f"commander powers add N in total to the {side.title()} unit (never triggers Savant)",
        )
    parser.add_argument(
        "--reroll-limit",
        type=int,
        default=DEFAULT_REROLL_LIMIT,
        metavar="N",
        help="re-rolls of a tie between equal base Strengths before the attacker wins (default 100)",
    )
    args = parser.parse_args(argv)
    try:
        odds = skirmish_odds(
            offense=replace(
                args.offense, card_bonuses=tuple(args.offense_card), power_bonus=args.offense_power
            ),
            defense=replace(
                args.defense, card_bonuses=tuple(args.defense_card), power_bonus=args.defense_power
            ),
            reroll_limit=args.reroll_limit,
        )
    except ValueError as error:
        parser.error(str(error))
    print(json.dumps(odds.as_dict()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
