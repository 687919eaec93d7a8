"""Fixtures for the card-game app's tests (imports inside, so engine tests need no Django)."""

import pytest


@pytest.fixture
def rival(campaign):
    from tests.campaign.factories import MembershipFactory, UserFactory

    return MembershipFactory(campaign=campaign, user=UserFactory(username="rival")).user


def _match(campaign, actor, seed, seats):
    from cardgames.services import match_create

    return match_create(campaign=campaign, game="command-dice", actor=actor, seed=seed, seats=seats)


@pytest.fixture
def duel(campaign, gm, player, rival):
    """A Command Dice match between two players of the campaign."""
    from cardgames.services import SeatSpec

    return _match(campaign, gm, 11, [SeatSpec("player1", player), SeatSpec("rival", rival)])


@pytest.fixture
def versus_ai(campaign, gm, player):
    from cardgames.models import AIPolicy
    from cardgames.services import SeatSpec

    return _match(campaign, gm, 5, [SeatSpec("player1", player), SeatSpec("Random AI", None, AIPolicy.RANDOM)])
