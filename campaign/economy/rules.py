"""The economy rules of army combat between battles, as pure functions (no ORM, no Django).

Services load rows, hand plain numbers and dataclasses here, and write the results back;
the same function prices a forecast and a posting, so the two can never disagree.
The numbers are the rules' own (army-combat.txt "Between Battles", "Morale"; RULINGS.md
"Army combat: between battles").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

LUNARI_PER_UPKEEP_STRENGTH = 5
LUNARI_PER_MORALE_POINT = 5
UPKEEP_OFFSET_PER_MORALE = 5
MAX_TRAININGS = 3
TRAINING_PRICE_PER_STRENGTH = 10
WEAPON_CARD_OFFSET = 5

# Recruiting price by the unit's Strength; other Strengths are priced by the game master.
RECRUIT_PRICES: dict[int, int] = {1: 10, 2: 30, 3: 60, 4: 100, 5: 150}
RECRUIT_PRICES_AFTER_QUEST: dict[int, int] = {1: 8, 2: 24, 3: 48, 4: 80, 5: 120}

UNDEAD_TRAIT = "Undead"

# Commander powers: rows are Roles, columns are Paths (RULINGS.md "Commander powers").
POWER_GRID: dict[str, dict[str, str]] = {
    "Guardian": {"Steel": "Tactician", "Magic": "Battlemage", "Faith": "Oathbound", "Nature": "Shapeshifter",
                 "Mind": "Adept"},
    "Healer": {"Steel": "Chirurgeon", "Magic": "Necromancer", "Faith": "Cleric", "Nature": "Animist",
               "Mind": "Mender"},
    "Aggressor": {"Steel": "Master of Arms", "Magic": "Evoker", "Faith": "Dervish", "Nature": "Scout",
                  "Mind": "Psionicist"},
    "Savant": {"Steel": "Rogue", "Magic": "Illusionist", "Faith": "Chaplain", "Nature": "Shaman",
               "Mind": "Etherealist"},
}
COMMANDER_POWERS: tuple[str, ...] = tuple(power for row in POWER_GRID.values() for power in row.values())
# Tactician copies one power of the Guardian row or the Steel column (not itself).
TACTICIAN_CHOICES: tuple[str, ...] = tuple(
    dict.fromkeys([*POWER_GRID["Guardian"].values(), *(row["Steel"] for row in POWER_GRID.values())])
)[1:]

# A Dervish's bonus is chosen once per Day from the Paths and Roles (RULINGS.md "Dervish").
DERVISH_CHOICES: tuple[str, ...] = (*POWER_GRID["Guardian"], *POWER_GRID)


class EconomyRefusal(ValueError):
    """A rule says no. The message is a sentence a person can act on; services turn it into a ValidationError."""


def starting_morale(level: int) -> int:
    """Starting Morale = 4 + floor(level / 2)."""
    if level < 0:
        raise EconomyRefusal("A commander's level cannot be negative.")
    return 4 + level // 2


def recruit_price(strength: int | None, *, after_quest: bool = False, gm_price: int | None = None) -> int:
    """Strength 1..5 costs 10, 30, 60, 100, 150 (after the unit's quest 8, 24, 48, 80, 120).

    Any other Strength (0, 6 and more, or "-") has no table price: the game master sets one.
    A price the game master set always wins, so a GM can discount or surcharge a table unit too.
    """
    if gm_price is not None:
        if gm_price < 0:
            raise EconomyRefusal("A recruiting price cannot be negative.")
        return gm_price
    table = RECRUIT_PRICES_AFTER_QUEST if after_quest else RECRUIT_PRICES
    if strength in table:
        return table[strength]
    shown = "-" if strength is None else str(strength)
    raise EconomyRefusal(f"Units of Strength {shown} have no table price: ask a game master to price this offer.")


@dataclass(frozen=True)
class TrainingPrice:
    new_strength: int
    base: int
    weapon_offset: int
    to_pay: int


def training_max_weapon_cards(new_strength: int) -> int:
    """Weapon cards may pay for at most half of 10 x new Strength, at 5 each: at most new Strength cards."""
    return (TRAINING_PRICE_PER_STRENGTH * new_strength // 2) // WEAPON_CARD_OFFSET


def training_price(*, current_strength: int | None, trainings_done: int, weapon_cards: int = 0) -> TrainingPrice:
    """Training adds 1 Strength for 10 x the new Strength; each weapon card destroyed takes 5 off,
    for at most half the price; no unit is trained more than 3 times."""
    if current_strength is None:
        raise EconomyRefusal("This unit has no Strength (\"-\"), so it cannot be trained.")
    if trainings_done >= MAX_TRAININGS:
        raise EconomyRefusal(f"This unit has been trained {MAX_TRAININGS} times, the most a unit can be.")
    if weapon_cards < 0:
        raise EconomyRefusal("The number of weapon cards cannot be negative.")
    new_strength = current_strength + 1
    base = TRAINING_PRICE_PER_STRENGTH * new_strength
    most = training_max_weapon_cards(new_strength)
    if weapon_cards > most:
        raise EconomyRefusal(
            f"Weapon cards can pay for at most half of this training ({base // 2} of {base} lunari): "
            f"destroy at most {most}, not {weapon_cards}."
        )
    offset = WEAPON_CARD_OFFSET * weapon_cards
    return TrainingPrice(new_strength=new_strength, base=base, weapon_offset=offset, to_pay=base - offset)


@dataclass(frozen=True, slots=True)
class UpkeepUnit:
    """What upkeep needs to know of a unit in an army that was led that Day. Slotted, as the line below: the game
    master's forecast of every bill holds one of each for every unit billed (20,000 for 1,000 commanders), and
    without a __dict__ apiece they are built faster and leave the garbage collector half the objects to scan."""

    unit_id: int
    strength: int | None
    traits: tuple[str, ...] = ()
    killed: bool = False


@dataclass(frozen=True, slots=True)
class UpkeepLineResult:
    unit_id: int
    counted_strength: int
    lunari: int
    note: str


@dataclass(frozen=True)
class UpkeepBillResult:
    lines: tuple[UpkeepLineResult, ...]
    gross: int
    morale_spent: int
    morale_offset: int
    total: int


def upkeep_unit_strength(unit: UpkeepUnit) -> tuple[int, str]:
    """The Strength a unit counts for upkeep, and why: Strength 0 counts 1; Killed, Undead and "-" count 0."""
    if unit.killed:
        return 0, "killed"
    if unit.strength is None:
        return 0, "no Strength"
    if UNDEAD_TRAIT in unit.traits:
        return 0, "Undead"
    if unit.strength <= 0:
        return 1, "Strength 0 counts 1"
    return unit.strength, ""


def upkeep_morale_useful(gross: int) -> int:
    """The most Morale worth spending on a bill: each point takes 5 off, so more than ceil(gross / 5) is waste."""
    return -(-gross // UPKEEP_OFFSET_PER_MORALE)


def upkeep_bill(units: Iterable[UpkeepUnit], *, morale_spent: int = 0) -> UpkeepBillResult:
    """A commander's upkeep for one Day: 5 lunari x the summed Strength of every unit in the armies
    they led that Day, each unit counted once however many battles it fought; each Morale point spent
    lowers the bill by 5, never below 0."""
    seen: set[int] = set()
    lines = []
    for unit in units:
        if unit.unit_id in seen:
            continue
        seen.add(unit.unit_id)
        counted, note = upkeep_unit_strength(unit)
        lines.append(UpkeepLineResult(unit_id=unit.unit_id, counted_strength=counted,
                                      lunari=LUNARI_PER_UPKEEP_STRENGTH * counted, note=note))
    gross = sum(line.lunari for line in lines)
    return upkeep_with_morale(UpkeepBillResult(lines=tuple(lines), gross=gross, morale_spent=0, morale_offset=0,
                                               total=gross), morale_spent)


def upkeep_with_morale(bill: UpkeepBillResult, morale_spent: int) -> UpkeepBillResult:
    """The same bill with `morale_spent` Morale spent on it: each point lowers it by 5, never below 0,
    and a point the bill cannot use is refused rather than wasted."""
    if morale_spent < 0:
        raise EconomyRefusal("Morale spent on upkeep cannot be negative.")
    useful = upkeep_morale_useful(bill.gross)
    if morale_spent > useful:
        raise EconomyRefusal(
            f"Spending {morale_spent} Morale would waste some: this upkeep of {bill.gross} lunari needs at most "
            f"{useful}."
        )
    offset = min(bill.gross, UPKEEP_OFFSET_PER_MORALE * morale_spent)
    return replace(bill, morale_spent=morale_spent, morale_offset=offset, total=bill.gross - offset)


def upkeep_with_pledge(bill: UpkeepBillResult, *, pledged: int, morale: int) -> UpkeepBillResult:
    """The bill with the Morale pledged to it spent, the pledge capped at the Morale left and at what the bill
    can use."""
    return upkeep_with_morale(bill, min(pledged, morale, upkeep_morale_useful(bill.gross)))


def morale_purchase_price(*, current: int, start: int, points: int, bought_today: bool, in_battle: bool) -> int:
    """Once per Day, 5 lunari a point, up to the starting value, never during a Battle."""
    if in_battle:
        raise EconomyRefusal("Morale cannot be bought during a Battle: buy it once the Battle is over.")
    if bought_today:
        raise EconomyRefusal("Morale can be bought once per Day, and this commander already bought some today.")
    if points < 1:
        raise EconomyRefusal("Buy at least 1 point of Morale.")
    room = start - current
    if room <= 0:
        raise EconomyRefusal(f"Morale is already at its starting value of {start}; it cannot be bought higher.")
    if points > room:
        raise EconomyRefusal(f"Morale can only be bought up to the starting value of {start}: buy at most {room}.")
    return LUNARI_PER_MORALE_POINT * points
