"""Bases: "plus a defended Base's bonus, which is spent first and gone for the Day once spent"; "Restoring a
Base's Morale bonus is an effect a unit text or power may carry; once restored, the bonus can be spent again
that Day" (RULINGS.md). A Base made in the editor belongs to its location, and the editor moves and removes it."""

from __future__ import annotations

import pytest

from battles import selectors as battle_selectors
from campaign.map import services as map_services
from campaign.models import AuditEntry, Base
from tests.campaign.map_fixtures import make_map
from tests.helpers import api_for

pytestmark = pytest.mark.django_db
EDIT = "/c/river-valley/map/edit/"


@pytest.fixture
def valley(campaign):
    tactical_map = make_map(campaign)
    ford = map_services.location_create(tactical_map=tactical_map, name="Ford", size="town", x=10, y=10, actor=None)
    camp = map_services.location_create(tactical_map=tactical_map, name="Camp", size="camp", x=30, y=20, actor=None)
    return tactical_map, ford, camp


def test_a_base_placed_in_the_editor_belongs_to_the_location_where_it_stands(client, gm, day, valley):
    _, ford, _ = valley
    client.force_login(gm)
    response = client.post(EDIT, {"action": "base", "name": "Redoubt", "morale_bonus": "2", "x": "10.5",
                                  "y": "9.6", "location": ""}, follow=True)
    assert "Redoubt is placed at Ford." in response.content.decode()
    base = Base.objects.get(name="Redoubt")
    assert base.location == ford
    assert battle_selectors.location_base(location=ford, day=day) == base  # its defender gets the bonus


def test_a_base_in_the_field_is_linked_to_nothing_and_the_editor_says_so(client, gm, valley):
    client.force_login(gm)
    response = client.post(EDIT, {"action": "base", "name": "Lonely Tower", "morale_bonus": "1", "x": "40",
                                  "y": "5", "location": ""}, follow=True)
    body = response.content.decode()
    assert "Lonely Tower is placed, linked to no location." in body
    assert "linked to no location: it grants nothing" in body


def test_the_editor_moves_relinks_restores_and_removes_a_base(client, gm, day, valley):
    tactical_map, ford, camp = valley
    base = map_services.base_create(tactical_map=tactical_map, name="Redoubt", x=10, y=10, morale_bonus=2,
                                    location=ford, actor=None)
    client.force_login(gm)
    moved = client.post(EDIT, {"action": "move-base", "id": base.pk, "x": "30.2", "y": "20", "location": ""},
                        follow=True)
    assert "Redoubt is moved to Camp." in moved.content.decode()
    base.refresh_from_db()
    assert (base.x, base.y, base.location) == (30.2, 20.0, camp)
    client.post(EDIT, {"action": "link-base", "id": base.pk, "location": str(ford.pk)})
    base.refresh_from_db()
    assert base.location == ford
    map_services.base_bonus_spend(base=base, day=day, actor=None)
    assert battle_selectors.location_base(location=ford, day=day) is None  # gone for the Day once spent
    restored = client.post(EDIT, {"action": "restore-base", "id": base.pk}, follow=True)
    assert "Redoubt&#x27;s Morale bonus is restored: it can be spent again today." in restored.content.decode()
    assert battle_selectors.location_base(location=ford, day=day) == base  # once restored, spent again that Day
    client.post(EDIT, {"action": "delete-base", "id": base.pk})
    assert not Base.objects.exists()
    assert [e.action for e in AuditEntry.objects.filter(action__startswith="map.base").order_by("pk")] == [
        "map.base.create", "map.base.update", "map.base.update", "map.base.spend", "map.base.restore",
        "map.base.delete"]


def test_bases_in_the_api(gm, player, day, valley):
    tactical_map, ford, camp = valley
    api = api_for(gm)
    made = api.post("/api/bases/", {"map": tactical_map.pk, "name": "Redoubt", "x": 10, "y": 10.5,
                                    "morale_bonus": 3}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["location"] == ford.pk  # the nearest location where it stands
    base = made.json()["id"]
    patched = api.patch(f"/api/bases/{base}/", {"location": camp.pk, "x": 30, "y": 20}, format="json")
    assert (patched.status_code, patched.json()["location"], patched.json()["x"]) == (200, camp.pk, 30.0)
    map_services.base_bonus_spend(base=Base.objects.get(pk=base), day=day, actor=None)
    restored = api.post(f"/api/bases/{base}/restore/")
    assert (restored.status_code, restored.json()["spent_on"]) == (200, None)
    assert api_for(player).post(f"/api/bases/{base}/restore/").status_code == 403
    assert api_for(player).patch(f"/api/bases/{base}/", {"name": "Mine"}, format="json").status_code == 403
    assert api.get(f"/api/maps/{tactical_map.pk}/").json()["bases"][0]["location"] == camp.pk
    assert api.delete(f"/api/bases/{base}/").status_code == 204
