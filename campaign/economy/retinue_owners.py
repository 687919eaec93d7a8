"""Whose retinue each unit is, read from the ledger by one SQL expression on the unit's row.

The rule (army-combat.txt, Retinues): a unit is the retinue of the one character who paid its recruitment, every
training and every upkeep. It is nobody's when nobody paid its recruitment or a training, two characters paid,
a payment was reversed, or an upkeep debt for it is unpaid (open or forgiven). Upkeep covered by the commander's
own Morale (a bill with nothing due) counts as paid by that commander; a settled debt, by whoever settled it and
whoever paid part of the bill. A payment counts when a purse paid it and no reversal undid it.

The expression lists every payer of the unit's costs, with a NULL for each cost nobody paid, and gives the one
payer when there is one and no NULL: plain SQL with bound values, the same on PostgreSQL and SQLite. A page
reading units adds it to its read (retinue_owner_id); unit_retinue_owners reads it for units by id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.contrib.contenttypes.models import ContentType
from django.db.models import IntegerField, Model
from django.db.models.expressions import RawSQL

from campaign.models import (
    Account,
    Commander,
    LedgerEntry,
    LedgerTransaction,
    Unit,
    UnitTraining,
    UpkeepArrears,
    UpkeepBill,
    UpkeepLine,
)

PAID = ("LEFT JOIN ({transaction} t JOIN {entry} e ON e.transaction_id = t.id"
        " JOIN {account} purse ON purse.id = e.account_id)"
        " ON t.paid_for_type_id = %s AND t.kind = %s AND t.paid_for_id = {cost} AND e.amount < 0 AND purse.kind = %s"
        " AND NOT EXISTS (SELECT 1 FROM {transaction} r WHERE r.reverses_id = t.id)")
"""Joined to a cost: each purse that paid it (its content type and ledger kind the parameters), else one NULL."""

LINES = "FROM {line} l JOIN {bill} b ON b.id = l.bill_id"
WHERE_LINES = "WHERE l.unit_id = {unit} AND l.lunari > 0"
PAYERS = (
    "SELECT purse.commander_id AS payer FROM {unit_table} x {paid_recruitment} WHERE x.id = {unit}"
    " UNION ALL SELECT purse.commander_id FROM {training} x {paid_training} WHERE x.unit_id = {unit}"
    # a bill's payers; one with something due, no debt and nobody paying was reversed
    " UNION ALL SELECT purse.commander_id {lines} LEFT JOIN {arrears} a ON a.bill_id = b.id {paid_bill}"
    " {where} AND (purse.commander_id IS NOT NULL OR (b.amount_due <> 0 AND a.id IS NULL))"
    # nothing due: the commander's own Morale paid it
    " UNION ALL SELECT b.commander_id {lines} {where} AND b.amount_due = 0"
    # a debt for what was due: whoever settled it, or a NULL while it is open or forgiven
    " UNION ALL SELECT CASE WHEN a.status = %s THEN purse.commander_id END {lines}"
    " JOIN {arrears} a ON a.bill_id = b.id {paid_arrears} {where} AND b.amount_due <> 0"
)
OWNER = ("(SELECT CASE WHEN COUNT(*) = COUNT(payer) AND COUNT(DISTINCT payer) = 1 THEN MIN(payer) END"
         " FROM ({payers}) payers)")
TABLES = {"unit_table": Unit, "training": UnitTraining, "line": UpkeepLine, "bill": UpkeepBill,
          "arrears": UpkeepArrears, "transaction": LedgerTransaction, "entry": LedgerEntry, "account": Account}


def _table(model: type[Model]) -> str:
    return model._meta.db_table


def retinue_owner_id(unit: str = f'"{_table(Unit)}"."id"') -> RawSQL:
    """The id of the commander whose retinue the unit is (None for nobody's), for the unit whose id is the
    column `unit` of the query it is added to (by default the units' own table, unaliased)."""
    types = ContentType.objects.get_for_models(Unit, UnitTraining, UpkeepBill, UpkeepArrears)
    tables = {name: _table(model) for name, model in TABLES.items()}
    kind, purse = LedgerTransaction.Kind, Account.Kind.PURSE
    paid = {f"paid_{name}": PAID.format(cost=cost, **tables) for name, cost in (
        ("recruitment", "x.id"), ("training", "x.id"), ("bill", "b.id"), ("arrears", "a.id"))}
    sql = OWNER.format(payers=PAYERS.format(unit=unit, lines=LINES.format(**tables),
                                            where=WHERE_LINES.format(unit=unit), **tables, **paid))
    params = [types[Unit].pk, kind.RECRUITMENT, purse, types[UnitTraining].pk, kind.TRAINING, purse,
              types[UpkeepBill].pk, kind.UPKEEP, purse, UpkeepArrears.Status.SETTLED,
              types[UpkeepArrears].pk, kind.ARREARS, purse]
    return RawSQL(sql, params, output_field=IntegerField())  # noqa: S611


def unit_retinue_owners(*, units: Iterable[Unit | int], commanders: Mapping[int, Commander] | None = None,
                        ) -> dict[int, Commander | None]:
    """Each unit's owner by the rule above, or None: one query, reading the owners with it. An owner found in
    `commanders` (read by the caller already) is that object."""
    unit_ids = [u if isinstance(u, int) else u.pk for u in units]
    if not unit_ids:
        return {}
    owner = retinue_owner_id("u.id")
    sql = (f"SELECT c.*, u.id AS retinue_unit_id FROM {_table(Unit)} u JOIN {_table(Commander)} c"  # noqa: S608
           f" ON c.id = {owner.sql} WHERE u.id IN ({', '.join(['%s'] * len(unit_ids))})")
    known = commanders or {}
    owners = {found.retinue_unit_id: known.get(found.pk, found)  # type: ignore[attr-defined]  # the query's column
              for found in Commander.objects.raw(sql, [*owner.params, *unit_ids])}
    return {uid: owners.get(uid) for uid in unit_ids}
