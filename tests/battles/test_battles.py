"""Battles in the campaign: the config a Battle starts from, live Battles applied by the match_finished
signal exactly once, table Battles logged and checked, and the map's Battle due settled."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError

from battles import services
from battles.models import Battle
from campaign.campaigns.permissions import NotAllowed
from campaign.map import armies
from campaign.map import services as map_services
from campaign.models import ArmyDayActivity, AuditEntry, DueBattle, Unit
from cardgames.models import AIPolicy, Match
from cardgames.selectors import match_table
from cardgames.services import match_act, match_play_ai, match_seat_hand_to_ai
from cardgames.signals import match_finished
from tests.campaign.map_fixtures import make_map

pytestmark = pytest.mark.django_db


def play_out(match: Match, users) -> None:
    """Both sides take their first listed action until the Battle ends (Offense plays before it passes)."""
    for _ in range(500):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        seat = match_table(match=match, seat=None).to_move[0]
        action = json.loads(match_table(match=match, seat=seat).actions[0][1])
        match_act(match_id=match.pk, seat=seat, action=action, user=users[seat])
    raise AssertionError("the Battle did not end")


def test_battle_start_builds_the_config_from_the_armies(host, gm):
    tactical_map = make_map(host.ayla.campaign)
    ford = map_services.location_create(tactical_map=tactical_map, name="Ford", size="camp", x=5, y=5, actor=None)
    map_services.base_create(tactical_map=tactical_map, name="Redoubt", x=5, y=5, morale_bonus=2, location=ford,
                             actor=None)
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, location=ford, actor=gm,
                                   seed=3)
    ayla, brann = battle.config["commanders"]
    assert [u["id"] for u in ayla["units"]] == [host.retinue.pk, host.archers.pk]  # not the reserve, not the dead
    assert [u["retinue"] for u in ayla["units"]] == [True, False]  # the ledger says Ayla paid for the Spearmen
    assert ayla["units"][0] | {"effects": []} == {
        "id": host.retinue.pk, "name": "Spearmen", "strength": 2, "role": "Aggressor", "path": "Steel",
        "traits": ["Reach"], "effects": [], "retinue": True, "text": host.retinue.unit_type.text}
    assert (ayla["morale"], ayla["influence"], ayla["power"], ayla["is_player_character"]) == (6, 2, "Evoker", True)
    assert (ayla["base_morale"], brann["base_morale"]) == (0, 2)  # the defender holds the Base
    assert [u["id"] for u in brann["units"]] == [u.pk for u in host.wall_units]
    assert battle.status == Battle.Status.LIVE
    assert battle.match.game == "army-combat"
    assert [(s.user, s.ai) for s in battle.match.seats.all()] == [(host.ayla.player, ""), (host.brann.player, "")]
    host.ayla.refresh_from_db()
    host.brann.refresh_from_db()
    assert host.ayla.in_battle
    assert host.brann.in_battle
    view = match_table(match=battle.match, seat=1).view
    assert view["commanders"][1]["morale"] == brann["morale"] + 2


def test_a_commander_in_battle_cannot_start_another(host, gm):
    services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm)
    with pytest.raises(ValidationError, match="Brann and Ayla are already in a Battle: finish or cancel it first"):
        services.battle_start(attacker_army=host.wall, defender_army=host.vanguard, actor=gm)


def test_a_player_starts_only_a_battle_due_for_their_army(host, player):
    with pytest.raises(NotAllowed, match="Only a game master may start a Battle that is not due"):
        services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=player)


def test_a_gm_run_commander_is_played_by_the_gm_or_an_ai(host, gm, campaign):
    from tests.campaign.factories import ArmyFactory, CommanderFactory, UnitFactory

    emir = CommanderFactory(campaign=campaign, name="Emir", power="Necromancer")
    host_army = ArmyFactory(commander=emir, name="Host")
    UnitFactory(commander=emir, army=host_army)
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host_army, actor=gm)
    assert [(s.user, s.ai) for s in battle.match.seats.all()] == [(host.ayla.player, ""), (gm, "")]
    services.battle_cancel(battle=battle, actor=gm)
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host_army, actor=gm,
                                   npc_seat=AIPolicy.RANDOM)
    assert battle.match.seats.get(seat=1).ai == AIPolicy.RANDOM


def test_the_signal_applies_a_finished_live_battle_exactly_once(host, gm, player, rival, day,
                                                                django_capture_on_commit_callbacks):
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm, seed=5)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(battle.match, [player, rival])
    battle.refresh_from_db()
    match = battle.match
    assert match.status == Match.Status.FINISHED
    assert battle.status == Battle.Status.APPLIED
    assert battle.result == match.result
    result = battle.result
    for seat, army_units in ((0, [host.retinue, host.archers]), (1, host.wall_units)):
        for unit in army_units:
            unit.refresh_from_db()
            assert (unit.state == Unit.State.KILLED) == (unit.pk in result["killed"][seat])
    host.ayla.refresh_from_db()
    host.brann.refresh_from_db()
    assert not host.ayla.in_battle
    assert not host.brann.in_battle
    assert host.ayla.morale == result["morale"][0]
    assert host.brann.morale == result["morale"][1]
    assert host.ayla.influence == result["influence"][0]
    assert set(ArmyDayActivity.objects.filter(day=day, reason="fought").values_list("army", flat=True)) == {
        host.vanguard.pk, host.wall.pk}
    assert AuditEntry.objects.filter(action="battle.apply").count() == 1
    morale_after = (host.ayla.morale, host.brann.morale)
    with django_capture_on_commit_callbacks(execute=True):
        match_finished.send(sender=Match, match=match)
        services.battle_result_apply(battle=battle, actor=gm)
    host.ayla.refresh_from_db()
    host.brann.refresh_from_db()
    assert (host.ayla.morale, host.brann.morale) == morale_after
    assert AuditEntry.objects.filter(action="battle.apply").count() == 1


def test_a_seat_handed_to_the_ai_plays_on(host, gm, player, rival, django_capture_on_commit_callbacks):
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm, seed=9)
    with pytest.raises(NotAllowed, match="Only Brann or a game master may hand this seat to an AI"):
        match_seat_hand_to_ai(match=battle.match, seat=1, policy=AIPolicy.GREEDY, actor=player)
    with django_capture_on_commit_callbacks(execute=True):
        match_seat_hand_to_ai(match=battle.match, seat=1, policy=AIPolicy.RANDOM, actor=rival)
        for _ in range(200):
            battle.match.refresh_from_db()
            if battle.match.status != Match.Status.ACTIVE:
                break
            match_play_ai(match_id=battle.match_id)
            battle.match.refresh_from_db()
            table = match_table(match=battle.match, seat=0)
            if table.actions:
                match_act(match_id=battle.match_id, seat=0, action=json.loads(table.actions[0][1]), user=player)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.APPLIED


# --- a Battle played at a table --------------------------------------------------------------------------


@pytest.fixture
def table_battle(host, gm):
    return services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, mode=Battle.Mode.LOGGED,
                                 actor=gm)


def entry(host, **changes):
    """Ayla's Archers Killed, one Shield Wall Killed and one Disabled; Brann wins on Morale."""
    data = {"winner": 1, "killed": [[host.archers.pk], [host.wall_units[0].pk]],
            "disabled": [[], [host.wall_units[1].pk]], "exhausted": [[host.retinue.pk], []],
            "morale_left": [3, 4], "influence_spent": [1, 0]}
    data.update(changes)
    return data


def test_a_logged_battle_changes_the_campaign_exactly_as_entered(host, gm, day, table_battle):
    assert table_battle.status == Battle.Status.DUE
    assert table_battle.match is None
    services.battle_log_result(battle=table_battle, actor=gm, notes="Rain at the ford.", **entry(host))
    table_battle.refresh_from_db()
    assert table_battle.status == Battle.Status.APPLIED
    assert table_battle.applied_at is not None
    assert table_battle.result["kills"] == [1, 1]
    assert table_battle.result["routed"] is None
    states = {u.pk: u.state for u in Unit.objects.filter(commander__in=[host.ayla, host.brann])}
    assert states[host.archers.pk] == states[host.wall_units[0].pk] == Unit.State.KILLED
    assert states[host.retinue.pk] == states[host.wall_units[1].pk] == states[host.wall_units[2].pk] == "army"
    host.ayla.refresh_from_db()
    host.brann.refresh_from_db()
    assert (host.ayla.morale, host.ayla.influence, host.ayla.in_battle) == (3, 1, False)
    assert (host.brann.morale, host.brann.influence, host.brann.in_battle) == (4, 1, False)
    assert ArmyDayActivity.objects.filter(day=day, reason="fought").count() == 2
    services.battle_result_apply(battle=table_battle, actor=gm)  # a second apply changes nothing
    host.ayla.refresh_from_db()
    assert (host.ayla.morale, host.ayla.influence) == (3, 1)
    assert Unit.objects.filter(state=Unit.State.KILLED, commander__in=[host.ayla, host.brann]).count() == 3


@pytest.mark.parametrize(("changes", "sentence"), [
    (lambda h: {"killed": [[999], []]}, "Unit 999 did not fight in Vanguard: list only Ayla's units in their piles."),
    (lambda h: {"killed": [[h.archers.pk, h.archers.pk], [h.wall_units[0].pk]]},
     "Archers is listed twice (Killed and Killed): a unit ends the Battle in one pile only."),
    (lambda h: {"disabled": [[h.archers.pk], [h.wall_units[1].pk]]}, "Archers is listed twice (Killed and Disabled)"),
    (lambda h: {"killed": [[], [h.retinue.pk]]}, "did not fight in Wall: list only Brann's units"),
    (lambda h: {"influence_spent": [3, 0]}, "Ayla had 2 Influence: they cannot have spent 3."),
    (lambda h: {"influence_spent": [-1, 0]}, "Ayla cannot spend a negative amount of Influence."),
    (lambda h: {"morale_left": [-1, 4]}, "Ayla's Morale left cannot be below 0."),
    (lambda h: {"morale_left": [7, 4]}, "Ayla could end with at most 6 Morale, not 7: check the Morale left."),
    (lambda h: {"winner": 0}, "Kills were tied, and Brann had more Morale left, so Brann won."),
    (lambda h: {"morale_left": [0, 0]}, "Only one commander can be Routed"),
    (lambda h: {"morale_left": [0, 4], "winner": 0}, "Ayla ended at 0 Morale, so was Routed and lost: Brann won."),
    (lambda h: {"killed": [[h.archers.pk], []], "winner": 0, "morale_left": [5, 4]},
     "Brann Killed more units (1 to 0), so Brann won."),
    (lambda h: {"cleric_used": [True, False]},
     "Ayla could not use a Cleric's return in this Battle: they are no Cleric, or have used it today already."),
])
def test_a_logged_result_that_could_not_have_happened_is_refused(host, gm, table_battle, changes, sentence):
    with pytest.raises(ValidationError) as refused:
        services.battle_log_result(battle=table_battle, actor=gm, **entry(host, **changes(host)))
    assert any(sentence in message for message in refused.value.messages), refused.value.messages
    table_battle.refresh_from_db()
    assert table_battle.status == Battle.Status.DUE


def test_a_clerics_return_at_the_table_is_spent_for_the_day(host, gm, day):
    """Cleric: once per Day, 1 Morale returns a Killed card. Logged, it costs the Morale it may end with and
    the next Battle of the Day starts without it (Brann starts at 5 Morale)."""
    from battles.forms import BattleLogForm

    host.brann.power = "Cleric"
    host.brann.save(update_fields=["power"])
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, mode=Battle.Mode.LOGGED,
                                   actor=gm)
    assert "cleric_1" in BattleLogForm(battle=battle).fields
    assert "cleric_0" not in BattleLogForm(battle=battle).fields
    with pytest.raises(ValidationError, match="Brann could end with at most 4 Morale, not 5"):
        services.battle_log_result(battle=battle, actor=gm, **entry(host, morale_left=[3, 5], cleric_used=[0, 1]))
    services.battle_log_result(battle=battle, actor=gm, **entry(host, cleric_used=[False, True]))
    battle.refresh_from_db()
    assert battle.result["day_powers_used"] == [[], ["Cleric"]]
    again = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, mode=Battle.Mode.LOGGED,
                                  actor=gm)
    assert again.config["commanders"][1]["used_today"] == ["Cleric"]
    assert "cleric_1" not in BattleLogForm(battle=again).fields
    with pytest.raises(ValidationError, match="Brann could not use a Cleric's return"):
        services.battle_log_result(battle=again, actor=gm, **entry(host, cleric_used=[False, True]))


def test_a_commanders_entry_waits_for_the_other_commander(host, player, rival, table_battle):
    services.battle_log_result(battle=table_battle, actor=player, **entry(host))
    table_battle.refresh_from_db()
    assert table_battle.status == Battle.Status.FINISHED
    host.ayla.refresh_from_db()
    assert host.ayla.in_battle
    assert host.ayla.influence == 2
    with pytest.raises(NotAllowed, match="The other commander or a game master confirms"):
        services.battle_confirm_result(battle=table_battle, actor=player)
    services.battle_confirm_result(battle=table_battle, actor=rival)
    table_battle.refresh_from_db()
    assert table_battle.status == Battle.Status.APPLIED
    assert table_battle.confirmed_by == rival


def test_an_outsider_to_the_battle_cannot_enter_its_result(host, campaign, table_battle):
    from tests.campaign.factories import MembershipFactory, UserFactory

    bystander = MembershipFactory(campaign=campaign, user=UserFactory(username="bystander")).user
    with pytest.raises(NotAllowed, match="Only a game master or one of the two commanders"):
        services.battle_log_result(battle=table_battle, actor=bystander, **entry(host))


def test_cancelling_frees_the_commanders_and_changes_nothing_else(host, gm):
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm)
    services.battle_cancel(battle=battle, actor=gm)
    battle.refresh_from_db()
    host.ayla.refresh_from_db()
    assert battle.status == Battle.Status.CANCELLED
    assert battle.match.status == Match.Status.CANCELLED
    assert not host.ayla.in_battle
    assert host.ayla.morale == 6


def test_a_battle_due_on_the_map_settles_the_map(host, event, gm, player):
    tactical_map = make_map(host.ayla.campaign)
    camp = map_services.location_create(tactical_map=tactical_map, name="Camp", size="camp", x=10, y=10, actor=None)
    for army, x in ((host.vanguard, 8.0), (host.wall, 10.0)):
        armies.army_place(army=army, tactical_map=tactical_map, x=x, y=10.0, actor=None)
    due = DueBattle.objects.create(event=event, hour=1, first=host.vanguard, second=host.wall, location=camp)
    battle = services.battle_start(attacker_army=host.wall, defender_army=host.wall, due_battle=due,
                                   mode=Battle.Mode.LOGGED, actor=player)  # the due Battle names the armies
    assert (battle.attacker, battle.defender, battle.location) == (host.ayla, host.brann, camp)
    services.battle_log_result(battle=battle, actor=gm, **entry(host))
    due.refresh_from_db()
    camp.refresh_from_db()
    assert due.status == DueBattle.Status.FOUGHT
    assert due.winner_id == host.wall.pk
    assert not due.routed
    assert camp.holder_id is None  # winning there does not take it: the victor must still Capture it
