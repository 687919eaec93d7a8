"""Sockets in the tests hear each other through the process's own memory (no Redis needed), whatever REDIS_URL
says; a table of two players and a GM's campaign to join."""

import pytest


@pytest.fixture(autouse=True)
def memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def rival(campaign):
    from tests.campaign.factories import MembershipFactory, UserFactory

    return MembershipFactory(campaign=campaign, user=UserFactory(username="rival")).user


@pytest.fixture
def table(campaign, gm, player, rival):
    """A Command Dice match between `player` and `rival`."""
    from cardgames.services import SeatSpec, match_create

    return match_create(campaign=campaign, game="command-dice", actor=gm, seed=11,
                        seats=[SeatSpec("player1", player), SeatSpec("rival", rival)])
