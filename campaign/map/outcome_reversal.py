"""A Battle's outcome on the map, and reversing it (campaign.campaigns.reversals): the loser's retreat, the
orders called off or restarted, the capture progress reset and the Battle due settled go back as they were, and
the marks of a Battle fought it made are taken back. The battles app watches the same rows when it applies a
whole result (battles.reversal); the clock console records an outcome alone (`due_battle_decide`).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from campaign.campaigns.reversals import Scope, Watch, reversal_apply, reversible_record
from campaign.map.services import battle_outcome_apply_to_map
from campaign.models import Army, ArmyDayActivity, DueBattle, Location, MoveOrder, Reversible


def outcome_scopes(*, army_ids: list[int], location_id: int | None, due_battle_id: int | None) -> list[Scope]:
    """The rows an outcome on the map may change: the armies, their orders under way, the location fought at and
    any their Captures were taking, and the Battle due."""
    return [
        (Army.objects.filter(pk__in=army_ids), ("x", "y")),
        (MoveOrder.objects.filter(army_id__in=army_ids, status=MoveOrder.Status.ACTIVE),
         ("status", "path", "arrival_hour", "done_hour")),
        (Location.objects.filter(Q(pk=location_id or 0) | Q(capturing_army_id__in=army_ids)),
         ("holder_id", "capture_progress", "capturing_army_id")),
        (DueBattle.objects.filter(pk=due_battle_id or 0), ("status", "winner_id", "routed", "fought_hour")),
    ]


def fought_marks(army_ids: list[int]):
    """Where the marks of a Battle fought that an outcome makes are created (watched for new rows)."""
    return ArmyDayActivity.objects.filter(army_id__in=army_ids)


def marks_undo(record: Reversible, reason: str) -> list[int]:
    """The marks of a Battle fought that the record made are taken back (they are the Day's upkeep, not a record:
    the audit trail keeps that they were made). No lunari moved."""
    ArmyDayActivity.objects.filter(pk__in=record.created.get("campaign.armydayactivity", [])).delete()
    return []


@transaction.atomic
def due_battle_decide(*, due_battle: DueBattle, winner_army: Army, loser_army: Army, routed: bool,
                      actor: User | None) -> DueBattle:
    """A game master records on the console how a Battle due ended (no Battle on Muster): the outcome on the map,
    kept so that it may be reversed. Recording it twice changes nothing."""
    due_battle = DueBattle.objects.select_related("event").get(pk=due_battle.pk)
    if due_battle.status != DueBattle.Status.DUE:
        return due_battle
    army_ids = sorted({due_battle.first_id, due_battle.second_id})
    watch = Watch(scopes=outcome_scopes(army_ids=army_ids, location_id=due_battle.location_id,
                                        due_battle_id=due_battle.pk), creating=[fought_marks(army_ids)])
    decided = battle_outcome_apply_to_map(due_battle=due_battle, winner_army=winner_army, loser_army=loser_army,
                                          routed=routed)
    reversible_record(kind=Reversible.Kind.OUTCOME, campaign_id=due_battle.event.campaign_id,
                      event_id=due_battle.event_id, target_id=due_battle.pk, watch=watch, actor=actor,
                      label=f"{winner_army.name}'s win over {loser_army.name} (due at hour {due_battle.hour})")
    return decided


def outcome_reverse(*, record: Reversible, actor: User | None, reason: str) -> Reversible:
    """Reverse an outcome recorded on the console (a game master, with a reason); the Battle is due again."""
    return reversal_apply(record=record, actor=actor, reason=reason, action="battle.outcome.reverse",
                          undo=marks_undo)
