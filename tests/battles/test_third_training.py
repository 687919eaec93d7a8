""""A unit type may name what it becomes after training, and what it gains after the third" (RULINGS.md): what
the third training gives is played by the battle engine, not only printed on the card."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from battles import selectors
from battles.engine import GAME
from battles.engine.legal import legal_actions
from campaign.catalogue.entries import catalogue_entry_clean
from campaign.economy import services as economy_services
from gamekit.dice import Dice
from tests.battles.engine.helpers import act, texts
from tests.campaign.factories import EventFactory, UnitFactory, UnitTypeFactory

pytestmark = pytest.mark.django_db

MAGE_FX = [{"when": "discard", "do": "add", "amount": 2, "to": "own"}]


def _train_three_times(unit, commander):
    first = EventFactory(campaign=commander.campaign, name="Event 1")
    for i in range(3):
        event = first if i == 0 else EventFactory(campaign=commander.campaign, name=f"Event {i + 1}",
                                                  starts_at=first.starts_at + timedelta(days=30 * i))
        economy_services.unit_train(unit=unit, event=event, paid_by=commander, actor=None)
    unit.refresh_from_db()
    return unit


def test_the_third_training_gives_the_unit_its_traits_and_effects(host, day):
    veteran = UnitTypeFactory(name="Veteran Soldier", strength=3, third_training="Gains Reach.",
                              third_training_traits=["Reach"])
    soldier = UnitTypeFactory(name="Soldier", strength=2, trains_to=veteran, role="Aggressor", path="Steel")
    unit = UnitFactory(commander=host.ayla, unit_type=soldier, army=host.vanguard)
    unit = _train_three_times(unit, host.ayla)
    assert (unit.strength, unit.gained_traits, unit.gained_effects) == (5, ["Reach"], [])
    config = selectors.battle_config_for(attacker_army=host.vanguard, defender_army=host.wall, day=day)
    played = next(u for u in config["commanders"][0]["units"] if u["id"] == unit.pk)
    assert played["traits"] == ["Reach"]
    assert played["text"].endswith("Gains Reach.")


def test_the_engine_plays_an_effect_the_third_training_gave(host, day):
    """Battle Mages, trained three times, may be discarded for +2 to their own unit in a Skirmish."""
    mages = UnitTypeFactory(name="Battle Mages", strength=2, role="Aggressor", path="Magic",
                            third_training="Discard: +2 to your unit.", third_training_effects=MAGE_FX)
    unit = _train_three_times(UnitFactory(commander=host.ayla, unit_type=mages, army=host.vanguard), host.ayla)
    assert unit.gained_effects == MAGE_FX
    config = selectors.battle_config_for(attacker_army=host.vanguard, defender_army=host.wall, day=day)
    state = GAME.new_game(config, ["Ayla", "Brann"], dice=Dice.scripted([1, 3, 3, 3, 3, 3, 3]))
    GAME.apply(state, ("first", 0))
    act(state, ("play", host.retinue.pk), ("play", host.wall_units[0].pk))
    assert ("react", unit.pk) in legal_actions(state, 0)  # the Mages may be discarded in the reaction window
    assert any("Battle Mages" in line for line in texts(act(state, ("react", unit.pk))))


def test_the_catalogue_refuses_gains_the_engine_cannot_play():
    entry = {"name": "Odd Unit", "strength": 2, "third_training_traits": ["Sparkly"]}
    with pytest.raises(ValidationError, match="not Sparkly"):
        catalogue_entry_clean(entry)
    entry = {"name": "Odd Unit", "strength": 2, "third_training_effects": [{"when": "never"}]}
    with pytest.raises(ValidationError, match="unknown 'when'"):
        catalogue_entry_clean(entry)
