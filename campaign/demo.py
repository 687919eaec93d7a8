"""The demo campaign that `make run` loads, so a newcomer sees Muster working within a minute.

Each capability adds its part here (commanders, the map, a battle, a card game).
Loading is idempotent: a campaign already loaded is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.utils import timezone

from campaign.campaigns import selectors as campaigns_selectors
from campaign.campaigns import services as campaigns_services
from campaign.catalogue import selectors as catalogue_selectors
from campaign.catalogue.entries import DEFAULT_CATALOGUE, catalogue_load_file
from campaign.economy import funding, items, quests
from campaign.economy import ledger as economy_ledger
from campaign.economy import services as economy_services
from campaign.map import armies as army_services
from campaign.map import clock, lending, orders, picture
from campaign.map import services as map_services
from campaign.models import (
    Army,
    ArmyDayActivity,
    Campaign,
    Commander,
    Event,
    Item,
    MoveOrder,
    Role,
    TacticalMap,
    UnitType,
)

DEMO_SLUG = "the-sultans-might"


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str


DEMO_LOGINS = (
    DemoLogin("gm", "muster-gm", Role.GM),
    DemoLogin("amira", "muster-amira", Role.PLAYER),
    DemoLogin("bastian", "muster-bastian", Role.PLAYER),
)


def _user(login: DemoLogin):
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=login.username)
    if created:
        user.set_password(login.password)
        user.is_staff = login.role == Role.GM
        user.save()
    return user


@transaction.atomic
def load_demo() -> tuple[Campaign, tuple[DemoLogin, ...]]:
    """Create (once) the demo users, campaign, a running Event with its first Day, and its economy."""
    users = {login.username: _user(login) for login in DEMO_LOGINS}
    existing = Campaign.objects.filter(slug=DEMO_SLUG).first()
    if existing:
        load_demo_economy(campaign=existing, users=users)
        load_demo_map(campaign=existing, users=users)
        return existing, DEMO_LOGINS
    gm = users["gm"]
    campaign = campaigns_services.campaign_create(
        name="The Sultan's Might", creator=gm,
        description="Two commanders contest the river valley between the Sultan's border forts.",
    )
    Campaign.objects.filter(pk=campaign.pk).update(slug=DEMO_SLUG)
    campaign.refresh_from_db()
    campaigns_services.campaign_update(campaign=campaign, actor=gm, house_rules={"terrain_battle": {
        "difficult": [{"side": "defender", "add": 1, "units": {"path": "Nature"}, "note": "they know the woods"}],
        "challenging": [{"side": "attacker", "add": -1, "note": "fighting across the river"}]}})
    for login in DEMO_LOGINS[1:]:
        campaigns_services.membership_add(campaign=campaign, user=users[login.username], role=login.role, actor=gm)
    now = timezone.now()
    event = campaigns_services.event_create(campaign=campaign, name="Autumn Muster", starts_at=now - timedelta(hours=2),
                                            ends_at=now + timedelta(days=2), minutes_per_hour=60, actor=gm)
    clock.event_clock_start(event=event, actor=gm)
    load_demo_economy(campaign=campaign, users=users)
    load_demo_map(campaign=campaign, users=users)
    return campaign, DEMO_LOGINS


def load_demo_economy(*, campaign: Campaign, users: dict) -> None:
    """Commanders, lunari, units, armies, a recruit list and a funding request, made once and only through
    the services and the ledger, so the balances, the training history and the retinues are real."""
    if Commander.objects.filter(campaign=campaign).exists():
        return
    if not DEFAULT_CATALOGUE.exists():  # nothing to recruit from yet
        return
    catalogue_load_file()
    gm, amira_user, bastian_user = users["gm"], users["amira"], users["bastian"]
    event = Event.objects.filter(campaign=campaign).order_by("starts_at").first()
    day = campaigns_selectors.event_current_day(event=event)
    if event is None or day is None:
        return

    def unit_type(name: str) -> UnitType:
        found = catalogue_selectors.unit_type_by_name(campaign=campaign, name=name)
        if found is None:
            raise LookupError(f"The default catalogue has no {name}: the demo needs it.")
        return found

    amira = economy_services.commander_create(campaign=campaign, name="Amira bint Khalid", level=4, power="Battlemage",
                                              player=amira_user, influence=2, actor=gm)
    bastian = economy_services.commander_create(campaign=campaign, name="Bastian of the Marches", level=3,
                                                power="Tactician", tactician_choice="Rogue", player=bastian_user,
                                                influence=1, actor=gm)
    emir = economy_services.commander_create(campaign=campaign, name="Emir Qasim", level=6, power="Dervish",
                                             actor=gm)
    for commander, amount in ((amira, 400), (bastian, 120), (emir, 600)):
        economy_ledger.ledger_grant(commander=commander, amount=amount, reason="Purse at the start of the campaign",
                                    actor=gm)
    swords = [items.item_add(commander=amira, name=name, kind=Item.Kind.WEAPON, actor=gm)
              for name in ("Notched Scimitar", "Old Boar Spear")]
    items.item_add(commander=amira, name="Lamellar Coat", kind=Item.Kind.ARMOUR, actor=gm)

    for name in ("Spearmen", "Soldier", "Archers", "Light Cavalry", "Temple Healer", "Skeleton Warriors",
                 "Zombie Horde"):
        economy_services.recruit_offer_set(event=event, unit_type=unit_type(name), actor=gm)
    economy_services.recruit_offer_set(event=event, unit_type=unit_type("War Banner"), gm_price=40, actor=gm,
                                       note="Strength \"-\": priced by the game masters.")
    knights = economy_services.recruit_offer_set(event=event, unit_type=unit_type("Knights"), by_quest=True,
                                                 actor=gm, note="Escort the abbess to the river shrine.")
    quests.quest_record(offer=knights, commander=amira, actor=gm)  # Amira may recruit Knights at the quest price
    griffons = economy_services.recruit_offer_set(event=event, unit_type=unit_type("Griffon Riders"), by_quest=True,
                                                  actor=gm, note="Bring back an unbroken griffon egg.")
    quests.quest_record(offer=griffons, commander=emir, character="Noor the falconer", actor=gm)

    def recruit(commander, name, paid_by=None):
        return economy_services.unit_recruit(commander=commander, unit_type=unit_type(name), event=event,
                                             paid_by=paid_by or commander, actor=gm)

    wardens = recruit(amira, "Spearmen")
    archers = recruit(amira, "Archers")
    lent = recruit(amira, "Soldier")
    fallen = recruit(amira, "Archers")
    economy_services.unit_kill(unit=fallen, actor=gm)  # fell at the ford skirmish: her page offers its wages
    economy_services.unit_train(unit=wardens, event=event, paid_by=amira, weapon_items=swords[:1], actor=gm)
    economy_services.unit_name_retinue(unit=wardens, name="Wardens of the Ford", actor=amira_user)
    cavalry = recruit(bastian, "Light Cavalry")
    soldier = recruit(bastian, "Soldier", paid_by=emir)  # the Emir pays: his retinue, in Bastian's service
    recruit(bastian, "Temple Healer")
    skeletons, zombies = recruit(emir, "Skeleton Warriors"), recruit(emir, "Zombie Horde")
    griffon_riders = recruit(emir, "Griffon Riders")

    for commander, name, units in ((amira, "Ford Guard", [wardens, archers]),
                                   (bastian, "Eastern Riders", [cavalry, soldier]),
                                   (emir, "Host of the Emir", [skeletons, zombies, griffon_riders])):
        army = army_services.army_create(commander=commander, name=name, actor=gm)
        for unit in units:
            army_services.army_assign_unit(unit=unit, army=army, actor=gm)
        army_services.army_mark_led(army=army, day=day, reason=ArmyDayActivity.Reason.MARKED_BY_GM, actor=gm)
    lending.unit_lend(unit=lent, to=bastian, actor=amira_user)  # in Bastian's reserve, without a retinue bonus
    funding.funding_request_create(requester=bastian, funder=amira, amount=40,
                                   reason="Upkeep for the Eastern Riders after the ford skirmish", actor=bastian_user)


def load_demo_map(*, campaign: Campaign, users: dict) -> None:
    """The painted valley with its terrain, a camp, a town and a city, a Base at the ford town, and the three
    demo armies on the map with orders under way, one hour already processed by the clock's own service (the
    Eastern Riders came down from the hills in it: the hour log, the chronicle and Bastian's notifications have
    an arrival; they now reach the camp in 2 hours, and the Host of the Emir marches on Riverford). Made once."""
    if TacticalMap.objects.filter(campaign=campaign).exists() or not Army.objects.filter(campaign=campaign).exists():
        return
    gm = users["gm"]
    event = Event.objects.filter(campaign=campaign).order_by("starts_at").first()
    if event.status == Event.Status.RUNNING and event.clock_started_at is None:  # loaded before the clock existed
        clock.event_clock_pause(event=event, actor=gm)
        clock.event_clock_resume(event=event, actor=gm)
    tactical_map = map_services.tactical_map_get_or_create(campaign=campaign, actor=gm)
    map_services.tactical_map_set_scale(tactical_map=tactical_map, width_inches=picture.VALLEY_WIDTH, actor=gm)
    map_services.tactical_map_set_picture(
        tactical_map=tactical_map, actor=gm,
        upload=SimpleUploadedFile("valley.png", picture.valley_picture(), content_type="image/png"))
    for name, kind, points, penalty in (
            ("The Sweetwater", "challenging", picture.VALLEY_RIVER, 2.0),
            ("Old Forest", "difficult", picture.VALLEY_FOREST, 0.0),
            ("Red Hills", "difficult", picture.VALLEY_HILLS, 0.0),
            ("Drowned Marsh", "impassable", picture.VALLEY_MARSH, 0.0)):
        map_services.terrain_region_create(tactical_map=tactical_map, name=name, kind=kind, points=points,
                                           penalty=penalty, actor=gm)
    commanders = {c.name: c for c in Commander.objects.filter(campaign=campaign)}
    amira, emir = commanders["Amira bint Khalid"], commanders["Emir Qasim"]
    town = map_services.location_create(tactical_map=tactical_map, name="Riverford", size="town", x=18, y=19,
                                        holder=amira, actor=gm)
    camp = map_services.location_create(tactical_map=tactical_map, name="Palm Camp", size="camp", x=40, y=27,
                                        actor=gm)
    map_services.location_create(tactical_map=tactical_map, name="Qal'at al-Sultan", size="city", x=8, y=6,
                                 holder=emir, actor=gm)
    map_services.base_create(tactical_map=tactical_map, name="Ford Redoubt", x=17, y=20.5, morale_bonus=2,
                             location=town, actor=gm)
    armies = {a.name: a for a in Army.objects.filter(campaign=campaign)}
    army_services.army_place(army=armies["Ford Guard"], tactical_map=tactical_map, x=18, y=19, actor=gm)
    riders = army_services.army_place(army=armies["Eastern Riders"], tactical_map=tactical_map, x=40, y=16, actor=gm)
    host = army_services.army_place(army=armies["Host of the Emir"], tactical_map=tactical_map, x=34, y=17, actor=gm)
    orders.army_order_move(army=riders, kind=MoveOrder.Kind.POINT, x=40, y=20, actor=users["bastian"])
    orders.army_order_move(army=host, kind=MoveOrder.Kind.LOCATION, location=town, actor=gm)
    clock.event_clock_advance(event=event, actor=gm, to_hour=event.current_hour + 1)  # the riders arrive in it
    riders.refresh_from_db()
    orders.army_order_move(army=riders, kind=MoveOrder.Kind.LOCATION, location=camp, actor=users["bastian"])
    map_services.reveal_create(army=host, to_commander=amira, what="position", actor=gm)
    map_services.reveal_create(army=host, to_commander=amira, what="size", actor=gm)
