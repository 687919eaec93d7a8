"""Who may join which topic (campaign.live.topics): the fog of war and hidden hands start here, since a socket
hears only the topics it joined."""

import pytest

from campaign.live.topics import may_join, member_topics, topics_allowed
from campaign.models import Membership
from tests.campaign.factories import CampaignFactory, CommanderFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_table_needs_a_seat_or_the_game_master_role(table, gm, player, rival, outsider, campaign):
    onlooker = MembershipFactory(campaign=campaign, user=UserFactory(username="onlooker")).user
    topic = f"match.{table.pk}"
    assert may_join(player, topic)
    assert may_join(rival, topic)
    assert may_join(gm, topic)
    assert not may_join(onlooker, topic), "a member without a seat must not hear the table"
    assert not may_join(outsider, topic)


def test_a_player_hears_only_their_own_commanders(campaign, gm, player, rival):
    mine = CommanderFactory(campaign=campaign, player=player)
    theirs = CommanderFactory(campaign=campaign, player=rival)
    assert may_join(player, f"commander.{mine.pk}")
    assert not may_join(player, f"commander.{theirs.pk}")
    assert may_join(gm, f"commander.{theirs.pk}")


def test_the_game_masters_topic_is_theirs_and_the_hour_is_every_members(campaign, gm, player, outsider):
    assert may_join(gm, f"campaign.{campaign.pk}.gm")
    assert not may_join(player, f"campaign.{campaign.pk}.gm")
    assert may_join(player, f"campaign.{campaign.pk}.hour")
    assert not may_join(outsider, f"campaign.{campaign.pk}.hour")
    other = CampaignFactory(name="Far Hills", slug="far-hills")
    assert not may_join(gm, f"campaign.{other.pk}.gm"), "a GM of one campaign is nobody in another"


@pytest.mark.parametrize("topic", ["match.x", "match.1.gm", "campaign.1", "commander.", "campaign.1.all", "*",
                                   "match.99999", "commander.99999"])
def test_unknown_shapes_and_missing_things_are_refused(gm, topic):
    assert not may_join(gm, topic)


def test_anonymous_users_join_nothing(campaign, table):
    from django.contrib.auth.models import AnonymousUser

    assert not may_join(AnonymousUser(), f"campaign.{campaign.pk}.hour")
    assert not may_join(None, f"match.{table.pk}")


def test_one_forbidden_topic_refuses_them_all(campaign, player, gm):
    hour = f"campaign.{campaign.pk}.hour"
    assert topics_allowed(player, [hour])
    assert not topics_allowed(player, [hour, f"campaign.{campaign.pk}.gm"])
    assert not topics_allowed(player, [])
    assert not topics_allowed(gm, [hour] * 9), "at most eight topics a socket"


def test_the_topics_a_page_listens_to_are_ones_its_viewer_may_join(campaign, gm, player):
    mine = CommanderFactory(campaign=campaign, player=player)
    for user in (gm, player):
        membership = Membership.objects.get(campaign=campaign, user=user)
        topics = member_topics(membership).split()
        assert topics_allowed(user, topics)
    assert member_topics(Membership.objects.get(campaign=campaign, user=player)).split() == [
        f"campaign.{campaign.pk}.hour", f"commander.{mine.pk}"]


def test_the_topics_from_the_campaigns_commanders_already_read_are_the_same(campaign, gm, player, rival):
    """The commander page hands member_topics the commanders it read (by name), sparing a query: the same topics,
    the player's own first by id and no more than a socket joins."""
    from campaign.live.topics import MAX_TOPICS
    from campaign.models import Commander

    for n in range(MAX_TOPICS + 2):
        CommanderFactory(campaign=campaign, player=player, name=f"{'ZYX'[n % 3]} Sheikh {n}")
    CommanderFactory(campaign=campaign, player=rival)
    everyone = list(Commander.objects.filter(campaign=campaign).order_by("name"))
    for user in (gm, player):
        membership = Membership.objects.get(campaign=campaign, user=user)
        assert member_topics(membership, commanders=everyone) == member_topics(membership)
    assert len(member_topics(Membership.objects.get(campaign=campaign, user=player)).split()) == MAX_TOPICS
