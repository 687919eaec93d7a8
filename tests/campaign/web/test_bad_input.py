"""Bad input from people and phones is answered with a sentence or a 404, never a 500 (the hardening issue's
examples): numbers that are not ids, ids past the database's bigint, absurd JSON, NUL bytes, unbounded
amounts, deleting what others still need, a location without a size."""

from __future__ import annotations

import json

import pytest

from campaign.economy import ledger, upkeep
from campaign.models import Campaign, Event, FundingRequest
from campaign.web.numbers import parse_count, parse_id
from tests.campaign.factories import ArmyDayActivityFactory, ArmyFactory, CommanderFactory, UnitFactory
from tests.helpers import api_for

pytestmark = pytest.mark.django_db
HUGE = "99999999999999999999"


@pytest.mark.parametrize("text", ["²", "1e3", "-4", " 7", "", HUGE, None, "٣", "0x10"])
def test_what_is_not_an_id_reads_as_none(text):
    assert parse_id(text) is None


def test_ids_and_counts_read_as_numbers():
    assert parse_id("42") == 42
    assert parse_id("9" * 18) == int("9" * 18)
    assert parse_count("700", default=100, maximum=500) == 500
    assert parse_count("²", default=100, maximum=500) == 100


@pytest.mark.parametrize("query", [f"limit={HUGE}&offset={HUGE}", "limit=²&offset=²", "campaign=²",
                                   f"campaign={HUGE}", "limit=-5&offset=-1"])
def test_list_parameters_past_any_database_integer_are_not_an_error(gm, campaign, query):
    CommanderFactory(campaign=campaign)
    for path in ("/api/commanders/", "/api/units/", "/api/funding-requests/", "/api/armies/", "/api/unit-types/"):
        response = api_for(gm).get(f"{path}?{query}")
        assert response.status_code == 200, (path, response.content[:200])


def test_the_funding_request_list_answers_everyone(gm, player, campaign):
    CommanderFactory(campaign=campaign, player=player)
    for user in (gm, player):
        assert api_for(user).get("/api/funding-requests/").status_code == 200


@pytest.mark.parametrize("pk", ["abc", HUGE, "²", "1.5"])
def test_ids_in_api_paths_that_are_not_ids_are_404(gm, pk):
    for path in ("maps", "commanders", "events", "armies", "matches", "battles", "event-clocks", "unit-types"):
        assert api_for(gm).get(f"/api/{path}/{pk}/").status_code == 404, path


def test_ids_in_page_paths_past_bigint_are_404(client, gm, campaign):
    client.force_login(gm)
    for path in (f"/c/{campaign.slug}/commanders/{HUGE}/", f"/c/{campaign.slug}/battles/{HUGE}/",
                 f"/c/{campaign.slug}/matches/{HUGE}/"):
        assert client.get(path).status_code == 404, path


def test_a_ledger_limit_that_only_looks_like_digits_gets_the_default(gm, campaign):
    commander = CommanderFactory(campaign=campaign)
    response = api_for(gm).get(f"/api/commanders/{commander.pk}/ledger/?limit=²")
    assert response.status_code == 200


def test_json_nested_too_deeply_is_a_400_with_a_sentence(gm, campaign):
    body = "[" * 100_000 + "]" * 100_000
    response = api_for(gm).generic("POST", "/api/funding-requests/", body, content_type="application/json")
    assert response.status_code == 400
    assert "nested too deeply" in response.json()["detail"]


def test_nul_bytes_in_text_are_refused_with_a_sentence(client, gm, player, campaign):
    mine = CommanderFactory(campaign=campaign, player=player)
    other = CommanderFactory(campaign=campaign)
    api = api_for(player)
    as_json = api.post("/api/funding-requests/", {"requester": mine.pk, "funder": other.pk, "amount": 5,
                                                  "reason": "a\x00b"}, format="json")
    as_form = api.patch(f"/api/memberships/{player.memberships.get().pk}/", "username=a%00b",
                        content_type="application/x-www-form-urlencoded")
    in_query = api.get("/api/commanders/?campaign=1%00")
    for response in (as_json, as_form, in_query):
        assert response.status_code == 400
        assert response.json()["detail"].startswith("Remove the NUL character")
    client.force_login(player)
    page = client.post(f"/c/{campaign.slug}/commanders/{mine.pk}/funding/",
                       {"funder": other.pk, "amount": 5, "reason": "a\x00b"}, follow=True)
    assert "Null characters are not allowed" in page.content.decode()  # a multipart form: its field refuses
    assert not FundingRequest.objects.filter(reason__startswith="a").exists()
    allowed = api.post("/api/funding-requests/", {"requester": mine.pk, "funder": other.pk, "amount": 5,
                                                  "reason": "50%00 of the pot"}, format="json")
    assert allowed.status_code == 201, "a literal %00 in JSON text is just text"


def test_an_amount_past_any_purse_is_refused_on_the_page_and_the_api(client, gm, player, campaign):
    mine = CommanderFactory(campaign=campaign, player=player)
    other = CommanderFactory(campaign=campaign)
    client.force_login(player)
    page = client.post(f"/c/{campaign.slug}/commanders/{mine.pk}/funding/",
                       {"funder": other.pk, "amount": HUGE, "reason": "Everything"}, follow=True)
    assert page.status_code == 200
    assert "less than or equal to 1000000" in page.content.decode()
    api = api_for(player).post("/api/funding-requests/", {"requester": mine.pk, "funder": other.pk,
                                                          "amount": int(HUGE), "reason": "Everything"}, format="json")
    assert api.status_code == 400
    assert "amount" in api.json()


def test_deleting_an_event_whose_day_was_billed_is_a_409_that_says_why(gm, campaign, event, day):
    commander = CommanderFactory(campaign=campaign)
    army = ArmyFactory(commander=commander)
    UnitFactory(commander=commander, army=army)
    ArmyDayActivityFactory(army=army, day=day)
    ledger.ledger_grant(commander=commander, amount=50, reason="Purse", actor=None)
    upkeep.day_close(day=day, actor=None)
    response = api_for(gm).delete(f"/api/events/{event.pk}/")
    assert response.status_code == 409, response.content
    assert "still refer to it" in response.json()["detail"]
    assert Event.objects.filter(pk=event.pk).exists()


def test_deleting_a_campaign_with_a_ledger_is_a_409_and_deletes_nothing(gm, campaign):
    commander = CommanderFactory(campaign=campaign)
    ledger.ledger_grant(commander=commander, amount=50, reason="Purse", actor=None)
    response = api_for(gm).delete(f"/api/campaigns/{campaign.pk}/")
    assert response.status_code == 409, response.content
    assert Campaign.objects.filter(pk=campaign.pk).exists()
    assert ledger.ledger_purse_balance(commander=commander) == 50


def test_a_location_without_a_size_is_a_camp_as_the_schema_says(gm, campaign):
    from campaign.map import services as map_services

    tactical_map = map_services.tactical_map_get_or_create(campaign=campaign, actor=None)
    response = api_for(gm).post("/api/locations/", json.dumps({"map": tactical_map.pk, "name": "Ford", "x": 1,
                                                                "y": 1}), content_type="application/json")
    assert response.status_code == 201, response.content
    assert response.json()["size"] == "camp"
