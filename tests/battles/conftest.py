"""Fixtures for the battles app: two players' commanders with armies on an open Day (imports inside, so the
engine tests run without Django)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest


@pytest.fixture
def rival(campaign):
    from tests.campaign.factories import MembershipFactory, UserFactory

    return MembershipFactory(campaign=campaign, user=UserFactory(username="rival")).user


@pytest.fixture
def host(campaign, event, day, player, rival):
    """Ayla (player1, an Evoker) leads the Vanguard: her own retinue Spearmen and Archers; a reserve unit and a
    Killed one stay home. Brann (rival, a Battlemage) leads the Wall: two Shield Walls and Spearmen."""
    from campaign.economy import services as economy_services
    from campaign.map import armies
    from campaign.models import Unit
    from tests.campaign.factories import (
        ArmyFactory,
        CommanderFactory,
        EventRecruitOfferFactory,
        UnitFactory,
        UnitTypeFactory,
    )

    spearmen = UnitTypeFactory(name="Spearmen", strength=2, role="Aggressor", path="Steel", traits=["Reach"])
    archers = UnitTypeFactory(name="Archers", strength=1, role="Savant", path="Nature", traits=["Ranged"])
    shields = UnitTypeFactory(name="Shield Wall", strength=3, role="Guardian", path="Steel")
    EventRecruitOfferFactory(event=event, unit_type=spearmen)
    ayla = CommanderFactory(campaign=campaign, name="Ayla", player=player, level=4, power="Evoker", influence=2,
                            lunari=500)
    brann = CommanderFactory(campaign=campaign, name="Brann", player=rival, level=2, power="Battlemage",
                             influence=1)
    vanguard = ArmyFactory(commander=ayla, name="Vanguard")
    wall = ArmyFactory(commander=brann, name="Wall")
    retinue = economy_services.unit_recruit(commander=ayla, unit_type=spearmen, event=event, paid_by=ayla, actor=None)
    armies.army_assign_unit(unit=retinue, army=vanguard, actor=None)
    ayla_archers = UnitFactory(commander=ayla, unit_type=archers, army=vanguard)
    reserve = UnitFactory(commander=ayla, unit_type=archers)
    dead = UnitFactory(commander=ayla, unit_type=archers, state=Unit.State.KILLED)
    wall_units = [UnitFactory(commander=brann, unit_type=shields, army=wall) for _ in range(2)]
    wall_units.append(UnitFactory(commander=brann, unit_type=spearmen, army=wall))
    return SimpleNamespace(ayla=ayla, brann=brann, vanguard=vanguard, wall=wall, retinue=retinue,
                           archers=ayla_archers, reserve=reserve, dead=dead, wall_units=wall_units)
