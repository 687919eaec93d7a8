"""Terrain that gives advantages: "certain environments on the battlefield may grant advantages or disadvantages
to one side or both" (army-combat.txt). A campaign house rule per terrain kind, default none; applied when a
Battle is fought there and shown on the battle page."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles import services
from battles.engine import GAME
from battles.engine.legal import legal_actions
from campaign.campaigns import services as campaigns_services
from campaign.map import services as map_services
from gamekit.dice import Dice
from tests.battles.engine.helpers import act, texts
from tests.campaign.map_fixtures import make_map
from tests.helpers import api_for

pytestmark = pytest.mark.django_db

FOREST = {"difficult": [{"side": "defender", "add": 1, "units": {"path": "Steel"}, "note": "cover of the trees"}]}
REVEAL_ADD_1 = {"when": "reveal", "do": "add", "amount": 1, "to": "own"}


@pytest.fixture
def forest_ford(host):
    """A ford inside the Old Forest (difficult terrain)."""
    tactical_map = make_map(host.ayla.campaign)
    map_services.terrain_region_create(tactical_map=tactical_map, name="Old Forest", kind="difficult",
                                       points=[[0, 0], [20, 0], [20, 20], [0, 20]], actor=None)
    return map_services.location_create(tactical_map=tactical_map, name="Ford", size="camp", x=5, y=5, actor=None)


def _house_rule(campaign, rule):
    campaign.house_rules = {"terrain_battle": rule}
    campaign.save(update_fields=["house_rules"])


def test_the_defenders_units_in_the_forest_add_as_the_house_rule_says(host, gm, forest_ford, client):
    _house_rule(host.ayla.campaign, FOREST)
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, location=forest_ford,
                                   actor=gm, seed=3)
    ayla, brann = battle.config["commanders"]
    assert all(REVEAL_ADD_1 not in u["effects"] for u in ayla["units"])  # the attacker gets nothing
    steel = {u["id"]: REVEAL_ADD_1 in u["effects"] for u in brann["units"]}
    assert steel == {host.wall_units[0].pk: True, host.wall_units[1].pk: True, host.wall_units[2].pk: True}
    assert battle.config["terrain"] == [{"name": "Old Forest", "kind": "difficult", "advantages": [
        "the defender's Steel units Add 1 (cover of the trees)"]}]
    client.force_login(gm)
    page = client.get(reverse("battle-detail", args=[host.ayla.campaign.slug, battle.pk])).content.decode()
    assert "Fought on Old Forest" in page
    assert "the defender&#x27;s Steel units Add 1 (cover of the trees)" in page


def test_the_engine_plays_the_advantage_in_a_skirmish(host, gm, forest_ford):
    """Equal Spearmen, equal rolls (the attacking Aggressor keeps the higher of two 4s): in the open they would tie
    and re-roll; in the forest the defender wins 7 to 6."""
    _house_rule(host.ayla.campaign, {"difficult": [{"side": "defender", "add": 1}]})
    config = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, location=forest_ford,
                                   actor=gm, seed=3).config
    spearmen = next(u for u in config["commanders"][1]["units"] if u["name"] == "Spearmen")
    duel = {**config, "commanders": [
        {**config["commanders"][0], "units": [u for u in config["commanders"][0]["units"] if u["name"] == "Spearmen"]},
        {**config["commanders"][1], "units": [spearmen]}]}
    duel["commanders"][0]["units"][0]["retinue"] = False
    state = GAME.new_game(duel, ["Ayla", "Brann"], dice=Dice.scripted([1, 4, 4, 4]))
    GAME.apply(state, ("first", 0))
    attacker = duel["commanders"][0]["units"][0]["id"]
    events = texts(act(state, ("play", attacker), ("play", spearmen["id"])))
    while ("decline",) in legal_actions(state, state.actor):  # neither commander uses a power
        events += texts(act(state, ("decline",)))
    assert "Spearmen (Defense, Aggressor) roll 4: 2 + 4 + 1 Spearmen = 7" in events
    assert "Spearmen wins the Skirmish." in events


def test_without_the_house_rule_terrain_gives_nothing(host, gm, forest_ford):
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, location=forest_ford,
                                   actor=gm, seed=3)
    assert all(REVEAL_ADD_1 not in u["effects"] for c in battle.config["commanders"] for u in c["units"])
    assert battle.config["terrain"] == [{"name": "Old Forest", "kind": "difficult", "advantages": []}]


def test_a_house_rule_that_cannot_be_read_is_refused_when_saved(host, gm):
    campaign = host.ayla.campaign
    with pytest.raises(ValidationError, match="side must be one of attacker, defender, both"):
        campaigns_services.campaign_update(campaign=campaign, actor=gm, house_rules={
            "terrain_battle": {"difficult": [{"side": "the trees", "add": 1}]}})
    response = api_for(gm).patch(f"/api/campaigns/{campaign.pk}/", {
        "house_rules": {"terrain_battle": {"swamp": [{"side": "defender", "add": 1}]}}}, format="json")
    assert response.status_code == 400
    assert "'swamp' is not a terrain kind" in response.content.decode()
    ok = api_for(gm).patch(f"/api/campaigns/{campaign.pk}/", {"house_rules": {"terrain_battle": FOREST}},
                           format="json")
    assert ok.status_code == 200, ok.content
