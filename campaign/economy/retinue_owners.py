"""Whose retinue each unit is, read from the ledger in one query.

The rule (army-combat.txt, Retinues): a unit is the retinue of the one character who paid its recruitment, every
training and every upkeep. It is nobody's when nobody paid its recruitment or a training, two characters paid,
a payment was reversed, or an upkeep debt for it is unpaid (open or forgiven). Upkeep covered by the commander's
own Morale (a bill with nothing due) counts as paid by that commander; a settled debt, by whoever settled it and
whoever paid part of the bill. A payment counts when a purse paid it and no reversal undid it.

One query lists every payer of each unit's costs, with a NULL for each cost nobody paid, and keeps the units with
one payer and no NULL: plain SQL with bound values, the same on PostgreSQL and SQLite, whatever the number of
units, trainings and bills (the content types it names are read once per process).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.contrib.contenttypes.models import ContentType

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

SQL = """
WITH unit (id) AS (SELECT id FROM {unit} WHERE id IN ({unit_ids})),
training (id, unit_id) AS (SELECT id, unit_id FROM {training} WHERE unit_id IN (SELECT id FROM unit)),
line (unit_id, bill_id, commander_id, amount_due, arrears_id, status) AS (
  SELECT l.unit_id, b.id, b.commander_id, b.amount_due, a.id, a.status FROM {line} l
  JOIN {bill} b ON b.id = l.bill_id LEFT JOIN {arrears} a ON a.bill_id = b.id
  WHERE l.lunari > 0 AND l.unit_id IN (SELECT id FROM unit)),
-- what each cost of the units is, as the ledger's transactions name what they paid for
cost (type_id, kind, object_id) AS (
  SELECT %(unit_type)s, %(recruitment)s, id FROM unit
  UNION SELECT %(training_type)s, %(training)s, id FROM training
  UNION SELECT %(bill_type)s, %(upkeep)s, bill_id FROM line
  UNION SELECT %(arrears_type)s, %(arrears)s, arrears_id FROM line WHERE arrears_id IS NOT NULL),
-- who paid each: the purses paying into a transaction for it that no reversal undid
paid (type_id, object_id, payer) AS (
  SELECT t.paid_for_type_id, t.paid_for_id, purse.commander_id FROM cost
  JOIN {transaction} t ON t.paid_for_type_id = cost.type_id AND t.paid_for_id = cost.object_id
   AND t.kind = cost.kind
  JOIN {entry} e ON e.transaction_id = t.id JOIN {account} purse ON purse.id = e.account_id
  WHERE e.amount < 0 AND purse.kind = %(purse)s
   AND NOT EXISTS (SELECT 1 FROM {transaction} r WHERE r.reverses_id = t.id)),
-- a row for each payer of each cost of a unit, and a NULL payer for a cost nobody paid
payer (unit_id, payer) AS (
  SELECT unit.id, paid.payer FROM unit
  LEFT JOIN paid ON paid.type_id = %(unit_type)s AND paid.object_id = unit.id
  UNION ALL SELECT training.unit_id, paid.payer FROM training
  LEFT JOIN paid ON paid.type_id = %(training_type)s AND paid.object_id = training.id
  -- a bill's payers; one with something due, no debt and nobody paying was reversed
  UNION ALL SELECT line.unit_id, paid.payer FROM line
  LEFT JOIN paid ON paid.type_id = %(bill_type)s AND paid.object_id = line.bill_id
  WHERE paid.payer IS NOT NULL OR (line.amount_due <> 0 AND line.arrears_id IS NULL)
  -- nothing due: the commander's own Morale paid it
  UNION ALL SELECT unit_id, commander_id FROM line WHERE amount_due = 0
  -- a debt for what was due: whoever settled it, or a NULL while it is open or forgiven
  UNION ALL SELECT line.unit_id, CASE WHEN line.status = %(settled)s THEN paid.payer END FROM line
  LEFT JOIN paid ON paid.type_id = %(arrears_type)s AND paid.object_id = line.arrears_id
  WHERE line.amount_due <> 0 AND line.arrears_id IS NOT NULL),
owner (unit_id, commander_id) AS (
  SELECT unit_id, MIN(payer) FROM payer GROUP BY unit_id HAVING COUNT(*) = COUNT(payer) AND COUNT(DISTINCT payer) = 1)
SELECT commander.*, owner.unit_id AS retinue_unit_id FROM owner JOIN {commander} commander
ON commander.id = owner.commander_id
"""
TABLES = {"unit": Unit, "training": UnitTraining, "line": UpkeepLine, "bill": UpkeepBill, "arrears": UpkeepArrears,
          "transaction": LedgerTransaction, "entry": LedgerEntry, "account": Account, "commander": Commander}


def unit_retinue_owners(*, units: Iterable[Unit | int], commanders: Mapping[int, Commander] | None = None,
                        ) -> dict[int, Commander | None]:
    """Each unit's owner by the rule above, or None; one query whatever the number of units. An owner found in
    `commanders` (read by the caller already) is that object; any other is read with the owners."""
    unit_ids = [u if isinstance(u, int) else u.pk for u in units]
    if not unit_ids:
        return {}
    types = ContentType.objects.get_for_models(Unit, UnitTraining, UpkeepBill, UpkeepArrears)
    kind = LedgerTransaction.Kind
    params: dict[str, object] = {
        "unit_type": types[Unit].pk, "training_type": types[UnitTraining].pk, "bill_type": types[UpkeepBill].pk,
        "arrears_type": types[UpkeepArrears].pk, "recruitment": kind.RECRUITMENT, "training": kind.TRAINING,
        "upkeep": kind.UPKEEP, "arrears": kind.ARREARS, "purse": Account.Kind.PURSE,
        "settled": UpkeepArrears.Status.SETTLED, **{f"unit{i}": uid for i, uid in enumerate(unit_ids)}}
    sql = SQL.format(unit_ids=", ".join(f"%(unit{i})s" for i in range(len(unit_ids))),
                     **{name: model._meta.db_table for name, model in TABLES.items()})
    known = commanders or {}
    owners = {owner.retinue_unit_id: known.get(owner.pk, owner)  # type: ignore[attr-defined]  # the query's column
              for owner in Commander.objects.raw(sql, params)}
    return {uid: owners.get(uid) for uid in unit_ids}
