"""Reads for matches: which seat is mine, what that seat may see (never the dump itself), and the stakes."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet

from campaign.models import Commander, EscrowHold
from cardgames.models import Challenge, Match, MatchSeat
from cardgames.registry import CARD_GAMES, SettingShown, game_for, settings_shown
from gamekit.protocol import as_action
from gamekit.replay import GameRecord, replay_states


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
    `returned` to each staker (a draw or a cancel) or `kept` by the bank (an AI beat a person who played the
    bank). `bank` is the bank's own stake (the pot counts it)."""

    seats: list[MatchSeat]
    pot: int
    status: str
    paid_to: Commander | None
    bank: int = 0


def match_stakes(*, match: Match) -> Stakes | None:
    """None when nothing is at stake. Prefetch ``seats__commander`` and ``seats__escrow`` for lists."""
    seats = list(match.seats.all())
    staked = [s for s in seats if s.stake]
    if not staked:
        return None
    pot = sum(s.stake for s in staked) + match.bank_stake
    if any(_escrow(s).status == EscrowHold.Status.HELD for s in staked):
        return Stakes(staked, pot, "held", None, match.bank_stake)
    winner = match.result.get("winner") if match.status == Match.Status.FINISHED else None
    paid_to = next((s.commander for s in seats if s.seat == winner), None)
    kept = match.bank_stake and winner is not None and paid_to is None
    return Stakes(staked, pot, "paid" if paid_to else "kept" if kept else "returned", paid_to, match.bank_stake)


def _escrow(seat: MatchSeat) -> EscrowHold:
    """Where a staking seat's stake is held: the seat_stake_held_in_escrow constraint gives every seat with a
    stake an escrow hold."""
    hold = seat.escrow
    if hold is None:
        raise RuntimeError(f"Seat {seat.pk} has a stake but no escrow hold.")
    return hold


def _jsonable(action: tuple) -> list:
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


def match_settings(*, match: Match) -> list[SettingShown]:
    """Every setting the match was played by; those it changed from the game's defaults say so."""
    return settings_shown(match.game, match.config)


def match_record(*, match: Match) -> GameRecord:
    return GameRecord(match.game, match.config, [s.name for s in match.seats.all()], match.seed,
                      [(a.seat, as_action(a.action)) for a in match.log.all()], list(match.chance))


@dataclass(frozen=True)
class ReplayStep:
    """One step of a finished match's replay: the table after `step` of `total` actions, and what the
    last of them made happen that the viewer may see."""

    step: int
    total: int
    events: list[str]
    table: TableView


def match_replay(*, match: Match, seat: int | None) -> list[ReplayStep]:
    """The table as `seat` saw it after each of the match's actions, rebuilt from the record in one pass rather
    than from the cached state. Each step holds only the engine's `view` for `seat` (copied: the state moves
    on). Nobody may act in a replay: no actions."""
    engine = game_for(match.game)
    entries = list(match.log.all())
    steps: list[ReplayStep] = []
    for at, state in enumerate(replay_states(engine, match_record(match=match))):
        events = [e["text"] for e in (entries[at - 1].events if at else [])
                  if e.get("see") is None or (seat is not None and seat in e["see"])]
        over = engine.is_over(state)
        table = TableView(match=match, seat=seat, view=copy.deepcopy(engine.view(state, seat)), actions=[], log=[],
                          to_move=[] if over else list(engine.to_move(state)), over=over)
        steps.append(ReplayStep(step=at, total=len(entries), events=events, table=table))
    return steps


def challenges_visible(*, user, gm_of: list[int] | None = None) -> QuerySet[Challenge]:
    """The challenges a user may see: those sent by or to their commanders, and every challenge of the campaigns
    (ids) they are a game master of."""
    return Challenge.objects.filter(Q(challenger__player=user) | Q(challenged__player=user)
                                    | Q(campaign_id__in=gm_of or [])) \
        .select_related("campaign", "challenger__player", "challenged__player", "match")


@dataclass(frozen=True)
class Encounters:
    """A player's side of the encounters page: their open challenges sent and received, and the card games
    they sit at that are still being played."""

    sent: list[Challenge]
    received: list[Challenge]
    playing: list[Match]


def encounters_for(*, campaign, user) -> Encounters:
    open_ = list(challenges_visible(user=user).filter(campaign=campaign, status=Challenge.Status.OPEN))
    playing = Match.objects.filter(campaign=campaign, game__in=CARD_GAMES, status=Match.Status.ACTIVE,
                                   seats__user=user, seats__ai="").distinct()
    return Encounters(sent=[c for c in open_ if c.challenger.player_id == user.pk],
                      received=[c for c in open_ if c.challenged.player_id == user.pk],
                      playing=list(playing))


def encounters_active_count(*, campaign) -> int:
    """Card-game encounters in progress (battles are counted by the battles app)."""
    return Match.objects.filter(campaign=campaign, game__in=CARD_GAMES, status=Match.Status.ACTIVE).count()


def match_version_column() -> str:
    """The match's version as a scalar SQL expression naming the match once (NULL for none): raw SQL because
    it runs on every poll of every open table and the ORM's compiling of this one-row read cost more than the
    database did."""
    return f"(SELECT version FROM {connection.ops.quote_name(Match._meta.db_table)} WHERE id = %s)"  # noqa: S608


def match_version(*, match_id: int) -> int | None:
    """The match's version, for a poll."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {match_version_column()}", [match_id])
        return cursor.fetchone()[0]
