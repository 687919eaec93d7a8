"""A Day's upkeep worked out by the database, for closing the Day: every commander's gross from one grouped
query and every unit's line written by one INSERT ... SELECT, with no Python object per unit (20,000 of them for
1,000 commanders).

The rule stays in one place, rules.upkeep_bill: it is applied in Python to each distinct (unit type, Strength)
pair among the Day's units (a handful), and the database joins every unit to its pair's line. The units are
those selectors.upkeep_inputs_for_day reads for the forecast (in an army led that Day, each once, billed to
their owner), so the bill posted is the one forecast. Plain SQL with bound values, the same on PostgreSQL and
SQLite.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Model, QuerySet

from campaign.economy.rules import UpkeepUnit, upkeep_bill
from campaign.models import ArmyDayActivity, Day, Unit, UnitType, UpkeepLine

NO_STRENGTH = -1
"""Strength "-" (NULL) as the join compares it: no unit's Strength is negative, and NULL equals nothing."""

Pair = tuple[int, int, int, int, str]
"""A (unit type, Strength or NO_STRENGTH) pair and its line: counted Strength, lunari, note."""


@dataclass(frozen=True)
class LedUnits:
    """The Day's led units as the close needs them: each pair's line, and each owner's gross (before Morale;
    an owner with no led unit is left out)."""

    day_id: int
    pairs: tuple[Pair, ...]
    gross: dict[int, int]


def _led(day: Day) -> QuerySet[Unit]:
    """The units in an army led that Day, each once (the lines' INSERT joins the same armies, DISTINCT)."""
    return Unit.objects.filter(state=Unit.State.IN_ARMY,
                               army_id__in=ArmyDayActivity.objects.filter(day=day).values("army_id")).order_by()


def led_units(*, day: Day) -> LedUnits:
    """Two queries: the led units counted by owner, type and Strength, and their types' traits."""
    counts = list(_led(day).values_list("commander_id", "unit_type_id", "strength").annotate(n=Count("pk")))
    traits = {pk: tuple(t or ()) for pk, t in UnitType.objects.filter(pk__in={row[1] for row in counts})
              .order_by().values_list("pk", "traits")}
    lines = {}
    for type_id, strength in {(row[1], row[2]) for row in counts}:
        unit = UpkeepUnit(unit_id=0, strength=strength, traits=traits.get(type_id, ()))
        lines[type_id, strength] = upkeep_bill([unit]).lines[0]
    gross: dict[int, int] = defaultdict(int)
    for commander_id, type_id, strength, n in counts:
        gross[commander_id] += n * lines[type_id, strength].lunari
    pairs = tuple((type_id, NO_STRENGTH if strength is None else strength, line.counted_strength, line.lunari,
                   line.note) for (type_id, strength), line in lines.items())
    return LedUnits(day_id=day.pk, pairs=pairs, gross=dict(gross))


def upkeep_lines_write(led: LedUnits, *, bills: dict[int, int]) -> None:
    """Write the lines of the bills just posted (`bills`: bill id by owner id), one per led unit. The pairs and
    the bills are joined as VALUES, which the planner counts right (bills written in the same transaction have
    no statistics yet: it would loop over the whole table once per unit)."""
    if not led.pairs or not bills:
        return
    quote = connection.ops.quote_name

    def column(model: type[Model], field: str) -> str:
        return quote(model._meta.get_field(field).column)

    pairs = ", ".join(["(%s, %s, %s, %s, %s)"] * len(led.pairs))
    owners = ", ".join(["(%s, %s)"] * len(bills))
    led_armies = (f"SELECT DISTINCT {column(ArmyDayActivity, 'army')} AS id FROM "  # noqa: S608
                  f"{quote(ArmyDayActivity._meta.db_table)} WHERE {column(ArmyDayActivity, 'day')} = %s")
    sql = (f"INSERT INTO {quote(UpkeepLine._meta.db_table)} ("  # noqa: S608
           f"{', '.join(column(UpkeepLine, f) for f in ('bill', 'unit', 'counted_strength', 'lunari', 'note'))}) "
           f"WITH pair (unit_type_id, strength, counted, lunari, note) AS (VALUES {pairs}), "
           f"bill (commander_id, id) AS (VALUES {owners}) "
           f"SELECT bill.id, unit.{column(Unit, 'id')}, pair.counted, pair.lunari, pair.note "
           f"FROM {quote(Unit._meta.db_table)} unit "
           f"JOIN ({led_armies}) led ON led.id = unit.{column(Unit, 'army')} "
           f"JOIN bill ON bill.commander_id = unit.{column(Unit, 'commander')} "
           f"JOIN pair ON pair.unit_type_id = unit.{column(Unit, 'unit_type')} "
           f"AND pair.strength = COALESCE(unit.{column(Unit, 'strength')}, {NO_STRENGTH}) "
           f"WHERE unit.{column(Unit, 'state')} = %s")
    params = [*(value for pair in led.pairs for value in pair), *(value for item in sorted(bills.items())
                                                                  for value in item),
              led.day_id, Unit.State.IN_ARMY]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
