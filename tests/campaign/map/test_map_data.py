"""The map's JSON (campaign.map.map_data): fog of war in the data itself, the version poll and gzip."""

from __future__ import annotations

import gzip
import json

import pytest

from campaign.map import armies
from campaign.map import orders as order_services
from campaign.map import services as map_services
from campaign.map.hour import event_hour_process
from campaign.models import DueBattle
from tests.campaign.map.conftest import HIDDEN

pytestmark = pytest.mark.django_db

URL = "/c/river-valley/map/data/"



def _ids(data: dict) -> set[int]:
    return {a["id"] for a in data["armies"]} | {pk for b in data["battles"] for pk in b["ids"]}


def test_a_players_data_holds_their_armies_and_reveals_and_never_a_hidden_army(client, player, gm, scene, event):
    armies.army_place(army=scene["hidden"], tactical_map=scene["map"], x=5.5, y=5, actor=gm)
    event_hour_process(event=event, hour=1)  # the hidden army meets Ford Guard: a Battle is due
    order_services.army_order_move(army=scene["hidden"], kind="point", x=40, y=5, actor=gm)
    order_services.army_order_move(army=scene["mine"], kind="army", target_army=scene["seen"], actor=player)
    client.force_login(player)
    body = client.get(URL).content.decode()
    data = json.loads(body)["map"]
    assert HIDDEN not in body
    assert _ids(data) == {scene["mine"].pk, scene["seen"].pk}
    [battle] = data["battles"]
    assert (battle["status"], battle["armies"], battle["ids"]) == ("due", ["Ford Guard"], [scene["mine"].pk])
    mine = next(a for a in data["armies"] if a["id"] == scene["mine"].pk)
    assert (mine["own"], mine["k"], mine["to"]) == (True, "army", "Banner Host")
    assert mine["p"][0] == [mine["x"], mine["y"]]
    assert mine["at"] >= 1
    seen = next(a for a in data["armies"] if a["id"] == scene["seen"].pk)
    assert seen == {"id": scene["seen"].pk, "n": "Banner Host", "c": "Emir", "x": 20.0, "y": 20.0, "m": None,
                    "own": False, "seen": 0}  # where and when it was seen: never its order or route
    assert "commanders" not in data


def test_the_gm_sees_every_army_both_sides_of_a_battle_and_the_commanders(client, gm, scene, event):
    armies.army_place(army=scene["hidden"], tactical_map=scene["map"], x=5.5, y=5, actor=gm)
    event_hour_process(event=event, hour=1)
    location = map_services.location_create(tactical_map=scene["map"], name="Ford", size="town", x=12, y=12,
                                            actor=gm)
    client.force_login(gm)
    data = client.get(URL).json()["map"]
    assert _ids(data) == {scene["mine"].pk, scene["seen"].pk, scene["hidden"].pk}
    [battle] = data["battles"]
    assert set(battle["ids"]) == {scene["mine"].pk, scene["hidden"].pk}
    assert (battle["x"], battle["y"]) == (5.25, 5.0)  # between the two armies: it is at no location
    assert [c[1] for c in data["commanders"]] == ["Amira", "Emir"]
    assert [loc["n"] for loc in data["locations"]] == [location.name]
    DueBattle.objects.update(status=DueBattle.Status.FOUGHT)
    assert [b["status"] for b in client.get(URL).json()["map"]["battles"]] == ["fought"]


def test_an_unchanged_poll_answers_204_from_its_token_with_one_query_and_no_session(
        client, player, gm, scene, event, django_assert_num_queries):
    client.force_login(player)
    first = client.get(URL).json()
    poll = f"{URL}?v={first['v']}&t={first['t']}"
    with django_assert_num_queries(1):  # the phone still sends its session cookie: no middleware reads it
        assert client.get(poll).status_code == 204
    client.logout()
    order_services.army_order_move(army=scene["hidden"], kind="point", x=40, y=30, actor=gm)
    assert client.get(poll).status_code == 302  # the campaign changed: the full view decides, signed in
    client.force_login(player)
    assert client.get(poll).status_code == 204  # ... and an enemy's hidden order changes nothing this player sees
    order_services.army_order_move(army=scene["mine"], kind="point", x=14, y=5, actor=player)
    changed = client.get(poll)
    assert changed.status_code == 200
    assert changed.json()["v"] != first["v"]


def test_a_data_poll_token_answers_only_for_its_viewer_and_its_kind(client, player, gm, scene):
    client.force_login(gm)
    gm_data = client.get(URL).json()
    client.force_login(player)
    player_data = client.get(URL).json()
    svg = client.get("/c/river-valley/map/svg/").content.decode()
    svg_token = svg.replace("&amp;", "&").split("&t=")[1].split('"')[0]
    client.logout()
    assert client.get(f"{URL}?v={player_data['v']}&t={gm_data['t']}").status_code == 302
    assert client.get(f"{URL}?v={player_data['v']}&t={svg_token}").status_code == 302


def test_the_data_is_gzipped_for_a_browser_that_asks(client, gm, scene):
    client.force_login(gm)
    response = client.get(URL, HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(response.content))["map"]["gm"] is True


def test_the_map_page_is_a_shell_that_names_its_data(client, player, scene):
    client.force_login(player)
    page = client.get("/c/river-valley/map/").content.decode()
    assert f'data-src="{URL}"' in page
    assert "vendor/leaflet/leaflet.js" in page
    assert HIDDEN not in page


def test_a_poll_after_a_change_gets_only_what_changed_since_the_version_it_shows(client, player, gm, scene):
    client.force_login(player)
    first = client.get(URL).json()
    order_services.army_order_move(army=scene["hidden"], kind="point", x=40, y=30, actor=gm)
    order_services.army_order_move(army=scene["mine"], kind="point", x=14, y=5, actor=player)
    answer = client.get(f"{URL}?v={first['v']}").json()
    assert answer["base"] == first["v"]
    assert "map" not in answer
    [changed] = answer["changes"]["armies"]["set"]  # the hidden army's order is not even a change to this player
    assert (changed["id"], changed["to"]) == (scene["mine"].pk, "the point (14.0, 5.0)")
    assert answer["changes"]["armies"]["gone"] == []
    assert set(answer["changes"]) == {"armies"}  # nothing else changed
    full = client.get(URL).json()
    assert full["v"] == answer["v"]  # the changes lead to the very data a full answer holds
    from django.core.cache import cache

    cache.clear()
    assert "map" in client.get(f"{URL}?v={first['v']}").json()  # a version no longer remembered: everything


def test_the_changes_name_armies_set_and_gone_and_other_parts_whole():
    from campaign.map.map_data import map_data_changes

    old = {"hour": 1, "w": 48, "armies": [{"id": 1, "x": 1}, {"id": 2, "x": 2}, {"id": 3, "x": 3}]}
    new = {"hour": 2, "w": 48, "armies": [{"id": 1, "x": 1}, {"id": 3, "x": 4}, {"id": 4, "x": 5}]}
    assert map_data_changes(old, new) == {"hour": 2, "armies": {"set": [{"id": 3, "x": 4}, {"id": 4, "x": 5}],
                                                                 "gone": [2]}}
