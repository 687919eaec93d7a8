"""Morale: starting value 4 + floor(level / 2); bought once per Day at 5 a point up to it; never in a Battle."""

import re

import pytest
from django.core.exceptions import ValidationError

from campaign.economy import services as economy_services
from campaign.economy import upkeep
from campaign.models import Account, AuditEntry, LedgerTransaction
from tests.campaign.factories import CommanderFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def amira(campaign):
    return CommanderFactory(campaign=campaign, name="Amira", level=5, morale=2, lunari=100)  # starts at 6


def test_starting_morale_follows_the_level(campaign, gm):
    commander = economy_services.commander_create(campaign=campaign, name="Emir", level=7, power="Cleric", actor=gm)
    assert commander.starting_morale == 7
    assert commander.morale == 7
    economy_services.commander_update(commander=commander, level=8, actor=gm)
    commander.refresh_from_db()
    assert commander.starting_morale == 8


def test_buying_morale_costs_five_a_point(day, amira):
    upkeep.morale_buy(commander=amira, day=day, points=3, actor=None)
    amira.refresh_from_db()
    assert amira.morale == 5
    assert Account.objects.get(commander=amira).balance == 85
    assert LedgerTransaction.objects.get(kind="morale").reason == "3 Morale"
    assert AuditEntry.objects.get(action="morale.buy").data == {"points": 3, "price": 15, "day": day.pk,
                                                                "transaction": LedgerTransaction.objects.get(
                                                                  kind="morale").pk}


def test_only_up_to_the_starting_value(day, amira):
    with pytest.raises(ValidationError, match="up to the starting value of 6: buy at most 4"):
        upkeep.morale_buy(commander=amira, day=day, points=5, actor=None)
    assert Account.objects.get(commander=amira).balance == 100


def test_once_per_day(day, amira):
    upkeep.morale_buy(commander=amira, day=day, points=1, actor=None)
    with pytest.raises(ValidationError, match="once per Day"):
        upkeep.morale_buy(commander=amira, day=day, points=1, actor=None)
    result = upkeep.day_close(day=day, actor=None)
    amira.refresh_from_db()
    assert amira.morale == 6  # refreshed when the new Day starts
    economy_services.commander_update(commander=amira, level=7, actor=None)  # starting Morale 7 now
    upkeep.morale_buy(commander=amira, day=result.next_day, points=1, actor=None)  # a new Day: allowed again
    amira.refresh_from_db()
    assert amira.morale == 7


def test_never_during_a_battle(day, amira):
    economy_services.commander_set_in_battle(commander=amira, in_battle=True, actor=None)
    with pytest.raises(ValidationError, match="during a Battle"):
        upkeep.morale_buy(commander=amira, day=day, points=1, actor=None)
    economy_services.commander_set_in_battle(commander=amira, in_battle=False, actor=None)
    upkeep.morale_buy(commander=amira, day=day, points=1, actor=None)


def test_not_enough_lunari(day, campaign):
    poor = CommanderFactory(campaign=campaign, name="Poor", level=4, morale=1, lunari=9)
    with pytest.raises(ValidationError, match=re.escape("Not enough lunari: 2 Morale costs 10, Poor has 9.")):
        upkeep.morale_buy(commander=poor, day=day, points=2, actor=None)
    poor.refresh_from_db()
    assert poor.morale == 1
    assert poor.morale_bought_on is None


def test_not_on_a_closed_day(day, amira):
    upkeep.day_close(day=day, actor=None)
    day.refresh_from_db()
    with pytest.raises(ValidationError, match="closed"):
        upkeep.morale_buy(commander=amira, day=day, points=1, actor=None)


def test_commander_powers_and_the_tacticians_choice(campaign, gm):
    with pytest.raises(ValidationError, match="twenty commander powers"):
        economy_services.commander_create(campaign=campaign, name="X", level=1, power="Wizard", actor=gm)
    with pytest.raises(ValidationError, match="Only a Tactician"):
        economy_services.commander_create(campaign=campaign, name="X", level=1, power="Cleric",
                                          tactician_choice="Rogue",
                                          actor=gm)
    with pytest.raises(ValidationError, match="Guardian row or the Steel column"):
        economy_services.commander_create(campaign=campaign, name="X", level=1, power="Tactician",
                                          tactician_choice="Cleric", actor=gm)
    tactician = economy_services.commander_create(campaign=campaign, name="X", level=1, power="Tactician",
                                                  tactician_choice="Rogue", actor=gm)
    assert tactician.tactician_choice == "Rogue"
    assert Account.objects.filter(commander=tactician, kind="purse").exists()
