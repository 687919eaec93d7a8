"""Reversing an applied Battle result (#15): casualties, Morale, Influence, the map and the Battle due go back
exactly as they were, the table Battle waits for the right result, and what blocks a reversal is named."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from battles import services
from battles.models import Battle
from campaign.campaigns.permissions import NotAllowed
from campaign.campaigns.reversals import reversal_refusal, reversible_latest, reversible_reverse
from campaign.economy import upkeep
from campaign.map import armies
from campaign.map import services as map_services
from campaign.models import ArmyDayActivity, AuditEntry, DueBattle, Reversible
from tests.battles.test_battles import entry
from tests.campaign.map_fixtures import make_map
from tests.helpers import api_for, campaign_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_battle(host, gm):
    return services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, mode=Battle.Mode.LOGGED,
                                 actor=gm)


def applied_record(battle) -> Reversible:
    record = reversible_latest(kind=Reversible.Kind.BATTLE, target_id=battle.pk)
    assert record is not None
    return record


def test_a_wrong_winner_is_reversed_exactly_and_the_right_result_applied(host, gm, campaign, day, table_battle):
    before = campaign_state(campaign)
    services.battle_log_result(battle=table_battle, actor=gm, **entry(host))  # Brann wins: the wrong winner
    assert campaign_state(campaign) != before
    assert ArmyDayActivity.objects.filter(day=day, reason="fought").count() == 2

    record = reversible_reverse(record=applied_record(table_battle), actor=gm, reason="Ayla won: wrong winner")

    assert campaign_state(campaign) == before
    assert not ArmyDayActivity.objects.filter(day=day).exists()
    table_battle.refresh_from_db()
    assert (table_battle.status, table_battle.result, table_battle.entered_by) == (Battle.Status.DUE, {}, None)
    assert (record.reversed_by, record.reason) == (gm, "Ayla won: wrong winner")
    services.battle_log_result(battle=table_battle, actor=gm, **entry(host, winner=0, morale_left=[5, 3]))
    table_battle.refresh_from_db()
    assert (table_battle.status, table_battle.result["winner"]) == (Battle.Status.APPLIED, 0)
    host.ayla.refresh_from_db()
    assert host.ayla.morale == 5
    actions = list(AuditEntry.objects.filter(action__startswith="battle.").order_by("pk")
                   .values_list("action", flat=True))
    assert actions[-5:] == ["battle.log", "battle.apply", "battle.reverse", "battle.log", "battle.apply"]
    reversed_row = AuditEntry.objects.get(action="battle.reverse")
    assert (reversed_row.actor, reversed_row.data["reason"]) == (gm, "Ayla won: wrong winner")


def test_a_retried_reversal_does_nothing_twice(host, gm, campaign, table_battle):
    services.battle_log_result(battle=table_battle, actor=gm, **entry(host))
    record = applied_record(table_battle)
    reversible_reverse(record=record, actor=gm, reason="wrong winner")
    services.battle_log_result(battle=table_battle, actor=gm, **entry(host, winner=0, morale_left=[5, 3]))
    after_right_result = campaign_state(campaign)
    reversible_reverse(record=record, actor=gm, reason="wrong winner")  # the phone retried
    assert campaign_state(campaign) == after_right_result
    assert AuditEntry.objects.filter(action="battle.reverse").count() == 1


def test_the_outcome_on_the_map_goes_back(host, event, gm, campaign, player):
    tactical_map = make_map(campaign)
    camp = map_services.location_create(tactical_map=tactical_map, name="Camp", size="camp", x=10, y=10, actor=None)
    for army, x in ((host.vanguard, 8.0), (host.wall, 10.0)):
        armies.army_place(army=army, tactical_map=tactical_map, x=x, y=10.0, actor=None)
    due = DueBattle.objects.create(event=event, hour=1, first=host.vanguard, second=host.wall, location=camp)
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, due_battle=due,
                                   mode=Battle.Mode.LOGGED, actor=player)
    before = campaign_state(campaign)
    services.battle_log_result(battle=battle, actor=gm, **entry(host))
    due.refresh_from_db()
    host.vanguard.refresh_from_db()
    assert due.status == DueBattle.Status.FOUGHT
    assert host.vanguard.x != 8.0  # the loser retreated

    reversible_reverse(record=applied_record(battle), actor=gm, reason="Logged the wrong winner")

    assert campaign_state(campaign) == before
    due.refresh_from_db()
    assert (due.status, due.winner_id, due.fought_hour) == (DueBattle.Status.DUE, None, None)


def test_a_later_battle_of_the_same_commanders_blocks_the_reversal_and_is_named(host, gm, table_battle):
    services.battle_log_result(battle=table_battle, actor=gm, **entry(host))
    first = applied_record(table_battle)
    second = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, mode=Battle.Mode.LOGGED,
                                   actor=gm)
    services.battle_log_result(battle=second, actor=gm, winner=1, killed=[[], []], disabled=[[], []],
                               exhausted=[[], []], morale_left=[1, 2], influence_spent=[0, 0])
    with pytest.raises(ValidationError, match=f"reverse them first, most recent first: Battle #{second.pk}, "
                                              "Ayla against Brann"):
        reversible_reverse(record=first, actor=gm, reason="wrong winner")
    reversible_reverse(record=applied_record(second), actor=gm, reason="never happened")
    services.battle_cancel(battle=second, actor=gm)  # reversed, it is open again: called off, it frees them
    reversible_reverse(record=first, actor=gm, reason="wrong winner")
    assert Reversible.objects.filter(reversed_at__isnull=False).count() == 2


def test_a_row_changed_by_hand_since_blocks_the_reversal(host, gm, day, table_battle):
    services.battle_log_result(battle=table_battle, actor=gm, **entry(host))
    from campaign.economy.upkeep import morale_buy

    morale_buy(commander=host.ayla, day=day, points=1, actor=gm)
    with pytest.raises(ValidationError, match=r"The commander Ayla has changed since \(morale\)"):
        reversible_reverse(record=applied_record(table_battle), actor=gm, reason="wrong winner")


def test_only_a_gm_reverses_with_a_reason_within_the_window(host, gm, player, campaign, table_battle):
    services.battle_log_result(battle=table_battle, actor=gm, **entry(host))
    record = applied_record(table_battle)
    with pytest.raises(NotAllowed):
        reversible_reverse(record=record, actor=player, reason="I lost")
    with pytest.raises(ValidationError, match="Say why it is reversed"):
        reversible_reverse(record=record, actor=gm, reason="  ")
    later = timezone.now() + timedelta(hours=25)
    assert reversal_refusal(record=record, now=later) == (
        f"Battle #{table_battle.pk}, Ayla against Brann was recorded more than 24 hours ago: the campaign's house "
        "rule allows reversing for 24 hours.")
    campaign.house_rules = {"reversal_window_hours": 48}
    campaign.save()
    record.refresh_from_db()
    assert reversal_refusal(record=record, now=later) is None
    campaign.house_rules = {"reversal_window_hours": 0}
    campaign.save()
    record = Reversible.objects.select_related("campaign").get(pk=record.pk)
    assert "more than 0 hours ago" in reversal_refusal(record=record)


def test_a_closed_day_blocks_reversing_a_battle_of_it(host, gm, day, table_battle):
    services.battle_log_result(battle=table_battle, actor=gm, **entry(host))
    upkeep.day_close(day=day, actor=gm)
    with pytest.raises(ValidationError, match=f"most recent first: {day} \\(day closed\\)"):
        reversible_reverse(record=applied_record(table_battle), actor=gm, reason="wrong winner")


def test_the_api_reverses_once_and_lists_what_may_be_reversed(host, gm, player, campaign, table_battle):
    services.battle_log_result(battle=table_battle, actor=gm, **entry(host))
    record = applied_record(table_battle)
    listed = api_for(gm).get("/api/reversals/", {"campaign": campaign.pk}).json()["results"]
    assert [(r["id"], r["kind"], r["refusal"]) for r in listed] == [(record.pk, "battle", None)]
    assert api_for(player).post(f"/api/reversals/{record.pk}/reverse/", {"reason": "I lost"}).status_code == 404
    answer = api_for(gm).post(f"/api/reversals/{record.pk}/reverse/", {"reason": "wrong winner"})
    assert answer.status_code == 200, answer.content
    assert answer.json()["reversed_by"] == gm.pk
    again = api_for(gm).post(f"/api/reversals/{record.pk}/reverse/", {"reason": "wrong winner"})
    assert again.status_code == 200
    assert AuditEntry.objects.filter(action="battle.reverse").count() == 1
    table_battle.refresh_from_db()
    assert table_battle.status == Battle.Status.DUE


def test_the_battle_page_offers_the_reversal_to_a_gm_only_and_says_who_reversed(client, host, gm, player,
                                                                               table_battle):
    services.battle_log_result(battle=table_battle, actor=gm, **entry(host))
    page = reverse("battle-detail", args=[table_battle.campaign.slug, table_battle.pk])
    client.force_login(player)
    assert 'data-testid="reversal"' not in client.get(page).content.decode()
    record = applied_record(table_battle)
    action = reverse("reversal-reverse", args=[table_battle.campaign.slug, record.pk])
    assert client.post(action, {"reason": "I lost", "confirm": "1", "next": page}).status_code == 403
    client.force_login(gm)
    assert 'data-testid="reversal-submit"' in client.get(page).content.decode()
    unconfirmed = client.post(action, {"reason": "wrong winner", "next": page}, follow=True).content.decode()
    assert "Tick the box to confirm" in unconfirmed
    done = client.post(action, {"reason": "wrong winner", "confirm": "1", "next": "https://evil.example/"})
    assert done.url == reverse("campaign-detail", args=[table_battle.campaign.slug])  # never off the site
    shown = client.get(page).content.decode()
    assert f"Battle #{table_battle.pk}, Ayla against Brann was reversed by gm1" in shown
    assert "“wrong winner”" in shown
    assert 'data-testid="enter-result"' in shown


def test_the_chronicle_tells_the_reversal_its_reason_only_to_the_game_masters_and_the_two_commanders(
        host, gm, player, rival, campaign, table_battle):
    from campaign.campaigns.chronicle import ChronicleFilters, chronicle_for
    from campaign.models import Membership
    from tests.campaign.factories import MembershipFactory, UserFactory

    services.battle_log_result(battle=table_battle, actor=gm, **entry(host))
    reversible_reverse(record=applied_record(table_battle), actor=gm, reason="Ayla won: wrong winner")
    onlooker = MembershipFactory(campaign=campaign, user=UserFactory(username="onlooker")).user
    label = f"Battle #{table_battle.pk}, Ayla against Brann"

    def told(user) -> list[str]:
        membership = Membership.objects.get(campaign=campaign, user=user)
        return [line.told.words for line in chronicle_for(membership=membership,
                                                          filters=ChronicleFilters(kind="correction"))]

    with_reason = [f"A game master reversed {label}: Ayla won: wrong winner."]
    assert told(gm) == told(player) == told(rival) == with_reason
    assert told(onlooker) == [f"A game master reversed {label}."]
