"""A new season from the demo campaign: members, house rules, catalogue, map and commanders (with their cards and
living units) come along; the history stays behind; a retried request makes one season."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from battles.demo import load_demo_battles
from battles.models import Battle
from campaign.demo import load_demo
from campaign.models import (
    Army,
    AuditEntry,
    Base,
    Campaign,
    Commander,
    Event,
    Item,
    LedgerTransaction,
    Location,
    Membership,
    TerrainRegion,
    Unit,
    UnitType,
)
from campaign.transfer.seasons import campaign_new_season
from cardgames.demo import load_demo_matches
from cardgames.models import Match
from tests.campaign.factories import CampaignFactory, UnitTypeFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(media_root):
    campaign, _ = load_demo()
    load_demo_matches(campaign=campaign)
    load_demo_battles(campaign=campaign)
    UnitTypeFactory(campaign=campaign, name="River Guard")
    return campaign


def _gm():
    return get_user_model().objects.get(username="gm")


def test_a_new_season_copies_the_setting_and_the_commanders_but_not_the_history(demo):
    season = campaign_new_season(source=demo, name="The Sultan's Might II", slug="", actor=_gm(), carry_purses=True)
    assert season.slug == "the-sultans-might-ii"
    assert season.house_rules == demo.house_rules
    assert set(Membership.objects.filter(campaign=season).values_list("user__username", "role")) == \
        set(Membership.objects.filter(campaign=demo).values_list("user__username", "role"))
    assert list(UnitType.objects.filter(campaign=season).values_list("name", flat=True)) == ["River Guard"]

    old_map, new_map = demo.tactical_map, season.tactical_map
    assert new_map.picture.read() == old_map.picture.read()
    assert new_map.picture.name != old_map.picture.name
    assert TerrainRegion.objects.filter(map=new_map).count() == TerrainRegion.objects.filter(map=old_map).count()
    riverford = Location.objects.get(map=new_map, name="Riverford")
    assert (riverford.holder.name, riverford.holder.campaign, riverford.capture_progress) == \
        ("Amira bint Khalid", season, 0)
    assert Base.objects.get(map=new_map).location == riverford

    old, new = (Commander.objects.get(campaign=c, name="Amira bint Khalid") for c in (demo, season))
    assert (new.player, new.level, new.power, new.morale) == (old.player, old.level, old.power, old.starting_morale)
    assert new.purse.balance == old.purse.balance > 0
    assert sorted(Item.objects.filter(commander=new).values_list("name", flat=True)) == \
        sorted(Item.objects.filter(commander=old, destroyed_at__isnull=True).values_list("name", flat=True))
    living = Unit.objects.filter(commander=old).exclude(state=Unit.State.KILLED)
    copied = Unit.objects.filter(commander=new)
    assert sorted(copied.values_list("unit_type__name", "strength", "trainings", "name")) == \
        sorted(living.values_list("unit_type__name", "strength", "trainings", "name"))
    assert set(copied.values_list("state", flat=True)) == {Unit.State.RESERVE}

    for model in (Event, Army, Battle, Match):
        assert not model.objects.filter(campaign=season).exists(), model.__name__
    assert set(LedgerTransaction.objects.filter(campaign=season).values_list("kind", flat=True)) == {"grant"}
    assert AuditEntry.objects.filter(campaign=demo, action="campaign.new_season", target=str(season)).exists()


def test_purses_start_empty_unless_carried_over(demo):
    season = campaign_new_season(source=demo, name="Lean Years", slug="lean", actor=_gm(), carry_purses=False)
    assert not LedgerTransaction.objects.filter(campaign=season).exists()
    assert {c.purse.balance for c in Commander.objects.filter(campaign=season)} == {0}


def test_a_retried_new_season_makes_one_and_a_taken_address_is_refused(demo):
    first = campaign_new_season(source=demo, name="Again", slug="again", actor=_gm(), carry_purses=True)
    again = campaign_new_season(source=demo, name="Again", slug="again", actor=_gm(), carry_purses=True)
    assert again == first
    assert Campaign.objects.filter(slug="again").count() == 1
    assert LedgerTransaction.objects.filter(campaign=first).count() == \
        Commander.objects.filter(campaign=first, purse__balance__gt=0).count()
    CampaignFactory(slug="taken")
    with pytest.raises(ValidationError, match="/c/taken/ is taken by another campaign"):
        campaign_new_season(source=demo, name="Taken", slug="taken", actor=_gm(), carry_purses=True)
