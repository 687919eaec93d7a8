"""Row locks, taken one way everywhere: `FOR UPDATE OF` the queried table only, in primary-key order.

A plain select_for_update() also locks every row its joins touch (a default ordering on a related field, a
select_related), and foreign-key checks at commit take shared locks on those same rows: under concurrent
spending that deadlocks. Locking only the rows meant, always in primary-key order, leaves no cycle to wait in.
When several kinds are locked in one transaction the order is: Event, Day, commanders, units and armies,
offers and other rows, then the ledger's accounts (campaign.economy.ledger locks those last, by pk).
"""

from __future__ import annotations

from typing import TypeVar

from django.db.models import Model, QuerySet
from django.db.models.manager import BaseManager

M = TypeVar("M", bound=Model)


def lock(rows: BaseManager[M] | QuerySet[M]) -> QuerySet[M]:
    """The rows' own table locked FOR UPDATE (joined rows are read, not locked), in primary-key order."""
    return rows.select_for_update(of=("self",)).order_by("pk")
