"""Lending a unit to another commander: "Retinues may be used by other Commanders, but do not receive their
Strength bonus when this is done" (army-combat.txt, Retinues).

A lent unit stays its owner's (Unit.commander): the borrower (Unit.lent_to) puts it in their armies and leads
it; it fights without the retinue bonus, because the bonus is only for the character whose retinue it is
(battles.selectors.battle_config_for). Its wages stay its owner's, so lending never costs a retinue its status
(campaign.economy.selectors.upkeep_inputs_for_day bills the owner). The owner recalls it, or the borrower
returns it, into the owner's reserve.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import NotAllowed, require_acting_for
from campaign.locking import lock
from campaign.map.orders import orders_reestimate
from campaign.models import Commander, Unit


def _label(unit: Unit) -> str:
    return unit.name or unit.unit_type.name


def _out_of_army(unit: Unit) -> None:
    """The unit leaves its army (not during its Battle) and waits in reserve; the army's march is re-estimated."""
    if unit.army_id is None:
        return
    if unit.army.commander.in_battle:
        raise ValidationError(f"{_label(unit)} is with {unit.army.name} in a Battle: wait until the Battle ends.")
    army_id = unit.army_id
    unit.army, unit.state = None, Unit.State.RESERVE
    orders_reestimate(army_ids=[army_id])


@transaction.atomic
def unit_lend(*, unit: Unit, to: Commander, actor: User | None) -> Unit:
    """The owner lends a living unit to another commander of the campaign; it leaves its army and waits in the
    borrower's reserve. Lending it to whoever has it already changes nothing (a retried request)."""
    unit = lock(Unit.objects).select_related("commander", "unit_type", "army__commander").get(pk=unit.pk)
    require_acting_for(actor=actor, commander=unit.commander, what=f"lend {unit.commander}'s units")
    if unit.lent_to_id == to.pk:
        return unit
    if to.pk == unit.commander_id or to.campaign_id != unit.campaign_id:
        raise ValidationError({"to": f"Lend {_label(unit)} to another commander of {unit.commander.campaign}."})
    if unit.state == Unit.State.KILLED:
        raise ValidationError(f"{_label(unit)} was Killed: it cannot be lent.")
    if unit.lent_to_id is not None:
        raise ValidationError(f"{_label(unit)} is lent to {unit.lent_to} already: recall it first.")
    _out_of_army(unit)
    unit.lent_to = to
    unit.save(update_fields=["lent_to", "army", "state"])
    audit_record(campaign=unit.commander.campaign, actor=actor, action="unit.lend", target=unit,
                 data={"unit": unit.pk, "owner": unit.commander_id, "to": to.pk})
    return unit


@transaction.atomic
def unit_recall(*, unit: Unit, actor: User | None) -> Unit:
    """A lent unit goes back to its owner's reserve: the owner recalls it or the borrower returns it.
    A unit that is not lent is left as it is (a retried request)."""
    unit = lock(Unit.objects).select_related("commander", "lent_to", "unit_type", "army__commander").get(pk=unit.pk)
    if unit.lent_to is None:
        return unit
    borrower = unit.lent_to
    try:
        require_acting_for(actor=actor, commander=unit.commander)
    except NotAllowed:
        require_acting_for(actor=actor, commander=borrower,
                           what=f"return {_label(unit)} to {unit.commander} (its owner or borrower may)")
    if unit.state != Unit.State.KILLED:
        _out_of_army(unit)
    unit.lent_to = None
    unit.save(update_fields=["lent_to", "army", "state"])
    audit_record(campaign=unit.commander.campaign, actor=actor, action="unit.recall", target=unit,
                 data={"unit": unit.pk, "owner": unit.commander_id, "from": borrower.pk})
    return unit
