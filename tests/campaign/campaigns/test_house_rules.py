"""House rules as a page built from the settings the code knows, each with its default and the ruling it
changes; values are checked when saved, and a Battle started afterwards plays by them."""

from __future__ import annotations

import pytest

from battles import selectors as battle_selectors
from campaign.campaigns.house_rules import house_rules_with
from tests.campaign.factories import ArmyFactory, CommanderFactory, UnitFactory

pytestmark = pytest.mark.django_db
URL = "/c/river-valley/house-rules/"
WINDOW = {"reversal_window_hours": "24"}  # the page posts every setting; this one at its default


def test_the_page_lists_every_known_setting_with_its_default_and_ruling(client, player):
    client.force_login(player)
    page = client.get(URL).content.decode()
    assert "Re-rolls of a tie before the attacker wins" in page
    assert "after 100 re-rolls the attacker wins" in page
    assert "Terrain advantages in Battle" in page
    assert "Hours a game master may reverse a record" in page
    assert 'data-testid="save-house-rules"' not in page  # players read them


def test_a_gm_saves_a_setting_and_a_battle_plays_by_it(client, gm, campaign, day):
    client.force_login(gm)
    response = client.post(URL, {**WINDOW, "battle__reroll_limit": "20", "terrain_battle": ""}, follow=True)
    assert "The house rules are saved" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.house_rules == {"battle": {"reroll_limit": 20}}
    armies = [ArmyFactory(commander=CommanderFactory(campaign=campaign)) for _ in range(2)]
    for army in armies:
        UnitFactory(commander=army.commander, army=army)
    config = battle_selectors.battle_config_for(attacker_army=armies[0], defender_army=armies[1], day=day)
    assert config["house_rules"] == {"reroll_limit": 20}
    client.post(URL, {**WINDOW, "battle__reroll_limit": "100", "terrain_battle": ""})  # back to the default: not stored
    campaign.refresh_from_db()
    assert campaign.house_rules == {}


def test_values_that_cannot_be_read_are_refused_with_what_to_fix(client, gm, campaign):
    client.force_login(gm)
    bad_json = client.post(URL, {**WINDOW, "battle__reroll_limit": "100", "terrain_battle": "{difficult: 1"},
                           follow=True)
    assert "That is not JSON" in bad_json.content.decode()
    bad_rule = client.post(URL, {**WINDOW, "battle__reroll_limit": "100",
                                 "terrain_battle": '{"swamp": [{"side": "defender", "add": 1}]}'}, follow=True)
    assert "&#x27;swamp&#x27; is not a terrain kind" in bad_rule.content.decode()
    too_many = client.post(URL, {**WINDOW, "battle__reroll_limit": "5000", "terrain_battle": ""}, follow=True)
    assert "less than or equal to 1000" in too_many.content.decode()
    campaign.refresh_from_db()
    assert campaign.house_rules == {}


def test_a_player_cannot_save(client, player, campaign):
    client.force_login(player)
    response = client.post(URL, {**WINDOW, "battle__reroll_limit": "3"}, follow=True)
    assert "Only a game master may change the house rules." in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.house_rules == {}


def test_settings_nobody_registered_are_kept():
    assert house_rules_with({"old": 1}, {"battle.reroll_limit": 7}) == {"old": 1, "battle": {"reroll_limit": 7}}


def test_a_gm_sets_the_reversal_window(client, gm, campaign):
    from campaign.campaigns.reversals import reversal_window_hours

    client.force_login(gm)
    client.post(URL, {"reversal_window_hours": "2", "battle__reroll_limit": "100", "terrain_battle": ""})
    campaign.refresh_from_db()
    assert reversal_window_hours(campaign=campaign) == 2
    too_long = client.post(URL, {"reversal_window_hours": "9999", "battle__reroll_limit": "100",
                                 "terrain_battle": ""}, follow=True)
    assert "less than or equal to 720" in too_long.content.decode()
