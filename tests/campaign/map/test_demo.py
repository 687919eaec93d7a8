"""The demo's map: painted valley, terrain, locations, a Base, armies with orders under way, a running clock with
one hour processed (an arrival in the hour log and the chronicle)."""

import pytest

from campaign.campaigns.chronicle import ChronicleFilters, chronicle_for
from campaign.demo import load_demo
from campaign.models import Base, Event, HourLog, Location, Membership, MoveOrder, TacticalMap, TerrainRegion

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_map_with_armies_under_orders_and_a_running_clock():
    campaign, _ = load_demo()
    load_demo()
    tactical_map = TacticalMap.objects.get(campaign=campaign)
    assert tactical_map.picture
    assert tactical_map.thumbnail
    assert (tactical_map.width_inches, round(tactical_map.height_inches, 3)) == (48.0, 36.0)
    assert TerrainRegion.objects.filter(map=tactical_map).count() == 4
    assert sorted(Location.objects.filter(map=tactical_map).values_list("size", flat=True)) == ["camp", "city", "town"]
    assert Base.objects.filter(map=tactical_map).count() == 1
    assert tactical_map.armies.count() == 3
    riders = MoveOrder.objects.get(army__name="Eastern Riders", status="active")
    event = Event.objects.get(campaign=campaign)
    assert riders.arrival_hour == event.current_hour + 2
    assert event.status == Event.Status.RUNNING
    assert event.clock_started_at is not None


def test_the_demo_has_processed_one_hour_in_which_the_riders_arrived():
    campaign, _ = load_demo()
    load_demo()
    event = Event.objects.get(campaign=campaign)
    assert event.current_hour == 1
    log = HourLog.objects.get(event=event)
    assert (log.hour, log.moved) == (1, 2)
    assert [(e["kind"], e["name"]) for e in log.entries] == [("arrived", "Eastern Riders")]
    assert MoveOrder.objects.filter(event=event, status="active").count() == 2, "both armies still under way"
    bastian = Membership.objects.get(campaign=campaign, user__username="bastian")
    arrivals = chronicle_for(membership=bastian, filters=ChronicleFilters(kind="arrival"))
    assert [line.told.words for line in arrivals] == [
        "Eastern Riders (Bastian of the Marches) arrived at (40.0, 20.0) at hour 1 of Autumn Muster."]


def test_the_demo_prints_its_map_at_once_with_the_riders_at_palm_camp_by_hour_2():
    from campaign.map.map_at_hour import map_at_hour
    from campaign.map.map_print import map_sheet

    campaign, _ = load_demo()
    event = Event.objects.get(campaign=campaign)
    for user in ("gm", "bastian"):
        membership = Membership.objects.get(campaign=campaign, user__username=user)
        scene = map_at_hour(tactical_map=TacticalMap.objects.get(campaign=campaign), membership=membership,
                            hour=event.current_hour + 2)
        [riders] = [a for a in scene.armies if a.marker.name == "Eastern Riders"]
        assert (riders.x, riders.y) == pytest.approx((40.0, 27.0))
        texts = [text.text for text in map_sheet(scene=scene, membership=membership).texts]
        assert {"Eastern Riders", "Palm Camp", "Riverford (Amira bint Khalid)"} <= set(texts)
