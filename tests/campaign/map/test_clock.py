"""The event clock and the hour: moves, captures, Battles due, cooldown, retreat, idempotence, upkeep marks."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign.economy import upkeep
from campaign.map import armies, clock, hour, orders
from campaign.map import services as map_services
from campaign.models import ArmyDayActivity, Base, Day, DueBattle, Event, HourLog, Location, MoveOrder, Unit
from tests.campaign.factories import CommanderFactory, UnitFactory, UnitTypeFactory
from tests.campaign.map_fixtures import make_army, make_map, ready

pytestmark = pytest.mark.django_db


@pytest.fixture
def board(campaign, event):
    ready(event)
    return make_map(campaign)


def advance(event, hours=1):
    results = []
    for _ in range(hours):
        event.refresh_from_db()
        results.append(hour.event_hour_process(event=event, hour=event.current_hour + 1))
    return results[-1]


def test_an_army_moves_three_inches_an_hour_and_arrives_at_the_promised_hour(board, event):
    army = make_army(board, at=(2, 2))
    order = orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=11, y=2, actor=None)
    assert order.arrival_hour == 3
    advance(event)
    army.refresh_from_db()
    assert (round(army.x, 6), army.y) == (5.0, 2.0)
    advance(event, 2)
    army.refresh_from_db()
    order.refresh_from_db()
    assert (round(army.x, 6), order.status, order.done_hour) == (11.0, MoveOrder.Status.ARRIVED, 3)
    assert HourLog.objects.get(event=event, hour=3).entries[0]["kind"] == "arrived"


def test_difficult_terrain_slows_and_flyers_ignore_it(board, event):
    map_services.terrain_region_create(tactical_map=board, name="Forest", kind="difficult",
                                       points=[[0, 0], [30, 0], [30, 10], [0, 10]], actor=None)
    walkers = make_army(board, at=(2, 5))
    flyers = make_army(board, at=(2, 7), traits=["Fly"])
    for army in (walkers, flyers):
        orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=20, y=army.y, actor=None)
    advance(event)
    walkers.refresh_from_db()
    flyers.refresh_from_db()
    assert round(walkers.x, 6) == 4.0
    assert round(flyers.x, 6) == 5.0


def test_slow_and_fast_armies(board, event):
    slow = make_army(board, at=(2, 5), traits=["Slow"])
    fast = make_army(board, at=(2, 9), traits=["Fast"])
    for army in (slow, fast):
        orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=30, y=army.y, actor=None)
    advance(event)
    slow.refresh_from_db()
    fast.refresh_from_db()
    assert (round(slow.x, 6), round(fast.x, 6)) == (4.0, 6.0)


def test_a_route_goes_round_impassable_terrain(board, event):
    map_services.terrain_region_create(tactical_map=board, name="Lake", kind="impassable",
                                       points=[[10, 0], [14, 0], [14, 30], [10, 30]], actor=None)
    army = make_army(board, at=(5, 10))
    plan = orders.move_order_plan(army=army, kind=MoveOrder.Kind.POINT, x=20, y=10, actor=None)
    assert any(y >= 30 for _, y in plan.path)
    with pytest.raises(ValidationError, match="impassable"):
        orders.move_order_plan(army=army, kind=MoveOrder.Kind.POINT, x=12, y=10, actor=None)


def test_an_order_can_be_changed_or_cancelled_until_processed(board, event):
    army = make_army(board, at=(2, 2))
    first = orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=20, y=2, actor=None)
    second = orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=2, y=20, actor=None)
    first.refresh_from_db()
    assert first.status == MoveOrder.Status.CANCELLED
    orders.move_order_cancel(order=second, actor=None)
    advance(event)
    army.refresh_from_db()
    assert (army.x, army.y) == (2.0, 2.0)
    with pytest.raises(ValidationError, match="already cancelled"):
        orders.move_order_cancel(order=second, actor=None)


def test_capture_adds_strength_each_move_and_changes_hands_at_the_threshold(board, event):
    town = map_services.location_create(tactical_map=board, name="Ford", size="town", x=10, y=10, actor=None)
    assert town.capture_threshold == 15
    army = make_army(board, at=(10, 10), units=3, strength=2)  # 6 a Move: 6, 12, 18
    order = orders.army_order_move(army=army, kind=MoveOrder.Kind.CAPTURE, location=town, actor=None)
    assert order.arrival_hour == 3
    advance(event, 2)
    town.refresh_from_db()
    assert (town.capture_progress, town.holder_id) == (12, None)
    result = advance(event)
    town.refresh_from_db()
    order.refresh_from_db()
    assert (town.holder_id, town.capture_progress, order.status) == (army.commander_id, 0, "captured")
    assert result.captured == [town.pk]
    assert ArmyDayActivity.objects.filter(army=army, reason="captured").exists()


def test_rituals_add_nothing_to_capture_nor_to_miniatures(board, event):
    camp = map_services.location_create(tactical_map=board, name="Camp", size="camp", x=5, y=5, actor=None)
    army = make_army(board, at=(5, 5), units=1, strength=1)
    ritual = UnitTypeFactory(strength=5, role="Ritual")
    UnitFactory(commander=army.commander, unit_type=ritual, army=army)
    orders.army_order_move(army=army, kind=MoveOrder.Kind.CAPTURE, location=camp, actor=None)
    advance(event)
    camp.refresh_from_db()
    assert camp.capture_progress == 1


def test_meeting_an_enemy_makes_a_battle_due_and_both_hold_still(board, event):
    a = make_army(board, at=(2, 10))
    b = make_army(board, at=(8, 10))
    orders.army_order_move(army=a, kind=MoveOrder.Kind.POINT, x=30, y=10, actor=None)
    result = advance(event, 2)
    assert len(result.battles) == 1
    battle = DueBattle.objects.get()
    assert {battle.first_id, battle.second_id} == {a.pk, b.pk}
    assert ArmyDayActivity.objects.filter(army=b, reason="fought").exists()
    a.refresh_from_db()
    held = a.x
    assert advance(event).battles == []  # not reported twice while due
    a.refresh_from_db()
    assert a.x == held


def test_the_loser_retreats_one_move_away_two_if_routed_and_cooldown_holds(board, event):
    a = make_army(board, at=(10, 10))
    b = make_army(board, at=(10.5, 10))
    advance(event)
    battle = DueBattle.objects.get()
    map_services.battle_outcome_apply_to_map(due_battle=battle, winner_army=a, loser_army=b, routed=False)
    b.refresh_from_db()
    assert (round(b.x, 6), b.y) == (13.5, 10.0)
    battle.refresh_from_db()
    assert (battle.status, battle.fought_hour) == ("fought", 2)
    orders.army_order_move(army=b, kind=MoveOrder.Kind.POINT, x=10.5, y=10, actor=None)
    assert advance(event).battles == []  # hour 2: they fought within the last hour
    assert len(advance(event).battles) == 1  # hour 3: cooled down
    again = DueBattle.objects.filter(status="due").get()
    map_services.battle_outcome_apply_to_map(due_battle=again, winner_army=a, loser_army=b, routed=True)
    b.refresh_from_db()
    assert (round(b.x, 6), b.y) == (16.5, 10.0)
    # applying twice changes nothing
    map_services.battle_outcome_apply_to_map(due_battle=again, winner_army=a, loser_army=b, routed=True)
    b.refresh_from_db()
    assert round(b.x, 6) == 16.5


def test_a_retreat_halts_before_impassable_terrain(board, event):
    map_services.terrain_region_create(tactical_map=board, name="River", kind="impassable",
                                       points=[[12, 0], [14, 0], [14, 36], [12, 36]], actor=None)
    a = make_army(board, at=(10, 10))
    b = make_army(board, at=(10.5, 10))
    advance(event)
    map_services.battle_outcome_apply_to_map(due_battle=DueBattle.objects.get(), winner_army=a, loser_army=b,
                                             routed=False)
    b.refresh_from_db()
    assert 11.9 < b.x < 12.0


def attack_and_win(event, attacker, location, defender):
    """`attacker` marches on `location`, where `defender` stands: the Battle there comes due with `defender`
    defending it, and `attacker` wins."""
    orders.army_order_move(army=attacker, kind=MoveOrder.Kind.LOCATION, location=location, actor=None)
    advance(event, 2)
    battle = DueBattle.objects.get()
    assert (battle.location_id, battle.second_id) == (location.pk, defender.pk)
    assert ArmyDayActivity.objects.filter(army=defender, reason="defended").exists()
    map_services.battle_outcome_apply_to_map(due_battle=battle, winner_army=attacker, loser_army=defender,
                                             routed=False)


def test_winning_at_a_location_does_not_take_it_the_victor_must_still_capture_it(board, event):
    """RULINGS.md: the capture progress resets, the defender retreats, the victor stands on the location and
    still has to Capture it (unopposed now)."""
    holder = CommanderFactory(campaign=board.campaign)
    town = map_services.location_create(tactical_map=board, name="Ford", size="town", x=10, y=10, actor=None,
                                        holder=holder)
    defender = make_army(board, commander=holder, at=(10, 10))
    attacker = make_army(board, at=(4, 10))
    Location.objects.filter(pk=town.pk).update(capture_progress=5, capturing_army=attacker)
    attack_and_win(event, attacker, town, defender)
    town.refresh_from_db()
    attacker.refresh_from_db()
    assert (town.holder_id, town.capture_progress) == (holder.pk, 0)
    assert (attacker.x, attacker.y) == (10.0, 10.0)
    orders.army_order_move(army=attacker, kind=MoveOrder.Kind.CAPTURE, location=town, actor=None)
    attacker_strength = 4 * 2  # make_army: four units of Strength 2
    advance(event, -(-15 // attacker_strength) + 1)
    town.refresh_from_db()
    assert town.holder_id == attacker.commander_id


def test_an_army_standing_on_a_neutral_location_defends_it(board, event):
    """RULINGS.md: a clash at a neutral location an army stands on is a Battle at that location."""
    camp = map_services.location_create(tactical_map=board, name="Palm Camp", size="camp", x=10, y=10, actor=None)
    standing = make_army(board, at=(10, 10))
    attacker = make_army(board, at=(4, 10))
    attack_and_win(event, attacker, camp, standing)
    camp.refresh_from_db()
    assert camp.holder_id is None  # still neutral until the victor Captures it


def test_armies_arriving_together_at_an_empty_neutral_location_fight_a_field_battle(board, event):
    camp = map_services.location_create(tactical_map=board, name="Palm Camp", size="camp", x=10, y=10, actor=None)
    west, east = make_army(board, at=(7, 10)), make_army(board, at=(13, 10))
    for army in (west, east):
        orders.army_order_move(army=army, kind=MoveOrder.Kind.LOCATION, location=camp, actor=None)
    advance(event)
    assert DueBattle.objects.get().location_id is None


def test_an_undefended_enemy_location_is_captured_not_fought(board, event):
    holder = CommanderFactory(campaign=board.campaign)
    camp = map_services.location_create(tactical_map=board, name="Camp", size="camp", x=10, y=10, actor=None,
                                        holder=holder)
    army = make_army(board, at=(7, 10))
    orders.army_order_move(army=army, kind=MoveOrder.Kind.LOCATION, location=camp, actor=None)
    assert advance(event).battles == []
    orders.army_order_move(army=army, kind=MoveOrder.Kind.CAPTURE, location=camp, actor=None)
    assert advance(event).captured == [camp.pk]


def test_a_pursuit_follows_only_what_its_commander_was_shown_and_catches_the_target(board, event):
    hunter = make_army(board, at=(2, 10), traits=["Fast"])  # 4 inches a Move against the quarry's 3
    quarry = make_army(board, at=(10, 10))
    order = orders.army_order_move(army=hunter, kind=MoveOrder.Kind.ARMY, target_army=quarry, actor=None)
    orders.army_order_move(army=quarry, kind=MoveOrder.Kind.POINT, x=19, y=10, actor=None)
    assert order.arrival_hour == 2
    advance(event)
    order.refresh_from_db()
    assert order.path[-1] == [10.0, 10.0]  # fog of war: the quarry moved on unseen, the route does not follow
    quarry.refresh_from_db()
    map_services.reveal_create(army=quarry, to_commander=hunter.commander, what="position", actor=None)
    advance(event)
    order.refresh_from_db()
    assert order.path[-1] == [13.0, 10.0]  # re-planned to the revealed position
    assert order.arrival_hour == 3
    battles = []
    for _ in range(6):  # chasing reports of where it was, the hunter closes in once the quarry halts at 19
        quarry.refresh_from_db()
        map_services.reveal_create(army=quarry, to_commander=hunter.commander, what="position", actor=None)
        battles = advance(event).battles
        if battles:
            break
    assert len(battles) == 1
    battle = DueBattle.objects.get()
    assert {battle.first_id, battle.second_id} == {hunter.pk, quarry.pk}
    order.refresh_from_db()
    assert order.status == MoveOrder.Status.ARRIVED


def test_a_pursuit_with_no_news_ends_where_the_target_was_last_seen(board, event):
    hunter = make_army(board, at=(2, 10))
    quarry = make_army(board, at=(8, 10))
    order = orders.army_order_move(army=hunter, kind=MoveOrder.Kind.ARMY, target_army=quarry, actor=None)
    armies.army_disband(army=quarry, actor=None)  # gone, but nobody told the hunter
    advance(event, 2)
    order.refresh_from_db()
    hunter.refresh_from_db()
    assert (order.status, order.done_hour) == (MoveOrder.Status.ARRIVED, 2)
    assert (hunter.x, hunter.y) == (8.0, 10.0)
    assert "target_lost" not in {e["kind"] for e in HourLog.objects.get(event=event, hour=2).entries}


def test_processing_an_hour_twice_changes_nothing(board, event):
    army = make_army(board, at=(2, 2))
    orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=20, y=2, actor=None)
    hour.event_hour_process(event=event, hour=1)
    again = hour.event_hour_process(event=event, hour=1)
    army.refresh_from_db()
    event.refresh_from_db()
    assert again.already_done
    assert (round(army.x, 6), event.current_hour, HourLog.objects.count()) == (5.0, 1, 1)
    with pytest.raises(ValidationError, match="in order"):
        hour.event_hour_process(event=event, hour=3)


def test_the_query_count_does_not_grow_with_armies(board, event):
    quarry = make_army(board, at=(46, 34), units=1)

    def hour_queries(n, top):
        for i in range(n):
            army = make_army(board, at=(1 + (i % 10) * 4, top + (i // 10) * 4), units=1)
            if i % 2:  # every other army pursues the quarry: re-planned in Python, no query per army
                orders.army_order_move(army=army, kind=MoveOrder.Kind.ARMY, target_army=quarry, actor=None)
            else:
                orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=army.x + 1, y=army.y + 1.5,
                                       actor=None)
        event.refresh_from_db()
        with CaptureQueriesContext(connection) as ctx:
            hour.event_hour_process(event=event, hour=event.current_hour + 1)
        return len(ctx.captured_queries)

    assert hour_queries(3, 1) == hour_queries(20, 12)


def test_the_clock_runs_pauses_resumes_and_advances_by_hand(campaign, gm):
    from tests.campaign.factories import EventFactory

    event = ready(EventFactory(campaign=campaign, minutes_per_hour=10))
    start = timezone.now() - timedelta(minutes=25)
    clock.event_clock_start(event=event, actor=gm, now=start)
    event.refresh_from_db()
    assert clock.event_due_hour(event=event, now=start + timedelta(minutes=25)) == 2
    assert clock.clock_tick(now=start + timedelta(minutes=25)).processed == 2
    clock.event_clock_pause(event=event, actor=gm, now=start + timedelta(minutes=25))
    event.refresh_from_db()
    assert clock.clock_tick(now=start + timedelta(hours=5)).processed == 0
    clock.event_clock_resume(event=event, actor=gm, now=start + timedelta(hours=5))
    event.refresh_from_db()
    assert clock.event_due_hour(event=event, now=start + timedelta(hours=5, minutes=4)) == 2
    assert clock.event_due_hour(event=event, now=start + timedelta(hours=5, minutes=5)) == 3
    clock.event_clock_advance(event=event, actor=gm, now=start + timedelta(hours=5, minutes=5))
    event.refresh_from_db()
    assert event.current_hour == 3
    assert clock.event_due_hour(event=event, now=start + timedelta(hours=5, minutes=5)) == 3
    assert clock.event_due_hour(event=event, now=start + timedelta(hours=5, minutes=15)) == 4
    clock.event_clock_advance(event=event, actor=gm, now=start + timedelta(hours=5, minutes=16))  # hour 4, due
    clock.event_clock_advance(event=event, actor=gm, now=start + timedelta(hours=5, minutes=17))  # hour 5, early
    event.refresh_from_db()
    assert clock.event_due_hour(event=event, now=start + timedelta(hours=5, minutes=24)) == 5
    assert clock.event_due_hour(event=event, now=start + timedelta(hours=5, minutes=25)) == 6


def test_a_tick_works_in_bounded_batches(campaign):
    from tests.campaign.factories import EventFactory

    event = ready(EventFactory(campaign=campaign, minutes_per_hour=1))
    clock.event_clock_start(event=event, actor=None, now=timezone.now() - timedelta(minutes=7))
    assert clock.clock_tick(max_hours=5) == clock.TickResult(processed=5, more=True)
    assert clock.clock_tick(max_hours=5) == clock.TickResult(processed=2, more=False)
    assert Event.objects.get(pk=event.pk).current_hour == 7


def test_closing_the_day_charges_armies_led_refreshes_bases_and_opens_the_next(board, event):
    army = make_army(board, at=(2, 2), units=2, strength=3)
    army.commander.morale = 0
    army.commander.save(update_fields=["morale"])
    base = map_services.base_create(tactical_map=board, name="Keep", x=5, y=5, morale_bonus=2, actor=None)
    day = Day.objects.get(event=event, status="open")
    map_services.base_bonus_spend(base=base, day=day, actor=None)
    idle = make_army(board, at=(30, 30))
    orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=20, y=2, actor=None)
    advance(event)
    result = upkeep.day_close(day=day, actor=None)
    assert [bill.commander_id for bill in result.bills] == [army.commander_id]
    assert result.bills[0].gross == 30
    assert idle.commander_id not in {b.commander_id for b in result.bills}
    assert Base.objects.get(pk=base.pk).spent_on is None
    assert result.next_day.number == 2
    assert upkeep.day_close(day=day, actor=None).already_closed


def test_forming_splitting_merging_and_disbanding(board, event):
    commander = CommanderFactory(campaign=board.campaign)
    units = [UnitFactory(commander=commander) for _ in range(6)]
    army = armies.army_form(commander=commander, name="Host", unit_ids=[u.pk for u in units], actor=None)
    armies.army_place(army=army, tactical_map=board, x=5, y=5, actor=None)
    orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=8, y=5, actor=None)
    advance(event)
    split = armies.army_split(army=army, unit_ids=[u.pk for u in units[:2]], name="Scouts", actor=None)
    split.refresh_from_db()
    army.refresh_from_db()
    assert (split.map_id, split.x, split.units.count()) == (board.pk, army.x, 2)
    assert ArmyDayActivity.objects.filter(army=split, reason="moved").exists()
    merged = armies.army_merge(army=split, into=army, actor=None)
    assert merged.units.count() == 6
    armies.army_disband(army=army, actor=None)
    assert Unit.objects.filter(commander=commander, state="reserve").count() == 6


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_processing_the_same_hour_change_it_once(campaign, event):
    ready(event)
    board = make_map(campaign)
    army = make_army(board, at=(2, 2))
    orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=20, y=2, actor=None)
    barrier = threading.Barrier(2)
    results = []

    def work():
        try:
            barrier.wait()
            results.append(hour.event_hour_process(event=event, hour=1))
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    army.refresh_from_db()
    assert sorted(r.already_done for r in results) == [False, True]
    assert round(army.x, 6) == 5.0
    assert HourLog.objects.filter(event=event).count() == 1
    assert ArmyDayActivity.objects.filter(army=army, reason="moved").count() == 1
