"""Commanders for the economy tests: mine (the `player` fixture's) and another player's."""

import pytest


@pytest.fixture
def mine(campaign, player):
    from tests.campaign.factories import CommanderFactory

    return CommanderFactory(campaign=campaign, player=player, name="Amira", lunari=100)


@pytest.fixture
def theirs(campaign):
    from campaign.models import Membership, Role
    from tests.campaign.factories import CommanderFactory, UserFactory

    other = UserFactory(username="player2")
    Membership.objects.create(campaign=campaign, user=other, role=Role.PLAYER)
    return CommanderFactory(campaign=campaign, player=other, name="Bastian", lunari=50)
