"""Training: +1 Strength for 10 x the new Strength, weapon cards for at most half, once per Event, 3 in all."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from campaign.economy import services as economy_services
from campaign.models import Account, Item, LedgerTransaction, Unit, UnitTraining
from tests.campaign.factories import CommanderFactory, EventFactory, ItemFactory, UnitFactory, UnitTypeFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def amira(campaign):
    return CommanderFactory(campaign=campaign, name="Amira", lunari=1000)


def purse(commander) -> int:
    return Account.objects.get(commander=commander).balance


def events(campaign, n):
    first = EventFactory(campaign=campaign, name="Event 1")
    return [first] + [EventFactory(campaign=campaign, name=f"Event {i + 2}",
                                   starts_at=first.starts_at + timedelta(days=30 * (i + 1))) for i in range(n - 1)]


@pytest.mark.parametrize(("strength", "price"), [(1, 20), (2, 30), (3, 40), (4, 50), (5, 60), (6, 70), (7, 80)])
def test_training_costs_ten_times_the_new_strength(event, amira, strength, price):
    unit = UnitFactory(commander=amira, unit_type=UnitTypeFactory(strength=strength))
    training = economy_services.unit_train(unit=unit, event=event, paid_by=amira, actor=None)
    unit.refresh_from_db()
    assert unit.strength == strength + 1
    assert unit.trainings == 1
    assert unit.last_trained_event == event
    assert (training.price, training.paid) == (price, price)
    assert purse(amira) == 1000 - price
    assert LedgerTransaction.objects.get(kind="training").paid_for == training


def test_once_per_unit_per_event(event, amira):
    unit = UnitFactory(commander=amira, unit_type=UnitTypeFactory(strength=2))
    economy_services.unit_train(unit=unit, event=event, paid_by=amira, actor=None)
    with pytest.raises(ValidationError, match="already trained at Spring Muster: train it again at the next Event"):
        economy_services.unit_train(unit=unit, event=event, paid_by=amira, actor=None)
    other = UnitFactory(commander=amira, unit_type=unit.unit_type)
    economy_services.unit_train(unit=other, event=event, paid_by=amira, actor=None)  # another unit may train
    assert UnitTraining.objects.count() == 2


def test_three_trainings_in_all_and_the_third_gives_the_ability(campaign, amira):
    veteran = UnitTypeFactory(name="Veteran Soldier", strength=3, third_training="Gains Reach.")
    soldier = UnitTypeFactory(name="Soldier", strength=2, trains_to=veteran)
    unit = UnitFactory(commander=amira, unit_type=soldier)
    e1, e2, e3, e4 = events(campaign, 4)
    economy_services.unit_train(unit=unit, event=e1, paid_by=amira, actor=None)
    unit.refresh_from_db()
    assert unit.unit_type == veteran  # the type names what it trains into
    assert (unit.strength, unit.third_training_ability) == (3, "")
    economy_services.unit_train(unit=unit, event=e2, paid_by=amira, actor=None)
    economy_services.unit_train(unit=unit, event=e3, paid_by=amira, actor=None)
    unit.refresh_from_db()
    assert (unit.strength, unit.trainings) == (5, 3)
    assert unit.third_training_ability == "Gains Reach."
    assert purse(amira) == 1000 - 30 - 40 - 50
    with pytest.raises(ValidationError, match="trained 3 times, the most a unit can be"):
        economy_services.unit_train(unit=unit, event=e4, paid_by=amira, actor=None)
    types = list(unit.training_history.values_list("type_from__name", "type_to__name"))
    assert types == [("Soldier", "Veteran Soldier"), ("Veteran Soldier", "Veteran Soldier"),
                     ("Veteran Soldier", "Veteran Soldier")]


def test_weapon_cards_pay_five_each_for_at_most_half(event, amira):
    unit = UnitFactory(commander=amira, unit_type=UnitTypeFactory(strength=3))  # to 4: 40 lunari
    swords = [ItemFactory(commander=amira, name=f"Sword {i}") for i in range(5)]
    with pytest.raises(ValidationError, match="destroy at most 4, not 5"):
        economy_services.unit_train(unit=unit, event=event, paid_by=amira, actor=None, weapon_items=swords)
    training = economy_services.unit_train(unit=unit, event=event, paid_by=amira, actor=None, weapon_items=swords[:2])
    assert (training.price, training.weapon_offset, training.paid) == (40, 10, 30)
    assert purse(amira) == 970
    destroyed = Item.objects.filter(destroyed_at__isnull=False)
    assert set(destroyed) == set(swords[:2])
    assert all(item.destroyed_for == training for item in destroyed)


def test_only_the_payers_undestroyed_weapon_cards(campaign, event, amira):
    unit = UnitFactory(commander=amira, unit_type=UnitTypeFactory(strength=3))
    shield = ItemFactory(commander=amira, name="Shield", kind=Item.Kind.ARMOUR)
    with pytest.raises(ValidationError, match="Shield is not a weapon"):
        economy_services.unit_train(unit=unit, event=event, paid_by=amira, actor=None, weapon_items=[shield])
    theirs = ItemFactory(commander=CommanderFactory(campaign=campaign), name="Their axe")
    with pytest.raises(ValidationError, match="Their axe is not Amira's"):
        economy_services.unit_train(unit=unit, event=event, paid_by=amira, actor=None, weapon_items=[theirs])
    assert purse(amira) == 1000


def test_not_enough_lunari_says_the_price_and_the_purse(event, campaign):
    poor = CommanderFactory(campaign=campaign, name="Poor", lunari=25)
    unit = UnitFactory(commander=poor, unit_type=UnitTypeFactory(strength=3))
    with pytest.raises(ValidationError, match=r"^\['Not enough lunari: training costs 40, Poor has 25.'\]$"):
        economy_services.unit_train(unit=unit, event=event, paid_by=poor, actor=None)
    unit.refresh_from_db()
    assert (unit.strength, unit.trainings) == (3, 0)
    assert UnitTraining.objects.count() == 0


def test_units_without_strength_or_killed_cannot_train(event, amira):
    banner = UnitFactory(commander=amira, unit_type=UnitTypeFactory(strength=None))
    with pytest.raises(ValidationError, match="no Strength"):
        economy_services.unit_train(unit=banner, event=event, paid_by=amira, actor=None)
    dead = UnitFactory(commander=amira, state=Unit.State.KILLED)
    with pytest.raises(ValidationError, match="Killed"):
        economy_services.unit_train(unit=dead, event=event, paid_by=amira, actor=None)
