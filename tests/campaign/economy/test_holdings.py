"""What a commander holds besides lunari: item cards, units lent out, and the wages of the dead."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign.campaigns.permissions import NotAllowed
from campaign.economy import donations, items, ledger, upkeep
from campaign.economy import selectors as economy_selectors
from campaign.economy import services as economy_services
from campaign.map import armies, lending
from campaign.models import Account, Item, LedgerTransaction, Unit
from tests.campaign.factories import (
    ArmyDayActivityFactory,
    ArmyFactory,
    CommanderFactory,
    EventRecruitOfferFactory,
    MembershipFactory,
    UnitFactory,
    UnitTypeFactory,
    UserFactory,
    open_day,
)
from tests.helpers import api_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def amira(campaign, player):
    return CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=1000)


@pytest.fixture
def bastian(campaign):
    user = MembershipFactory(campaign=campaign, user=UserFactory(username="bastian")).user
    return CommanderFactory(campaign=campaign, name="Bastian", player=user, lunari=1000)


# --- item cards --------------------------------------------------------------------------------------------


def test_a_weapon_card_given_pays_for_the_receivers_training(gm, event, amira, bastian):
    """army-combat.txt: "A unit's training costs may be reduced by 5 lunari by destroying an item card for any
    weapon"."""
    sword = items.item_add(commander=amira, name="Scimitar", kind=Item.Kind.WEAPON, actor=gm)
    items.item_give(item=sword, to=bastian, actor=amira.player)
    unit = UnitFactory(commander=bastian, unit_type=UnitTypeFactory(strength=2), strength=2)
    training = economy_services.unit_train(unit=unit, event=event, paid_by=bastian, actor=bastian.player,
                                           weapon_items=[sword])
    assert (training.price, training.weapon_offset, training.paid) == (30, 5, 25)
    sword.refresh_from_db()
    assert sword.destroyed_at is not None


def test_only_a_game_master_adds_cards_and_only_the_holder_gives_or_destroys(gm, amira, bastian):
    with pytest.raises(NotAllowed, match="Only a game master"):
        items.item_add(commander=amira, name="Scimitar", kind=Item.Kind.WEAPON, actor=amira.player)
    sword = items.item_add(commander=amira, name="Scimitar", kind=Item.Kind.WEAPON, actor=gm)
    with pytest.raises(NotAllowed, match="Only Amira's player or a game master may give Amira's Scimitar"):
        items.item_give(item=sword, to=bastian, actor=bastian.player)
    with pytest.raises(NotAllowed, match="may destroy Amira's Scimitar"):
        items.item_destroy(item=sword, actor=bastian.player)
    with pytest.raises(ValidationError, match="An item is one of"):
        items.item_add(commander=amira, name="Thing", kind="relic", actor=gm)


def test_giving_twice_gives_once_and_a_destroyed_card_stays_destroyed(gm, amira, bastian):
    sword = items.item_add(commander=amira, name="Scimitar", kind=Item.Kind.WEAPON, actor=gm)
    items.item_give(item=sword, to=bastian, actor=amira.player)
    assert items.item_give(item=sword, to=bastian, actor=amira.player).commander == bastian  # the phone retried
    nosy = MembershipFactory(campaign=amira.campaign, user=UserFactory(username="nosy")).user
    with pytest.raises(NotAllowed):  # a third player cannot learn who holds it by "giving" it
        items.item_give(item=sword, to=bastian, actor=nosy)
    first = items.item_destroy(item=sword, actor=bastian.player).destroyed_at
    assert items.item_destroy(item=sword, actor=bastian.player).destroyed_at == first
    with pytest.raises(ValidationError, match="was destroyed: it cannot be given"):
        items.item_give(item=sword, to=amira, actor=bastian.player)


def test_item_cards_from_the_page(client, gm, amira, bastian):
    slug = amira.campaign.slug
    client.force_login(gm)
    response = client.post(reverse("item-add", args=[slug, amira.pk]), {"name": "Scimitar", "kind": "weapon"},
                           follow=True)
    assert "Scimitar (Weapon) is now Amira&#x27;s." in response.content.decode()
    sword = Item.objects.get(name="Scimitar")
    client.force_login(amira.player)
    page = client.get(reverse("commander-detail", args=[slug, amira.pk])).content.decode()
    assert 'data-testid="item-add"' not in page  # a player does not mint cards
    url = reverse("item-give", args=[slug, amira.pk, sword.pk])
    nobody = client.post(url, {}, follow=True).content.decode()
    assert "To: choose another commander of the campaign." in nobody
    assert "Scimitar now belongs to Bastian." in client.post(url, {"to": bastian.pk}, follow=True).content.decode()
    assert "Scimitar now belongs to Bastian." in client.post(url, {"to": bastian.pk}, follow=True).content.decode()
    client.force_login(bastian.player)
    response = client.post(reverse("item-destroy", args=[slug, bastian.pk, sword.pk]), follow=True)
    assert "Scimitar is destroyed." in response.content.decode()
    assert 'data-testid="item"' not in response.content.decode()


def test_item_cards_in_the_api(gm, amira, bastian):
    gm_api, amira_api = api_for(gm), api_for(amira.player)
    denied = amira_api.post("/api/items/", {"commander": amira.pk, "name": "Free sword", "kind": "weapon"})
    assert denied.status_code == 403
    made = gm_api.post("/api/items/", {"commander": amira.pk, "name": "Scimitar", "kind": "weapon"})
    assert made.status_code == 201, made.content
    sword = made.json()["id"]
    assert [i["name"] for i in amira_api.get("/api/items/").json()["results"]] == ["Scimitar"]
    assert api_for(bastian.player).get(f"/api/items/{sword}/").status_code == 404  # not Bastian's to see
    given = amira_api.post(f"/api/items/{sword}/give/", {"to": bastian.pk}, format="json")
    assert (given.status_code, given.json()["commander"]) == (200, bastian.pk)
    assert amira_api.post(f"/api/items/{sword}/give/", {"to": bastian.pk}, format="json").status_code == 200
    destroyed = api_for(bastian.player).post(f"/api/items/{sword}/destroy/")
    assert destroyed.status_code == 200
    assert destroyed.json()["destroyed_at"]
    assert api_for(bastian.player).get("/api/items/").json()["results"] == []
    assert len(api_for(bastian.player).get("/api/items/?destroyed=1").json()["results"]) == 1


# --- the wages of the dead -----------------------------------------------------------------------------


def test_a_killed_units_wages_go_to_a_temple_once(amira):
    """army-combat.txt: "it is customary for the wages the unit would have been paid to be donated to a suitable
    Temple"."""
    unit = UnitFactory(commander=amira, unit_type=UnitTypeFactory(strength=3), strength=3,
                       state=Unit.State.KILLED)
    txn = donations.unit_donate_wages(unit=unit, recipient="a Temple", temple="the Twin Moons",
                                      actor=amira.player)
    assert ledger.ledger_purse_balance(commander=amira) == 1000 - 15  # a Day's wages: 5 x Strength 3
    assert ledger.ledger_system_account(campaign=amira.campaign_id, kind=Account.Kind.DONATIONS).balance == 15
    assert txn.reason == f"Wages of {unit.unit_type.name}, Killed, to a Temple (the Twin Moons)"
    again = donations.unit_donate_wages(unit=unit, recipient="a Temple", actor=amira.player, amount=99)
    assert again.pk == txn.pk
    assert LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.DONATION).count() == 1


def test_only_the_dead_and_only_their_commander(amira, bastian):
    alive = UnitFactory(commander=amira, strength=2)
    with pytest.raises(ValidationError, match="is alive: only a Killed unit's wages are donated"):
        donations.unit_donate_wages(unit=alive, recipient="a Temple", actor=None)
    dead = UnitFactory(commander=amira, strength=2, state=Unit.State.KILLED)
    with pytest.raises(NotAllowed, match="donate the wages of Amira's dead"):
        donations.unit_donate_wages(unit=dead, recipient="a Temple", actor=bastian.player)
    with pytest.raises(ValidationError, match="Not enough lunari"):
        donations.unit_donate_wages(unit=dead, recipient="the surviving relatives", amount=5000, actor=None)
    assert not LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.DONATION).exists()


def test_donating_from_the_page_and_the_api(client, amira):
    dead = UnitFactory(commander=amira, unit_type=UnitTypeFactory(name="Lancers", strength=2), strength=2,
                       state=Unit.State.KILLED)
    other = UnitFactory(commander=amira, strength=1, state=Unit.State.KILLED)
    slug = amira.campaign.slug
    client.force_login(amira.player)
    page = client.get(reverse("commander-detail", args=[slug, amira.pk])).content.decode()
    assert f'data-testid="donate-{dead.pk}"' in page
    assert 'value="10"' in page
    response = client.post(reverse("unit-donate", args=[slug, amira.pk, dead.pk]),
                           {"recipient": "the surviving relatives", "temple": "", "amount": 12}, follow=True)
    assert "Donated: Wages of Lancers, Killed, to the surviving relatives." in response.content.decode()
    assert 'data-testid="donated"' in response.content.decode()
    response = api_for(amira.player).post(f"/api/units/{other.pk}/donate/", {"recipient": "a Temple"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["purse_balance"] == 1000 - 12 - 5



def test_the_page_shows_the_donation_that_counts(client, gm, amira):
    """A reversed donation is no longer shown, and the unit's wages may be given again; a unit with none offers
    the form."""
    dead = UnitFactory(commander=amira, unit_type=UnitTypeFactory(name="Lancers", strength=2), strength=2,
                       state=Unit.State.KILLED)
    other = UnitFactory(commander=amira, strength=1, state=Unit.State.KILLED)
    wrong = donations.unit_donate_wages(unit=dead, recipient="a Temple", temple="the Wrong One", actor=None)
    ledger.ledger_reverse(transaction_to_reverse=wrong, reason="Wrong temple", actor=gm)
    donations.unit_donate_wages(unit=dead, recipient="the surviving relatives", actor=None)
    client.force_login(amira.player)
    page = client.get(reverse("commander-detail", args=[amira.campaign.slug, amira.pk])).content.decode()
    assert page.count('data-testid="donated"') == 1
    assert "Wages of Lancers, Killed, to the surviving relatives (" in page
    assert "(the Wrong One) (" not in page  # the ledger still lists it
    assert f'data-testid="donate-{other.pk}"' in page
    assert f'data-testid="donate-{dead.pk}"' not in page

# --- lent units and upkeep ---------------------------------------------------------------------------------


def test_a_lent_retinues_wages_stay_its_owners_so_it_stays_their_retinue(event, amira, bastian):
    spearmen = UnitTypeFactory(name="Spearmen", strength=2)
    EventRecruitOfferFactory(event=event, unit_type=spearmen)
    unit = economy_services.unit_recruit(commander=amira, unit_type=spearmen, event=event, paid_by=amira, actor=None)
    lending.unit_lend(unit=unit, to=bastian, actor=amira.player)
    host = ArmyFactory(commander=bastian, name="Bastian's Host")
    armies.army_assign_unit(unit=unit, army=host, actor=bastian.player)
    day = open_day(event)
    ArmyDayActivityFactory(army=host, day=day)
    result = upkeep.day_close(day=day, actor=None)
    bills = {bill.commander_id: bill.amount_due for bill in result.bills}
    assert bills == {amira.pk: 10}  # Bastian led it; Amira pays her soldier
    assert economy_selectors.unit_retinue_owner(unit=unit) == amira
