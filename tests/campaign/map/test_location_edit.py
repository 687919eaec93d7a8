"""A game master changes a location after placing it (name, size, threshold, place, holder) from the map editor
and the API; a new size takes that size's capture threshold."""

from __future__ import annotations

import pytest

from campaign.map import services as map_services
from tests.campaign.factories import CommanderFactory
from tests.campaign.map_fixtures import make_map
from tests.helpers import api_for

pytestmark = pytest.mark.django_db
EDIT = "/c/river-valley/map/edit/"


@pytest.fixture
def ford(campaign):
    tactical_map = make_map(campaign)
    map_services.terrain_region_create(tactical_map=tactical_map, name="Lake", kind="impassable",
                                       points=[[30, 30], [40, 30], [40, 35], [30, 35]], actor=None)
    return map_services.location_create(tactical_map=tactical_map, name="Ford", size="camp", x=5, y=5, actor=None)


def test_the_editor_changes_and_moves_a_location(client, gm, campaign, ford):
    amira = CommanderFactory(campaign=campaign, name="Amira")
    client.force_login(gm)
    saved = client.post(EDIT, {"action": "edit-location", "id": ford.pk, "name": "Riverford", "size": "town",
                               "threshold": "", "holder": amira.pk}, follow=True)
    assert "Riverford is saved." in saved.content.decode()
    ford.refresh_from_db()
    assert (ford.name, ford.size, ford.capture_threshold, ford.holder) == ("Riverford", "town", 15, amira)
    client.post(EDIT, {"action": "move-location", "id": ford.pk, "x": "12", "y": "9"})
    ford.refresh_from_db()
    assert (ford.x, ford.y) == (12.0, 9.0)
    refused = client.post(EDIT, {"action": "move-location", "id": ford.pk, "x": "35", "y": "32"}, follow=True)
    assert "inside impassable terrain" in refused.content.decode()


def test_locations_are_changed_through_the_api(gm, player, campaign, ford):
    amira = CommanderFactory(campaign=campaign, name="Amira")
    api = api_for(gm)
    patched = api.patch(f"/api/locations/{ford.pk}/", {"size": "city", "holder": amira.pk}, format="json")
    assert patched.status_code == 200, patched.content
    assert (patched.json()["capture_threshold"], patched.json()["holder"]) == (60, amira.pk)
    assert api.patch(f"/api/locations/{ford.pk}/", {"capture_threshold": 0}, format="json").status_code == 400
    assert api_for(player).patch(f"/api/locations/{ford.pk}/", {"name": "Mine"}, format="json").status_code == 403
