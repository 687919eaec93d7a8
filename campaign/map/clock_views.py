"""The game masters' clock console: the Event's hour, its controls, Battles due and the hour log.
Thin: parse the form, check the role, call a service, show its sentence as a message.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from battles.selectors import battles_open
from campaign.campaigns.fragments import remembered_page
from campaign.campaigns.permissions import Action, require
from campaign.campaigns.reversals import ReversalOffer, reversal_offer, reversal_offer_of, reversals_done
from campaign.campaigns.views import campaign_membership
from campaign.economy import selectors as economy_selectors
from campaign.economy import upkeep
from campaign.live import presence, push
from campaign.live.topics import member_topics
from campaign.map import claims, clock, outcome_reversal, selectors, services
from campaign.models import Army, Commander, Day, DueBattle, Event, HourLog, Reversible
from campaign.web.numbers import parse_id
from campaign.web.refusals import refusal_shown

# --- the GM's clock console ---------------------------------------------------------------------------------


@login_required
def clock_console(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.RUN_CLOCK)
    return remembered_page(request, campaign_id=campaign.pk, name="clock", title=f"Clock · {campaign.name}",
                           template="campaign/map/clock.html", context=lambda: _clock_context(campaign, membership),
                           live_topics=member_topics(membership))


@login_required
def clock_online(request: HttpRequest, slug: str) -> HttpResponse:
    """Who of the campaign's game masters has the console open now (fetched apart from the remembered body:
    presence changes without a change to the campaign)."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.RUN_CLOCK)
    online = presence.presence_online(campaign_id=campaign.pk)
    names = sorted(User.objects.filter(pk__in=online, memberships__campaign=campaign).values_list("username",
                                                                                                  flat=True))
    return render(request, "campaign/map/_online.html", {"names": names})


@login_required
@require_POST
def battle_claim(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """A GM claims a Battle due to resolve it (``release=1``: lets it go), so the others leave it to them."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.RUN_CLOCK)
    battle = get_object_or_404(DueBattle, pk=battle_id, event__campaign=campaign)
    with refusal_shown(request, ValidationError):
        if request.POST.get("release"):
            claims.due_battle_release(due_battle=battle, actor=request.user)
            messages.success(request, "The Battle is free for any game master.")
        else:
            claims.due_battle_claim(due_battle=battle, actor=request.user)
            messages.success(request, "You are resolving this Battle: the other game masters see it.")
    return redirect("clock", slug)


def _last_hour_offer(event: Event, logs: list[HourLog], membership) -> ReversalOffer | None:
    """The reversal of the Event's last hour still standing, offered on the console: found among the hours the
    console lists (`logs`, the latest first), else, when every hour listed was reversed, read."""
    log = next((log for log in logs if not log.reversed), None)
    if log is None and logs:
        log = HourLog.objects.filter(event=event, reversed=False).order_by("-hour").first()
    return reversal_offer(kind=Reversible.Kind.HOUR, target_id=log.pk, membership=membership) if log else None


def _last_outcome_offer(event: Event, membership) -> ReversalOffer | None:
    """The reversal of the last outcome recorded on the console that still stands."""
    record = (Reversible.objects.filter(event=event, kind=Reversible.Kind.OUTCOME, reversed_at__isnull=True)
              .select_related("campaign").first())
    return reversal_offer_of(record=record, membership=membership) if record else None


def _clock_context(campaign, membership) -> dict:
    events = list(Event.objects.filter(campaign=campaign).exclude(status=Event.Status.CLOSED).order_by("starts_at"))
    tactical_map = selectors.tactical_map_for(campaign=campaign)
    rows = []
    for event in events:
        days = list(Day.objects.filter(event=event).order_by("-number"))  # the open one and the last closed
        logs = selectors.hour_logs(event=event)
        rows.append({
            "event": event, "next_at": clock.event_next_hour_at(event=event),
            "day": next((day for day in days if day.status == Day.Status.OPEN), None),
            "battles": selectors.due_battles_for(event=event, is_gm=True, own_ids=set()),
            "logs": logs,
            "undo_hour": _last_hour_offer(event, logs, membership),
            "undo_outcome": _last_outcome_offer(event, membership),
            "last_closed": next((day for day in days if day.status == Day.Status.CLOSED), None),
        })
    return {
        "campaign": campaign, "rows": rows,
        "live_topics": f"{push.hour_topic(campaign.pk)} {push.gm_topic(campaign.pk)}",
        "locations": tactical_map.locations.select_related("holder", "capturing_army") if tactical_map else [],
    }


@login_required
@require_POST
def clock_control(request: HttpRequest, slug: str, event_id: int, control: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.RUN_CLOCK)
    event = get_object_or_404(Event, pk=event_id, campaign=campaign)
    actor = request.user
    with refusal_shown(request, ValidationError):
        if control == "start":
            clock.event_clock_start(event=event, actor=actor)
            messages.success(request, f"{event.name}'s clock is running.")
        elif control == "pause":
            clock.event_clock_pause(event=event, actor=actor)
            messages.success(request, f"{event.name}'s clock is paused.")
        elif control == "resume":
            clock.event_clock_resume(event=event, actor=actor)
            messages.success(request, f"{event.name}'s clock is running again.")
        elif control == "advance":
            to_hour = parse_id(request.POST.get("to_hour"))
            result = clock.event_clock_advance(event=event, actor=actor, to_hour=to_hour)
            if result is None:
                messages.info(request, f"Hour {to_hour} is done already: nothing moved twice.")
            else:
                messages.success(request, f"Hour {result.hour} is done: {result.moved} armies moved, "
                                          f"{len(result.battles)} Battles due, {len(result.captured)} captures.")
        elif control == "close-day":
            day = get_object_or_404(Day, event=event, pk=parse_id(request.POST.get("day")) or 0)
            result = upkeep.day_close(day=day, actor=actor)
            if result.already_closed:
                messages.info(request, f"Day {day.number} was already closed: nothing was charged twice.")
            else:
                bills, arrears = len(result.bills), len(result.arrears)
                messages.success(request, f"Day {day.number} is closed: {bills} upkeep bill{'s' if bills != 1 else ''} "
                                          f"posted ({sum(b.amount_paid for b in result.bills)} lunari paid), "
                                          f"{arrears} commander{'s' if arrears != 1 else ''} in arrears. "
                                          f"Day {result.next_day.number} is open.")
        else:
            raise Http404("No such clock control.")
    return redirect("clock", slug)


@login_required
@require_POST
def battle_decide(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """A GM records a Battle's result on the map (or calls it off)."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.RUN_CLOCK)
    battle = get_object_or_404(DueBattle, pk=battle_id, event__campaign=campaign)
    with refusal_shown(request):
        if request.POST.get("decision") == "cancel":
            services.due_battle_cancel(due_battle=battle, actor=request.user)
            messages.success(request, "The Battle is called off.")
        else:
            winner_id = int(request.POST.get("winner") or 0)
            if winner_id not in (battle.first_id, battle.second_id):
                raise ValidationError("Pick the winner: one of the two armies.")
            loser_id = battle.second_id if winner_id == battle.first_id else battle.first_id
            armies = Army.objects.in_bulk([winner_id, loser_id])
            outcome_reversal.due_battle_decide(due_battle=battle, winner_army=armies[winner_id],
                                               loser_army=armies[loser_id], routed=request.POST.get("routed") == "on",
                                               actor=request.user)
            messages.success(request, f"{armies[winner_id].name} won; {armies[loser_id].name} fell back.")
    return redirect("clock", slug)


@dataclass(frozen=True)
class UpkeepRow:
    commander: Commander
    charge: int
    balance: int
    pledged: int
    could_pledge: bool

    @property
    def short(self) -> int:
        """What the purse cannot pay: recorded as arrears when the Day closes."""
        return max(self.charge - self.balance, 0)


@login_required
def day_close_review(request: HttpRequest, slug: str, day_id: int) -> HttpResponse:
    """What closing this Day will do and what is still unsettled, before the GM confirms: Battles due and not
    fought, Battles not yet applied, each commander's upkeep (the figures that will be posted), the arrears it
    will create, and who could still pledge Morale. The button posts to clock_control's close-day."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.RUN_CLOCK)
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id, event__campaign=campaign)
    forecasts = economy_selectors.upkeep_forecasts(day=day) if day.status == Day.Status.OPEN else {}
    pledges = economy_selectors.upkeep_pledges(day=day)
    commanders = {c.pk: c for c in economy_selectors.commanders_of_campaign(campaign=campaign)
                  .filter(pk__in=list(forecasts))}
    rows = sorted((UpkeepRow(commander=commanders[cid], charge=bill.total,
                             balance=commanders[cid].purse.balance if hasattr(commanders[cid], "purse") else 0,
                             pledged=pledges.get(cid, 0),
                             could_pledge=not pledges.get(cid) and commanders[cid].morale > 0 and bill.gross > 0)
                   for cid, bill in forecasts.items()), key=lambda row: row.commander.name)
    return render(request, "campaign/map/day_close_review.html", {
        "campaign": campaign, "day": day,
        "reopen": reversal_offer(kind=Reversible.Kind.DAY, target_id=day.pk, membership=membership),
        "reopened": reversals_done(kind=Reversible.Kind.DAY, target_id=day.pk),
        "rows": rows, "total": sum(r.charge for r in rows),
        "arrears": [r for r in rows if r.short], "unpledged": [r for r in rows if r.could_pledge],
        "due": selectors.due_battles_for(event=day.event, is_gm=True, own_ids=set()),
        "open_battles": list(battles_open(campaign=campaign).select_related("attacker", "defender")),
    })
