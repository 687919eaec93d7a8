"""With the broker unreachable, handing a seat to the AI still answers (no 500), changes the match once and
leaves nothing half done; the queued move is lost, and the beat sweep plays it when the broker is back."""

from __future__ import annotations

import logging

import pytest
from celery import Celery
from django.conf import settings as django_settings
from django.urls import reverse

import config.celery
from battles import services
from cardgames.models import Match, MatchSeat
from cardgames.services import match_ai_sweep

pytestmark = pytest.mark.django_db
CLOSED_PORT = "redis://127.0.0.1:1/0"


@pytest.fixture
def broker_down(monkeypatch):
    """config.celery's app pointed at a port nothing listens on, with the project's own timeouts and retries."""
    app = Celery("broker-down")
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_url = app.conf.result_backend = CLOSED_PORT
    app.conf.broker_transport_options = {}
    monkeypatch.setattr(config.celery, "app", app)
    return app


def test_settings_bound_every_wait_on_the_broker():
    assert django_settings.CELERY_TASK_PUBLISH_RETRY_POLICY["max_retries"] <= 1
    assert django_settings.CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS["retry_policy"]["max_retries"] <= 1
    assert django_settings.CELERY_BROKER_CONNECTION_TIMEOUT <= 2


def test_handing_a_seat_to_the_ai_answers_with_the_broker_down_and_the_sweep_plays_later(
        client, gm, host, broker_down, caplog, django_capture_on_commit_callbacks):
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm, seed=1)
    client.force_login(gm)
    with caplog.at_level(logging.WARNING, logger="config.celery"), django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("battle-hand-to-ai", args=[battle.campaign.slug, battle.pk]),
                               {"seat": 0, "policy": "random"})
    assert response.status_code == 302
    assert "the broker does not answer" in caplog.text
    assert MatchSeat.objects.filter(match=battle.match, ai="random").count() == 1
    version = Match.objects.get(pk=battle.match_id).version
    assert match_ai_sweep() > 0, "the sweep plays the AI's moves the lost task would have played"
    assert Match.objects.get(pk=battle.match_id).version > version
    assert match_ai_sweep() == 0, "and a second sweep finds nothing to do"


def test_a_gm_starting_a_match_with_an_ai_seat_leaves_one_match_with_the_broker_down(
        campaign, gm, player, broker_down, caplog, django_capture_on_commit_callbacks):
    from cardgames.services import SeatSpec, match_create

    with caplog.at_level(logging.WARNING, logger="config.celery"), django_capture_on_commit_callbacks(execute=True):
        match = match_create(campaign=campaign, game="command-dice", actor=gm, seed=5, seats=[
            SeatSpec(name="Amira", user=player), SeatSpec(name="The Emir's captain", ai="greedy")])
    assert "the broker does not answer" in caplog.text
    assert Match.objects.filter(campaign=campaign).count() == 1
    assert match.seats.filter(ai="greedy").count() == 1
