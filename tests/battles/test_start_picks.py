"""The picks made when a Battle starts (RULINGS.md): a Dervish's Path or Role is chosen once per Day and holds
for every Battle of that Day; a Tactician picks the copied power at the start of each Battle; only a commander's
player or a game master picks for them. On the start page and through POST /api/battles/."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles import services
from battles.models import Battle
from campaign.campaigns.permissions import NotAllowed
from campaign.economy.services import commander_dervish_choose
from campaign.models import Commander, Day, DueBattle
from tests.campaign.factories import DayFactory

pytestmark = pytest.mark.django_db


def as_power(commander: Commander, power: str, **fields) -> Commander:
    Commander.objects.filter(pk=commander.pk).update(power=power, **fields)
    commander.refresh_from_db()
    return commander


def fight(host, actor, **picks) -> Battle:
    """Ayla's Vanguard reaches Brann's Wall on the map and the Battle due starts; `picks` are Ayla's."""
    due = DueBattle.objects.create(event=host.ayla.campaign.events.get(), hour=DueBattle.objects.count() + 1,
                                   first=host.vanguard, second=host.wall)
    return services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=actor, due_battle=due,
                                 choices={host.ayla.pk: picks} if picks else None)


def cancel(battle: Battle, gm) -> None:
    services.battle_cancel(battle=battle, actor=gm)


def test_a_dervish_chooses_at_the_first_battle_of_the_day_and_it_holds_for_the_next(host, gm, player, day):
    as_power(host.ayla, "Dervish")
    with pytest.raises(ValidationError, match="Ayla is a Dervish and has not chosen today's Path or Role"):
        fight(host, gm)
    first = fight(host, player, dervish="Faith")
    assert first.config["commanders"][0]["dervish"] == "Faith"
    host.ayla.refresh_from_db()
    assert (host.ayla.dervish_choice, host.ayla.dervish_day_id) == ("Faith", day.pk)
    cancel(first, gm)
    second = fight(host, gm)  # the second Battle of the Day asks nothing
    assert second.config["commanders"][0]["dervish"] == "Faith"
    cancel(second, gm)
    with pytest.raises(ValidationError, match=r"Ayla chose Faith for .*: the choice holds for every Battle of the Day"):
        fight(host, player, dervish="Steel")
    assert not Battle.objects.filter(status=Battle.Status.LIVE).exists()


def test_a_game_master_corrects_a_dervish_choice_and_a_new_day_chooses_again(host, gm, player, day):
    ayla = as_power(host.ayla, "Dervish", dervish_choice="Faith", dervish_day=day)
    assert fight(host, gm, dervish="Steel").config["commanders"][0]["dervish"] == "Steel"
    ayla.refresh_from_db()
    assert ayla.dervish_choice == "Steel"
    tomorrow = DayFactory(event=day.event, number=2, status=Day.Status.CLOSED)
    ayla = commander_dervish_choose(commander=ayla, day=tomorrow, choice="Healer", actor=player)
    assert (ayla.dervish_choice, ayla.dervish_day_id) == ("Healer", tomorrow.pk)


def test_only_a_commanders_player_or_a_gm_picks_for_them(host, rival, day):
    as_power(host.ayla, "Dervish")
    with pytest.raises(NotAllowed, match="Only Ayla's player or a game master may make Ayla's picks"):
        fight(host, rival, dervish="Steel")
    with pytest.raises(NotAllowed):
        commander_dervish_choose(commander=host.ayla, day=day, choice="Steel", actor=rival)


def test_a_tactician_picks_the_copied_power_at_the_start_of_each_battle(host, gm, player):
    as_power(host.ayla, "Tactician")
    with pytest.raises(ValidationError, match="Ayla is a Tactician: choose the power they copy this Battle"):
        fight(host, gm)
    with pytest.raises(ValidationError, match="choose the power they copy"):
        fight(host, player, tactician="Evoker")  # not of the Guardian row or the Steel column
    first = fight(host, player, tactician="Master of Arms")
    assert first.config["commanders"][0]["tactician"] == "Master of Arms"
    cancel(first, gm)
    as_power(host.ayla, "Tactician", tactician_choice="Oathbound")
    assert fight(host, gm).config["commanders"][0]["tactician"] == "Oathbound"  # the usual pick by default


def test_picks_for_a_power_the_commander_lacks_are_refused(host, gm):
    with pytest.raises(ValidationError, match="Ayla is not a Dervish"):
        fight(host, gm, dervish="Steel")
    with pytest.raises(ValidationError, match="Ayla is not a Tactician"):
        fight(host, gm, tactician="Rogue")


def test_the_start_page_asks_the_first_battle_and_shows_the_choice_at_the_second(host, gm, client, day):
    as_power(host.ayla, "Dervish")
    as_power(host.brann, "Tactician", tactician_choice="Rogue")
    client.force_login(gm)
    url = reverse("battle-start", args=[host.ayla.campaign.slug])
    page = client.get(url).content.decode()
    assert 'name="dervish"' in page
    assert 'name="tactician"' in page
    assert '<option value="Rogue" selected>' in page  # Brann's usual pick, preselected
    answer = client.post(url, {"attacker_army": host.vanguard.pk, "defender_army": host.wall.pk, "mode": "live",
                               "npc_seat": "gm", "dervish": "Nature", "tactician": "Adept"})
    battle = Battle.objects.get()
    assert answer.status_code == 302
    assert [c.get("dervish") or c["tactician"] for c in battle.config["commanders"]] == ["Nature", "Adept"]
    shown = client.get(reverse("battle-detail", args=[host.ayla.campaign.slug, battle.pk])).content.decode()
    assert "Dervish (Adds 1 against Nature)" in shown
    assert "Tactician (Adept)" in shown
    cancel(battle, gm)
    page = client.get(url).content.decode()
    assert "Today: Ayla chose Nature. It holds for every Battle of the Day." in page


def test_a_player_starts_a_battle_due_through_the_api_and_a_retry_gets_the_same_battle(host, player, client, day):
    as_power(host.ayla, "Tactician")
    due = DueBattle.objects.create(event=day.event, hour=1, first=host.vanguard, second=host.wall)
    client.force_login(player)
    body = {"due_battle": due.pk, "picks": [{"commander": host.ayla.pk, "tactician": "Chirurgeon"}]}
    first = client.post("/api/battles/", body, content_type="application/json")
    assert first.status_code == 201, first.content
    assert first.json()["attacker"] == host.ayla.pk
    again = client.post("/api/battles/", body, content_type="application/json")
    assert again.json()["id"] == first.json()["id"]
    assert Battle.objects.get().config["commanders"][0]["tactician"] == "Chirurgeon"


def test_the_api_refuses_a_start_without_a_battle_and_picks_for_the_enemy(host, player, client, day):
    client.force_login(player)
    answer = client.post("/api/battles/", {}, content_type="application/json")
    assert answer.status_code == 400
    assert "Name a Battle due" in answer.content.decode()
    as_power(host.brann, "Dervish")
    due = DueBattle.objects.create(event=day.event, hour=1, first=host.vanguard, second=host.wall)
    answer = client.post("/api/battles/", {"due_battle": due.pk, "picks": [{"commander": host.brann.pk,
                                                                             "dervish": "Steel"}]},
                         content_type="application/json")
    assert answer.status_code == 403
    assert not Battle.objects.exists()
