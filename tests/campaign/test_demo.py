"""The demo campaign that `make run` loads."""

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from campaign.demo import DEMO_LOGINS, DEMO_SLUG, load_demo
from campaign.models import Campaign, Event, Membership

pytestmark = pytest.mark.django_db


def test_demo_loads_once_and_its_logins_work():
    campaign, logins = load_demo()
    load_demo()
    assert Campaign.objects.filter(slug=DEMO_SLUG).count() == 1
    for login in logins:
        user = authenticate(username=login.username, password=login.password)
        assert user is not None
        assert Membership.objects.get(user=user, campaign=campaign).role == login.role
    event = Event.objects.get(campaign=campaign)
    assert event.status == Event.Status.RUNNING
    assert event.days.filter(status="open").count() == 1


def test_load_demo_command_prints_the_logins(capsys):
    call_command("load_demo")
    out = capsys.readouterr().out
    for login in DEMO_LOGINS:
        assert login.username in out
        assert login.password in out


def test_demo_has_a_card_game_in_progress_and_one_to_replay():
    from cardgames.demo import load_demo_matches
    from cardgames.models import Challenge, Match

    campaign, _ = load_demo()
    load_demo_matches(campaign=campaign)
    load_demo_matches(campaign=campaign)
    wager = Match.objects.get(campaign=campaign, title="Wager at the Gilded Goat")
    assert wager.status == Match.Status.ACTIVE
    assert wager.version == 1
    practice = Match.objects.get(campaign=campaign, title="Practice against the AI")
    assert practice.status == Match.Status.FINISHED
    challenge = Challenge.objects.get(campaign=campaign)  # one, though the demo was loaded twice
    assert (challenge.challenger.player.username, challenge.challenged.player.username, challenge.game,
            challenge.stake, challenge.status) == ("bastian", "amira", "command-dice", 10, Challenge.Status.OPEN)
    under_way = Match.objects.filter(campaign=campaign, game__in=["unholy-war", "squad-combat", "unity"])
    assert sorted(m.game for m in under_way) == ["squad-combat", "unholy-war", "unity"]
    assert all(m.status == Match.Status.ACTIVE and m.version == 4 for m in under_way)


def test_amira_has_notifications_in_the_demo_told_once():
    from campaign.models import Notification

    call_command("load_demo")
    call_command("load_demo")
    kinds = set(Notification.objects.filter(user__username="amira").values_list("kind", flat=True))
    assert {"challenge", "funding_request", "your_move"} <= kinds
    assert Notification.objects.filter(user__username="amira", kind="challenge").count() == 1
    arrived = Notification.objects.filter(user__username="bastian", kind="army_arrived")
    assert list(arrived.values_list("text", flat=True)) == ["Eastern Riders arrived at the end of hour 1."]
