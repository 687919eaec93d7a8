"""Economy pages: a commander's purse, ledger, units, training, recruiting, upkeep, Morale and funding; the GM's
economy page (purses, arrears, grants, fines, closing the Day) and the audit trail. Refusals are the services'
sentences shown as messages; another player's commander is a 404."""

import pytest

from campaign import tasks
from campaign.economy import funding, upkeep
from campaign.economy import ledger as economy_ledger
from campaign.economy import selectors as economy_selectors
from campaign.economy import services as economy_services
from campaign.models import (
    AuditEntry,
    Day,
    FundingRequest,
    Item,
    LedgerTransaction,
    Unit,
    UpkeepArrears,
    UpkeepBill,
)
from tests.campaign.factories import (
    ArmyDayActivityFactory,
    ArmyFactory,
    CommanderFactory,
    EventRecruitOfferFactory,
    ItemFactory,
    UnitFactory,
    UnitTypeFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def spearmen():
    return UnitTypeFactory(name="Spearmen", strength=2, role="Aggressor", path="Steel", traits=["Reach"],
                           text="Reach: strikes first.")


@pytest.fixture
def led_unit(mine, day, spearmen):
    """A Strength 2 unit in an army led today: 10 lunari of upkeep."""
    army = ArmyFactory(commander=mine, name="Ford Guard")
    unit = UnitFactory(commander=mine, unit_type=spearmen, army=army)
    ArmyDayActivityFactory(army=army, day=day)
    return unit


def url(campaign, commander, tail=""):
    return f"/c/{campaign.slug}/commanders/{commander.pk}/{tail}"


def page_of(response) -> str:
    return response.content.decode()


# --- seeing commanders ------------------------------------------------------------------------------------


def test_my_commanders_lists_only_mine_and_a_gm_sees_all(client, campaign, player, gm, mine, theirs):
    client.force_login(player)
    page = page_of(client.get(f"/c/{campaign.slug}/commanders/"))
    assert "Amira" in page
    assert "Bastian" not in page
    client.force_login(gm)
    page = page_of(client.get(f"/c/{campaign.slug}/commanders/"))
    assert "Amira" in page
    assert "Bastian" in page
    assert "economy-link" in page


def test_campaign_page_links_to_commanders_and_for_gms_the_economy(client, campaign, player, gm):
    client.force_login(player)
    page = page_of(client.get(f"/c/{campaign.slug}/"))
    assert "commanders-link" in page
    assert "economy-link" not in page
    client.force_login(gm)
    assert "economy-link" in page_of(client.get(f"/c/{campaign.slug}/"))


def test_commander_page_shows_purse_ledger_units_forecast_and_recruit_list(client, campaign, player, mine, event,
                                                                           led_unit, spearmen):
    ItemFactory(commander=mine, name="Notched Scimitar")
    EventRecruitOfferFactory(event=event, unit_type=UnitTypeFactory(name="Archers", strength=2))
    client.force_login(player)
    page = page_of(client.get(url(campaign, mine)))
    assert 'data-testid="purse-balance">100<' in page
    assert "Starting purse" in page
    assert "balance 100" in page
    assert "Spearmen" in page
    assert "Reach" in page
    assert "Aggressor" in page
    assert "Steel" in page
    assert "Trained 0 of 3" in page
    assert "Train to 3 · 30 lunari" in page
    assert "Notched Scimitar" in page
    assert "at most 3" in page  # weapon cards pay at most half of 30
    assert 'data-testid="forecast-total">10<' in page
    assert "Archers" in page
    assert "Recruit · 30" in page
    assert "not a retinue" in page


@pytest.mark.parametrize("tail", ["", "cards.pdf"])
def test_another_players_commander_is_a_404_and_a_gm_sees_it(client, campaign, player, gm, theirs, tail):
    client.force_login(player)
    assert client.get(url(campaign, theirs, tail)).status_code == 404
    client.force_login(gm)
    assert client.get(url(campaign, theirs, tail)).status_code == 200


def test_a_gm_run_commander_is_hidden_from_players(client, campaign, player, gm):
    emir = CommanderFactory(campaign=campaign, name="Emir Qasim")
    client.force_login(player)
    assert client.get(url(campaign, emir)).status_code == 404


def test_an_outsider_gets_404_for_the_campaign(client, campaign, outsider, mine):
    client.force_login(outsider)
    assert client.get(f"/c/{campaign.slug}/commanders/").status_code == 404
    assert client.get(url(campaign, mine)).status_code == 404
    assert client.get(f"/c/{campaign.slug}/economy/").status_code == 404


def test_a_player_cannot_touch_another_commanders_purse(client, campaign, player, theirs, event, day, spearmen):
    offer = EventRecruitOfferFactory(event=event, unit_type=spearmen)
    unit = UnitFactory(commander=theirs, unit_type=spearmen)
    request = FundingRequest.objects.create(campaign=campaign, requester=theirs,
                                            funder=CommanderFactory(campaign=campaign), amount=5, reason="x")
    client.force_login(player)
    posts = [
        (url(campaign, theirs, "recruit/"), {"offer": offer.pk}),
        (url(campaign, theirs, f"units/{unit.pk}/train/"), {}),
        (url(campaign, theirs, f"units/{unit.pk}/name/"), {"name": "Mine now"}),
        (url(campaign, theirs, "morale/"), {"points": 1}),
        (url(campaign, theirs, "funding/"), {"funder": theirs.pk, "amount": 5, "reason": "x"}),
        (url(campaign, theirs, f"funding/{request.pk}/withdraw/"), {}),
    ]
    for path, data in posts:
        assert client.post(path, data).status_code == 404, path
    assert economy_ledger.ledger_purse_balance(commander=theirs) == 50
    assert theirs.units.count() == 1


# --- recruiting and training ----------------------------------------------------------------------------


def test_recruit_pays_and_adds_the_unit(client, campaign, player, mine, event, spearmen):
    offer = EventRecruitOfferFactory(event=event, unit_type=spearmen)
    client.force_login(player)
    response = client.post(url(campaign, mine, "recruit/"), {"offer": offer.pk}, follow=True)
    assert "Spearmen joined Amira&#x27;s reserve." in page_of(response)
    assert mine.units.get().unit_type == spearmen
    assert economy_ledger.ledger_purse_balance(commander=mine) == 70


def test_what_the_purse_cannot_afford_is_disabled_with_the_reason(client, campaign, player, mine, event, day,
                                                                  led_unit, spearmen):
    """Amira holds 100: Knights at 120 and training to 3 (30) after a fine to 25 cannot be paid; Spearmen (30)
    can once the purse is back. Affordable spending asks first, naming the price."""
    EventRecruitOfferFactory(event=event, unit_type=UnitTypeFactory(name="Knights", strength=4), gm_price=120)
    offer = EventRecruitOfferFactory(event=event, unit_type=spearmen)
    mine.morale = mine.starting_morale - 2
    mine.save(update_fields=["morale"])
    client.force_login(player)
    page = page_of(client.get(url(campaign, mine)))
    assert 'hx-confirm="Buy Morale at 5 lunari a point?"' in page
    assert '<button type="button" disabled aria-describedby="short-' in page
    assert "20 lunari short: the purse holds 100." in page
    assert 'hx-confirm="Recruit Spearmen for 30 lunari?"' in page
    assert 'hx-confirm="Train Spearmen to Strength 3 for 30 lunari?"' in page
    economy_ledger.ledger_fine(commander=mine, amount=97, reason="Brawling", actor=None)
    page = page_of(client.get(url(campaign, mine)))
    assert "27 lunari short: the purse holds 3." in page  # Spearmen, and training for 30 as well
    assert "A point costs 5: the purse holds 3." in page
    assert f'value="{offer.pk}" class="primary"' not in page


def test_recruit_refusal_shows_the_sentence(client, campaign, player, mine, event):
    offer = EventRecruitOfferFactory(event=event, unit_type=UnitTypeFactory(name="Paladin", strength=5))
    client.force_login(player)
    response = client.post(url(campaign, mine, "recruit/"), {"offer": offer.pk}, follow=True)
    assert "Not enough lunari: recruiting costs 150, Amira has 100." in page_of(response)
    assert not mine.units.exists()


def test_recruit_from_another_events_list_is_refused(client, campaign, player, mine, event, spearmen):
    offer = EventRecruitOfferFactory(unit_type=spearmen)  # an Event of another campaign
    client.force_login(player)
    response = client.post(url(campaign, mine, "recruit/"), {"offer": offer.pk}, follow=True)
    assert "Pick a unit from this Event" in page_of(response)


def test_train_with_a_weapon_card_takes_5_off(client, campaign, player, mine, event, spearmen):
    unit = UnitFactory(commander=mine, unit_type=spearmen)
    sword = ItemFactory(commander=mine)
    client.force_login(player)
    response = client.post(url(campaign, mine, f"units/{unit.pk}/train/"), {"weapon_items": [sword.pk]},
                           follow=True)
    assert "trained to Strength 3, for 25 lunari" in page_of(response)
    unit.refresh_from_db()
    assert (unit.strength, unit.trainings) == (3, 1)
    assert Item.objects.get(pk=sword.pk).destroyed_at is not None
    assert economy_ledger.ledger_purse_balance(commander=mine) == 75
    assert "Trained at" in page_of(client.get(url(campaign, mine)))  # once per Event


def test_train_refusal_shows_the_sentence(client, campaign, player, event, spearmen):
    poor = CommanderFactory(campaign=campaign, player=player, name="Poor", lunari=25)
    unit = UnitFactory(commander=poor, unit_type=UnitTypeFactory(strength=3))
    client.force_login(player)
    response = client.post(url(campaign, poor, f"units/{unit.pk}/train/"), follow=True)
    assert "Not enough lunari: training costs 40, Poor has 25." in page_of(response)


def test_a_unit_of_another_commander_cannot_be_trained_through_my_page(client, campaign, player, mine, theirs):
    unit = UnitFactory(commander=theirs)
    client.force_login(player)
    assert client.post(url(campaign, mine, f"units/{unit.pk}/train/")).status_code == 404


def test_only_the_owner_names_a_retinue(client, campaign, player, gm, mine, event, spearmen):
    EventRecruitOfferFactory(event=event, unit_type=spearmen)
    unit = economy_services.unit_recruit(commander=mine, unit_type=spearmen, event=event, paid_by=mine, actor=player)
    client.force_login(player)
    page = page_of(client.get(url(campaign, mine)))
    assert "Retinue of Amira" in page
    assert "Name this retinue" in page
    response = client.post(url(campaign, mine, f"units/{unit.pk}/name/"), {"name": "Wardens"}, follow=True)
    assert "The retinue is now called Wardens." in page_of(response)
    client.force_login(gm)
    assert "Name this retinue" not in page_of(client.get(url(campaign, mine)))
    response = client.post(url(campaign, mine, f"units/{unit.pk}/name/"), {"name": "GM's"}, follow=True)
    assert "Only Amira, whose retinue this is, may name it." in page_of(response)


def test_naming_a_unit_that_is_no_retinue_is_refused(client, campaign, player, mine):
    unit = UnitFactory(commander=mine)
    client.force_login(player)
    response = client.post(url(campaign, mine, f"units/{unit.pk}/name/"), {"name": "Mine"}, follow=True)
    assert "nobody&#x27;s retinue" in page_of(response)


# --- Morale and funding -----------------------------------------------------------------------------------


def test_buy_morale_once_per_day(client, campaign, player, mine, day):
    mine.morale = 2
    mine.save(update_fields=["morale"])
    client.force_login(player)
    page = page_of(client.get(url(campaign, mine)))
    assert "5 lunari a point" in page
    assert "Points (at most 3)" in page
    response = client.post(url(campaign, mine, "morale/"), {"points": 2}, follow=True)
    assert "Amira bought 2 Morale: now 4." in page_of(response)
    assert economy_ledger.ledger_purse_balance(commander=mine) == 90
    response = client.post(url(campaign, mine, "morale/"), {"points": 1}, follow=True)
    assert "Morale can be bought once per Day" in page_of(response)


def test_funding_request_create_accept_decline_withdraw(client, campaign, player, mine, theirs):
    client.force_login(player)
    response = client.post(url(campaign, mine, "funding/"), {"funder": theirs.pk, "amount": 30, "reason": "Upkeep"},
                           follow=True)
    assert "Asked Bastian for 30 lunari." in page_of(response)
    asked = FundingRequest.objects.get(requester=mine)
    client.post(url(campaign, mine, f"funding/{asked.pk}/withdraw/"))
    asked.refresh_from_db()
    assert asked.status == FundingRequest.Status.WITHDRAWN

    first = funding.funding_request_create(requester=theirs, funder=mine, amount=40, reason="Horses", actor=None)
    second = funding.funding_request_create(requester=theirs, funder=mine, amount=5, reason="Oats", actor=None)
    assert "Bastian asks" in page_of(client.get(url(campaign, mine)))
    response = client.post(url(campaign, mine, f"funding/{first.pk}/accept/"), follow=True)
    assert "Accepted: 40 lunari sent to Bastian." in page_of(response)
    assert economy_ledger.ledger_purse_balance(commander=mine) == 60
    client.post(url(campaign, mine, f"funding/{second.pk}/decline/"), {"response": "Not now"})
    second.refresh_from_db()
    assert (second.status, second.response) == (FundingRequest.Status.DECLINED, "Not now")


def test_a_requester_cannot_accept_their_own_request(client, campaign, player, mine, theirs):
    asked = funding.funding_request_create(requester=mine, funder=theirs, amount=10, reason="x", actor=player)
    client.force_login(player)
    response = client.post(url(campaign, mine, f"funding/{asked.pk}/accept/"), follow=True)
    assert "Only Bastian&#x27;s player or a game master may do that" in page_of(response)
    asked.refresh_from_db()
    assert asked.status == FundingRequest.Status.PENDING


def test_bad_funding_input_is_explained(client, campaign, player, mine, theirs):
    client.force_login(player)
    response = client.post(url(campaign, mine, "funding/"), {"funder": theirs.pk, "amount": 0, "reason": "x"},
                           follow=True)
    assert "Lunari:" in page_of(response)
    assert not FundingRequest.objects.exists()


# --- the GM's economy page -----------------------------------------------------------------------------


def test_economy_page_is_for_game_masters(client, campaign, player, gm, mine, theirs, led_unit):
    client.force_login(player)
    response = client.get(f"/c/{campaign.slug}/economy/")
    assert response.status_code == 403
    assert "Only a game master" in page_of(response)
    client.force_login(gm)
    page = page_of(client.get(f"/c/{campaign.slug}/economy/"))
    assert "Amira" in page
    assert "Bastian" in page
    assert 'data-testid="forecast-total">10<' in page
    assert "Close Day 1" in page
    assert "audit-link" in page


def test_grant_and_fine_with_reason(client, campaign, gm, mine):
    client.force_login(gm)
    response = client.post(f"/c/{campaign.slug}/economy/grant/",
                           {"grant-commander": mine.pk, "grant-amount": 25, "grant-reason": "Won the tourney"},
                           follow=True)
    assert "Granted 25 lunari to Amira." in page_of(response)
    client.post(f"/c/{campaign.slug}/economy/fine/",
                {"fine-commander": mine.pk, "fine-amount": 5, "fine-reason": "Brawling"})
    assert economy_ledger.ledger_purse_balance(commander=mine) == 120
    assert LedgerTransaction.objects.filter(kind="fine", reason="Brawling").exists()
    response = client.post(f"/c/{campaign.slug}/economy/fine/",
                           {"fine-commander": mine.pk, "fine-amount": 500, "fine-reason": "Treason"}, follow=True)
    assert "Not enough lunari: the fine is 500, Amira has 120. Fine at most 120." in page_of(response)
    response = client.post(f"/c/{campaign.slug}/economy/grant/", {"grant-commander": mine.pk, "grant-amount": 5},
                           follow=True)
    assert "Reason: This field is required." in page_of(response)


def test_each_ledger_line_says_who_moved_the_lunari_in_words(client, campaign, gm, player, mine):
    """A member by name and role; a stake a finished match paid out (an AI's last move: no person) as the finished
    match, not as the event clock; what Muster did itself (a commander's starting purse) as Muster."""
    economy_ledger.ledger_grant(commander=mine, amount=25, reason="Won the tourney", actor=gm)
    hold = economy_ledger.ledger_escrow_hold(commander=mine, amount=10, reason="Stake on the practice", actor=player)
    economy_ledger.ledger_escrow_release(hold=hold, to_commander=mine, actor=None, reason="Practice: own stake back")
    client.force_login(player)
    rows = [" ".join(li.split()) for li in page_of(client.get(url(campaign, mine))).split('class="ledger-row"')[1:]]
    said = ("gm1 (game master)", "player1 (player)", "the finished match", "the event clock", "Muster")
    assert [next(who for who in said if who in row) for row in rows] == [
        "the finished match", "player1 (player)", "gm1 (game master)", "Muster"]  # Muster: the starting purse


def test_a_player_cannot_grant(client, campaign, player, mine):
    client.force_login(player)
    response = client.post(f"/c/{campaign.slug}/economy/grant/",
                           {"grant-commander": mine.pk, "grant-amount": 1000, "grant-reason": "Because"})
    assert response.status_code == 403
    assert economy_ledger.ledger_purse_balance(commander=mine) == 100


def test_close_day_posts_upkeep_and_closing_twice_says_so(client, campaign, gm, player, mine, day, led_unit):
    poor = CommanderFactory(campaign=campaign, name="Poor", lunari=5)
    army = ArmyFactory(commander=poor)
    UnitFactory(commander=poor, army=army, unit_type=UnitTypeFactory(strength=4))
    ArmyDayActivityFactory(army=army, day=day)
    client.force_login(gm)
    close = f"/c/{campaign.slug}/clock/{day.event_id}/close-day/"
    response = client.post(close, {"day": day.pk}, follow=True)
    assert ("Day 1 is closed: 2 upkeep bills posted (15 lunari paid), 1 commander in arrears. Day 2 is open."
            in page_of(response))
    assert economy_ledger.ledger_purse_balance(commander=mine) == 90
    page = page_of(client.get(f"/c/{campaign.slug}/economy/"))
    assert "Poor" in page
    assert 'data-testid="arrears"' in page
    response = client.post(close, {"day": day.pk}, follow=True)
    assert "Day 1 was already closed: nothing was charged twice." in page_of(response)
    assert UpkeepBill.objects.filter(day=day).count() == 2
    client.force_login(player)
    assert "Upkeep for Day 1" in page_of(client.get(url(campaign, mine)))


def test_a_player_cannot_close_the_day(client, campaign, player, day):
    client.force_login(player)
    assert client.post(f"/c/{campaign.slug}/clock/{day.event_id}/close-day/", {"day": day.pk}).status_code == 403
    assert Day.objects.get(pk=day.pk).status == Day.Status.OPEN


def _debt(campaign, day):
    poor = CommanderFactory(campaign=campaign, name="Poor", lunari=0)
    army = ArmyFactory(commander=poor)
    UnitFactory(commander=poor, army=army)
    ArmyDayActivityFactory(army=army, day=day)
    upkeep.day_close(day=day, actor=None)
    return poor, UpkeepArrears.objects.get(commander=poor)


def test_settle_and_forgive_arrears(client, campaign, gm, mine, day):
    poor, debt = _debt(campaign, day)
    client.force_login(gm)
    response = client.post(f"/c/{campaign.slug}/economy/arrears/{debt.pk}/settle/", {"paid_by": poor.pk},
                           follow=True)
    assert "Not enough lunari: settling this debt costs 10, Poor has 0." in page_of(response)
    response = client.post(f"/c/{campaign.slug}/economy/arrears/{debt.pk}/settle/", {"paid_by": mine.pk},
                           follow=True)
    assert "Poor&#x27;s debt of 10 lunari is settled." in page_of(response)
    assert economy_ledger.ledger_purse_balance(commander=mine) == 90

    day_two = Day.objects.get(event=day.event, number=2)
    army = poor.armies.get()
    ArmyDayActivityFactory(army=army, day=day_two)
    upkeep.day_close(day=day_two, actor=None)
    second = UpkeepArrears.objects.get(commander=poor, status=UpkeepArrears.Status.OPEN)
    response = client.post(f"/c/{campaign.slug}/economy/arrears/{second.pk}/forgive/", {"note": "Flood"},
                           follow=True)
    assert "is forgiven" in page_of(response)
    second.refresh_from_db()
    assert (second.status, second.note) == (UpkeepArrears.Status.FORGIVEN, "Flood")


def test_audit_trail_is_for_game_masters(client, campaign, gm, player, mine):
    economy_ledger.ledger_grant(commander=mine, amount=5, reason="Gift", actor=gm)
    client.force_login(gm)
    page = page_of(client.get(f"/c/{campaign.slug}/audit/"))
    assert "ledger.grant" in page
    assert "gm1" in page
    client.force_login(player)
    assert client.get(f"/c/{campaign.slug}/audit/").status_code == 403


# --- the Celery task -----------------------------------------------------------------------------------------


def test_day_close_task_is_idempotent(mine, day, led_unit):
    first = tasks.day_close(day.pk)
    assert first == {"day": day.pk, "bills": 1, "arrears": 0, "already_closed": False}
    assert tasks.day_close(day.pk)["already_closed"] is True
    assert UpkeepBill.objects.filter(day=day).count() == 1
    assert economy_ledger.ledger_purse_balance(commander=mine) == 90
    assert AuditEntry.objects.filter(action="day.close").count() == 1
    assert tasks.day_close(10**9) is None
    assert Unit.objects.filter(pk=led_unit.pk).exists()


# --- who pays: recruiting and training are paid by one character (which is what makes a retinue) -------------


def paid_by_select(page: str) -> str:
    """The options of the first "Paid by" list on a commander's page."""
    return page.split('data-testid="paid-by"', 1)[1].split("</select>", 1)[0]


@pytest.fixture
def second(campaign, player):
    """The same player's second commander: they may pay from either purse."""
    return CommanderFactory(campaign=campaign, player=player, name="Corin", lunari=100)


def test_a_player_with_one_commander_is_not_asked_who_pays(client, campaign, player, mine, theirs, event, spearmen):
    EventRecruitOfferFactory(event=event, unit_type=spearmen)
    client.force_login(player)
    assert 'data-testid="paid-by"' not in page_of(client.get(url(campaign, mine)))


def test_a_player_pays_recruiting_from_another_of_their_commanders(client, campaign, player, mine, second, theirs,
                                                                   event, spearmen):
    offer = EventRecruitOfferFactory(event=event, unit_type=spearmen)
    client.force_login(player)
    choices = paid_by_select(page_of(client.get(url(campaign, mine))))
    assert f'<option value="{mine.pk}" selected>Amira</option>' in choices
    assert f'<option value="{second.pk}">Corin</option>' in choices
    assert "Bastian" not in choices
    response = client.post(url(campaign, mine, "recruit/"), {"offer": offer.pk, "paid_by": second.pk}, follow=True)
    assert "Spearmen joined Amira&#x27;s reserve, paid by Corin." in page_of(response)
    unit = mine.units.get()
    assert (economy_ledger.ledger_purse_balance(commander=mine),
            economy_ledger.ledger_purse_balance(commander=second)) == (100, 70)
    assert economy_selectors.unit_retinue_owner(unit=unit) == second


def test_a_player_trains_paid_by_another_of_their_commanders(client, campaign, player, mine, second, event,
                                                             spearmen):
    unit = UnitFactory(commander=mine, unit_type=spearmen)
    client.force_login(player)
    response = client.post(url(campaign, mine, f"units/{unit.pk}/train/"), {"paid_by": second.pk}, follow=True)
    assert "trained to Strength 3, for 30 lunari, paid by Corin." in page_of(response)
    assert economy_ledger.ledger_purse_balance(commander=second) == 70


def test_a_player_cannot_pay_from_someone_elses_purse(client, campaign, player, mine, theirs, event, spearmen):
    offer = EventRecruitOfferFactory(event=event, unit_type=spearmen)
    unit = UnitFactory(commander=mine, unit_type=spearmen)
    client.force_login(player)
    refused = "Only Bastian&#x27;s player or a game master may do that for Bastian."
    response = client.post(url(campaign, mine, "recruit/"), {"offer": offer.pk, "paid_by": theirs.pk}, follow=True)
    assert refused in page_of(response)
    response = client.post(url(campaign, mine, f"units/{unit.pk}/train/"), {"paid_by": theirs.pk}, follow=True)
    assert refused in page_of(response)
    assert economy_ledger.ledger_purse_balance(commander=theirs) == 50
    assert mine.units.count() == 1
    assert Unit.objects.get(pk=unit.pk).trainings == 0


def test_a_gm_may_pay_from_any_commander(client, campaign, gm, mine, theirs, event, spearmen):
    offer = EventRecruitOfferFactory(event=event, unit_type=spearmen)
    client.force_login(gm)
    assert f'<option value="{theirs.pk}">Bastian</option>' in paid_by_select(page_of(client.get(url(campaign, mine))))
    response = client.post(url(campaign, mine, "recruit/"), {"offer": offer.pk, "paid_by": theirs.pk}, follow=True)
    assert "paid by Bastian" in page_of(response)
    assert economy_ledger.ledger_purse_balance(commander=theirs) == 20


# --- the upkeep Morale pledge --------------------------------------------------------------------------------


def test_pledging_morale_lowers_the_forecast(client, campaign, player, mine, day, led_unit):
    client.force_login(player)
    assert "No Morale pledged." in page_of(client.get(url(campaign, mine)))
    response = client.post(url(campaign, mine, "upkeep-pledge/"), {"points": 1}, follow=True)
    page = page_of(response)
    assert "Amira pledges 1 Morale to Day 1&#x27;s upkeep: it takes 5 lunari off today&#x27;s bill." in page
    assert 'data-testid="forecast-total">5<' in page
    assert 'data-testid="pledge-saves">5<' in page
    response = client.post(url(campaign, mine, "upkeep-pledge/"), {"points": 3}, follow=True)
    assert "(only 2 can be used: today's bill needs no more)" in page_of(response)
    assert 'data-testid="forecast-total">0<' in page_of(response)
    upkeep.day_close(day=day, actor=None)
    assert UpkeepBill.objects.get(commander=mine).morale_spent == 2


def test_a_pledge_beyond_the_morale_or_without_a_day_is_refused(client, campaign, player, mine, event, led_unit):
    client.force_login(player)
    response = client.post(url(campaign, mine, "upkeep-pledge/"), {"points": 9}, follow=True)
    assert "Amira has 5 Morale: pledge at most that." in page_of(response)
    response = client.post(url(campaign, mine, "upkeep-pledge/"), {"points": -1}, follow=True)
    assert "Pledge a whole number of Morale points" in page_of(response)
    Day.objects.filter(event=event).update(status=Day.Status.CLOSED)
    response = client.post(url(campaign, mine, "upkeep-pledge/"), {"points": 1}, follow=True)
    assert "No Day is open: pledge Morale to upkeep during an Event." in page_of(response)


def test_a_player_cannot_pledge_for_another_commander(client, campaign, player, theirs, day):
    client.force_login(player)
    assert client.post(url(campaign, theirs, "upkeep-pledge/"), {"points": 1}).status_code == 404
