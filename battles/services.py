"""Writes for battles: start one (live on Muster or at a table), log a table Battle's result, confirm it,
apply a result to the campaign, cancel.

Seats: the attacker is seat 0, the defender seat 1. A GM-run commander (no player) is played by the GM
who starts the Battle, or by an AI when the starter says so or is a player; any seat can later be handed
to an AI. Applying a result is one transaction and idempotent: a Battle already applied is returned as it is.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from battles import reversal, selectors
from battles.engine.powers import TACTICIAN_CHOICES, commander_powers
from battles.models import Battle
from campaign.campaigns import audit
from campaign.campaigns import selectors as campaigns_selectors
from campaign.campaigns.permissions import Action, NotAllowed, can, membership_for, require_acting_for
from campaign.campaigns.reversals import reversible_record
from campaign.economy import services as economy_services
from campaign.locking import lock
from campaign.map import armies as army_services
from campaign.map import orders as map_orders
from campaign.map import services as map_services
from campaign.models import Army, ArmyDayActivity, Base, Commander, Day, DueBattle, Location, Reversible, Unit
from cardgames import services as match_services
from cardgames.models import AIPolicy, Match

NPC_BY_GM = "gm"
"""`npc_seat` value: the GM starting the Battle plays a GM-run commander's seat themself."""


def _is_gm(actor, campaign_id: int) -> bool:
    return actor is None or can(membership_for(user=actor, campaign=campaign_id), Action.ACT_FOR_ANY)


def _check_may_start(actor, attacker_army: Army, defender_army: Army, due_battle: DueBattle | None) -> None:
    if _is_gm(actor, attacker_army.campaign_id):
        return
    own = actor.pk in (attacker_army.commander.player_id, defender_army.commander.player_id)
    if due_battle is None or not own:
        raise NotAllowed("Only a game master may start a Battle that is not due on the map; a commander may "
                         "start a Battle that came due for one of their armies.")


def _seat(commander: Commander, actor, npc_seat: str) -> match_services.SeatSpec:
    if commander.player_id is not None:
        return match_services.SeatSpec(commander.name, commander.player)
    if npc_seat == NPC_BY_GM and actor is not None and _is_gm(actor, commander.campaign_id):
        return match_services.SeatSpec(commander.name, actor)
    policy = npc_seat if npc_seat in AIPolicy.values and npc_seat else AIPolicy.GREEDY
    return match_services.SeatSpec(commander.name, None, policy)


def _settled_choices(commanders: tuple[Commander, Commander], choices: dict[int, dict[str, Any]], day: Day,
                     actor) -> dict[int, dict[str, Any]]:
    """The picks made at the start, checked and completed. Only a commander's player (or a GM) picks for them.
    A Dervish's Path or Role is chosen once per Day and then holds (RULINGS.md); a Tactician copies the power
    picked now, or their usual pick; only an Oathbound commander designates a unit."""
    settled: dict[int, dict[str, Any]] = {}
    for commander in commanders:
        picks = {k: v for k, v in choices.get(commander.pk, {}).items() if v}
        if picks:
            require_acting_for(actor=actor, commander=commander, what=f"make {commander}'s picks for this Battle")
        if commander.power == "Dervish":
            chosen = economy_services.dervish_choice_on(commander, day)
            if picks.get("dervish") and picks["dervish"] != chosen:
                chosen = economy_services.commander_dervish_choose(commander=commander, day=day,
                                                                   choice=picks["dervish"], actor=actor).dervish_choice
            if not chosen:
                raise ValidationError({"dervish": f"{commander} is a Dervish and has not chosen today's Path or "
                                                  "Role: their player or a game master chooses it here, once for "
                                                  "the Day."})
            picks["dervish"] = chosen
        elif "dervish" in picks:
            raise ValidationError({"dervish": f"{commander} is not a Dervish: leave the Dervish's choice empty."})
        tactician = picks.get("tactician") or commander.tactician_choice
        if commander.power == "Tactician":
            if tactician not in TACTICIAN_CHOICES:
                raise ValidationError({"tactician": f"{commander} is a Tactician: choose the power they copy this "
                                                    f"Battle from {', '.join(TACTICIAN_CHOICES)}."})
            picks["tactician"] = tactician
        elif "tactician" in picks:
            raise ValidationError({"tactician": f"{commander} is not a Tactician: leave the copied power empty."})
        if picks.get("oathbound") and "Oathbound" not in (commander.power, picks.get("tactician")):
            raise ValidationError({"oathbound": f"{commander} is not Oathbound: only an Oathbound commander "
                                                "designates a unit."})
        settled[commander.pk] = picks
    return settled


@transaction.atomic
def battle_start(*, attacker_army: Army, defender_army: Army, actor, mode: str = Battle.Mode.LIVE,
                 location: Location | None = None, due_battle: DueBattle | None = None, npc_seat: str = NPC_BY_GM,
                 choices: dict[int, dict[str, Any]] | None = None, seed: int | None = None) -> Battle:
    """Start a Battle: build the engine config from the armies as they stand, mark both commanders in
    battle (no Morale can be bought), and for a live Battle open the match with their players as seats.

    From a Battle due on the map, its first army attacks and its second defends the location."""
    if due_battle is not None:
        due_battle = DueBattle.objects.select_related("first__commander", "second__commander", "location",
                                                      "event").get(pk=due_battle.pk)
        if due_battle.status != DueBattle.Status.DUE:
            raise ValidationError(f"That Battle is already {due_battle.get_status_display().lower()}.")
        attacker_army, defender_army, location = due_battle.first, due_battle.second, due_battle.location
    if mode not in Battle.Mode.values:
        raise ValidationError({"mode": "Choose live on Muster or played at a table."})
    if attacker_army.campaign_id != defender_army.campaign_id:
        raise ValidationError("These armies belong to different campaigns.")
    if attacker_army.commander_id == defender_army.commander_id:
        raise ValidationError("A commander cannot fight a Battle against their own army: pick an enemy army.")
    campaign = attacker_army.campaign
    _check_may_start(actor, attacker_army, defender_army, due_battle)
    when = selectors.battle_event_day(campaign=campaign)
    if due_battle is not None:
        day = campaigns_selectors.event_current_day(event=due_battle.event)
        when = (due_battle.event, day) if day else None
    if when is None:
        raise ValidationError("No Day is open: a game master opens a Day of the Event before Battles are fought.")
    event, day = when
    ids = sorted((attacker_army.commander_id, defender_army.commander_id))
    locked = {c.pk: c for c in lock(Commander.objects).filter(pk__in=ids)}
    commanders = (locked[attacker_army.commander_id], locked[defender_army.commander_id])
    if due_battle is not None and (started := Battle.objects.filter(due_battle=due_battle).exclude(
            status=Battle.Status.CANCELLED).first()) is not None:
        return started  # a retried start (a phone that lost the answer) gets the Battle it began
    busy = [c.name for c in commanders if c.in_battle]
    if busy:
        raise ValidationError(f"{' and '.join(busy)} {'is' if len(busy) == 1 else 'are'} already in a Battle: "
                              "finish or cancel it first.")
    choices = _settled_choices(commanders, choices or {}, day, actor)
    attacker_army.commander, defender_army.commander = commanders
    config = selectors.battle_config_for(attacker_army=attacker_army, defender_army=defender_army, day=day,
                                         location=location, choices=choices)
    match = None
    title = f"{attacker_army.name} against {defender_army.name}" + (f" at {location.name}" if location else "")
    if mode == Battle.Mode.LIVE:
        match = match_services.match_create(campaign=campaign, event=event, game="army-combat", actor=actor,
                                            title=title, config=config, seed=seed,
                                            seats=[_seat(c, actor, npc_seat) for c in commanders])
    battle = Battle.objects.create(
        campaign=campaign, event=event, day=day, attacker_army=attacker_army, defender_army=defender_army,
        attacker=commanders[0], defender=commanders[1], location=location, due_battle=due_battle,
        started_by=actor, mode=mode, match=match, config=config,
        status=Battle.Status.LIVE if match else Battle.Status.DUE)
    for commander in commanders:
        economy_services.commander_set_in_battle(commander=commander, in_battle=True, actor=actor)
    audit.audit_record(campaign=campaign, actor=actor, action="battle.start", target=battle,
                       data={"mode": mode, "attacker": attacker_army.pk, "defender": defender_army.pk,
                             "match": match.pk if match else None})
    return battle


# --- a Battle played at a table --------------------------------------------------------------------------


def cleric_can_return(commander: dict[str, Any]) -> bool:
    """Cleric (their own power or a Tactician's pick): once per Day, 1 Morale returns a Killed card to hand."""
    return "Cleric" in commander_powers(0, commander) and "Cleric" not in (commander.get("used_today") or ())


def _entry_problems(config: dict[str, Any], winner: int, killed: list[list[int]], disabled: list[list[int]],
                    exhausted: list[list[int]], morale_left: list[int], influence_spent: list[int],
                    cleric_used: list[bool]) -> list[str]:
    """Why a logged result could not have come from this Battle, as sentences (empty: it could)."""
    problems: list[str] = []
    commanders = config["commanders"]
    if winner not in (0, 1):
        problems.append("Say who won the Battle.")
    for seat, c in enumerate(commanders):
        unit_names = {u["id"]: u["name"] for u in c["units"]}
        seen: dict[int, str] = {}
        for pile, ids in (("Killed", killed[seat]), ("Disabled", disabled[seat]), ("Exhausted", exhausted[seat])):
            for uid in ids:
                if uid not in unit_names:
                    problems.append(f"Unit {uid} did not fight in {c['army']}: list only {c['name']}'s units "
                                    "in their piles.")
                elif uid in seen:
                    problems.append(f"{unit_names[uid]} is listed twice ({seen[uid]} and {pile}): a unit ends the "
                                    "Battle in one pile only.")
                else:
                    seen[uid] = pile
        start_influence = int(c.get("influence") or 0)
        spent = influence_spent[seat]
        if spent < 0:
            problems.append(f"{c['name']} cannot spend a negative amount of Influence.")
        elif spent and not c.get("is_player_character"):
            problems.append(f"{c['name']} is not a player character: they save units with Morale, not Influence.")
        elif spent > start_influence:
            problems.append(f"{c['name']} had {start_influence} Influence: they cannot have spent {spent}.")
        if cleric_used[seat] and not cleric_can_return(c):
            problems.append(f"{c['name']} could not use a Cleric's return in this Battle: they are no Cleric, "
                            "or have used it today already.")
        left = morale_left[seat]
        most = _most_morale(c, kills=len(killed[1 - seat])) - bool(cleric_used[seat])
        if left < 0:
            problems.append(f"{c['name']}'s Morale left cannot be below 0.")
        elif left > most:
            problems.append(f"{c['name']} could end with at most {most} Morale, not {left}: check the Morale left.")
    if problems:
        return problems
    if morale_left[0] == 0 and morale_left[1] == 0:
        return ["Only one commander can be Routed: the Battle ends when the first reaches 0 Morale."]
    routed = next((seat for seat in (0, 1) if morale_left[seat] == 0), None)
    names = [c["name"] for c in commanders]
    if routed is not None:
        if winner == routed:
            problems.append(f"{names[routed]} ended at 0 Morale, so was Routed and lost: "
                            f"{names[1 - routed]} won.")
        return problems
    kills = [len(killed[1]), len(killed[0])]
    if kills[0] != kills[1]:
        best = 0 if kills[0] > kills[1] else 1
        if winner != best:
            problems.append(f"{names[best]} Killed more units ({kills[best]} to {kills[1 - best]}), so "
                            f"{names[best]} won.")
    elif morale_left[0] != morale_left[1]:
        best = 0 if morale_left[0] > morale_left[1] else 1
        if winner != best:
            problems.append(f"Kills were tied, and {names[best]} had more Morale left, so {names[best]} won.")
    return problems


def _most_morale(commander: dict[str, Any], *, kills: int) -> int:
    """The most Morale a commander could end with: start and Base, plus every Morale card's gain and, for
    a Rogue (or a Tactician copying Rogue), one per enemy unit Killed."""
    start = int(commander["morale"]) + int(commander.get("base_morale") or 0)
    cards = sum(e.get("amount", 0) for u in commander["units"] for e in u.get("effects") or ()
                if e.get("when") == "discard" and e.get("do") == "morale")
    rogue = "Rogue" in (commander.get("power"), commander.get("tactician"))
    return start + cards + (kills if rogue else 0)


def _logged_result(config: dict[str, Any], winner: int, killed, disabled, exhausted, morale_left,
                   influence_spent, cleric_used) -> dict[str, Any]:
    """A table Battle's result in the engine's result shape; a Cleric's return counts as used for the Day."""
    commanders = config["commanders"]
    base_spent = []
    for seat, c in enumerate(commanders):
        lost = int(c["morale"]) + int(c.get("base_morale") or 0) - morale_left[seat]
        base_spent.append(min(int(c.get("base_morale") or 0), max(0, lost)))
    routed = next((seat for seat in (0, 1) if morale_left[seat] == 0), None)
    kills = [len(killed[1]), len(killed[0])]
    return {"winner": winner, "over": True, "reason": "rout" if routed is not None else "logged", "routed": routed,
            "scores": kills, "kills": kills, "morale": list(morale_left), "base_morale_spent": base_spent,
            "influence": [int(c.get("influence") or 0) - influence_spent[s] for s, c in enumerate(commanders)],
            "killed": killed, "disabled": disabled, "exhausted": exhausted, "powers_used": [{}, {}],
            "day_powers_used": [[*(c.get("used_today") or ()), *(["Cleric"] if cleric_used[s] else [])]
                                for s, c in enumerate(commanders)]}


@transaction.atomic
def battle_log_result(*, battle: Battle, actor, winner: int, killed: list[list[int]], disabled: list[list[int]],
                      exhausted: list[list[int]], morale_left: list[int], influence_spent: list[int],
                      cleric_used: list[bool] | None = None, notes: str = "") -> Battle:
    """Enter what happened at the table. A GM's entry is applied at once; a commander's waits for the other
    commander (or a GM) to confirm it. An unconfirmed entry may be entered again. `cleric_used` says per
    commander whether a Cleric returned a Killed card (so it cannot be used again that Day)."""
    cleric_used = list(cleric_used or (False, False))
    battle = lock(Battle.objects).get(pk=battle.pk)
    if battle.mode != Battle.Mode.LOGGED:
        raise ValidationError("This Battle is being played on Muster: its result comes from the table itself.")
    if battle.status not in (Battle.Status.DUE, Battle.Status.FINISHED):
        raise ValidationError(f"This Battle is {battle.get_status_display().lower()}: its result cannot change.")
    gm = _is_gm(actor, battle.campaign_id)
    if not gm and actor.pk not in (battle.attacker.player_id, battle.defender.player_id):
        raise NotAllowed("Only a game master or one of the two commanders may enter this Battle's result.")
    problems = _entry_problems(battle.config, winner, killed, disabled, exhausted, morale_left, influence_spent,
                               cleric_used)
    if problems:
        raise ValidationError(problems)
    battle.result = _logged_result(battle.config, winner, killed, disabled, exhausted, morale_left,
                                   influence_spent, cleric_used)
    battle.status, battle.finished_at, battle.entered_by = Battle.Status.FINISHED, timezone.now(), actor
    battle.notes, battle.confirmed_by = notes.strip(), actor if gm else None
    battle.save(update_fields=["result", "status", "finished_at", "entered_by", "notes", "confirmed_by"])
    audit.audit_record(campaign=battle.campaign, actor=actor, action="battle.log", target=battle,
                       data={"result": battle.result})
    if gm:
        return battle_result_apply(battle=battle, actor=actor)
    return battle


@transaction.atomic
def battle_confirm_result(*, battle: Battle, actor) -> Battle:
    """The other commander (or a GM) agrees with a commander's entry; it is then applied."""
    battle = lock(Battle.objects).get(pk=battle.pk)
    if battle.status != Battle.Status.FINISHED or battle.mode != Battle.Mode.LOGGED:
        raise ValidationError("There is no entered result waiting for confirmation.")
    if not _is_gm(actor, battle.campaign_id):
        others = {battle.attacker.player_id, battle.defender.player_id} - {battle.entered_by_id}
        if actor.pk not in others or actor.pk == battle.entered_by_id:
            raise NotAllowed("The other commander or a game master confirms an entered result, not the one who "
                             "entered it.")
    battle.confirmed_by = actor
    battle.save(update_fields=["confirmed_by"])
    return battle_result_apply(battle=battle, actor=actor)


# --- the result, written back to the campaign -------------------------------------------------------------


@transaction.atomic
def battle_live_finished(*, match: Match) -> Battle | None:
    """A live Battle's match ended: keep its result and apply it (the match_finished signal calls this)."""
    battle = lock(Battle.objects).filter(match_id=match.pk).first()
    if battle is None or battle.status != Battle.Status.LIVE:
        return battle
    match = Match.objects.get(pk=match.pk)
    if match.status != Match.Status.FINISHED:
        return battle
    battle.status, battle.result, battle.finished_at = Battle.Status.FINISHED, match.result, match.finished_at
    battle.save(update_fields=["status", "result", "finished_at"])
    return battle_result_apply(battle=battle, actor=None)


def _commander_after_battle(commander: Commander, config: dict[str, Any], result: dict[str, Any], seat: int
                            ) -> dict[str, int]:
    """Morale and Influence as the Battle moved them, applied as changes to today's values (a Day closed
    mid-Battle has refreshed Morale since). Morale left on an unspent Base is the Base's, not the commander's.

    The campaign has no service that sets Morale after a Battle, so this writes the locked row itself."""
    start = config["commanders"][seat]
    base_left = int(start.get("base_morale") or 0) - result["base_morale_spent"][seat]
    own_left = result["morale"][seat] - base_left
    morale = max(0, commander.morale + own_left - int(start["morale"]))
    influence = max(0, commander.influence - (int(start.get("influence") or 0) - result["influence"][seat]))
    changes = {"morale": morale, "influence": influence}
    commander.morale, commander.influence = morale, influence
    commander.save(update_fields=["morale", "influence"])
    return changes


def _leave_battle(commanders, actor) -> None:
    """Commanders with no other open Battle may buy Morale again."""
    open_statuses = [Battle.Status.DUE, Battle.Status.LIVE, Battle.Status.FINISHED]
    for commander in commanders:
        if not Battle.objects.filter(Q(attacker=commander) | Q(defender=commander), status__in=open_statuses).exists():
            economy_services.commander_set_in_battle(commander=commander, in_battle=False, actor=actor)


def _battle_day(battle: Battle) -> Day | None:
    if Day.objects.filter(pk=battle.day_id, status=Day.Status.OPEN).exists():
        return battle.day
    return campaigns_selectors.event_current_day(event=battle.event)


@transaction.atomic
def battle_result_apply(*, battle: Battle, actor) -> Battle:
    """Write a finished Battle's result into the campaign, once.

    Killed units leave their army for good (unit_kill); the engine's final Killed pile already holds a
    Cleric's return and every Healer's, so a unit back in hand is not Killed. Morale and Influence change
    on the commanders, a spent Base bonus is used up for the Day, the commanders leave the Battle, both
    armies have fought today, and a Battle due on the map has its retreat and its location settled.
    Applying twice changes nothing: the second call finds the Battle applied. What it changed is kept so that a
    game master may reverse it (battles.reversal).
    """
    battle = lock(Battle.objects).select_related("location").get(pk=battle.pk)
    if battle.status == Battle.Status.APPLIED:
        return battle
    if battle.status != Battle.Status.FINISHED:
        raise ValidationError(f"This Battle is {battle.get_status_display().lower()}: only a finished Battle's "
                              "result can be applied.")
    result, config = battle.result, battle.config
    watch = reversal.battle_watch(battle)
    ids = sorted((battle.attacker_id, battle.defender_id))
    locked = {c.pk: c for c in lock(Commander.objects).filter(pk__in=ids)}
    changes = {}
    for seat, commander_id in enumerate((battle.attacker_id, battle.defender_id)):
        commander = locked[commander_id]
        fought = {u["id"] for u in config["commanders"][seat]["units"]}  # their own and any lent to them
        for unit in Unit.objects.filter(pk__in=[u for u in result["killed"][seat] if u in fought]):
            economy_services.unit_kill(unit=unit, actor=actor)
        changes[commander.name] = _commander_after_battle(commander, config, result, seat)
    base_id = config["commanders"][1].get("base_id")
    if base_id and result["base_morale_spent"][1] > 0:
        base = Base.objects.filter(pk=base_id).exclude(spent_on=battle.day).first()
        if base is not None:
            map_services.base_bonus_spend(base=base, day=battle.day, actor=actor)
    battle.status, battle.applied_at = Battle.Status.APPLIED, timezone.now()
    battle.save(update_fields=["status", "applied_at"])
    _leave_battle(locked.values(), actor)
    day = _battle_day(battle)
    armies = [a for a in (battle.attacker_army, battle.defender_army) if a is not None]
    if day is not None:
        for army in armies:
            army_services.army_mark_led(army=army, day=day, reason=ArmyDayActivity.Reason.FOUGHT, actor=actor)
    if len(armies) == 2 and (due_battle := battle.due_battle) is not None:
        winner = armies[result["winner"]]
        map_services.battle_outcome_apply_to_map(due_battle=due_battle, winner_army=winner,
                                                 loser_army=armies[1 - result["winner"]],
                                                 routed=result.get("routed") is not None)
    map_orders.orders_reestimate(army_ids=[army.pk for army in armies])  # the Killed no longer set the pace
    audit.audit_record(campaign=battle.campaign, actor=actor, action="battle.apply", target=battle,
                       data={"winner": result["winner"], "killed": result["killed"], "commanders": changes})
    reversible_record(kind=Reversible.Kind.BATTLE, campaign_id=battle.campaign_id, event_id=battle.event_id,
                      target_id=battle.pk, label=reversal.battle_label(battle), watch=watch, actor=actor)
    return battle


@transaction.atomic
def battle_cancel(*, battle: Battle, actor) -> Battle:
    """A game master calls a Battle off before its result is applied: nothing of it reaches the campaign."""
    battle = lock(Battle.objects).get(pk=battle.pk)
    if not _is_gm(actor, battle.campaign_id):
        raise NotAllowed("Only a game master may cancel a Battle.")
    if not battle.is_open:
        raise ValidationError(f"This Battle is {battle.get_status_display().lower()}: it cannot be cancelled.")
    if (match := battle.match) is not None and match.status == Match.Status.ACTIVE:
        match_services.match_cancel(match=match, actor=actor)
    battle.status = Battle.Status.CANCELLED
    battle.save(update_fields=["status"])
    _leave_battle(battle.commanders, actor)
    audit.audit_record(campaign=battle.campaign, actor=actor, action="battle.cancel", target=battle)
    return battle
