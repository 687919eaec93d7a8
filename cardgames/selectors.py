"""Reads for matches: which seat is mine, what that seat may see (never the dump itself), and the stakes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from campaign.models import Commander, EscrowHold
from cardgames.engine.core import GameRecord, as_action, replay
from cardgames.models import Match, MatchSeat
from cardgames.registry import game_for


@dataclass
class TableView:
    """What one viewer sees of a match: the engine's view for their seat, their legal actions and the log."""

    match: Match
    seat: int | None
    view: dict[str, Any]
    actions: list[tuple[str, str]]
    """(label, the action as JSON) for each legal action of the viewer's seat."""
    log: list[str]
    to_move: list[int]
    over: bool


@dataclass(frozen=True)
class Stakes:
    """What a match's seats staked and where the pot is: `held` in escrow, `paid` to the winner's commander,
    or `returned` to each staker (a draw or a cancel)."""

    seats: list[MatchSeat]
    pot: int
    status: str
    paid_to: Commander | None


def match_stakes(*, match: Match) -> Stakes | None:
    """None when nothing is at stake. Prefetch ``seats__commander`` and ``seats__escrow`` for lists."""
    seats = list(match.seats.all())
    staked = [s for s in seats if s.stake]
    if not staked:
        return None
    pot = sum(s.stake for s in staked)
    if any(s.escrow.status == EscrowHold.Status.HELD for s in staked):
        return Stakes(staked, pot, "held", None)
    winner = match.result.get("winner") if match.status == Match.Status.FINISHED else None
    paid_to = next((s.commander for s in seats if s.seat == winner), None)
    return Stakes(staked, pot, "paid" if paid_to else "returned", paid_to)


def _jsonable(action):
    return [_jsonable(part) if isinstance(part, tuple) else part for part in action]


def match_seat_for(*, match: Match, user) -> int | None:
    for seat in match.seats.all():
        if seat.user_id == user.pk and not seat.ai:
            return seat.seat
    return None


def action_label(engine, state, action: tuple) -> str:
    """The engine's words for an action when it offers them, otherwise the action's parts."""
    describe = getattr(engine, "describe_action", None)
    if describe is not None:
        return describe(state, action)
    return " ".join(str(part).replace("_", " ") for part in action).capitalize()


def visible_log(*, match: Match, seat: int | None, last: int | None = None) -> list[str]:
    """Event texts the seat may see (a spectator seat `None` sees public events only)."""
    entries = match.log.order_by("-index")[:last] if last else match.log.order_by("-index")
    texts: list[str] = []
    for entry in entries:
        texts.extend(e["text"] for e in reversed(entry.events)
                     if e.get("see") is None or (seat is not None and seat in e["see"]))
    return texts


def match_table(*, match: Match, seat: int | None) -> TableView:
    engine = game_for(match.game)
    state = engine.load(match.state)
    over = match.status != Match.Status.ACTIVE
    to_move = [] if over else list(engine.to_move(state))
    actions = []
    if seat is not None and seat in to_move:
        actions = [(action_label(engine, state, a), json.dumps(_jsonable(a)))
                   for a in engine.legal_actions(state, seat)]
    return TableView(match=match, seat=seat, view=engine.view(state, seat), actions=actions,
                     log=visible_log(match=match, seat=seat, last=30), to_move=to_move, over=over)


def match_record(*, match: Match) -> GameRecord:
    return GameRecord(match.game, match.config, [s.name for s in match.seats.all()], match.seed,
                      [(a.seat, as_action(a.action)) for a in match.log.all()], list(match.chance))


def match_replay_step(*, match: Match, step: int, seat: int | None) -> dict[str, Any]:
    """The table as `seat` saw it after `step` actions, rebuilt from the record (not from the cached state)."""
    engine = game_for(match.game)
    state, _ = replay(engine, match_record(match=match), upto=step)
    return engine.view(state, seat)


def encounters_active_count(*, campaign) -> int:
    """Card-game encounters in progress (battles are counted by the battles app)."""
    from cardgames.registry import CARD_GAMES

    return Match.objects.filter(campaign=campaign, game__in=CARD_GAMES, status=Match.Status.ACTIVE).count()
