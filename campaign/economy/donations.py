"""A Killed unit's wages, donated: "it is customary for the wages the unit would have been paid to be donated to
a suitable Temple instead, or to the surviving relatives" (army-combat.txt, Upkeep).

The wages are what the unit cost for a Day alive (5 lunari a counted Strength, as upkeep counts it); the
commander may give more or less. One donation per unit: the ledger holds it against the unit.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet

from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import require_acting_for
from campaign.economy import ledger
from campaign.economy.rules import LUNARI_PER_UPKEEP_STRENGTH, UpkeepUnit, upkeep_unit_strength
from campaign.locking import lock
from campaign.models import LedgerTransaction, Unit

RECIPIENTS = ("a Temple", "the surviving relatives")
"""To whom the text says the wages go."""


def unit_wages(unit: Unit) -> int:
    """What the unit would have been paid for a Day alive: its upkeep, counted as upkeep counts it."""
    counted, _ = upkeep_unit_strength(UpkeepUnit(unit_id=unit.pk, strength=unit.strength,
                                                 traits=tuple(unit.unit_type.traits or ())))
    return counted * LUNARI_PER_UPKEEP_STRENGTH


def donations_made() -> QuerySet[LedgerTransaction]:
    """The donations made for units' wages, the first first: a unit's first is the one that counts (a retried
    donation is answered with it), and a reversed one does not count. Filter by paid_for_id for a unit's."""
    return LedgerTransaction.objects.filter(
        kind=LedgerTransaction.Kind.DONATION, paid_for_type=ContentType.objects.get_for_model(Unit),
        reversed_by__isnull=True).order_by("pk")


@transaction.atomic
def unit_donate_wages(*, unit: Unit, recipient: str, actor: User | None, amount: int | None = None,
                      temple: str = "") -> LedgerTransaction:
    """The commander of a Killed unit donates its wages (default: a Day's) to a Temple or the relatives.
    Once per unit: a retried donation is answered with the first one."""
    unit = lock(Unit.objects).select_related("commander", "unit_type").get(pk=unit.pk)
    require_acting_for(actor=actor, commander=unit.commander, what=f"donate the wages of {unit.commander}'s dead")
    if unit.state != Unit.State.KILLED:
        raise ValidationError(f"{unit.name or unit.unit_type.name} is alive: only a Killed unit's wages are donated.")
    if (done := donations_made().filter(paid_for_id=unit.pk).first()) is not None:
        return done
    if recipient not in RECIPIENTS:
        raise ValidationError({"recipient": f"Donate to {' or to '.join(RECIPIENTS)}."})
    amount = unit_wages(unit) if amount is None else amount
    if amount <= 0:
        raise ValidationError({"amount": "Donate at least 1 lunari (a unit with no upkeep had no wages: "
                                         "name an amount)."})
    to = f"{recipient} ({temple.strip()})" if temple.strip() else recipient
    txn = ledger.ledger_donate(commander=unit.commander, amount=amount, unit=unit, actor=actor,
                               reason=f"Wages of {unit.name or unit.unit_type.name}, Killed, to {to}")
    audit_record(campaign=unit.commander.campaign, actor=actor, action="unit.donate_wages", target=unit,
                 data={"unit": unit.pk, "amount": amount, "to": to, "transaction": txn.pk})
    return txn
