"""The API's conventions (#17 item 7): no credentials is a 401 with a challenge, every resource with detail
routes has a list route, and every error answers one JSON shape with a `detail` sentence."""

import pytest
from rest_framework.test import APIClient

from tests.campaign.factories import (
    ArmyDayActivityFactory,
    ArmyFactory,
    CommanderFactory,
    EventFactory,
    UnitFactory,
    open_day,
)
from tests.helpers import api_for

pytestmark = pytest.mark.django_db


def test_no_credentials_is_a_401_with_a_token_challenge(campaign):
    response = APIClient().get("/api/campaigns/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json() == {"detail": "Authentication credentials were not provided."}


def test_a_bad_token_is_a_401_too(campaign):
    response = APIClient().get("/api/campaigns/", HTTP_AUTHORIZATION="Token not-a-token")
    assert (response.status_code, response["WWW-Authenticate"]) == (401, "Token")


def test_every_resource_with_detail_routes_has_a_list_route_that_answers(gm, day):
    from config.urls import router

    names = {url.name for url in router.urls}
    client = api_for(gm)
    for prefix, _viewset, basename in router.registry:
        if f"{basename}-detail" not in names:
            continue
        assert f"{basename}-list" in names, f"/api/{prefix}/ has detail routes but no list route"
        response = client.get(f"/api/{prefix}/")
        assert response.status_code == 200, f"GET /api/{prefix}/ answered {response.status_code}"


def test_event_clocks_list_the_clocks_of_my_events_only(player, outsider, event, day):
    later = EventFactory(campaign=event.campaign, name="Autumn Muster")
    elsewhere = outsider.memberships.get().campaign
    EventFactory(campaign=elsewhere, name="Theirs")
    body = api_for(player).get("/api/event-clocks/").json()
    assert [(row["event"], row["day"]) for row in body["results"]] == [(event.pk, day.pk), (later.pk, None)]
    assert api_for(player).get(f"/api/event-clocks/?campaign={elsewhere.pk}").json()["results"] == []


def test_upkeep_days_list_each_day_with_the_forecasts_i_may_see(player, gm, campaign, day):
    mine = CommanderFactory(campaign=campaign, player=player, name="Amira")
    theirs = CommanderFactory(campaign=campaign, name="Bastian")
    for commander in (mine, theirs):
        army = ArmyFactory(commander=commander)
        UnitFactory(commander=commander, army=army)
        ArmyDayActivityFactory(army=army, day=day)
    second = open_day(EventFactory(campaign=campaign, name="Autumn Muster"))
    rows = api_for(player).get(f"/api/upkeep-days/?campaign={campaign.pk}").json()["results"]
    assert [row["day"] for row in rows] == [second.pk, day.pk]
    assert [[forecast["commander"] for forecast in row["forecasts"]] for row in rows] == [[], [mine.pk]]
    assert len(api_for(gm).get("/api/upkeep-days/").json()["results"][1]["forecasts"]) == 2


def test_an_unknown_api_address_is_a_json_404(gm):
    response = api_for(gm).get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert "/api/docs/" in response.json()["detail"]


def test_a_service_refusal_is_one_sentence(player, campaign, day):
    mine = CommanderFactory(campaign=campaign, player=player, name="Amira", morale=3)
    response = api_for(player).post(f"/api/commanders/{mine.pk}/morale/", {"points": 1}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "Not enough lunari: 1 Morale costs 5, Amira has 0."}


def test_field_errors_keep_each_field_and_say_them_in_detail(player, campaign, day):
    mine = CommanderFactory(campaign=campaign, player=player, name="Amira", morale=5)
    response = api_for(player).post(f"/api/commanders/{mine.pk}/pledge/", {"points": 9}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "points: Amira has 5 Morale: pledge at most that.",
                               "points": ["Amira has 5 Morale: pledge at most that."]}


def test_a_role_refusal_is_a_403_with_its_sentence(player, day):
    response = api_for(player).post(f"/api/upkeep-days/{day.pk}/close/")
    assert response.status_code == 403
    assert list(response.json()) == ["detail"]
    assert "game master" in response.json()["detail"]
