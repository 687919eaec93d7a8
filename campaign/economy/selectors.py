"""Reads for campaigns (what a user may see) and the economy (forecasts, retinues, ledgers)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from campaign.economy.retinue_owners import unit_retinue_owners
from campaign.economy.rules import (
    EconomyRefusal,
    UpkeepBillResult,
    UpkeepUnit,
    recruit_price,
    upkeep_bill,
    upkeep_with_pledge,
)
from campaign.models import (
    Account,
    Army,
    Campaign,
    Commander,
    Day,
    EscrowHold,
    Event,
    EventRecruitOffer,
    FundingRequest,
    Item,
    LedgerEntry,
    LedgerTransaction,
    Membership,
    Role,
    Unit,
    UnitTraining,
    UnitType,
    UpkeepArrears,
    UpkeepBill,
    UpkeepMoralePledge,
)

# ---------------------------------------------------------------------------------------------
# The economy
# ---------------------------------------------------------------------------------------------


def commanders_visible_to(*, user) -> QuerySet[Commander]:
    """My own commanders, and every commander of the campaigns where I am a GM."""
    return Commander.objects.filter(
        Q(player=user) | Q(campaign__memberships__user=user, campaign__memberships__role=Role.GM)).distinct()


def commanders_of_campaign(*, campaign: Campaign) -> QuerySet[Commander]:
    return Commander.objects.filter(campaign=campaign).select_related("player", "purse")


def commanders_for_member(*, membership: Membership) -> QuerySet[Commander]:
    """The commanders a member may act for, and so pay from, in their campaign: a GM any, a player their own."""
    commanders = Commander.objects.filter(campaign_id=membership.campaign_id)
    return (commanders if membership.is_gm else commanders.filter(player_id=membership.user_id)).order_by("name")


def commanders_of_user(*, user, campaign: Campaign | None = None) -> QuerySet[Commander]:
    qs = Commander.objects.filter(player=user).select_related("campaign", "purse")
    return qs.filter(campaign=campaign) if campaign is not None else qs


def commander_units(*, commander: Commander, include_killed: bool = False) -> QuerySet[Unit]:
    qs = Unit.objects.filter(commander=commander).select_related("unit_type", "army", "lent_to")
    return qs if include_killed else qs.exclude(state=Unit.State.KILLED)


def commander_items(*, commander: Commander, include_destroyed: bool = False) -> QuerySet[Item]:
    qs = Item.objects.filter(commander=commander)
    return qs if include_destroyed else qs.filter(destroyed_at__isnull=True)


def event_recruit_offers(*, event: Event) -> QuerySet[EventRecruitOffer]:
    return EventRecruitOffer.objects.filter(event=event).select_related("unit_type")


def recruit_offer_quote(*, offer: EventRecruitOffer, quests_done: int = 0) -> int | None:
    """The price to show beside an offer, or None while no quest was done for the commander (`quests_done`:
    their unused completions of it) or no price can be given."""
    if offer.by_quest and not quests_done:
        return None
    try:
        return recruit_price(offer.unit_type.strength, after_quest=offer.by_quest, gm_price=offer.gm_price)
    except EconomyRefusal:
        return None


def unit_trainings(*, unit: Unit) -> QuerySet[UnitTraining]:
    return UnitTraining.objects.filter(unit=unit).select_related("event", "type_from", "type_to")


# --- the ledger ---------------------------------------------------------------------------------------


def ledger_entries_of(*, account: Account) -> QuerySet[LedgerEntry]:
    """An account's history, newest first, with the transactions' reasons."""
    return (LedgerEntry.objects.filter(account=account).select_related("transaction", "transaction__actor")
            .order_by("-transaction__at", "-id"))


def commander_ledger(*, commander: Commander) -> QuerySet[LedgerEntry]:
    return (LedgerEntry.objects.filter(account__commander=commander)
            .select_related("transaction", "transaction__actor").order_by("-transaction__at", "-id"))


def campaign_ledger(*, campaign: Campaign) -> QuerySet[LedgerTransaction]:
    return (LedgerTransaction.objects.filter(campaign=campaign).select_related("actor", "reverses")
            .prefetch_related("entries__account__commander"))


def campaign_accounts(*, campaign: Campaign) -> QuerySet[Account]:
    return Account.objects.filter(campaign=campaign).select_related("commander")


def escrow_holds_open(*, campaign: Campaign) -> QuerySet[EscrowHold]:
    return EscrowHold.objects.filter(campaign=campaign, status=EscrowHold.Status.HELD).select_related("commander")


# --- upkeep ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UpkeepInput:
    """Everything a commander's upkeep bill for a Day depends on."""

    commander_id: int
    units: tuple[UpkeepUnit, ...]
    morale: int
    pledged: int


def upkeep_inputs_for_day(*, day: Day, commander_ids: Iterable[int] | None = None) -> dict[int, UpkeepInput]:
    """The inputs of every bill for the Day, by commander: the units of the armies led that Day (each once),
    the commander's Morale and pledge. A unit lent to another commander stays on its owner's bill: its wages
    are its owner's, so lending never costs a retinue its status (campaign.map.lending). Four queries whatever
    the number of commanders; each unit type's traits are read once, not once per unit."""
    # An army led for two reasons joins twice: the dict below keeps each unit once (cheaper than DISTINCT). No
    # query is ordered: the default orderings join campaigns and commanders to sort 20,000 rows nobody reads in order.
    units = (Unit.objects.filter(army__activity__day=day, state=Unit.State.IN_ARMY).order_by()
             .values_list("pk", "strength", "unit_type_id", "commander_id"))
    commanders = Commander.objects.filter(campaign_id=day.event.campaign_id).order_by()
    pledges = UpkeepMoralePledge.objects.filter(day=day).order_by()
    if commander_ids is not None:
        wanted = list(commander_ids)
        units = units.filter(commander_id__in=wanted)
        commanders, pledges = commanders.filter(pk__in=wanted), pledges.filter(commander_id__in=wanted)
    rows = list(units)
    if not rows:
        return {}
    traits = {pk: tuple(t or ()) for pk, t in
              UnitType.objects.filter(pk__in={row[2] for row in rows}).order_by().values_list("pk", "traits")}
    by_commander: dict[int, dict[int, UpkeepUnit]] = defaultdict(dict)
    for pk, strength, type_id, commander_id in rows:
        by_commander[commander_id][pk] = UpkeepUnit(unit_id=pk, strength=strength, traits=traits.get(type_id, ()))
    morale = dict(commanders.values_list("pk", "morale"))
    pledged = dict(pledges.values_list("commander_id", "points"))
    return {
        cid: UpkeepInput(commander_id=cid, units=tuple(sorted(units_by_id.values(), key=lambda u: u.unit_id)),
                         morale=morale.get(cid, 0), pledged=pledged.get(cid, 0))
        for cid, units_by_id in by_commander.items()
    }


def upkeep_bill_for(upkeep_input: UpkeepInput) -> UpkeepBillResult:
    """The bill for one commander: the pledge is capped at the Morale left and at what the bill can use."""
    return upkeep_with_pledge(upkeep_bill(upkeep_input.units), pledged=upkeep_input.pledged,
                              morale=upkeep_input.morale)


def upkeep_forecast(*, commander: Commander, day: Day) -> UpkeepBillResult:
    """What closing the Day now would charge the commander: the rules day_close posts with (upkeep_bill for each
    unit, upkeep_with_pledge), on the same units (campaign.economy.upkeep_sql reads them in SQL)."""
    inputs = upkeep_inputs_for_day(day=day, commander_ids=[commander.pk])
    if commander.pk not in inputs:
        return upkeep_bill(())
    return upkeep_bill_for(inputs[commander.pk])


def upkeep_forecast_of(*, commander: Commander, units: Iterable[Unit], led_army_ids: set[int], pledged: int,
                       ) -> UpkeepBillResult:
    """upkeep_forecast from rows a page has read already: the commander's own units (with their types), the
    armies led that Day among theirs, and the Morale pledged. The same rule as upkeep_inputs_for_day: a unit in
    an army led that Day is on its owner's bill, whoever leads the army."""
    billed = sorted((UpkeepUnit(unit_id=unit.pk, strength=unit.strength, traits=tuple(unit.unit_type.traits or ()))
                     for unit in units if unit.commander_id == commander.pk and unit.state == Unit.State.IN_ARMY
                     and unit.army_id in led_army_ids), key=lambda u: u.unit_id)
    if not billed:
        return upkeep_bill(())
    return upkeep_bill_for(UpkeepInput(commander_id=commander.pk, units=tuple(billed), morale=commander.morale,
                                       pledged=pledged))


def upkeep_pledges(*, day: Day, commanders: Iterable[Commander] | None = None) -> dict[int, int]:
    """The Morale pledged to the Day's upkeep, by commander id (a commander with no pledge is left out)."""
    pledges = UpkeepMoralePledge.objects.filter(day=day)
    if commanders is not None:
        pledges = pledges.filter(commander__in=list(commanders))
    return dict(pledges.values_list("commander_id", "points"))


def upkeep_forecasts(*, day: Day) -> dict[int, UpkeepBillResult]:
    """Every commander's forecast for the Day, for the GM's overview."""
    return {cid: upkeep_bill_for(inp) for cid, inp in upkeep_inputs_for_day(day=day).items()}


def led_armies(*, day: Day) -> QuerySet[Army]:
    return Army.objects.filter(activity__day=day).select_related("commander").distinct()


def upkeep_bills_of(*, commander: Commander) -> QuerySet[UpkeepBill]:
    return UpkeepBill.objects.filter(commander=commander).select_related("day__event").prefetch_related("lines")


def arrears_open(*, campaign: Campaign) -> QuerySet[UpkeepArrears]:
    """Upkeep debts waiting for a game master's decision."""
    return (UpkeepArrears.objects.filter(commander__campaign=campaign, status=UpkeepArrears.Status.OPEN)
            .select_related("commander", "bill__day__event"))


# --- retinues -----------------------------------------------------------------------------------------


def unit_retinue_owner(*, unit: Unit) -> Commander | None:
    """The character whose retinue this unit is, or None (see campaign.economy.retinue_owners)."""
    return unit_retinue_owners(units=[unit])[unit.pk]


# --- funding --------------------------------------------------------------------------------------------


def funding_requests_for(*, commander: Commander) -> QuerySet[FundingRequest]:
    """Every request the commander made or received, newest first: both sides see the same history."""
    return FundingRequest.objects.filter(Q(requester=commander) | Q(funder=commander)).select_related("requester",
                                                                                                      "funder")


def funding_requests_pending_for(*, commander: Commander) -> QuerySet[FundingRequest]:
    """Requests waiting for this commander's answer."""
    return FundingRequest.objects.filter(funder=commander, status=FundingRequest.Status.PENDING).select_related(
        "requester")
