"""Small pieces the map's services share: a point checked against the map, inches in words, an army's row
locked alone (no joined rows), and an army's active orders cancelled."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from campaign.locking import lock
from campaign.models import Army, MoveOrder, TacticalMap


def inches_text(value: float) -> str:
    return "1 inch" if f"{value:.3g}" == "1" else f"{value:.3g} inches"


def point_on_map_check(tactical_map: TacticalMap, x: float, y: float) -> None:
    if not (0 <= x <= tactical_map.width_inches and 0 <= y <= tactical_map.height_inches):
        raise ValidationError(f"({x:g}, {y:g}) is off the map ({tactical_map.width_inches:g} x "
                              f"{tactical_map.height_inches:.4g} inches): choose a point on it.")


def army_locked(army: Army) -> Army:
    return lock(Army.objects).select_related("commander", "campaign").get(pk=army.pk)


def orders_cancel(army_ids: list[int], status: str = MoveOrder.Status.CANCELLED) -> int:
    return MoveOrder.objects.filter(army_id__in=army_ids, status=MoveOrder.Status.ACTIVE).update(status=status)
