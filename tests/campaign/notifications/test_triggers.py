"""Every kind of notification, each told once, and none telling a recipient what the fog of war or a hidden hand
hides: an enemy army named only to those who may see it, a table saying only whose move it is."""

from __future__ import annotations

import json

import pytest

from campaign.economy.funding import funding_request_create
from campaign.economy.upkeep import day_close
from campaign.map.hour import event_hour_process
from campaign.map.orders import army_order_move
from campaign.map.selectors import armies_visible_to
from campaign.models import Army, Membership, MoveOrder, Notification
from campaign.notifications import triggers
from cardgames import selectors as table_selectors
from cardgames.challenges import challenge_create
from cardgames.services import SeatSpec, match_act, match_create
from tests.campaign.factories import CommanderFactory, EventFactory, MembershipFactory, UserFactory, open_day
from tests.campaign.map_fixtures import make_army, make_map

pytestmark = pytest.mark.django_db
K = Notification.Kind


@pytest.fixture
def valley(campaign, gm):
    """Amira's Ford Guard and Bastian's Night Riders meet in hour 1; Amira's Scouts arrive; Bastian's Far Host,
    which nobody revealed to Amira, is blocked. Amira's purse is empty, so her upkeep falls into arrears."""
    amira, bastian = UserFactory(username="amira"), UserFactory(username="bastian")
    for user in (amira, bastian):
        MembershipFactory(campaign=campaign, user=user)
    event = EventFactory(campaign=campaign, name="Autumn Muster")
    day = open_day(event)
    board = make_map(campaign)
    mine = CommanderFactory(campaign=campaign, player=amira, name="Amira", lunari=0)
    theirs = CommanderFactory(campaign=campaign, player=bastian, name="Bastian", lunari=500)
    guard = make_army(board, commander=mine, at=(10, 10), name="Ford Guard")
    make_army(board, commander=theirs, at=(10.5, 10), name="Night Riders")
    scouts = make_army(board, commander=mine, at=(30, 30), name="Scouts")
    far = make_army(board, commander=theirs, at=(40, 2), name="Far Host")
    army_order_move(army=scouts, kind=MoveOrder.Kind.POINT, x=31, y=30, actor=amira)
    blocked = army_order_move(army=far, kind=MoveOrder.Kind.POINT, x=44, y=2, actor=bastian)
    event_hour_process(event=event, hour=1)
    MoveOrder.objects.filter(pk=blocked.pk).update(status=MoveOrder.Status.BLOCKED, done_hour=1)
    return {"event": event, "day": day, "amira": amira, "bastian": bastian, "mine": mine, "theirs": theirs,
            "guard": guard}


def tell_everything(valley, gm) -> None:
    amira, bastian = valley["amira"], valley["bastian"]
    triggers.notify_hour(event_id=valley["event"].pk, hour=1)
    match = match_create(campaign=valley["event"].campaign, game="command-dice", actor=gm, seed=7, title="Duel",
                         seats=[SeatSpec("amira", amira), SeatSpec("bastian", bastian)])
    secret = json.loads(table_selectors.match_table(match=match, seat=1).actions[-1][1])
    match_act(match_id=match.pk, seat=1, action=secret, user=bastian)  # Bastian's dice, chosen in secret
    triggers.notify_to_move(match_id=match.pk, actor_id=bastian.pk)
    challenge = challenge_create(challenger=valley["theirs"], challenged=valley["mine"], game="command-dice",
                                 actor=bastian, stake=10)
    triggers.notify_challenge(challenge_id=challenge.pk)
    request = funding_request_create(requester=valley["theirs"], funder=valley["mine"], amount=20,
                                     reason="Boots for the march", actor=bastian)
    triggers.notify_funding_request(request_id=request.pk)
    day_close(day=valley["day"], actor=gm)
    triggers.notify_day_closed(day_id=valley["day"].pk)


def test_every_kind_is_told_once_to_the_right_people(valley, gm):
    tell_everything(valley, gm)
    assert set(Notification.objects.values_list("kind", flat=True)) == set(K.values)
    told = Notification.objects.count()
    triggers.notify_hour(event_id=valley["event"].pk, hour=1)
    triggers.notify_day_closed(day_id=valley["day"].pk)
    for match_id in Notification.objects.filter(kind=K.YOUR_MOVE).values_list("url", flat=True):
        triggers.notify_to_move(match_id=int(match_id.rstrip("/").split("/")[-1]))
    assert Notification.objects.count() == told, "a happening told again tells nobody twice"

    def texts(user, kind):
        return list(Notification.objects.filter(user=user, kind=kind).values_list("text", flat=True))

    amira, bastian = valley["amira"], valley["bastian"]
    assert texts(amira, K.ARMY_ARRIVED) == ["Scouts arrived at the end of hour 1."]
    assert texts(bastian, K.ARMY_BLOCKED) == ["Far Host was blocked in hour 1 and stopped: give it new orders."]
    assert texts(amira, K.BATTLE_DUE) == ["A Battle is due in hour 1: your army Ford Guard against an enemy army."]
    assert texts(bastian, K.BATTLE_DUE) == ["A Battle is due in hour 1: your army Night Riders against an enemy army."]
    assert "Ford Guard (Amira) against Night Riders (Bastian)" in texts(gm, K.BATTLE_DUE)[0]
    assert texts(amira, K.YOUR_MOVE) == ["Your move in Duel (Command Dice battle)."]
    assert texts(bastian, K.YOUR_MOVE) == [], "who just moved is not told it is their move"
    assert texts(amira, K.CHALLENGE) == ["Bastian challenges Amira to Command Dice battle for 10 lunari."]
    assert texts(amira, K.FUNDING_REQUEST) == ["Bastian asks Amira for 20 lunari: Boots for the march"]
    assert len(texts(amira, K.DAY_CLOSED)) == len(texts(bastian, K.DAY_CLOSED)) == 1
    assert texts(amira, K.ARREARS)[0].startswith("Amira is in arrears: ")
    assert texts(bastian, K.ARREARS) == []


def test_no_recipient_learns_what_the_fog_or_a_hidden_hand_hides(valley, gm):
    tell_everything(valley, gm)
    names = set(Army.objects.values_list("name", flat=True))
    for membership in Membership.objects.filter(campaign=valley["event"].campaign).select_related("user"):
        visible = set(armies_visible_to(membership=membership).values_list("name", flat=True))
        for notification in Notification.objects.filter(user=membership.user):
            named = {name for name in names if name in notification.text}
            assert named <= visible, f"{membership.user} learns of {named - visible}: {notification.text}"
    move = Notification.objects.get(user=valley["amira"], kind=K.YOUR_MOVE)
    assert move.text == "Your move in Duel (Command Dice battle).", "nothing of Bastian's secret dice"
    assert not Notification.objects.filter(user=valley["bastian"], text__contains="Boots").exists()


def test_the_sweep_tells_what_lost_tasks_did_not_and_nothing_twice(valley, gm):
    """With the broker down no task ran: the beat's sweep tells the hour, the Day, the challenge, the funding
    request and the table, once."""
    from django_celery_beat.models import PeriodicTask

    from campaign.notifications.sweep import notifications_sweep

    assert PeriodicTask.objects.get(name="Notifications catch-up").task == "campaign.notifications_sweep"
    amira, bastian = valley["amira"], valley["bastian"]
    match_create(campaign=valley["event"].campaign, game="command-dice", actor=gm, seed=7, title="Duel",
                 seats=[SeatSpec("amira", amira), SeatSpec("bastian", bastian)])
    challenge_create(challenger=valley["theirs"], challenged=valley["mine"], game="command-dice", actor=bastian)
    funding_request_create(requester=valley["theirs"], funder=valley["mine"], amount=20, reason="Boots",
                           actor=bastian)
    day_close(day=valley["day"], actor=gm)
    assert not Notification.objects.exists(), "no task ran"
    told = notifications_sweep()
    assert set(Notification.objects.values_list("kind", flat=True)) == set(K.values)
    assert Notification.objects.count() == told
    assert notifications_sweep() == 0
