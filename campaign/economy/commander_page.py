"""What the commander page shows, read once per table.

The page is remembered per viewer until anything in the campaign changes (campaign.campaigns.fragments), so it
is drawn afresh for every viewer after every change: a live event pays this often. Each table is read once and
the rows handed to what needs them: the units (own, fallen and borrowed in one read, with whether each one's
army was led today, whose retinue each is and the donation made for each fallen one) feed the unit rows, the
fallen and the upkeep forecast; the campaign's commanders (one read) are the payers, the others to lend and give
to, the funders to ask and the retinue owners. What the page shows is the same as reading each part through its
own selector.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from django.core.exceptions import ValidationError
from django.db.models import Case, Exists, OuterRef, Q, Subquery, When
from django.db.models.functions import Coalesce
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import dateformat
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.timezone import localtime

from campaign.campaigns import selectors as campaigns_selectors
from campaign.campaigns.audit_words import role_words
from campaign.campaigns.permissions import may_act_for
from campaign.economy import donations, quests, selectors, services
from campaign.economy.forms import CommanderForm, FundingRequestForm, ItemAddForm
from campaign.economy.retinue_owners import retinue_owner_id
from campaign.economy.rules import (
    LUNARI_PER_MORALE_POINT,
    UPKEEP_OFFSET_PER_MORALE,
    WEAPON_CARD_OFFSET,
    TrainingPrice,
    training_max_weapon_cards,
    upkeep_morale_useful,
)
from campaign.models import (
    Account,
    ArmyDayActivity,
    Campaign,
    Commander,
    Day,
    Event,
    Item,
    LedgerTransaction,
    Membership,
    Unit,
    UpkeepMoralePledge,
)

LEDGER_ROWS = 100


@dataclass(frozen=True)
class LedgerRow:
    """One ledger line with each value it shows ready: a hundred of them are drawn, and every step of a lookup
    through the entry and its transaction, every filter and comparison, costs the template more than Python."""

    transaction_id: int
    reason: str
    amount: str
    """Signed as shown: "+5" for a credit, "-5" for a debit."""
    debit: bool
    balance_after: int
    by: str
    """Who moved the lunari, in words: a member with their role, or what acted when no person did."""
    kind: str
    """The transaction's kind in words, as get_kind_display gives it (which rebuilds its table on every call)."""
    at: str
    """When, as the date filter draws it with LEDGER_TIME."""
    reversible: bool
    """Whether a GM may reverse it here (a reversal and an escrow's hold or release are not)."""


NOBODY = {LedgerTransaction.Kind.UPKEEP: "the event clock", LedgerTransaction.Kind.ARREARS: "the event clock",
          LedgerTransaction.Kind.ESCROW_RELEASE: "the finished match",
          LedgerTransaction.Kind.BANK_STAKE: "the finished match"}
"""Who moved lunari when no person did, by kind: the clock closes Days, a match's last move (an AI's too) pays
its stakes; anything else is Muster itself (a job or the demo loader)."""


KIND_WORDS = dict(LedgerTransaction.Kind.choices)
LEDGER_TIME = "D j M, H:i"
NOT_REVERSIBLE = frozenset({LedgerTransaction.Kind.REVERSAL, LedgerTransaction.Kind.ESCROW_HOLD,
                            LedgerTransaction.Kind.ESCROW_RELEASE})
STATE_WORDS = dict(Unit.State.choices)
ITEM_KIND_WORDS = dict(Item.Kind.choices)


def _ledger_by(txn: LedgerTransaction, role: str | None) -> str:
    if txn.actor is None:
        return NOBODY.get(txn.kind, "Muster")
    return f"{txn.actor.get_username()} ({role_words(role)})" if role else txn.actor.get_username()


@dataclass(frozen=True)
class UnitRow:
    unit: Unit
    retinue_of: Commander | None
    may_name: bool
    quote: TrainingPrice | None
    cannot_train: str
    max_weapon_cards: int
    short_by: int
    """Lunari the purse lacks for the training even with every weapon card destroyed (0: affordable)."""
    name_url: str
    train_url: str
    move_url: str
    """Where its lending is posted: a recall while it is lent, else a loan."""
    label: str
    """Its name, else its type's."""
    state: str
    """Its state in words (get_state_display rebuilds its table on every call)."""


@dataclass(frozen=True)
class ItemRow:
    item: Item
    kind: str
    """Its kind in words (as STATE_WORDS for units)."""
    give_url: str
    destroy_url: str


@dataclass(frozen=True)
class Donated:
    reason: str
    at: datetime


@dataclass(frozen=True)
class FallenRow:
    unit: Unit
    wages: int
    donation: Donated | None
    donate_url: str


def _when(at: datetime, drawn: dict[datetime, str]) -> str:
    """The time a ledger line shows, as the date filter draws it with LEDGER_TIME but without the filter's search
    of the language's format modules for a format of that name (half its cost); each minute drawn once, as lines
    come in bursts (an Event's recruiting, a Day's close)."""
    minute = at.replace(second=0, microsecond=0)
    if minute not in drawn:
        drawn[minute] = dateformat.format(localtime(at), LEDGER_TIME)
    return drawn[minute]


def _ledger_rows(campaign: Campaign, commander: Commander, balance: int) -> list[LedgerRow]:
    """The newest entries with the balance after each, walked back from the current balance; the actor's role
    in the campaign comes with each entry."""
    role = (Membership.objects.filter(campaign_id=campaign.pk, user_id=OuterRef("transaction__actor_id"))
            .order_by().values("role")[:1])
    rows, times = [], {}
    for entry in selectors.commander_ledger(commander=commander).annotate(actor_role=Subquery(role))[:LEDGER_ROWS]:
        txn = entry.transaction
        rows.append(LedgerRow(transaction_id=txn.pk, reason=txn.reason,
                              amount=f"+{entry.amount}" if entry.amount > 0 else str(entry.amount),
                              debit=entry.amount < 0, balance_after=balance, by=_ledger_by(txn, entry.actor_role),
                              kind=str(KIND_WORDS.get(txn.kind, txn.kind)),
                              at=_when(txn.at, times), reversible=txn.kind not in NOT_REVERSIBLE))
        balance -= entry.amount
    return rows


def _fallen_rows(fallen: list[Unit], campaign: Campaign, commander: Commander) -> list[FallenRow]:
    """The commander's Killed units (newest first), each with its Day's wages and the donation made for them
    (read with the units)."""
    donate_url = _addresses("unit-donate", campaign, commander)
    return [FallenRow(unit=unit, wages=donations.unit_wages(unit),
                      donation=Donated(reason=unit.donation_reason, at=unit.donation_at)
                      if unit.donation_at is not None else None, donate_url=donate_url(unit.pk)) for unit in fallen]


def _item_rows(items: list[Item], campaign: Campaign, commander: Commander) -> list[ItemRow]:
    """The commander's item cards with their kinds in words and where giving and destroying each is posted."""
    give_url, destroy_url = (_addresses(name, campaign, commander) for name in ("item-give", "item-destroy"))
    return [ItemRow(item=item, kind=str(ITEM_KIND_WORDS.get(item.kind, item.kind)), give_url=give_url(item.pk),
                    destroy_url=destroy_url(item.pk)) for item in items]


def _may_name(owner: Commander | None, membership: Membership) -> bool:
    """The same rule unit_name_retinue applies: the owner's player, or a GM for a GM-run owner."""
    if owner is None:
        return False
    if owner.player_id is not None:
        return owner.player_id == membership.user_id
    return membership.is_gm


def _short_by(price: int, purse: int | None) -> int:
    """What a price needs beyond the purse; None (another purse may pay) never falls short."""
    return 0 if purse is None else max(price - purse, 0)


ID_MARKER = 987654321
"""Stands for an object's id in an address reversed once for many (_addresses)."""


def _addresses(name: str, campaign: Campaign, commander: Commander) -> Callable[[int], str]:
    """reverse(name, args=[slug, commander, id]) for one id after another: reversed once with a marker for the
    id (the last argument, so the marker's last place), then each id put there. A page of sixty units asks for
    a hundred and eighty addresses."""
    head, _, tail = reverse(name, args=[campaign.slug, commander.pk, ID_MARKER]).rpartition(str(ID_MARKER))
    return lambda object_id: f"{head}{object_id}{tail}"


def _unit_rows(units: list[Unit], membership: Membership, event: Event | None, *, purse: int | None,
               weapon_cards: int, commanders: dict[int, Commander], campaign: Campaign,
               commander: Commander) -> list[UnitRow]:
    owners = {unit.pk: commanders.get(unit.retinue_owner_id) for unit in units}
    name_url, train_url, lend_url, recall_url = (_addresses(name, campaign, commander) for name in (
        "unit-name", "unit-train", "unit-lend", "unit-recall"))
    rows = []
    for unit in units:
        quote, cannot = None, ""
        if event is not None and unit.last_trained_event_id == event.pk:
            cannot = f"Trained at {event.name} already: train it again at the next Event."
        else:
            try:
                quote = services.unit_training_quote(unit=unit)
            except ValidationError as exc:
                cannot = " ".join(exc.messages)
        owner = owners.get(unit.pk)
        most = training_max_weapon_cards(quote.new_strength) if quote else 0
        least = quote.base - WEAPON_CARD_OFFSET * min(weapon_cards, most) if quote else 0
        rows.append(UnitRow(unit=unit, retinue_of=owner, may_name=_may_name(owner, membership), quote=quote,
                            cannot_train=cannot, max_weapon_cards=most, short_by=_short_by(least, purse),
                            name_url=name_url(unit.pk), train_url=train_url(unit.pk),
                            move_url=(recall_url if unit.lent_to_id else lend_url)(unit.pk),
                            label=unit.name or unit.unit_type.name, state=str(STATE_WORDS.get(unit.state, unit.state))))
    return rows


def _units(commander: Commander, day: Day | None) -> list[Unit]:
    """The commander's units and those lent to them, oldest first, a Killed one with the reason and time of the
    donation made for its wages (None for none), a living one of theirs with whose retinue it is (the id, None
    for nobody's: campaign.economy.retinue_owners); with a Day, `led_today` says whether the unit's army was led
    that Day (and so bills its owner's upkeep). Their commanders and borrowers are all in the campaign: the
    caller sets them from its read of the campaign's commanders."""
    donation = donations.donations_made().filter(paid_for_id=OuterRef("pk"))
    killed = Q(state=Unit.State.KILLED)
    units = (Unit.objects.filter(Q(commander=commander) | Q(lent_to=commander))
             .select_related("unit_type", "army").order_by("pk")
             .annotate(donation_reason=Case(When(killed, then=Subquery(donation.values("reason")[:1]))),
                       donation_at=Case(When(killed, then=Subquery(donation.values("at")[:1]))),
                       retinue_owner_id=Case(When(Q(commander=commander) & ~killed, then=retinue_owner_id()))))
    if day is not None:
        units = units.annotate(led_today=Exists(ArmyDayActivity.objects.filter(army_id=OuterRef("army_id"), day=day)))
    return list(units)


def _commanders(campaign: Campaign, day: Day | None) -> list[Commander]:
    """The campaign's commanders by name (the database's order); with a Day, `pledged` is the Morale each
    pledged to its upkeep (0 for none)."""
    commanders = Commander.objects.filter(campaign=campaign).order_by("name")
    if day is not None:
        pledge = UpkeepMoralePledge.objects.filter(day=day, commander=OuterRef("pk")).order_by().values("points")[:1]
        commanders = commanders.annotate(pledged=Coalesce(Subquery(pledge), 0))
    return list(commanders)


def _balance(commander: Commander) -> int:
    """The purse read with the commander (commander_visible_or_404 selects it); 0 for one without a purse."""
    try:
        return commander.purse.balance
    except Account.DoesNotExist:
        return 0


@lru_cache(maxsize=256)
def _ask_form_html(requester: Commander, funders: tuple[tuple[int, str], ...]) -> SafeString:
    """The empty form asking for lunari. It is unbound, so its HTML depends only on who may be asked: it is
    drawn once per list of funders, as Django's drawing of a form costs more than the rest of the page's forms."""
    return FundingRequestForm(requester=requester, funders=funders).as_div()


def _drawn_once(payers: list[Commander], commander: Commander, others: list[Commander],
                weapons: list[Item]) -> dict[str, SafeString]:
    """What every unit row (and item row) repeats unchanged, drawn once for all of them: whom its purse may be
    paid by (for a GM), the other commanders to lend or give to and the weapon cards to destroy. Drawn in each
    row, they were a large part of a page of sixty units."""
    return {
        "paid_by": (render_to_string("campaign/economy/paid_by.html", {"payers": payers, "commander": commander})
                    if payers else SafeString()),
        "other_options": format_html_join("", '<option value="{}">{}</option>',
                                          ((other.pk, other.name) for other in others)),
        "weapon_checks": format_html_join(
            "", '<label class="check"><input type="checkbox" name="weapon_items" value="{}"> {}</label>',
            ((weapon.pk, weapon.name) for weapon in weapons)),
    }


def commander_page_context(campaign: Campaign, membership: Membership, commander: Commander) -> dict:
    """Everything commander_detail.html shows for this viewer."""
    event, day = campaigns_selectors.event_and_day_today(campaign=campaign)
    balance = _balance(commander)
    everyone = _commanders(campaign, day)
    by_id = {other.pk: other for other in everyone}
    every_unit = _units(commander, day)
    by_id[commander.pk] = commander  # the one read with its purse
    for unit in every_unit:  # each unit's commander and borrower from the read above (else read when asked)
        if unit.commander_id in by_id:
            unit.commander = by_id[unit.commander_id]
        if unit.lent_to_id in by_id:
            unit.lent_to = by_id[unit.lent_to_id]
    units = [u for u in every_unit if u.commander_id == commander.pk and u.state != Unit.State.KILLED]
    fallen = [u for u in reversed(every_unit) if u.commander_id == commander.pk and u.state == Unit.State.KILLED]
    name_rank = {other.pk: rank for rank, other in enumerate(everyone)}  # the database's order of names
    borrowed = sorted((u for u in every_unit if u.lent_to_id == commander.pk and u.state != Unit.State.KILLED),
                      key=lambda u: (name_rank.get(u.commander_id, len(everyone)), u.pk))
    pledged = next((c.pledged for c in everyone if c.pk == commander.pk), 0) if day else 0
    led = {u.army_id for u in units if u.army_id is not None and getattr(u, "led_today", False)}
    forecast = (selectors.upkeep_forecast_of(commander=commander, units=units, led_army_ids=led, pledged=pledged)
                if day else None)
    unit_names = {unit.pk: unit for unit in units}
    payers = [c for c in everyone if membership.is_gm or c.player_id == membership.user_id]
    # With a choice of purses the chosen payer decides; with one, what it cannot afford is shown disabled.
    purse = balance if len(payers) < 2 else None
    offers = []
    for offer, done in quests.recruit_offers_with_quests(event=event, commander=commander) if event else []:
        price = selectors.recruit_offer_quote(offer=offer, quests_done=done)
        offers.append((offer, price, done, _short_by(price, purse) if price is not None else 0))
    held = list(selectors.commander_items(commander=commander).order_by("name", "id"))  # one commander's: no join
    weapons = [item for item in held if item.kind == Item.Kind.WEAPON]
    unit_rows = _unit_rows(units, membership, event, purse=purse, commanders=by_id, campaign=campaign,
                           commander=commander, weapon_cards=len(weapons))
    others = [c for c in everyone if c.retired_at is None and c.pk != commander.pk]
    choice = payers if len(payers) > 1 else []  # the payers to choose from: none with only one
    return {
        "campaign": campaign, "commander": commander, "is_gm": membership.is_gm, "event": event, "day": day,
        "commanders": everyone,  # for the player's live topics (member_topics), read once
        "balance": balance, "ledger_rows": _ledger_rows(campaign, commander, balance),
        "unit_rows": unit_rows, "weapons": weapons, "item_rows": _item_rows(held, campaign, commander),
        "item_add_form": ItemAddForm() if membership.is_gm else None,
        **_drawn_once(choice, commander, others, weapons),
        "others": others, "borrowed": borrowed,
        "sheet_form": (CommanderForm(initial=CommanderForm.initial_of(commander), campaign=campaign)
                       if membership.is_gm else None),
        "fallen": _fallen_rows(fallen, campaign, commander),
        "weapon_card_offset": WEAPON_CARD_OFFSET,
        "forecast": forecast,
        "forecast_lines": [(unit_names.get(line.unit_id), line) for line in forecast.lines] if forecast else [],
        "pledged": pledged,
        "pledge_useful": upkeep_morale_useful(forecast.gross) if forecast else 0,
        "upkeep_offset": UPKEEP_OFFSET_PER_MORALE,
        "payers": choice,
        "offers": offers,
        "funding": selectors.funding_requests_for(commander=commander),
        "funding_form_html": _ask_form_html(commander, tuple((other.pk, other.name) for other in others)),
        "morale_room": max(commander.starting_morale - commander.morale, 0), "morale_price": LUNARI_PER_MORALE_POINT,
        "morale_short_by": _short_by(LUNARI_PER_MORALE_POINT, purse),
        "morale_bought_today": day is not None and commander.morale_bought_on_id == day.pk,
        "escape_units": [row.unit for row in unit_rows if row.retinue_of == commander
                         and row.unit.strength is not None and row.unit.state != Unit.State.KILLED],
        "may_escape": commander.is_player_character and may_act_for(membership, commander.player_id),
    }
