"""The battles part of the demo: a live Battle a few actions in, and a logged table Battle to inspect."""

import pytest

from battles.demo import LIVE_ACTIONS, load_demo_battles
from battles.models import Battle
from campaign.demo import load_demo
from campaign.models import Unit
from cardgames.demo import load_demo_matches
from cardgames.models import Match

pytestmark = pytest.mark.django_db


def test_demo_has_a_live_battle_and_a_logged_one_and_loads_once(client):
    campaign, _ = load_demo()
    load_demo_matches(campaign=campaign)
    first = load_demo_battles(campaign=campaign)
    assert {b.pk for b in load_demo_battles(campaign=campaign)} == {b.pk for b in first}
    table = Battle.objects.get(campaign=campaign, mode=Battle.Mode.LOGGED)
    live = Battle.objects.get(campaign=campaign, mode=Battle.Mode.LIVE)
    assert table.status == Battle.Status.APPLIED
    assert table.defender.name == "Amira bint Khalid"
    assert Unit.objects.get(pk=table.result["killed"][0][0]).state == Unit.State.KILLED
    assert live.status == Battle.Status.LIVE
    assert live.match.status == Match.Status.ACTIVE
    assert live.match.version == LIVE_ACTIONS
    assert {live.attacker.player.username, live.defender.player.username} == {"amira", "bastian"}
    client.force_login(live.attacker.player)
    page = client.get(f"/c/{campaign.slug}/battles/{live.pk}/").content.decode()
    assert 'data-testid="table"' in page
    page = client.get(f"/c/{campaign.slug}/battles/{table.pk}/replay/").content.decode()
    assert "Zombie Horde" in page
