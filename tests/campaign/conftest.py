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


@pytest.fixture
def media_root(settings, tmp_path):
    """Uploaded files go to a temporary folder."""
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def defaults(db):
    """A small default catalogue (no campaign), by name."""
    from campaign.catalogue.entries import catalogue_load
    from campaign.models import UnitType
    from tests.campaign.catalogue.test_entries import SMALL

    catalogue_load(entries=SMALL)
    return {t.name: t for t in UnitType.objects.filter(campaign=None)}
