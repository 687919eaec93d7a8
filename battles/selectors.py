"""Reads for battles: the engine config an army pair would fight with, who sits where, what a member
may see, and the odds of a Battle before anyone commits to it."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils import timezone

from battles.engine.battle_odds import BattleOdds, battle_odds
from battles.models import Battle
from campaign.campaigns import selectors as campaigns_selectors
from campaign.campaigns.permissions import Action, can
from campaign.economy import selectors as economy_selectors
from campaign.map import battle_terrain
from campaign.map import selectors as map_selectors
from campaign.models import Army, Base, Campaign, Day, Event, Location, Membership, Unit

ODDS_POLICY = {"policy": "greedy", "samples": 1}
"""Both commanders in an odds run play the one-sample greedy AI: far better than random, ~30 ms a battle."""
ODDS_BATTLES_PARALLEL = 2000
"""Battles played when a Celery worker answers: a win probability good to about +/- 2%."""
ODDS_BATTLES_SERIAL = 100
"""Battles played inside the request when no worker answers: about +/- 10%, but it stays quick."""
ODDS_CHUNKS = 8
ODDS_TIMEOUT = 60
WORKER_FRESH_SECONDS = 180


def battle_event_day(*, campaign: Campaign) -> tuple[Event, Day] | None:
    """The Event and Day a Battle fought now belongs to: the running Event's open Day (else any open Day)."""
    days = Day.objects.filter(event__campaign=campaign, status=Day.Status.OPEN).select_related("event")
    day = (days.filter(event__status=Event.Status.RUNNING).order_by("event__starts_at", "number").first()
           or days.order_by("-event__starts_at", "number").first())
    return (day.event, day) if day else None


def army_battle_units(*, army: Army) -> list[Unit]:
    """The units that fight with an army: in it and not Killed."""
    return list(Unit.objects.filter(army=army, state=Unit.State.IN_ARMY).select_related("unit_type").order_by("pk"))


def cleric_used_today(*, commander_id: int, day: Day) -> bool:
    """A Cleric returns a Killed card once per Day: did an applied Battle of this Day use it already?"""
    for battle in Battle.objects.filter(day=day, status=Battle.Status.APPLIED).filter(
            Q(attacker_id=commander_id) | Q(defender_id=commander_id)).only("attacker_id", "result"):
        seat = 0 if battle.attacker_id == commander_id else 1
        if "Cleric" in (battle.result.get("day_powers_used") or [[], []])[seat]:
            return True
    return False


def location_base(*, location: Location | None, day: Day) -> Base | None:
    """The location's Base whose Morale bonus is not used up today, if any."""
    if location is None:
        return None
    return location.bases.exclude(spent_on=day).order_by("pk").first()


def _unit_config(unit: Unit, retinue: bool) -> dict[str, Any]:
    """A unit as the engine plays it: its type's card, and what its third training gave it."""
    kind = unit.unit_type
    return {"id": unit.pk, "name": unit.name or kind.name, "strength": unit.strength, "role": kind.role or None,
            "path": kind.path or None, "traits": list(dict.fromkeys([*(kind.traits or []), *unit.gained_traits])),
            "effects": [*(kind.effects or []), *unit.gained_effects], "retinue": retinue,
            "text": "\n".join(part for part in (kind.text, unit.third_training_ability) if part)}


def battle_config_for(*, attacker_army: Army, defender_army: Army, day: Day, location: Location | None = None,
                      choices: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The engine config of a Battle between two armies as they stand now (seat 0 attacks).

    Units: in the army and not Killed; a unit is a retinue (+1) only when the ledger says it is the
    commanding character's own. Commanders: current Morale and Influence, their power and the
    Tactician's usual pick; the defender adds the Morale bonus of an unspent Base at the location;
    `used_today` carries a Cleric's return already spent this Day. `choices` holds per-commander
    picks made at the start (``{commander_id: {"dervish": ..., "oathbound": unit_id, "tactician": ...}}``).
    """
    choices = choices or {}
    armies = (attacker_army, defender_army)
    units = {army.pk: army_battle_units(army=army) for army in armies}
    owners = economy_selectors.unit_retinue_owners(units=[u for us in units.values() for u in us])
    base = location_base(location=location, day=day)
    commanders = []
    for seat, army in enumerate(armies):
        commander = army.commander
        picks = choices.get(commander.pk, {})
        if not units[army.pk]:
            raise ValidationError(f"{army.name} has no units that can fight: assign units to it first.")
        owner_ids = {u.pk: getattr(owners.get(u.pk), "pk", None) for u in units[army.pk]}
        if picks.get("oathbound") and picks["oathbound"] not in owner_ids:
            raise ValidationError(f"{commander.name}'s Oathbound unit must be one of the units {army.name} "
                                  "brings to this Battle.")
        commanders.append({
            "name": commander.name, "commander_id": commander.pk, "army": army.name, "army_id": army.pk,
            "morale": commander.morale, "level": commander.level, "influence": commander.influence,
            "is_player_character": commander.is_player_character, "power": commander.power,
            "tactician": picks.get("tactician") or commander.tactician_choice or None,
            "base_morale": base.morale_bonus if (seat == 1 and base is not None) else 0,
            "base_id": base.pk if (seat == 1 and base is not None) else None,
            "dervish": picks.get("dervish") or None, "oathbound": picks.get("oathbound") or None,
            "used_today": ["Cleric"] if cleric_used_today(commander_id=commander.pk, day=day) else [],
            "units": [_unit_config(u, owner_ids[u.pk] == commander.pk) for u in units[army.pk]],
        })
    config = {"commanders": commanders, "house_rules": dict(attacker_army.campaign.house_rules.get("battle", {})),
              "verbose": True}
    _terrain_advantages(config, campaign=attacker_army.campaign, location=location, defender_army=defender_army)
    return config


def _battlefield_terrain(location: Location | None, defender_army: Army) -> list[tuple[str, str]]:
    """The (name, kind) of the terrain a Battle is fought on: at its location, else where the defender stands;
    open ground where no region lies (or off the map)."""
    if location is not None:
        regions = map_selectors.terrain_at(tactical_map=location.map, x=location.x, y=location.y)
    elif defender_army.map is not None:
        regions = map_selectors.terrain_at(tactical_map=defender_army.map, x=defender_army.x, y=defender_army.y)
    else:
        regions = []
    return [(r.name, r.kind.value) for r in regions] or [("open ground", "open")]


def _terrain_advantages(config: dict[str, Any], *, campaign, location: Location | None, defender_army: Army) -> None:
    """The campaign's terrain house rule applied to the Battle (campaign.map.battle_terrain)."""
    try:
        rules = battle_terrain.terrain_rules_checked(campaign.house_rules.get(battle_terrain.HOUSE_RULE))
    except battle_terrain.TerrainRuleError as exc:
        raise ValidationError(f"The campaign's {exc}: a game master fixes it in the house rules.") from None
    battle_terrain.terrain_advantages_apply(config, _battlefield_terrain(location, defender_army), rules)


def battles_visible_to(*, membership: Membership) -> QuerySet[Battle]:
    """A campaign's Battles: every one for a GM and for its players (Battles are fought in the open;
    what each side holds stays in the engine's per-seat view)."""
    return (Battle.objects.filter(campaign_id=membership.campaign_id)
            .select_related("attacker", "defender", "attacker_army", "defender_army", "location", "match", "day"))


def battle_seats_of(*, battle: Battle, membership: Membership) -> list[int]:
    """The sides this member speaks for: a commander's player their own; a GM every GM-run commander."""
    gm = can(membership, Action.ACT_FOR_ANY)
    return [seat for seat, commander in enumerate(battle.commanders)
            if commander.player_id == membership.user_id or (commander.player_id is None and gm)]


def worker_available() -> bool:
    """A Celery worker answered the heartbeat lately (campaign.tasks records it)."""
    beat = campaigns_selectors.heartbeat_get(name="worker")
    return beat is not None and (timezone.now() - beat.seen_at).total_seconds() < WORKER_FRESH_SECONDS


def battle_odds_for(*, config: dict[str, Any]) -> tuple[BattleOdds, str]:
    """Win probability (95% interval), expected kills and Morale left, by Monte Carlo, and how it was run.

    With a worker, the battles fan out as a Celery group (battles.tasks.battle_odds_parallel); with none,
    or if the workers do not answer in time, fewer battles are played here. Cached by config for an hour.
    """
    key = "battle-odds:" + hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()
    hit = cache.get(key)
    if hit is not None:
        return BattleOdds(**{k: _tuples(v) for k, v in hit["odds"].items() if k != "half_width"}), hit["how"]
    quiet = {**config, "verbose": False}
    policies = [ODDS_POLICY, ODDS_POLICY]
    odds, how = None, ""
    if worker_available():
        from battles.tasks import battle_odds_parallel  # imports Celery only when a worker may answer

        try:
            odds = battle_odds_parallel(quiet, policies, ODDS_BATTLES_PARALLEL, ODDS_CHUNKS, timeout=ODDS_TIMEOUT)
            how = f"{odds.battles} battles on the Celery workers"
        except Exception:  # a slow or broken worker: play fewer battles here instead
            odds = None
    if odds is None:
        odds = battle_odds(quiet, policies, ODDS_BATTLES_SERIAL)
        how = f"{odds.battles} battles played here (no Celery worker answered)"
    cache.set(key, {"odds": odds.as_dict(), "how": how}, 3600)
    return odds, how


def _tuples(value):
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def battles_open(*, campaign) -> QuerySet[Battle]:
    """Battles being fought (live or at a table) or waiting for their result to be confirmed."""
    return Battle.objects.filter(campaign=campaign, status__in=[Battle.Status.LIVE, Battle.Status.DUE,
                                                                Battle.Status.FINISHED])


def battles_open_count(*, campaign) -> int:
    return battles_open(campaign=campaign).count()
