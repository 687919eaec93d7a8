import pytest

from campaign.models import Role
from tests.campaign.factories import CampaignFactory, EventFactory, MembershipFactory, UserFactory


@pytest.fixture
def campaign(db):
    return CampaignFactory(name="River Valley", slug="river-valley")


@pytest.fixture
def gm(campaign):
    return MembershipFactory(campaign=campaign, role=Role.GM, user=UserFactory(username="gm1")).user


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign, role=Role.PLAYER, user=UserFactory(username="player1")).user


@pytest.fixture
def outsider(db):
    """A user of another campaign: they must learn nothing of ours."""
    other = CampaignFactory(name="Elsewhere", slug="elsewhere")
    return MembershipFactory(campaign=other, role=Role.GM, user=UserFactory(username="outsider")).user


@pytest.fixture
def event(campaign):
    return EventFactory(campaign=campaign, name="Spring Muster")
