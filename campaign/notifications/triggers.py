"""What each happening tells whom, in words the recipient may read.

Each function runs in a Celery task after its happening committed, reads it back, and tells each recipient once
(a dedupe key per happening and recipient). Armies are named to a player only when the fog of war selector
(`armies_visible_to`) lets that player know them; a table says only whose move it is, never a hand or a choice.
"""

from __future__ import annotations

from django.urls import reverse

from campaign.map.selectors import armies_visible_to
from campaign.models import Army, Commander, Day, DueBattle, FundingRequest, Membership, MoveOrder, Role
from campaign.models import Notification as N
from campaign.notifications.services import notification_send
from cardgames.models import Challenge, Match
from cardgames.registry import game_title
from cardgames.selectors import match_table


def _army_name_for(membership: Membership, army: Army, known: dict[int, set[int]]) -> str | None:
    if membership.pk not in known:
        known[membership.pk] = set(armies_visible_to(membership=membership).values_list("pk", flat=True))
    return army.name if army.pk in known[membership.pk] else None


def notify_hour(*, event_id: int, hour: int) -> int:
    """After an hour: each army that arrived or was blocked (to its player), each Battle that came due (to the
    game masters, and to the players of both armies, who learn the other side's name only if they may see it)."""
    told = 0
    orders = (MoveOrder.objects.filter(event_id=event_id, done_hour=hour,
                                       status__in=[MoveOrder.Status.ARRIVED, MoveOrder.Status.BLOCKED])
              .select_related("army__commander", "event__campaign"))
    for order in orders:
        player_id = order.army.commander.player_id
        if player_id is None:
            continue
        campaign = order.event.campaign
        arrived = order.status == MoveOrder.Status.ARRIVED
        text = (f"{order.army.name} arrived at the end of hour {hour}." if arrived else
                f"{order.army.name} was blocked in hour {hour} and stopped: give it new orders.")
        told += bool(notification_send(user_id=player_id, kind=N.Kind.ARMY_ARRIVED if arrived else N.Kind.ARMY_BLOCKED,
                                       text=text, url=reverse("map", args=[campaign.slug]),
                                       dedupe_key=f"order:{order.pk}:{order.status}", campaign_id=campaign.pk))
    battles = DueBattle.objects.filter(event_id=event_id, hour=hour).select_related(
        "first__commander", "second__commander", "event__campaign", "location")
    for battle in battles:
        told += _battle_due(battle)
    return told


def _battle_due(battle: DueBattle) -> int:
    campaign = battle.event.campaign
    url = reverse("clock", args=[campaign.slug])
    where = f" at {battle.location.name}" if battle.location else ""
    members = {m.user_id: m for m in Membership.objects.filter(campaign=campaign)}
    told, known = 0, dict[int, set[int]]()
    for membership in members.values():
        if membership.role == Role.GM:
            told += bool(notification_send(
                user_id=membership.user_id, kind=N.Kind.BATTLE_DUE, campaign_id=campaign.pk, url=url,
                dedupe_key=f"battle:{battle.pk}:{membership.user_id}",
                text=f"A Battle is due{where} in hour {battle.hour}: {battle.first.name} "
                     f"({battle.first.commander.name}) against {battle.second.name} ({battle.second.commander.name})."))
    for mine, theirs in ((battle.first, battle.second), (battle.second, battle.first)):
        player = members.get(mine.commander.player_id or 0)
        if player is None or player.role == Role.GM:
            continue
        other = _army_name_for(player, theirs, known) or "an enemy army"
        told += bool(notification_send(
            user_id=player.user_id, kind=N.Kind.BATTLE_DUE, campaign_id=campaign.pk,
            url=reverse("map", args=[campaign.slug]), dedupe_key=f"battle:{battle.pk}:{player.user_id}",
            text=f"A Battle is due{where} in hour {battle.hour}: your army {mine.name} against {other}."))
    return told


def notify_day_closed(*, day_id: int) -> int:
    """After a Day closes: each commander's player gets their bill, and arrears when the purse fell short."""
    day = Day.objects.select_related("event__campaign").filter(pk=day_id).first()
    if day is None:
        return 0
    campaign, told = day.event.campaign, 0
    for bill in day.upkeep_bills.select_related("commander").filter(commander__player__isnull=False):
        commander = bill.commander
        if commander.player_id is None:
            continue
        url = reverse("commander-detail", args=[campaign.slug, commander.pk])
        told += bool(notification_send(
            user_id=commander.player_id, kind=N.Kind.DAY_CLOSED, campaign_id=campaign.pk, url=url,
            dedupe_key=f"bill:{bill.pk}",
            text=f"Day {day.number} of {day.event.name} closed: {commander.name}'s upkeep was {bill.amount_due} "
                 f"lunari, {bill.amount_paid} paid."))
        if bill.amount_paid < bill.amount_due:
            told += bool(notification_send(
                user_id=commander.player_id, kind=N.Kind.ARREARS, campaign_id=campaign.pk, url=url,
                dedupe_key=f"arrears:{bill.pk}",
                text=f"{commander.name} is in arrears: {bill.amount_due - bill.amount_paid} lunari of Day "
                     f"{day.number}'s upkeep could not be paid."))
    return told


def notify_to_move(*, match_id: int, actor_id: int | None = None) -> int:
    """The people whose move it now is, except the one who just moved (they are looking at the table), and only
    once until they read it: an unread 'your move' for the same table is not repeated."""
    match = Match.objects.select_related("campaign").filter(pk=match_id, status=Match.Status.ACTIVE).first()
    if match is None:
        return 0
    to_move = set(match_table(match=match, seat=None).to_move)
    told = 0
    for seat in match.seats.filter(seat__in=to_move, user__isnull=False):
        if seat.user_id is None or seat.user_id == actor_id:
            continue
        url = reverse("match-play", args=[match.campaign.slug, match.pk])
        if N.objects.filter(user_id=seat.user_id, kind=N.Kind.YOUR_MOVE, url=url, read_at__isnull=True).exists():
            continue
        told += bool(notification_send(
            user_id=seat.user_id, kind=N.Kind.YOUR_MOVE, campaign_id=match.campaign_id, url=url,
            dedupe_key=f"move:{match.pk}:{match.version}:{seat.seat}",
            text=f"Your move in {match.title or game_title(match.game)} ({game_title(match.game)})."))
    return told


def notify_challenge(*, challenge_id: int) -> int:
    challenge = Challenge.objects.select_related("challenger", "challenged", "campaign").filter(
        pk=challenge_id, status=Challenge.Status.OPEN).first()
    if challenge is None or challenge.challenged.player_id is None:
        return 0
    stake = f" for {challenge.stake} lunari" if challenge.stake else ""
    return int(bool(notification_send(
        user_id=challenge.challenged.player_id, kind=N.Kind.CHALLENGE, campaign_id=challenge.campaign_id,
        url=reverse("match-list", args=[challenge.campaign.slug]), dedupe_key=f"challenge:{challenge.pk}",
        text=f"{challenge.challenger.name} challenges {challenge.challenged.name} to "
             f"{game_title(challenge.game)}{stake}.")))


def notify_funding_request(*, request_id: int) -> int:
    request = FundingRequest.objects.select_related("requester", "funder", "campaign").filter(
        pk=request_id, status=FundingRequest.Status.PENDING).first()
    funder: Commander | None = request.funder if request else None
    if request is None or funder is None or funder.player_id is None:
        return 0
    return int(bool(notification_send(
        user_id=funder.player_id, kind=N.Kind.FUNDING_REQUEST, campaign_id=request.campaign_id,
        url=reverse("commander-detail", args=[request.campaign.slug, funder.pk]), dedupe_key=f"funding:{request.pk}",
        text=f"{request.requester.name} asks {funder.name} for {request.amount} lunari: {request.reason}")))
