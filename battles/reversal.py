"""Reversing an applied Battle result (campaign.campaigns.reversals): the Killed units return to their armies,
Morale, Influence and a spent Base bonus are as they were, the armies lose the marks of a Battle fought that the
result gave them, and on the map the retreat, the called-off orders, the capture progress and the Battle due go
back. A Battle played at a table then waits for its result again, so that the right one can be entered; a live
Battle stays finished (a game master may cancel it). An hour cannot be reversed while a Battle due of that hour
is being fought.
"""

from __future__ import annotations

from django.contrib.auth.models import User

from battles.models import Battle
from campaign.campaigns.reversals import Watch, reversal_apply
from campaign.map.outcome_reversal import fought_marks, marks_undo, outcome_scopes
from campaign.models import Base, Commander, Reversible, Unit


def battle_label(battle: Battle) -> str:
    return f"Battle #{battle.pk}, {battle.attacker.name} against {battle.defender.name}"


def battle_watch(battle: Battle) -> Watch:
    """What applying this Battle's result may change, read before it changes."""
    commanders = battle.config["commanders"]
    army_ids = [pk for pk in (battle.attacker_army_id, battle.defender_army_id) if pk is not None]
    return Watch(scopes=[
        (Battle.objects.filter(pk=battle.pk), ("status", "applied_at")),
        (Commander.objects.filter(pk__in=[battle.attacker_id, battle.defender_id]),
         ("morale", "influence", "in_battle")),
        (Unit.objects.filter(pk__in=[u["id"] for c in commanders for u in c["units"]]), ("state", "army_id")),
        (Base.objects.filter(pk=commanders[1].get("base_id") or 0), ("spent_on_id",)),
        *outcome_scopes(army_ids=army_ids, location_id=battle.location_id, due_battle_id=battle.due_battle_id),
    ], creating=[fought_marks(army_ids)])


def _awaits_result(record: Reversible) -> None:
    """A table Battle's wrong result leaves the Battle waiting for the right one (the audit trail keeps the wrong
    one as entered)."""
    battle = Battle.objects.get(pk=record.target_id)
    if battle.mode == Battle.Mode.LOGGED and battle.status == Battle.Status.FINISHED:
        battle.status, battle.result, battle.finished_at = Battle.Status.DUE, {}, None
        battle.entered_by = battle.confirmed_by = None
        battle.save(update_fields=["status", "result", "finished_at", "entered_by", "confirmed_by"])


def battle_result_reverse(*, record: Reversible, actor: User | None, reason: str) -> Reversible:
    """Reverse an applied Battle result (a game master, with a reason); a retried reversal changes nothing."""
    return reversal_apply(record=record, actor=actor, reason=reason, action="battle.reverse", undo=marks_undo,
                          then=_awaits_result)


def hour_battles_fought(record: Reversible) -> str | None:
    """An hour whose Battle due is being fought, or was, cannot be reversed under it (a guard for the hour kind)."""
    battle = Battle.objects.filter(due_battle_id__in=record.created.get("campaign.duebattle", [])).exclude(
        status=Battle.Status.CANCELLED).select_related("attacker", "defender").first()
    if battle is None:
        return None
    return (f"{battle_label(battle)} is being fought for a Battle that came due in {record.label}: cancel it (or "
            "reverse its result and cancel it) first.")
