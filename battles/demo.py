"""The battles part of the demo: a Battle fought at a table at Riverford and logged (to inspect, and for a day
after loading for the GM to reverse from its page, as `reversal_window_hours` allows), and a live Battle in
progress between the two demo players' armies, a few actions in. Made once, through the services."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model

from battles import services
from battles.models import Battle
from campaign.models import Army, Location
from cardgames import services as match_services
from cardgames.selectors import match_table

LIVE_ACTIONS = 3


def load_demo_battles(*, campaign) -> list[Battle]:
    """Idempotent: a campaign that already has Battles keeps them; one without the demo armies gets none."""
    if campaign.battles.exists():
        return list(campaign.battles.all())
    armies = {a.name: a for a in Army.objects.filter(campaign=campaign).select_related("commander")}
    if not {"Ford Guard", "Eastern Riders", "Host of the Emir"} <= set(armies):
        return []
    users = {u.username: u for u in get_user_model().objects.filter(username__in=["gm", "amira", "bastian"])}
    gm = users["gm"]
    guard, riders, host = armies["Ford Guard"], armies["Eastern Riders"], armies["Host of the Emir"]
    town = Location.objects.filter(map__campaign=campaign, name="Riverford").first()
    table = services.battle_start(attacker_army=host, defender_army=guard, location=town, mode=Battle.Mode.LOGGED,
                                  actor=gm, choices={host.commander_id: {"dervish": "Steel"}})  # holds all Day
    emir, amira = table.config["commanders"]
    zombies = next(u["id"] for u in emir["units"] if u["name"] == "Zombie Horde")
    others = [u["id"] for u in emir["units"] if u["id"] != zombies]
    services.battle_log_result(
        battle=table, actor=gm, winner=1, killed=[[zombies], []], disabled=[others[:1], []],
        exhausted=[others[1:], [u["id"] for u in amira["units"]][:1]],
        morale_left=[int(emir["morale"]) - 1, int(amira["morale"]) + int(amira["base_morale"]) - 2],
        influence_spent=[0, 0],
        notes="The Emir's dead came at the ford by night; the Wardens held the redoubt and the Zombie Horde "
              "was cut down in the shallows.")
    live = services.battle_start(attacker_army=guard, defender_army=riders, mode=Battle.Mode.LIVE, actor=gm,
                                 seed=2026)
    for _ in range(LIVE_ACTIONS):
        live.match.refresh_from_db()
        seat = match_table(match=live.match, seat=None).to_move[0]
        action = json.loads(match_table(match=live.match, seat=seat).actions[0][1])
        match_services.match_act(match_id=live.match_id, seat=seat, action=action,
                                 user=users["amira" if seat == 0 else "bastian"])
    return [table, live]
