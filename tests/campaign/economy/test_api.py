"""The economy API: commanders with purses, units, ledger history, upkeep forecasts, funding requests, Morale,
and the GM's grants, fines, arrears and closing a Day. 400 with field errors, 403 with the sentence for a role
refusal, 404 for anyone else's commander."""

import pytest

from campaign.economy import funding, upkeep
from campaign.economy import ledger as economy_ledger
from campaign.economy import selectors as economy_selectors
from campaign.economy import services as economy_services
from campaign.models import Day, FundingRequest, UpkeepArrears, UpkeepBill
from tests.campaign.factories import (
    ArmyDayActivityFactory,
    ArmyFactory,
    CommanderFactory,
    EventRecruitOfferFactory,
    ItemFactory,
    UnitFactory,
    UnitTypeFactory,
)
from tests.helpers import api_for

pytestmark = pytest.mark.django_db



@pytest.fixture
def led_unit(mine, day):
    army = ArmyFactory(commander=mine)
    unit = UnitFactory(commander=mine, army=army, unit_type=UnitTypeFactory(name="Spearmen", strength=2))
    ArmyDayActivityFactory(army=army, day=day)
    return unit


def test_commanders_list_mine_and_all_for_a_gm(player, gm, mine, theirs, outsider):
    names = [c["name"] for c in api_for(player).get("/api/commanders/").json()["results"]]
    assert names == ["Amira"]
    body = api_for(gm).get("/api/commanders/").json()["results"]
    assert {c["name"] for c in body} == {"Amira", "Bastian"}
    assert api_for(outsider).get("/api/commanders/").json()["results"] == []


def test_retrieve_has_the_purse_balance_and_others_are_404(player, gm, mine, theirs, outsider):
    body = api_for(player).get(f"/api/commanders/{mine.pk}/").json()
    assert (body["purse_balance"], body["player"], body["starting_morale"]) == (100, "player1", 5)
    assert api_for(player).get(f"/api/commanders/{theirs.pk}/").status_code == 404
    assert api_for(outsider).get(f"/api/commanders/{mine.pk}/").status_code == 404
    assert api_for(gm).get(f"/api/commanders/{theirs.pk}/").json()["purse_balance"] == 50


def test_ledger_history_is_own_only_with_balance_after(player, gm, mine, theirs):
    economy_ledger.ledger_fine(commander=mine, amount=30, reason="Brawling", actor=gm)
    rows = api_for(player).get(f"/api/commanders/{mine.pk}/ledger/").json()
    assert [(r["kind"], r["amount"], r["balance_after"], r["actor"]) for r in rows] == [
        ("fine", -30, 70, "gm1"), ("grant", 100, 100, None)]
    assert api_for(player).get(f"/api/commanders/{mine.pk}/ledger/?limit=1").json()[0]["reason"] == "Brawling"
    assert api_for(player).get(f"/api/commanders/{theirs.pk}/ledger/").status_code == 404
    assert api_for(gm).get(f"/api/commanders/{theirs.pk}/ledger/").status_code == 200


def test_forecast_for_the_open_day(player, mine, day, led_unit):
    body = api_for(player).get(f"/api/commanders/{mine.pk}/forecast/").json()
    assert (body["day"], body["gross"], body["total"]) == (day.pk, 10, 10)
    assert body["lines"] == [{"unit": led_unit.pk, "counted_strength": 2, "lunari": 10, "note": ""}]


def test_forecast_without_an_open_day_is_zero(player, mine):
    body = api_for(player).get(f"/api/commanders/{mine.pk}/forecast/").json()
    assert (body["day"], body["total"], body["lines"]) == (None, 0, [])


def test_upkeep_day_shows_visible_forecasts_and_only_a_gm_closes_it(player, gm, mine, theirs, day, led_unit):
    army = ArmyFactory(commander=theirs)
    UnitFactory(commander=theirs, army=army, unit_type=UnitTypeFactory(strength=1))
    ArmyDayActivityFactory(army=army, day=day)
    assert [r["commander"] for r in api_for(player).get(f"/api/upkeep-days/{day.pk}/").json()] == [mine.pk]
    assert len(api_for(gm).get(f"/api/upkeep-days/{day.pk}/").json()) == 2
    refused = api_for(player).post(f"/api/upkeep-days/{day.pk}/close/")
    assert refused.status_code == 403
    assert "Only a game master" in refused.json()["detail"]
    closed = api_for(gm).post(f"/api/upkeep-days/{day.pk}/close/").json()
    assert (closed["already_closed"], closed["bills"], closed["upkeep_paid"], closed["arrears"]) == (False, 2, 15, 0)
    assert closed["next_day"] == Day.objects.get(event=day.event, number=2).pk
    again = api_for(gm).post(f"/api/upkeep-days/{day.pk}/close/").json()
    assert again["already_closed"] is True
    assert UpkeepBill.objects.filter(day=day).count() == 2


def test_upkeep_day_of_another_campaign_is_404(outsider, day):
    assert api_for(outsider).get(f"/api/upkeep-days/{day.pk}/").status_code == 404
    assert api_for(outsider).post(f"/api/upkeep-days/{day.pk}/close/").status_code == 404


def test_units_list_and_recruit(player, mine, theirs, event):
    spearmen = UnitTypeFactory(name="Spearmen", strength=2)
    offer = EventRecruitOfferFactory(event=event, unit_type=spearmen)
    UnitFactory(commander=theirs)
    created = api_for(player).post(f"/api/commanders/{mine.pk}/recruit/", {"offer": offer.pk}, format="json")
    assert created.status_code == 201
    assert (created.json()["unit_type"], created.json()["strength"]) == ("Spearmen", 2)
    units = api_for(player).get("/api/units/").json()["results"]
    assert [u["commander"] for u in units] == [mine.pk]
    assert api_for(player).get(f"/api/commanders/{mine.pk}/").json()["purse_balance"] == 70


def test_recruit_refusals(player, mine, theirs, event):
    paladin = EventRecruitOfferFactory(event=event, unit_type=UnitTypeFactory(name="Paladin", strength=5))
    poor = api_for(player).post(f"/api/commanders/{mine.pk}/recruit/", {"offer": paladin.pk}, format="json")
    assert poor.status_code == 400
    assert poor.json()["detail"] == "Not enough lunari: recruiting costs 150, Amira has 100."
    bad = api_for(player).post(f"/api/commanders/{mine.pk}/recruit/", {"offer": 10**6}, format="json")
    assert bad.status_code == 400
    assert "offer" in bad.json()
    assert api_for(player).post(f"/api/commanders/{theirs.pk}/recruit/", {"offer": paladin.pk},
                                format="json").status_code == 404


def test_train_with_weapon_cards_and_refusals(player, mine, theirs, event):
    unit = UnitFactory(commander=mine, unit_type=UnitTypeFactory(strength=2))
    swords = [ItemFactory(commander=mine) for _ in range(4)]
    too_many = api_for(player).post(f"/api/units/{unit.pk}/train/",
                                    {"weapon_items": [s.pk for s in swords]}, format="json")
    assert too_many.status_code == 400
    assert "destroy at most 3, not 4" in too_many.json()["detail"]
    theirs_sword = ItemFactory(commander=theirs)
    foreign = api_for(player).post(f"/api/units/{unit.pk}/train/", {"weapon_items": [theirs_sword.pk]},
                                   format="json")
    assert foreign.status_code == 400
    assert "weapon_items" in foreign.json()
    trained = api_for(player).post(f"/api/units/{unit.pk}/train/", {"weapon_items": [swords[0].pk]}, format="json")
    assert trained.status_code == 201
    assert (trained.json()["strength_to"], trained.json()["paid"]) == (3, 25)
    again = api_for(player).post(f"/api/units/{unit.pk}/train/", {}, format="json")
    assert again.status_code == 400
    assert "already trained" in again.json()["detail"]
    assert api_for(player).post(f"/api/units/{UnitFactory(commander=theirs).pk}/train/", {},
                                format="json").status_code == 404


def test_name_a_retinue(player, gm, mine, event):
    spearmen = UnitTypeFactory(strength=2)
    EventRecruitOfferFactory(event=event, unit_type=spearmen)
    unit = economy_services.unit_recruit(commander=mine, unit_type=spearmen, event=event, paid_by=mine, actor=player)
    assert api_for(player).post(f"/api/units/{unit.pk}/name/", {"name": "Wardens"},
                                format="json").json()["name"] == "Wardens"
    refused = api_for(gm).post(f"/api/units/{unit.pk}/name/", {"name": "Mine"}, format="json")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Only Amira, whose retinue this is, may name it."
    assert "name" in api_for(player).post(f"/api/units/{unit.pk}/name/", {}, format="json").json()


def test_buy_morale(player, mine, day):
    mine.morale = 3
    mine.save(update_fields=["morale"])
    body = api_for(player).post(f"/api/commanders/{mine.pk}/morale/", {"points": 2}, format="json").json()
    assert (body["morale"], body["purse_balance"]) == (5, 90)
    again = api_for(player).post(f"/api/commanders/{mine.pk}/morale/", {"points": 1}, format="json")
    assert again.status_code == 400
    assert "once per Day" in again.json()["detail"]
    assert "points" in api_for(player).post(f"/api/commanders/{mine.pk}/morale/", {"points": 0},
                                            format="json").json()


def test_funding_requests_create_accept_decline_withdraw(player, mine, theirs, outsider):
    other = api_for(theirs.player)
    created = api_for(player).post("/api/funding-requests/", {"requester": mine.pk, "funder": theirs.pk,
                                                              "amount": 30, "reason": "Oats"}, format="json")
    assert created.status_code == 201
    request_id = created.json()["id"]
    assert api_for(outsider).get(f"/api/funding-requests/{request_id}/").status_code == 404
    refused = api_for(player).post(f"/api/funding-requests/{request_id}/accept/", format="json")
    assert refused.status_code == 403
    accepted = other.post(f"/api/funding-requests/{request_id}/accept/", {"response": "Gladly"}, format="json")
    assert (accepted.json()["status"], accepted.json()["response"]) == ("accepted", "Gladly")
    assert economy_ledger.ledger_purse_balance(commander=mine) == 130
    second = funding.funding_request_create(requester=mine, funder=theirs, amount=5, reason="x", actor=None)
    assert other.post(f"/api/funding-requests/{second.pk}/decline/", format="json").json()["status"] == "declined"
    third = funding.funding_request_create(requester=mine, funder=theirs, amount=5, reason="y", actor=None)
    assert api_for(player).post(f"/api/funding-requests/{third.pk}/withdraw/").json()["status"] == "withdrawn"
    assert FundingRequest.objects.filter(status="pending").count() == 0


def test_funding_request_bad_input(player, mine, theirs):
    as_theirs = api_for(player).post("/api/funding-requests/", {"requester": theirs.pk, "funder": mine.pk,
                                                                "amount": 5, "reason": "x"}, format="json")
    assert as_theirs.status_code == 400
    assert "requester" in as_theirs.json()
    zero = api_for(player).post("/api/funding-requests/", {"requester": mine.pk, "funder": theirs.pk,
                                                           "amount": 0, "reason": "x"}, format="json")
    assert zero.status_code == 400
    assert "amount" in zero.json()
    to_self = api_for(player).post("/api/funding-requests/", {"requester": mine.pk, "funder": mine.pk,
                                                              "amount": 5, "reason": "x"}, format="json")
    assert to_self.status_code == 400
    assert "funder" in to_self.json()


def test_grant_and_fine_are_for_game_masters(player, gm, mine, theirs):
    refused = api_for(player).post(f"/api/commanders/{mine.pk}/grant/", {"amount": 500, "reason": "Me"},
                                   format="json")
    assert refused.status_code == 403
    assert "Only a game master" in refused.json()["detail"]
    assert api_for(player).post(f"/api/commanders/{theirs.pk}/grant/", {"amount": 5, "reason": "x"},
                                format="json").status_code == 404
    granted = api_for(gm).post(f"/api/commanders/{mine.pk}/grant/", {"amount": 20, "reason": "Tourney"},
                               format="json").json()
    assert granted["purse_balance"] == 120
    fined = api_for(gm).post(f"/api/commanders/{mine.pk}/fine/", {"amount": 500, "reason": "Treason"},
                             format="json")
    assert fined.status_code == 400
    assert "Fine at most 120" in fined.json()["detail"]
    assert "reason" in api_for(gm).post(f"/api/commanders/{mine.pk}/fine/", {"amount": 5}, format="json").json()


def test_arrears_list_settle_forgive(player, gm, mine, theirs, day):
    poor = CommanderFactory(campaign=mine.campaign, player=player, name="Poor", lunari=0)
    army = ArmyFactory(commander=poor)
    UnitFactory(commander=poor, army=army)
    ArmyDayActivityFactory(army=army, day=day)
    upkeep.day_close(day=day, actor=None)
    debt = UpkeepArrears.objects.get(commander=poor)
    assert [a["id"] for a in api_for(player).get("/api/arrears/?status=open").json()["results"]] == [debt.pk]
    assert api_for(theirs.player).get(f"/api/arrears/{debt.pk}/").status_code == 404
    assert api_for(player).post(f"/api/arrears/{debt.pk}/settle/", {"paid_by": mine.pk},
                                format="json").status_code == 403
    settled = api_for(gm).post(f"/api/arrears/{debt.pk}/settle/", {"paid_by": mine.pk}, format="json").json()
    assert settled["status"] == "settled"
    assert economy_ledger.ledger_purse_balance(commander=mine) == 90
    again = api_for(gm).post(f"/api/arrears/{debt.pk}/forgive/", {"note": "x"}, format="json")
    assert again.status_code == 400
    assert "already settled" in again.json()["detail"]


def test_schema_lists_the_economy_endpoints(gm):
    schema = api_for(gm).get("/api/schema/", {"format": "json"}).json()
    for path in ("/api/commanders/{id}/ledger/", "/api/units/{id}/train/", "/api/funding-requests/{id}/accept/",
                 "/api/upkeep-days/{id}/close/", "/api/arrears/{id}/settle/", "/api/commanders/{id}/grant/"):
        assert path in schema["paths"]


# --- who pays, and the upkeep Morale pledge ------------------------------------------------------------------


@pytest.fixture
def second(campaign, player):
    return CommanderFactory(campaign=campaign, player=player, name="Corin", lunari=100)


def test_recruit_and_train_paid_by_another_of_my_commanders(player, mine, second, event):
    spearmen = UnitTypeFactory(name="Spearmen", strength=2)
    offer = EventRecruitOfferFactory(event=event, unit_type=spearmen)
    client = api_for(player)
    response = client.post(f"/api/commanders/{mine.pk}/recruit/", {"offer": offer.pk, "paid_by": second.pk},
                           format="json")
    assert response.status_code == 201
    unit = mine.units.get()
    sword = ItemFactory(commander=second)
    response = client.post(f"/api/units/{unit.pk}/train/", {"paid_by": second.pk, "weapon_items": [sword.pk]},
                           format="json")
    assert response.status_code == 201
    assert response.json()["paid"] == 25
    assert (economy_ledger.ledger_purse_balance(commander=mine),
            economy_ledger.ledger_purse_balance(commander=second)) == (100, 45)
    assert economy_selectors.unit_retinue_owner(unit=unit) == second


def test_a_player_cannot_pay_from_someone_elses_purse(player, mine, theirs, event):
    offer = EventRecruitOfferFactory(event=event, unit_type=UnitTypeFactory(strength=1))
    unit = UnitFactory(commander=mine)
    client = api_for(player)
    refused = "Only Bastian's player or a game master may do that for Bastian."
    response = client.post(f"/api/commanders/{mine.pk}/recruit/", {"offer": offer.pk, "paid_by": theirs.pk},
                           format="json")
    assert (response.status_code, response.json()["detail"]) == (403, refused)
    response = client.post(f"/api/units/{unit.pk}/train/", {"paid_by": theirs.pk}, format="json")
    assert (response.status_code, response.json()["detail"]) == (403, refused)
    their_sword = ItemFactory(commander=theirs)
    response = client.post(f"/api/units/{unit.pk}/train/", {"weapon_items": [their_sword.pk]}, format="json")
    assert response.status_code == 400  # another player's item card is not even found
    assert economy_ledger.ledger_purse_balance(commander=theirs) == 50
    assert mine.units.count() == 1


def test_a_gm_pays_from_any_commander(gm, mine, theirs, event):
    offer = EventRecruitOfferFactory(event=event, unit_type=UnitTypeFactory(strength=1))
    response = api_for(gm).post(f"/api/commanders/{mine.pk}/recruit/", {"offer": offer.pk, "paid_by": theirs.pk},
                                format="json")
    assert response.status_code == 201
    assert economy_ledger.ledger_purse_balance(commander=theirs) == 40


def test_pledge_morale_and_the_forecast_shows_it(player, gm, mine, theirs, day, led_unit):
    client = api_for(player)
    response = client.post(f"/api/commanders/{mine.pk}/pledge/", {"points": 1}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["morale_pledged"], body["morale_spent"], body["morale_offset"], body["total"]) == (1, 1, 5, 5)
    assert client.get(f"/api/commanders/{mine.pk}/forecast/").json()["morale_pledged"] == 1
    day_rows = api_for(gm).get(f"/api/upkeep-days/{day.pk}/").json()
    assert [(r["commander"], r["morale_pledged"], r["total"]) for r in day_rows] == [(mine.pk, 1, 5)]
    response = client.post(f"/api/commanders/{mine.pk}/pledge/", {"points": 9}, format="json")
    assert response.status_code == 400
    assert response.json()["points"] == ["Amira has 5 Morale: pledge at most that."]
    assert client.post(f"/api/commanders/{theirs.pk}/pledge/", {"points": 1}, format="json").status_code == 404


def test_pledge_without_an_open_day_is_refused(player, mine, event):
    response = api_for(player).post(f"/api/commanders/{mine.pk}/pledge/", {"points": 1}, format="json")
    assert response.status_code == 400
    assert "No Day is open" in response.json()["detail"]


def test_fair_escape_through_the_api(player, mine, theirs):
    """1 Influence by default; a unit that is not the commander's is a 400 naming the field; another player's
    commander is not found."""
    mine.influence = 1
    mine.save(update_fields=["influence"])
    client = api_for(player)
    assert client.post(f"/api/commanders/{mine.pk}/fair-escape/", {}, format="json").json()["influence"] == 0
    again = client.post(f"/api/commanders/{mine.pk}/fair-escape/", {}, format="json")
    assert again.status_code == 400
    assert "no Influence left for Fair Escape" in again.json()["detail"]
    stranger = UnitFactory(commander=theirs)
    wrong = client.post(f"/api/commanders/{mine.pk}/fair-escape/", {"retinue_unit": stranger.pk}, format="json")
    assert "retinue_unit" in wrong.json()
    assert client.post(f"/api/commanders/{theirs.pk}/fair-escape/", {}, format="json").status_code == 404
