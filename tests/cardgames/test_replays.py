"""Every step of every stored game renders for every viewer: each card game played to the end by AI seats on a
few seeds, then its replay stepped through from 0 to the last action as each seat and as a game master."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cardgames import services
from cardgames.models import Match
from cardgames.registry import ENGINES
from cardgames.services import SeatSpec

pytestmark = pytest.mark.django_db
CARD_GAMES = [name for name in ENGINES if name != "army-combat"]


@pytest.mark.parametrize("game", CARD_GAMES)
@pytest.mark.parametrize("seed", [2])
def test_every_replay_step_renders_for_each_seat_and_a_game_master(client, campaign, gm, player, rival, game, seed):
    match = services.match_create(campaign=campaign, game=game, actor=gm, seed=seed, seats=[
        SeatSpec(name="Amira", user=player, ai="random"), SeatSpec(name="Bastian", user=rival, ai="random")])
    while services.match_play_ai(match_id=match.pk):
        pass
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    url = reverse("match-replay", args=[campaign.slug, match.pk])
    for viewer in (player, rival, gm):
        client.force_login(viewer)
        for step in range(match.version + 1):
            response = client.get(url, {"step": step})
            assert response.status_code == 200, (viewer.username, step)
