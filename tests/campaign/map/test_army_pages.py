"""The Armies page and /api/armies/: form, split, merge, disband; a player for their own commanders only."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from campaign.models import Army, AuditEntry, Unit
from tests.campaign.factories import CommanderFactory, UnitFactory, UnitTypeFactory
from tests.campaign.map_fixtures import make_army, make_map, ready

pytestmark = pytest.mark.django_db

HIDDEN_NAME = "Shadow Legion of Vashti"


@pytest.fixture
def scene(campaign, event, player):
    ready(event)
    board = make_map(campaign)
    amira = CommanderFactory(campaign=campaign, player=player, name="Amira")
    guard = make_army(board, commander=amira, at=(5, 5), name="Ford Guard")
    riders = make_army(board, commander=amira, at=(11, 5), units=2, traits=["Fast"], name="Bastian's Riders")
    fast = UnitTypeFactory(name="Outriders", strength=3, traits=["Fast"])
    reserve = [UnitFactory(commander=amira, unit_type=fast) for _ in range(3)]
    emir = CommanderFactory(campaign=campaign, name="Emir")
    hidden = make_army(board, commander=emir, at=(30, 30), name=HIDDEN_NAME)
    return {"map": board, "amira": amira, "guard": guard, "riders": riders, "reserve": reserve, "emir": emir,
            "hidden": hidden}


def _api(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


# --- the page ------------------------------------------------------------------------------------------------


def test_a_player_sees_their_armies_and_reserve_but_never_another_players_army(client, player, scene):
    client.force_login(player)
    page = client.get("/c/river-valley/armies/").content.decode()
    assert "Ford Guard" in page
    assert "Bastian&#x27;s Riders" in page
    assert "On the map at (5.0, 5.0)" in page
    assert "4 inches a Move" in page  # the Riders are all Fast
    assert page.count('name="units" value="') == 3 + 4 + 2  # reserve, then each army's units to split
    assert HIDDEN_NAME not in page
    assert f"army-{scene['hidden'].pk}\"" not in page
    own = client.get(f"/c/river-valley/commanders/{scene['amira'].pk}/armies/")
    assert own.status_code == 200
    assert "Amira's armies" in own.content.decode()
    assert client.get(f"/c/river-valley/commanders/{scene['emir'].pk}/armies/").status_code == 404


def test_the_map_and_the_commander_page_link_to_the_armies(client, player, scene):
    client.force_login(player)
    assert 'href="/c/river-valley/armies/"' in client.get("/c/river-valley/map/").content.decode()
    detail = client.get(f"/c/river-valley/commanders/{scene['amira'].pk}/").content.decode()
    assert f'href="/c/river-valley/commanders/{scene["amira"].pk}/armies/"' in detail


def test_a_gm_sees_every_commanders_armies_and_acts_for_any(client, gm, scene):
    client.force_login(gm)
    page = client.get("/c/river-valley/armies/").content.decode()
    assert HIDDEN_NAME in page
    assert "Ford Guard" in page
    response = client.post(f"/c/river-valley/commanders/{scene['emir'].pk}/armies/",
                           {"action": "disband", "army": scene["hidden"].pk}, follow=True)
    assert "is disbanded: its units are back in reserve" in response.content.decode()
    assert not Army.objects.filter(pk=scene["hidden"].pk).exists()


def test_an_outsider_gets_404(client, outsider, scene):
    client.force_login(outsider)
    assert client.get("/c/river-valley/armies/").status_code == 404
    assert client.post(f"/c/river-valley/commanders/{scene['amira'].pk}/armies/",
                       {"action": "disband", "army": scene["guard"].pk}).status_code == 404
    assert Army.objects.filter(pk=scene["guard"].pk).exists()


def test_a_player_forms_splits_merges_and_disbands_from_the_page(client, player, scene):
    client.force_login(player)
    url = f"/c/river-valley/commanders/{scene['amira'].pk}/armies/"
    response = client.post(url, {"action": "form", "name": "Vanguard", "units": [u.pk for u in scene["reserve"]]},
                           follow=True)
    assert "Vanguard is formed: it waits in reserve" in response.content.decode()
    vanguard = Army.objects.get(name="Vanguard")
    assert (vanguard.map_id, vanguard.units.count()) == (None, 3)
    assert "In reserve, off the map" in response.content.decode()

    guard = scene["guard"]
    leaving = list(guard.units.order_by("pk").values_list("pk", flat=True)[:2])
    response = client.post(url, {"action": "split", "army": guard.pk, "name": "Scouts", "units": leaving}, follow=True)
    assert "Scouts splits off from Ford Guard and stands beside it" in response.content.decode()
    scouts = Army.objects.get(name="Scouts")
    assert (scouts.map_id, scouts.x, scouts.y, scouts.units.count()) == (guard.map_id, 5.0, 5.0, 2)

    response = client.post(url, {"action": "merge", "army": scouts.pk, "into": guard.pk, "back": "campaign"})
    assert response["Location"] == "/c/river-valley/armies/"
    assert not Army.objects.filter(pk=scouts.pk).exists()
    assert guard.units.count() == 4

    response = client.post(url, {"action": "disband", "army": vanguard.pk}, follow=True)
    assert "Vanguard is disbanded" in response.content.decode()
    assert Unit.objects.filter(pk__in=[u.pk for u in scene["reserve"]], state="reserve").count() == 3
    assert list(AuditEntry.objects.filter(action__in=["army.form", "army.split", "army.merge", "army.disband"])
                .order_by("id").values_list("action", flat=True)) == [
        "army.form", "army.split", "army.merge", "army.disband"]


def test_armies_apart_do_not_merge_and_the_page_says_why(client, player, scene):
    client.force_login(player)
    response = client.post(f"/c/river-valley/commanders/{scene['amira'].pk}/armies/",
                           {"action": "merge", "army": scene["riders"].pk, "into": scene["guard"].pk}, follow=True)
    assert ("Bastian&#x27;s Riders is 6 inches from Ford Guard: armies merge only where they stand together "
            "(within 1 inch).") in response.content.decode()
    assert Army.objects.filter(pk=scene["riders"].pk).exists()


def test_a_player_cannot_reach_another_players_army_through_their_own_commander(client, player, scene):
    client.force_login(player)
    url = f"/c/river-valley/commanders/{scene['amira'].pk}/armies/"
    assert client.post(url, {"action": "disband", "army": scene["hidden"].pk}).status_code == 404
    assert client.post(url, {"action": "merge", "army": scene["guard"].pk, "into": scene["hidden"].pk}
                       ).status_code == 404
    assert client.post(f"/c/river-valley/commanders/{scene['emir'].pk}/armies/",
                       {"action": "disband", "army": scene["hidden"].pk}).status_code == 404
    assert Army.objects.filter(pk=scene["hidden"].pk).exists()


# --- the API -------------------------------------------------------------------------------------------------


def test_the_api_lists_my_armies_with_position_units_miniatures_and_speed(player, gm, scene):
    data = _api(player).get("/api/armies/").json()
    assert {a["id"] for a in data["results"]} == {scene["guard"].pk, scene["riders"].pk}
    assert HIDDEN_NAME not in json.dumps(data)
    riders = next(a for a in data["results"] if a["id"] == scene["riders"].pk)
    assert (riders["x"], riders["y"], riders["map"], riders["miniatures"], riders["speed"]) == (
        11.0, 5.0, scene["map"].pk, 1, 4.0)
    assert [u["strength"] for u in riders["units"]] == [2, 2]
    everyone = _api(gm).get("/api/armies/", {"commander": scene["emir"].pk}).json()
    assert [a["id"] for a in everyone["results"]] == [scene["hidden"].pk]
    assert _api(player).get(f"/api/armies/{scene['hidden'].pk}/").status_code == 404


def test_the_api_forms_splits_merges_and_disbands(player, scene):
    api = _api(player)
    formed = api.post("/api/armies/", {"commander": scene["amira"].pk, "name": "Vanguard",
                                       "units": [u.pk for u in scene["reserve"]]}, format="json")
    assert formed.status_code == 201
    assert (formed.json()["map"], formed.json()["x"], formed.json()["miniatures"]) == (None, None, 1)
    guard = scene["guard"]
    leaving = list(guard.units.order_by("pk").values_list("pk", flat=True)[:1])
    split = api.post(f"/api/armies/{guard.pk}/split/", {"name": "Scouts", "units": leaving}, format="json")
    assert split.status_code == 201
    assert (split.json()["x"], split.json()["y"], len(split.json()["units"])) == (5.0, 5.0, 1)
    merged = api.post(f"/api/armies/{split.json()['id']}/merge/", {"into": guard.pk}, format="json")
    assert merged.status_code == 200
    assert len(merged.json()["units"]) == 4
    assert api.post(f"/api/armies/{formed.json()['id']}/disband/").status_code == 204
    assert not Army.objects.filter(pk=formed.json()["id"]).exists()


def test_the_api_refuses_with_sentences(player, scene):
    api = _api(player)
    apart = api.post(f"/api/armies/{scene['riders'].pk}/merge/", {"into": scene["guard"].pk}, format="json")
    assert apart.status_code == 400
    assert apart.json()["detail"] == ("Bastian's Riders is 6 inches from Ford Guard: armies merge only where they "
                                      "stand together (within 1 inch).")
    taken = api.post("/api/armies/", {"commander": scene["amira"].pk, "name": "Ford Guard",
                                      "units": [scene["reserve"][0].pk]}, format="json")
    assert taken.status_code == 400
    assert "already has an army called Ford Guard" in json.dumps(taken.json())
    all_of_them = [u.pk for u in scene["guard"].units.all()]
    kept = api.post(f"/api/armies/{scene['guard'].pk}/split/", {"name": "Everyone", "units": all_of_them},
                    format="json")
    assert kept.status_code == 400
    assert "Leave at least one unit behind" in json.dumps(kept.json())


def test_the_api_hides_other_players_armies_and_commanders(player, outsider, scene):
    api, hidden = _api(player), scene["hidden"]
    assert api.post(f"/api/armies/{hidden.pk}/disband/").status_code == 404
    assert api.post(f"/api/armies/{hidden.pk}/split/", {"name": "X", "units": []}, format="json").status_code == 404
    assert api.post(f"/api/armies/{scene['guard'].pk}/merge/", {"into": hidden.pk}, format="json").status_code == 404
    assert api.post("/api/armies/", {"commander": scene["emir"].pk, "name": "Mine now", "units": []},
                    format="json").status_code == 404
    assert _api(outsider).get("/api/armies/").json()["results"] == []
    assert _api(outsider).post(f"/api/armies/{scene['guard'].pk}/disband/").status_code == 404
    assert Army.objects.filter(pk__in=[hidden.pk, scene["guard"].pk]).count() == 2


def test_the_schema_describes_every_army_action(client, gm):
    client.force_login(gm)
    schema = client.get("/api/schema/", {"format": "json"}).json()
    for path in ("/api/armies/", "/api/armies/{id}/split/", "/api/armies/{id}/merge/", "/api/armies/{id}/disband/"):
        assert "post" in schema["paths"][path]
    assert "ArmyRoster" in schema["components"]["schemas"]
