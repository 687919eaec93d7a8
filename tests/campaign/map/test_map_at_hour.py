"""The map at an hour (campaign.map.map_at_hour): where the orders take the armies by a later hour (routing.march),
how the map stood at an earlier hour from the hours' records, the refusals, and fog of war throughout."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.map import armies, hour, orders, routing
from campaign.map import services as map_services
from campaign.map.map_at_hour import MAX_HOURS_AHEAD, hour_parse, hours_offered, map_at_hour
from campaign.map.outcome_reversal import due_battle_decide
from campaign.map.terrain import TacticalMap, TerrainKind, TerrainRegion
from campaign.models import DueBattle, Membership, MoveOrder

pytestmark = pytest.mark.django_db

OPEN = TacticalMap(width=48, height=36, regions=())
WOOD = TacticalMap(width=48, height=36, regions=(
    TerrainRegion(name="Wood", kind=TerrainKind.DIFFICULT, points=((3.0, -1.0), (9.0, -1.0), (9.0, 1.0), (3.0, 1.0))),))
ROUTE = ((0.0, 0.0), (6.0, 0.0), (6.0, 6.0))


def approx(point, abs=1e-6):
    return pytest.approx(point, abs=abs)


@pytest.mark.parametrize(("hours", "position", "walked"), [
    (1, (3.0, 0.0), ((0.0, 0.0), (3.0, 0.0))),
    (2, (6.0, 0.0), ((0.0, 0.0), (6.0, 0.0))),
    (3, (6.0, 3.0), ((0.0, 0.0), (6.0, 0.0), (6.0, 3.0))),
    (9, (6.0, 6.0), ROUTE),
])
def test_march_stands_where_the_moves_of_its_route_take_it(hours, position, walked):
    step, way = routing.march(ROUTE, speed=3, tactical_map=OPEN, hours=hours)
    assert step.position == approx(position)
    assert [approx(p) for p in way] == list(walked)
    assert step.remaining[0] == approx(position)
    assert step.arrived == (hours >= 4)


def test_march_is_slowed_by_terrain_and_lands_where_single_moves_do():
    step, way = routing.march(ROUTE, speed=3, tactical_map=WOOD, hours=2)
    assert step.position == approx((5.0, 0.0))  # 3 inches in the open, then 2 in the wood (1 inch slower)
    assert [approx(p) for p in way] == [(0.0, 0.0), (5.0, 0.0)]
    one_by_one = ROUTE
    for _ in range(4):
        one_by_one = routing.advance(one_by_one, speed=3, tactical_map=WOOD).remaining
    assert routing.march(ROUTE, speed=3, tactical_map=WOOD, hours=4)[0].position == approx(one_by_one[0])


def _member(campaign, user) -> Membership:
    return Membership.objects.get(campaign=campaign, user=user)


def _at(scene_at_hour, army) -> tuple[float, float]:
    [found] = [a for a in scene_at_hour.armies if a.marker.id == army.pk]
    return (found.x, found.y)


def test_a_later_hour_moves_the_viewers_armies_along_their_orders_and_nothing_else(campaign, scene, player, gm):
    mine, hidden = scene["mine"], scene["hidden"]
    _march(mine, (5, 20), player)
    _march(hidden, (40, 30), gm)
    for who in (player, gm):
        later = map_at_hour(tactical_map=scene["map"], membership=_member(campaign, who), hour=2)
        assert (later.tense, later.hour, later.current_hour) == ("ahead", 2, 0)
        assert _at(later, mine) == approx((5.0, 11.0))  # two Moves of 3 inches south
        [marching] = [a for a in later.armies if a.marker.id == mine.pk]
        assert [approx(p) for p in marching.walked] == [(5.0, 5.0), (5.0, 11.0)]
        assert [approx(p) for p in marching.ahead] == [(5.0, 11.0), (5.0, 20.0)]
        assert _at(later, scene["seen"]) == (20.0, 20.0)  # seen through a reveal: stays where it was seen
    mine_only = map_at_hour(tactical_map=scene["map"], membership=_member(campaign, player), hour=2)
    assert hidden.pk not in {a.marker.id for a in mine_only.armies}
    gms = map_at_hour(tactical_map=scene["map"], membership=_member(campaign, gm), hour=2)
    assert _at(gms, hidden) == approx((36.0, 30.0))


def test_an_army_with_a_battle_due_holds_still_at_a_later_hour(campaign, scene, player, gm, event):
    mine = scene["mine"]
    armies.army_place(army=scene["hidden"], tactical_map=scene["map"], x=5.5, y=5, actor=gm)
    hour.event_hour_process(event=event, hour=1)
    _march(mine, (5, 20), player)
    later = map_at_hour(tactical_map=scene["map"], membership=_member(campaign, player), hour=4)
    assert _at(later, mine) == (5.0, 5.0)
    [battle] = later.battles
    assert (battle["status"], battle["ids"]) == ("due", [mine.pk])


def _march(army, to, actor):
    orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=to[0], y=to[1], actor=actor)


def test_an_earlier_hour_is_read_back_from_the_hours_records(campaign, scene, player, gm, event):
    mine = scene["mine"]
    _march(mine, (5, 20), player)
    for number in (1, 2, 3):
        hour.event_hour_process(event=event, hour=number)
    mine.refresh_from_db()
    assert (mine.x, mine.y) == approx((5.0, 14.0))
    for number, where in ((0, (5.0, 5.0)), (1, (5.0, 8.0)), (2, (5.0, 11.0)), (3, (5.0, 14.0))):
        past = map_at_hour(tactical_map=scene["map"], membership=_member(campaign, player), hour=number)
        assert past.tense == ("now" if number == 3 else "past")
        assert _at(past, mine) == approx(where)
    two = map_at_hour(tactical_map=scene["map"], membership=_member(campaign, player), hour=2)
    [walking] = [a for a in two.armies if a.marker.id == mine.pk]
    assert [approx(p) for p in walking.walked] == [(5.0, 8.0), (5.0, 11.0)]  # its Move in hour 2
    assert (walking.ahead, walking.miniatures) == ((), None)  # no route and no size: not kept per hour
    assert two.day is not None
    assert two.day.number == 1


def test_an_earlier_hour_undoes_a_retreat_and_shows_the_battle_due_then(campaign, scene, player, gm, event):
    mine, hidden = scene["mine"], scene["hidden"]
    armies.army_place(army=hidden, tactical_map=scene["map"], x=5.5, y=5, actor=gm)
    hour.event_hour_process(event=event, hour=1)
    due = DueBattle.objects.get()
    due_battle_decide(due_battle=due, winner_army=hidden, loser_army=mine, routed=False, actor=gm)
    hour.event_hour_process(event=event, hour=2)
    mine.refresh_from_db()
    assert (mine.x, mine.y) != approx((5.0, 5.0))  # it retreated
    for who in (player, gm):
        one = map_at_hour(tactical_map=scene["map"], membership=_member(campaign, who), hour=1)
        assert _at(one, mine) == approx((5.0, 5.0))
        assert [(b["status"], b["hour"]) for b in one.battles] == [("due", 1)]
        now = map_at_hour(tactical_map=scene["map"], membership=_member(campaign, who), hour=2)
        assert [(b["status"], b["hour"]) for b in now.battles] == [("fought", 1)]
    players = map_at_hour(tactical_map=scene["map"], membership=_member(campaign, player), hour=1)
    assert hidden.pk not in {a.marker.id for a in players.armies} | {pk for b in players.battles for pk in b["ids"]}


def test_an_earlier_hour_gives_locations_back_to_their_holders_then(campaign, scene, player, event):
    mine = scene["mine"]
    camp = map_services.location_create(tactical_map=scene["map"], name="Camp", size="camp", x=5, y=5, actor=None)
    orders.army_order_move(army=mine, kind=MoveOrder.Kind.CAPTURE, location=camp, actor=player)
    hour.event_hour_process(event=event, hour=1)
    hour.event_hour_process(event=event, hour=2)
    camp.refresh_from_db()
    assert camp.holder_id == mine.commander_id
    membership = _member(campaign, player)
    assert map_at_hour(tactical_map=scene["map"], membership=membership, hour=0).holders[camp.pk] == ""
    assert map_at_hour(tactical_map=scene["map"], membership=membership, hour=1).holders[camp.pk] == "Amira"


def test_an_earlier_hour_shows_only_what_was_revealed_by_then(campaign, scene, player, gm, event):
    seen = scene["seen"]
    hour.event_hour_process(event=event, hour=1)
    hour.event_hour_process(event=event, hour=2)
    armies.army_place(army=scene["hidden"], tactical_map=scene["map"], x=30, y=31, actor=gm)
    map_services.reveal_create(army=scene["hidden"], to_commander=scene["mine"].commander, what="position", actor=gm)
    membership = _member(campaign, player)
    ids = {a.marker.id for a in map_at_hour(tactical_map=scene["map"], membership=membership, hour=2).armies}
    assert ids == {scene["mine"].pk, seen.pk, scene["hidden"].pk}
    ids = {a.marker.id for a in map_at_hour(tactical_map=scene["map"], membership=membership, hour=1).armies}
    assert ids == {scene["mine"].pk, seen.pk}  # revealed at hour 2, after hour 1


def test_an_hour_before_a_change_by_hand_is_refused_for_whoever_sees_the_army(campaign, scene, player, gm, event):
    for number in (1, 2, 3):
        hour.event_hour_process(event=event, hour=number)
        if number == 1:
            armies.army_place(army=scene["hidden"], tactical_map=scene["map"], x=30, y=20, actor=gm)
    with pytest.raises(ValidationError) as refused:
        map_at_hour(tactical_map=scene["map"], membership=_member(campaign, gm), hour=0)
    assert refused.value.messages == [
        "The map at hour 0 cannot be drawn: a game master changed it by hand during hour 1 (placed, withdrew, split "
        "or merged an army, or handed a location over), which keeps no record of how it stood before; pick hour 2 "
        "or later."]
    assert map_at_hour(tactical_map=scene["map"], membership=_member(campaign, gm), hour=2).tense == "past"
    # the player never saw that army: their map of hour 0 is whole, and says nothing of the hidden army's move
    assert map_at_hour(tactical_map=scene["map"], membership=_member(campaign, player), hour=0).tense == "past"
    armies.army_place(army=scene["mine"], tactical_map=scene["map"], x=6, y=6, actor=gm)
    with pytest.raises(ValidationError, match=r"during hour 3 .*; pick hour 3 or later\."):
        map_at_hour(tactical_map=scene["map"], membership=_member(campaign, player), hour=1)


@pytest.mark.parametrize(("raw", "expected"), [(None, None), ("", None), (" 7 ", 7), ("0", 0)])
def test_hours_are_whole_numbers(raw, expected):
    assert hour_parse(raw) == expected


@pytest.mark.parametrize("raw", ["-1", "two", "1.5", "1e3", "²", "9999999"])
def test_an_hour_that_is_no_whole_number_is_refused_with_a_sentence(raw):
    with pytest.raises(ValidationError, match="Give the hour as a whole number of the Event's clock"):
        hour_parse(raw)


def test_an_hour_too_far_ahead_is_refused(campaign, scene, player):
    with pytest.raises(ValidationError, match=f"pick an hour from 0 to {MAX_HOURS_AHEAD}."):
        map_at_hour(tactical_map=scene["map"], membership=_member(campaign, player), hour=MAX_HOURS_AHEAD + 1)
    assert map_at_hour(tactical_map=scene["map"], membership=_member(campaign, player),
                       hour=MAX_HOURS_AHEAD).tense == "ahead"


def test_without_an_event_only_the_map_as_it_stands_is_drawn(campaign, scene, player, event):
    event.delete()
    membership = _member(campaign, player)
    assert map_at_hour(tactical_map=scene["map"], membership=membership).tense == "now"
    with pytest.raises(ValidationError, match="There is no Event under way"):
        map_at_hour(tactical_map=scene["map"], membership=membership, hour=1)


def test_the_print_form_offers_the_hours_the_viewers_orders_arrive(campaign, scene, player, gm):
    _march(scene["mine"], (5, 20), player)
    _march(scene["hidden"], (30, 35), gm)
    assert hours_offered(tactical_map=scene["map"], membership=_member(campaign, player)).arrivals == [5]
    offered = hours_offered(tactical_map=scene["map"], membership=_member(campaign, gm))
    assert (offered.current, offered.last, offered.arrivals) == (0, MAX_HOURS_AHEAD, [2, 5])
