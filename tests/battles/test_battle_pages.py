"""Battle pages and the API: who may see and do what, the live table per seat, logging, odds."""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles import selectors, services
from battles.engine.odds import SkirmishSide, skirmish_odds
from battles.models import Battle
from cardgames.models import AIPolicy

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(host, gm):
    return services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm, seed=1)


def url(battle: Battle, name: str = "battle-detail") -> str:
    return reverse(name, args=[battle.campaign.slug, battle.pk])


def hand_row(html: str) -> str:
    """The hand area of the viewer's own cards (a spectator has none)."""
    if 'data-testid="hand"' not in html:
        return ""
    start = html.index('data-testid="hand"')
    return html[start:html.index("</ul>", start)]


def test_outsiders_get_404_everywhere(client, outsider, live):
    client.force_login(outsider)
    for name in ("battle-detail", "battle-log", "battle-replay"):
        assert client.get(url(live, name)).status_code == 404
    assert client.get(reverse("battle-list", args=[live.campaign.slug])).status_code == 404
    assert client.post(url(live, "battle-hand-to-ai"), {"seat": 0, "policy": "random"}).status_code == 404


def test_each_commander_sees_only_their_own_hand(client, player, rival, live, host):
    client.force_login(player)
    page = client.get(url(live)).content.decode()
    assert "Spearmen" in hand_row(page)
    assert "Shield Wall" not in hand_row(page)
    client.force_login(rival)
    page = client.get(url(live)).content.decode()
    assert "Shield Wall" in hand_row(page)
    assert "Archers" not in hand_row(page)


def test_the_gm_watches_either_side(client, gm, live):
    client.force_login(gm)
    assert "Archers" in hand_row(client.get(url(live) + "?seat=0").content.decode())
    assert "Shield Wall" in hand_row(client.get(url(live) + "?seat=1").content.decode())
    page = client.get(url(live)).content.decode()
    assert "Watch as:" in page
    assert "Archers" not in hand_row(page)


def test_a_player_cannot_act_or_hand_over_for_the_other_commander(client, player, live):
    client.force_login(player)
    response = client.post(url(live, "battle-hand-to-ai"), {"seat": 1, "policy": "greedy"})
    assert response.status_code == 403
    assert "Only Brann or a game master may hand this seat to an AI." in response.content.decode()
    assert live.match.seats.get(seat=1).ai == ""
    response = client.post(url(live, "battle-hand-to-ai"), {"seat": 0, "policy": "greedy"})
    assert response.status_code == 302
    assert live.match.seats.get(seat=0).ai == AIPolicy.GREEDY


def test_a_player_cannot_start_a_battle_that_is_not_due(client, player, live):
    client.force_login(player)
    assert client.get(reverse("battle-start", args=[live.campaign.slug])).status_code == 403


def test_the_gm_starts_a_table_battle_and_logs_it_through_the_pages(client, gm, host):
    client.force_login(gm)
    start = reverse("battle-start", args=[host.ayla.campaign.slug])
    response = client.post(start, {"attacker_army": host.vanguard.pk, "defender_army": host.wall.pk,
                                   "mode": "logged", "npc_seat": "gm"})
    battle = Battle.objects.get()
    assert response.status_code == 302
    assert battle.mode == Battle.Mode.LOGGED
    bad = {"winner": 0, "killed_0": [host.archers.pk], "disabled_0": [host.archers.pk], "morale_0": 6,
           "influence_0": 0, "morale_1": 4, "influence_1": 0}
    page = client.post(url(battle, "battle-log"), bad).content.decode()
    assert "Archers is listed twice (Killed and Disabled): a unit ends the Battle in one pile only." in page
    good = {"winner": 0, "killed_1": [host.wall_units[2].pk], "morale_0": 6, "influence_0": 0, "morale_1": 4,
            "influence_1": 0}
    assert client.post(url(battle, "battle-log"), good).status_code == 302
    battle.refresh_from_db()
    assert battle.status == Battle.Status.APPLIED
    page = client.get(url(battle, "battle-replay")).content.decode()
    assert "Spearmen" in page
    assert "Played at a table" in page


def test_an_oathbound_commander_designates_a_unit_on_the_start_form(client, gm, host):
    """Oathbound: each Battle, one designated unit is only Disabled if Killed. Only units of an Oathbound
    commander are offered, and only one of an army in this Battle is taken."""
    from tests.campaign.factories import ArmyFactory, UnitFactory

    host.brann.power = "Oathbound"
    host.brann.save(update_fields=["power"])
    client.force_login(gm)
    start = reverse("battle-start", args=[host.ayla.campaign.slug])
    form = {"attacker_army": host.vanguard.pk, "defender_army": host.wall.pk, "mode": "live", "npc_seat": "gm"}
    offered = client.get(start).context["form"].fields["oathbound"]
    assert list(offered.queryset) == host.wall_units  # Ayla is no Oathbound
    assert offered.label_from_instance(host.wall_units[2]) == "Wall: Spearmen"
    refused = client.post(start, {**form, "oathbound": host.archers.pk}).content.decode()
    assert "Select a valid choice" in refused
    elsewhere = UnitFactory(commander=host.brann, army=ArmyFactory(commander=host.brann, name="Garrison"))
    refused = client.post(start, {**form, "oathbound": elsewhere.pk}).content.decode()
    assert "Garrison is not in this Battle: designate a unit of the Oathbound commander&#x27;s army" in refused
    assert client.post(start, {**form, "oathbound": host.wall_units[1].pk}).status_code == 302
    battle = Battle.objects.get()
    assert battle.config["commanders"][1]["oathbound"] == host.wall_units[1].pk
    assert battle.config["commanders"][0]["oathbound"] is None


def test_the_oathbound_pick_must_belong_to_the_oathbound_commander(host, gm):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="Ayla is not Oathbound"):
        services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm,
                              choices={host.ayla.pk: {"oathbound": host.archers.pk}})
    host.brann.power = "Oathbound"
    host.brann.save(update_fields=["power"])
    with pytest.raises(ValidationError, match="Brann's Oathbound unit must be one of the units Wall brings"):
        services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm,
                              choices={host.brann.pk: {"oathbound": host.archers.pk}})


def test_the_replay_steps_through_a_finished_live_battle(client, gm, player, rival, live,
                                                         django_capture_on_commit_callbacks):
    from tests.battles.test_battles import play_out

    with django_capture_on_commit_callbacks(execute=True):
        play_out(live.match, [player, rival])
    client.force_login(player)
    page = client.get(url(live, "battle-replay") + "?step=2").content.decode()
    assert f"Step 2 of {live.match.log.count()}" in page
    assert 'data-testid="back"' in page


def test_the_battle_odds_fragment_shows_win_chances_with_intervals(client, player, host, monkeypatch):
    from campaign.map import services as map_services

    monkeypatch.setattr(selectors, "ODDS_BATTLES_SERIAL", 20)
    map_services.reveal_create(army=host.wall, to_commander=host.ayla, what="size", actor=None)
    client.force_login(player)
    odds = reverse("battle-odds", args=[host.ayla.campaign.slug])
    page = client.get(odds, {"attacker_army": host.vanguard.pk, "defender_army": host.wall.pk}).content.decode()
    assert "20 battles played here (no Celery worker answered)" in page
    assert page.count("%</strong>") == 2
    assert "Morale left" in page


def test_the_skirmish_odds_api_is_exact(client, player):
    client.force_login(player)
    body = {"offense": {"strength": 2, "role": "Aggressor", "traits": ["Reach"]}, "defense": {"strength": 2}}
    response = client.post("/api/odds/skirmish/", body, content_type="application/json")
    expected = skirmish_odds(offense=SkirmishSide(2, "Aggressor", frozenset({"Reach"})), defense=SkirmishSide(2))
    assert response.status_code == 200
    assert response.json() == expected.as_dict()


def test_the_skirmish_odds_api_names_bad_fields(client, player):
    client.force_login(player)
    body = {"offense": {"strength": -1, "role": "Wizard"}, "defense": {"traits": ["Sneaky"], "card_bonuses": ["x"]}}
    response = client.post("/api/odds/skirmish/", body, content_type="application/json")
    assert response.status_code == 400
    text = str(response.json())
    for field in ("strength", "role", "traits", "card_bonuses"):
        assert field in text


def test_the_skirmish_odds_api_needs_a_login(client):
    response = client.post("/api/odds/skirmish/", {}, content_type="application/json")
    assert (response.status_code, response["WWW-Authenticate"]) == (401, "Token")


def test_the_skirmish_odds_form_on_the_battle_page(client, player, live):
    client.force_login(player)
    odds = reverse("battle-skirmish-odds", args=[live.campaign.slug])
    page = client.post(odds, {"offense_strength": 3, "defense_strength": 1, "defense_role": "Guardian"}).content
    assert b"Offense wins" in page
    page = client.post(odds, {"offense_strength": "", "defense_strength": 1, "defense_cards": "1, x"}).content
    assert b"Offense strength" in page
    assert b"Defense card bonuses" in page


def test_battles_api_lists_only_my_campaigns(client, player, outsider, live):
    client.force_login(player)
    assert [b["id"] for b in client.get("/api/battles/").json()["results"]] == [live.pk]
    client.force_login(outsider)
    assert client.get("/api/battles/").json()["results"] == []


def test_the_oathbound_field_is_left_out_when_nobody_is_oathbound(client, gm, host):
    client.force_login(gm)
    assert "oathbound" not in client.get(reverse("battle-start", args=[host.ayla.campaign.slug])).context["form"].fields


def test_a_player_gets_no_odds_against_an_army_fog_of_war_hides(client, player, host):
    """Fog of war: the odds would show the enemy's commander and strength, so an unrevealed army is no army."""
    client.force_login(player)
    odds = reverse("battle-odds", args=[host.ayla.campaign.slug])
    response = client.get(odds, {"attacker_army": host.vanguard.pk, "defender_army": host.wall.pk})
    assert response.status_code == 404
    assert "Brann" not in response.content.decode()
    assert "Wall" not in response.content.decode()


def test_a_player_starting_a_battle_due_sees_only_what_fog_of_war_shows(client, player, host, event):
    from campaign.models import DueBattle

    due = DueBattle.objects.create(event=event, hour=1, first=host.vanguard, second=host.wall)
    client.force_login(player)
    start = reverse("battle-start", args=[host.ayla.campaign.slug])
    page = client.get(start, {"due": due.pk}).content.decode()
    assert "Vanguard (Ayla)" in page
    assert "An enemy army (unseen until the Battle begins)" in page
    assert "Brann" not in page
    assert "Wall" not in page
    assert 'data-testid="odds-unseen"' in page
    assert 'data-testid="battle-odds"' not in page
    response = client.post(start, {"due": due.pk, "mode": "live", "npc_seat": "gm"})
    assert response.status_code == 302
    assert Battle.objects.get().defender_army_id == host.wall.pk
