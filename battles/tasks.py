"""Celery tasks of the battles app: battle odds fanned out over the workers.

The odds are pure computation on plain data (battles/engine/battle_odds.py): a chunk
task takes the config, the policies and its battle seeds and returns JSON partial sums.
Nothing is written, so a repeated delivery only repeats the work, never changes a result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from celery import Celery, current_app, group, shared_task

from battles.engine.battle_odds import (
    BattleOdds,
    PolicySpec,
    battle_odds_chunk,
    battle_odds_merge,
    battle_seeds,
    split_seeds,
)

ODDS_CHUNK = "battles.odds_chunk"


@shared_task(name=ODDS_CHUNK)
def odds_chunk_task(config: dict[str, Any], policies: list[PolicySpec], seeds: list[int]) -> dict[str, Any]:
    """One chunk of a battle-odds run: the partial sums of one battle per seed."""
    return battle_odds_chunk(config, policies, seeds)


def battle_odds_parallel(config: dict[str, Any], policies: Sequence[PolicySpec], battles: int, chunks: int, *,
                         seed: int = 0, queue: str | None = None, app: Celery | None = None,
                         timeout: float | None = None) -> BattleOdds:
    """The odds of `battles` battles played as a Celery group of `chunks` chunk tasks, merged.

    The battle seeds are those `battle_odds` would use, so the result equals the serial one
    exactly. `queue` routes every chunk there; `app` is the Celery app that sends them (the
    project's by default) and must have a result backend.

    Call this from a request, a management command or a script, never from inside a task:
    a task that waits on other tasks can hold the only worker slots they need and deadlock.
    Celery refuses such a wait by default; the ``disable_sync_subtasks=False`` here lifts
    that check so the same function works eagerly too, which leaves the rule to the caller.
    """
    sender = app or current_app
    parts = split_seeds(battle_seeds(battles, seed), chunks)
    options = {"queue": queue} if queue else {}
    job = group(sender.signature(ODDS_CHUNK, args=(config, list(policies), part), **options) for part in parts)
    partials = job.apply_async().get(timeout=timeout, disable_sync_subtasks=False)
    return battle_odds_merge(partials)
