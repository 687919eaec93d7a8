"""Map pages and API: fog of war on the server, the order preview, the editor, the clock console."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.html import escape
from PIL import Image
from rest_framework.test import APIClient

from campaign.map import armies
from campaign.map import orders as order_services
from campaign.map import services as map_services
from campaign.models import DueBattle, Event, HourLog, MoveOrder, Reveal, Reversible, TerrainRegion
from tests.campaign.map.conftest import HIDDEN
from tests.campaign.map_fixtures import make_map

pytestmark = pytest.mark.django_db




def _leaks(text: str, army) -> bool:
    return HIDDEN in text or f"army-{army.pk}\"" in text or f'"id": {army.pk},' in text


def _army_ids(data, key: str = "") -> set[int]:
    """Every army id in an API response: values of army keys, and ids of the map's army markers."""
    found: set[int] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "armies":
                found |= {a["id"] if isinstance(a, dict) else a for a in v}
            found |= _army_ids(v, k)
    elif isinstance(data, list):
        for item in data:
            found |= _army_ids(item, key)
    elif isinstance(data, int) and key in {"army", "target_army", "winner", "first", "second"}:
        found.add(data)
    return found


def test_a_player_sees_their_armies_and_reveals_but_never_a_hidden_army(client, player, scene):
    client.force_login(player)
    data = client.get("/c/river-valley/map/data/").content.decode()
    assert "Ford Guard" in data
    assert "Banner Host" in data
    assert HIDDEN not in data
    svg = client.get("/c/river-valley/map/svg/").content.decode()
    assert f'data-testid="army-{scene["mine"].pk}"' in svg
    assert not _leaks(svg, scene["hidden"])
    api = APIClient()
    api.force_authenticate(player)
    state = api.get(f"/api/maps/{scene['map'].pk}/").json()
    ids = {a["id"] for a in state["armies"]}
    assert ids == {scene["mine"].pk, scene["seen"].pk}
    assert scene["hidden"].pk not in ids
    assert HIDDEN not in json.dumps(state)
    seen = next(a for a in state["armies"] if a["id"] == scene["seen"].pk)
    assert (seen["own"], seen["as_of_hour"], seen["order"]) == (False, 0, None)


def test_a_hidden_army_stays_hidden_in_due_battles_orders_and_reveals(client, player, gm, scene, event):
    mine, hidden = scene["mine"], scene["hidden"]
    armies.army_place(army=hidden, tactical_map=scene["map"], x=5.5, y=5, actor=gm)
    from campaign.map.hour import event_hour_process

    event_hour_process(event=event, hour=1)
    assert DueBattle.objects.count() == 1
    order_services.army_order_move(army=mine, kind="point", x=5, y=15, actor=None)
    order_services.army_order_move(army=hidden, kind="point", x=40, y=5, actor=None)
    api = APIClient()
    api.force_authenticate(player)
    for url in (f"/api/due-battles/?event={event.pk}", "/api/move-orders/", "/api/reveals/",
                f"/api/maps/{scene['map'].pk}/"):
        body = api.get(url).content.decode()
        assert HIDDEN not in body, url
        assert hidden.pk not in _army_ids(json.loads(body)), url
        assert mine.pk in _army_ids(json.loads(body)) or url.endswith("/reveals/"), url
    client.force_login(player)
    data = client.get("/c/river-valley/map/data/").json()["map"]
    assert hidden.pk not in {a["id"] for a in data["armies"]} | {pk for b in data["battles"] for pk in b["ids"]}
    assert HIDDEN not in json.dumps(data)
    response = api.post("/api/move-orders/preview/", {"army": mine.pk, "kind": "army", "target_army": hidden.pk},
                        format="json")
    assert response.status_code == 400
    assert "see" in response.json()["detail"]


def test_the_gm_sees_every_army(client, gm, scene):
    client.force_login(gm)
    assert HIDDEN in client.get("/c/river-valley/map/data/").content.decode()
    api = APIClient()
    api.force_authenticate(gm)
    assert len(api.get(f"/api/maps/{scene['map'].pk}/").json()["armies"]) == 3


def test_an_order_shows_on_the_svg_and_is_cancelled_through_its_page_form(client, player, scene):
    client.force_login(player)
    order_services.army_order_move(army=scene["mine"], kind="point", x=14, y=5, actor=player)
    order = MoveOrder.objects.get(status="active")
    assert order.arrival_hour == 3
    svg = client.get("/c/river-valley/map/svg/").content.decode()
    assert "hour 3" in svg
    client.post(f"/c/river-valley/map/orders/{order.pk}/cancel/")
    order.refresh_from_db()
    assert order.status == "cancelled"


def test_a_player_cannot_order_someone_elses_army(player, scene):
    api = APIClient()
    api.force_authenticate(player)
    for army in (scene["hidden"], scene["seen"]):
        assert api.post("/api/move-orders/", {"army": army.pk, "kind": "point", "x": 1, "y": 1},
                        format="json").status_code == 404


def test_the_svg_poll_answers_204_until_something_changes(client, player, scene, event):
    client.force_login(player)
    first = client.get("/c/river-valley/map/svg/").content.decode()
    version = first.split('data-version="')[1].split('"')[0]
    assert client.get(f"/c/river-valley/map/svg/?v={version}").status_code == 204
    order_services.army_order_move(army=scene["mine"], kind="point", x=20, y=5, actor=player)
    from campaign.map.hour import event_hour_process

    event_hour_process(event=event, hour=1)
    assert client.get(f"/c/river-valley/map/svg/?v={version}").status_code == 200


def test_the_polled_fragment_carries_the_hour_and_the_orders_under_way(client, player, scene, event):
    client.force_login(player)
    version = client.get("/c/river-valley/map/svg/").content.decode().split('data-version="')[1].split('"')[0]
    order = order_services.army_order_move(army=scene["mine"], kind="army", target_army=scene["seen"], actor=player)
    from campaign.map.hour import event_hour_process

    event_hour_process(event=event, hour=1)
    order.refresh_from_db()
    response = client.get(f"/c/river-valley/map/svg/?v={version}")
    assert response.status_code == 200
    text = response.content.decode()
    hour = text.split('id="map-hour"')[1].split('id="under-way"')[0]
    assert 'hx-swap-oob="true"' in hour
    assert '<span data-testid="hour">1<' in hour
    orders = text.split('<section class="card" id="under-way"')[1].split("</section>")[0]
    assert 'hx-swap-oob="true"' in orders
    assert f'data-testid="order-{order.pk}"' in orders
    assert f"about hour {order.arrival_hour}" in orders
    assert not _leaks(text, scene["hidden"])


def test_an_enemy_order_does_not_change_a_players_map_version(client, player, gm, scene):
    client.force_login(player)
    version = client.get("/c/river-valley/map/svg/").content.decode().split('data-version="')[1].split('"')[0]
    order_services.army_order_move(army=scene["hidden"], kind="point", x=40, y=30, actor=gm)
    assert client.get(f"/c/river-valley/map/svg/?v={version}").status_code == 204


def _polled(client) -> str:
    """The poll URL the map's SVG gives htmx: the version it shows and its poll token."""
    import re

    page = client.get("/c/river-valley/map/svg/").content.decode()
    return re.search(r'hx-get="([^"]*map/svg/[^"]*)"', page).group(1).replace("&amp;", "&")


def test_an_unchanged_map_poll_with_its_token_costs_one_query_and_no_session(client, player, scene,
                                                                             django_assert_num_queries):
    client.force_login(player)
    poll = _polled(client)
    assert "&t=" in poll
    client.logout()  # no session, user or map is read while nothing in the campaign changed
    with django_assert_num_queries(1):
        assert client.get(poll).status_code == 204


def test_any_change_in_the_campaign_sends_the_poll_to_the_full_view(client, player, gm, scene, event):
    """An audited change (an order) or a processed hour makes the token path step aside; the full view then
    decides, per viewer: an enemy's hidden order still answers 204, and nothing hidden is drawn."""
    from campaign.map.hour import event_hour_process

    client.force_login(player)
    poll = _polled(client)
    order_services.army_order_move(army=scene["hidden"], kind="point", x=40, y=30, actor=gm)
    client.logout()
    assert client.get(poll).status_code == 302  # the full view wants a sign-in: the token did not answer
    client.force_login(player)
    assert client.get(poll).status_code == 204  # what this player sees did not change
    client.logout()
    assert client.get(poll).status_code == 204  # ... remembered under the new stamp
    event_hour_process(event=event, hour=1)
    assert client.get(poll).status_code == 302
    client.force_login(player)
    response = client.get(poll)
    assert response.status_code == 204 or not _leaks(response.content.decode(), scene["hidden"])


def test_a_map_poll_token_is_bound_to_its_viewer(client, player, gm, scene):
    """The GM's token and version never answer for the player's map, nor the other way round."""
    client.force_login(gm)
    gm_poll = _polled(client)
    client.force_login(player)
    player_poll = _polled(client)
    client.logout()
    gm_token = gm_poll.split("&t=")[1]
    player_version = player_poll.split("?v=")[1].split("&")[0]
    forged = f"/c/river-valley/map/svg/?v={player_version}&t={gm_token}"
    assert client.get(forged).status_code == 302


def _png(width=400, height=300) -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (100, 150, 100)).save(out, format="PNG")
    return SimpleUploadedFile("map.png", out.getvalue(), content_type="image/png")


def test_the_gm_uploads_a_picture_draws_terrain_and_places_a_location(client, gm, campaign):
    client.force_login(gm)
    assert client.get("/c/river-valley/map/").status_code == 302
    client.post("/c/river-valley/map/edit/", {"action": "scale", "width_inches": "40"})
    client.post("/c/river-valley/map/edit/", {"action": "picture", "picture": _png()})
    board = campaign.tactical_map
    board.refresh_from_db()
    assert (board.picture_width, board.height_inches) == (400, 30.0)
    assert board.thumbnail
    client.post("/c/river-valley/map/edit/", {"action": "region", "name": "Mire", "kind": "challenging",
                                              "penalty": "1.5", "points": "[[1,1],[5,1],[5,5]]"})
    assert TerrainRegion.objects.get().penalty == 1.5
    client.post("/c/river-valley/map/edit/", {"action": "location", "name": "Ford", "size": "city", "x": "10",
                                              "y": "10"})
    assert board.locations.get().capture_threshold == 60
    page = client.get("/c/river-valley/map/edit/").content.decode()
    assert "Mire" in page
    assert "Ford" in page


def test_a_file_that_is_not_a_picture_is_refused_with_a_sentence(client, gm, campaign):
    client.force_login(gm)
    response = client.post("/c/river-valley/map/edit/", {
        "action": "picture", "picture": SimpleUploadedFile("map.png", b"not an image", content_type="image/png")},
                           follow=True)
    assert "not a picture Muster can use" in response.content.decode()
    assert not campaign.tactical_map.picture


def test_players_cannot_edit_the_map_or_run_the_clock(client, player, scene, event):
    client.force_login(player)
    assert client.get("/c/river-valley/map/edit/").status_code == 403
    assert client.get("/c/river-valley/clock/").status_code == 403
    assert client.post(f"/c/river-valley/clock/{event.pk}/advance/").status_code == 403
    api = APIClient()
    api.force_authenticate(player)
    assert api.post(f"/api/event-clocks/{event.pk}/advance/").status_code == 403
    assert api.post("/api/terrain-regions/", {"map": scene["map"].pk, "name": "x", "kind": "open",
                                              "points": [[1, 1], [2, 1], [2, 2]]}, format="json").status_code == 403


def test_the_clock_console_runs_the_clock_and_records_battles(client, gm, scene, event):
    client.force_login(gm)
    Event.objects.filter(pk=event.pk).update(status="planned")
    client.post(f"/c/river-valley/clock/{event.pk}/start/")
    assert Event.objects.get(pk=event.pk).status == "running"
    client.post(f"/c/river-valley/clock/{event.pk}/pause/")
    client.post(f"/c/river-valley/clock/{event.pk}/resume/")
    armies.army_place(army=scene["hidden"], tactical_map=scene["map"], x=5.5, y=5, actor=gm)
    client.post(f"/c/river-valley/clock/{event.pk}/advance/")
    assert HourLog.objects.filter(event=event, hour=1).exists()
    battle = DueBattle.objects.get()
    page = client.get("/c/river-valley/clock/").content.decode()
    assert "Battle due" in page
    assert 'data-testid="due-battle"' in page
    client.post(f"/c/river-valley/clock/battles/{battle.pk}/", {"winner": scene["mine"].pk})
    battle.refresh_from_db()
    assert (battle.status, battle.winner_id) == ("fought", scene["mine"].pk)
    first = event.days.get(status="open")
    client.post(f"/c/river-valley/clock/{event.pk}/close-day/", {"day": first.pk})
    assert event.days.filter(status="open").get().number == 2
    retried = client.post(f"/c/river-valley/clock/{event.pk}/close-day/", {"day": first.pk}, follow=True)
    assert event.days.filter(status="open").get().number == 2, "a retried tap closes nothing twice"
    assert "Day 1 was already closed: nothing was charged twice." in retried.content.decode()
    console = client.get("/c/river-valley/clock/").content.decode()
    assert 'data-testid="review-closed-day">Day 1 closed' in console
    assert console.count('data-testid="reversal"') == 2, "the last hour's and the last outcome's reversals"
    assert f"keeps both {escape(outcome_record(battle).label)} and its reversal" in console


def outcome_record(battle) -> Reversible:
    return Reversible.objects.get(kind=Reversible.Kind.OUTCOME, target_id=battle.pk, reversed_at__isnull=True)


def test_the_api_previews_confirms_and_cancels_orders_and_reveals(gm, player, scene, event):
    api = APIClient()
    api.force_authenticate(player)
    preview = api.post("/api/move-orders/preview/", {"army": scene["mine"].pk, "kind": "point", "x": 11, "y": 5},
                       format="json").json()
    assert preview["arrival_hour"] == 2
    created = api.post("/api/move-orders/", {"army": scene["mine"].pk, "kind": "point", "x": 11, "y": 5},
                       format="json")
    assert created.status_code == 201
    assert created.json()["arrival_hour"] == 2
    assert created.json()["sentence"] == "Orders sent: Ford Guard arrives at hour 2."
    assert api.delete(f"/api/move-orders/{created.json()['id']}/").status_code == 204
    gm_api = APIClient()
    gm_api.force_authenticate(gm)
    response = gm_api.post("/api/reveals/", {"army": scene["hidden"].pk, "to_commander": scene["mine"].commander_id,
                                             "what": "size"}, format="json")
    assert response.status_code == 201
    assert response.json()["miniatures"] == 1
    assert Reveal.objects.filter(what="size").exists()
    assert gm_api.post(f"/api/event-clocks/{event.pk}/advance/").json()["hour"] == 1


def test_close_day_in_the_api_takes_the_day_it_means_so_a_retry_closes_nothing_twice(gm, event, day):
    api = APIClient()
    api.force_authenticate(gm)
    clock = api.get(f"/api/event-clocks/{event.pk}/").json()
    refused = api.post(f"/api/event-clocks/{event.pk}/close-day/", {}, format="json")
    assert refused.status_code == 400
    assert refused.json()["day"][0].startswith("Say which Day to close")
    for _ in range(2):
        response = api.post(f"/api/event-clocks/{event.pk}/close-day/", {"day": clock["day"]}, format="json")
        assert response.status_code == 200, response.json()
    assert list(event.days.order_by("number").values_list("number", "status")) == [(1, "closed"), (2, "open")]
    assert response.json()["day"] == event.days.get(number=2).pk


def test_the_map_picture_is_served_to_members_only(client, gm, player, outsider, campaign):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from campaign.map import picture

    board = make_map(campaign)
    map_services.tactical_map_set_picture(
        tactical_map=board, actor=gm,
        upload=SimpleUploadedFile("valley.png", picture.valley_picture(pixels_per_inch=4), content_type="image/png"))
    for user, status in ((gm, 200), (player, 200), (outsider, 404)):
        client.force_login(user)
        for url in (f"/c/{campaign.slug}/map/picture/", f"/c/{campaign.slug}/map/picture/thumbnail/"):
            response = client.get(url)
            assert response.status_code == status, (user, url)
            if status == 200:
                assert response["Content-Type"] == "image/jpeg"
                assert response["Cache-Control"].startswith("private")
    client.force_login(player)
    assert client.get(f"/c/{campaign.slug}/map/data/").json()["map"]["picture"].startswith(
        f"/c/{campaign.slug}/map/picture/?v=")
