"""Writes for matches: start one, apply a seat's action, let AI seats move, hand a seat to an AI, cancel,
and settle the stakes.

Every action is applied under a row lock on the match, so two devices pressing at
once are applied one after the other against the state each was checked against.
The action that ends a match pays out its stakes in the same transaction, and sends
`cardgames.signals.match_finished` once it is committed (the battles app applies a battle's result then).

Stakes move only through the ledger: held in escrow in the transaction that starts the match,
paid to the winner's commander when it ends, returned to each staker on a draw or a cancel.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import Action as Permission
from campaign.campaigns.permissions import NotAllowed, can, membership_for, refuse_if_archived
from campaign.economy import ledger as economy_ledger
from campaign.live.push import announce, match_topic
from campaign.locking import lock
from campaign.models import Commander, EscrowHold, LedgerTransaction
from cardgames.models import AIPolicy, Match, MatchAction, MatchSeat
from cardgames.registry import SettingsError, game_for, game_start
from cardgames.signals import match_finished
from config.celery import enqueue_on_commit
from gamekit.errors import RuleError
from gamekit.players import GreedyPlayer, ISMCTSPlayer, RandomPlayer, search_player
from gamekit.protocol import Action, Game, as_action

AI_MOVES_PER_CALL = 500
SEARCH_ITERATIONS = 400


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat; a person may play for `commander` and stake `stake` lunari of their purse."""

    name: str
    user: User | None = None
    ai: str = AIPolicy.HUMAN
    commander: Commander | None = None
    stake: int = 0


def _check_seats(campaign, seats: list[SeatSpec], bank_stake: int) -> None:
    """A commander plays only through their own player; with any stake, every seat plays for a commander
    (the winner's commander takes the pot, so there must be one whoever wins), unless the bank stakes for the
    AI seats: then each person stakes what the bank does, and if an AI wins the bank keeps the pot."""
    for spec in seats:
        if not spec.ai and spec.user is None:
            raise ValidationError({"seats": f"Seat {spec.name!r} needs a person or an AI."})
        if spec.stake < 0:
            raise ValidationError({"seats": f"A stake is 0 or more lunari, not {spec.stake}."})
        commander = spec.commander
        if commander is None:
            if spec.stake:
                raise ValidationError({"seats": f"Pick the commander whose purse pays {spec.name}'s stake."})
            continue
        if commander.campaign_id != campaign.pk:
            raise ValidationError({"seats": f"{commander} is not a commander of this campaign."})
        if spec.ai or spec.user is None or commander.player_id != spec.user.pk:
            raise ValidationError({"seats": f"{commander} can only be played by their own player: "
                                            f"seat {spec.name} is not."})
    commanders = [spec.commander.pk for spec in seats if spec.commander is not None]
    if len(commanders) != len(set(commanders)):
        raise ValidationError({"seats": "A commander can sit on one side of a match only."})
    if bank_stake:
        people = [spec for spec in seats if not spec.ai]
        if len(people) != 1 or people[0].commander is None or people[0].stake != bank_stake:
            raise ValidationError({"seats": f"Against the bank, one person plays for their commander and stakes "
                                            f"what the bank does ({bank_stake} lunari); the other seats are AIs."})
    elif any(spec.stake for spec in seats) and len(commanders) != len(seats):
        raise ValidationError({"seats": "With lunari at stake, every seat plays for a commander: "
                                        "pick one for each seat, or set every stake to 0."})


def _ai_player(policy: str, seed: int, game: Game) -> RandomPlayer | GreedyPlayer | ISMCTSPlayer:
    if policy == AIPolicy.RANDOM:
        return RandomPlayer(seed)
    if policy == AIPolicy.GREEDY:
        return GreedyPlayer(seed)
    return search_player(game, seed, iterations=SEARCH_ITERATIONS)


def _enqueue_ai_if_due(match: Match) -> None:
    """Queue the AI seats' moves after commit (by task name: cardgames.tasks imports this module). With the broker
    down the request still answers; match_ai_sweep, on beat, plays the moves later."""
    if match.status == Match.Status.ACTIVE and match.seats.exclude(ai="").exists():
        enqueue_on_commit("cardgames.match_play_ai", match.pk)


def _tell_whose_move(match: Match, actor) -> None:
    """Queue 'your move' for the people to act now (campaign.notifications.triggers.notify_to_move), after commit."""
    enqueue_on_commit("campaign.notify_to_move", match.pk, getattr(actor, "pk", None))


def match_ai_sweep(*, batch: int = 200) -> int:
    """Let the AI seats of active matches move where it is their turn and no queued task did it (a broker that was
    down, a worker killed mid-move). Bounded: at most `batch` matches a sweep. Returns the moves applied."""
    ids = (Match.objects.filter(status=Match.Status.ACTIVE, seats__ai__gt="").order_by("pk")
           .values_list("pk", flat=True).distinct()[:batch])
    return sum(match_play_ai(match_id=match_id) for match_id in ids)


@transaction.atomic
def match_create(*, campaign, game: str, seats: list[SeatSpec], actor, event=None, title: str = "",
                 config: dict | None = None, seed: int | None = None, bank_stake: int = 0) -> Match:
    """A new match; each stake moves into escrow in the same transaction (refused with a sentence when a purse
    cannot cover it, and then nothing is created). `config` holds the settings that differ from the game's
    defaults (`registry.game_settings`); the seat count and the config are checked by `registry.game_start`.
    `bank_stake` is what the campaign's bank stakes against the one person at an AI table: nothing is held for
    it, since the bank may always pay. AI seats start moving at once if it is their turn."""
    try:
        engine = game_for(game)
    except ValueError as exc:
        raise ValidationError({"game": str(exc)}) from None
    _check_seats(campaign, seats, bank_stake)
    seed = secrets.randbelow(2**62) if seed is None else seed
    try:
        state = game_start(game, config or {}, [s.name for s in seats], seed)
    except SettingsError as exc:
        if exc.setting == "seats":
            raise ValidationError({"seats": exc.message}) from None
        raise ValidationError({"config": f"This game cannot start with these settings: {exc.message}"}) from None
    match = Match.objects.create(campaign=campaign, event=event, game=game, title=title, config=config or {},
                                 seed=seed, state=engine.dump(state), chance=list(state.dice.log),
                                 bank_stake=bank_stake, created_by=actor)
    holds = [_stake_hold(s, match, actor) for s in seats]
    MatchSeat.objects.bulk_create([MatchSeat(match=match, seat=i, name=s.name, user=s.user, ai=s.ai,
                                             commander=s.commander, stake=s.stake, escrow=hold)
                                   for i, (s, hold) in enumerate(zip(seats, holds, strict=True))])
    audit_record(campaign=campaign, actor=actor, action="match.create", target=match,
                 data={"game": game, "seats": [s.name for s in seats], "stakes": [s.stake for s in seats],
                       "bank_stake": bank_stake})
    _enqueue_ai_if_due(match)
    _tell_whose_move(match, actor)
    return match


def _stake_hold(spec: SeatSpec, match: Match, actor) -> EscrowHold | None:
    """Move a seat's stake into escrow (None when it stakes nothing)."""
    if not spec.stake:
        return None
    commander = spec.commander
    if commander is None:  # _check_seats refuses a stake without a commander
        raise RuntimeError(f"Seat {spec.name!r} stakes lunari but plays for no commander.")
    return economy_ledger.ledger_escrow_hold(commander=commander, amount=spec.stake, reason=f"Stake on {match}",
                                             actor=actor)


def _apply(match: Match, engine, state, seat: int, action: Action, user) -> None:
    """One action on an active match's state (its callers lock the row and check it is active)."""
    if seat not in engine.to_move(state):
        raise ValidationError("It is not your move: wait for the other side.")
    try:
        events = engine.apply(state, action, seat)
    except RuleError as exc:
        raise ValidationError(exc.message) from None
    MatchAction.objects.create(match=match, index=match.version, seat=seat, action=list(action),
                               events=[e.as_dict() for e in events], by=user)
    match.version += 1


def _store(match: Match, engine, state) -> None:
    match.state = engine.dump(state)
    match.chance = list(state.dice.log)
    fields = ["state", "chance", "version"]
    if engine.is_over(state):
        match.status = Match.Status.FINISHED
        match.result = engine.result(state)
        match.finished_at = timezone.now()
        fields += ["status", "result", "finished_at"]
        transaction.on_commit(lambda: match_finished.send(sender=Match, match=match))
    match.save(update_fields=fields)
    announce(match_topic(match.pk), match.version)
    if match.status == Match.Status.FINISHED:
        _settle(match, None)  # the caller holds the match's row lock


STALE_MOVE = "The table moved on since your page was drawn: your move was not played. Look again and choose."


def is_stale(exc: ValidationError) -> bool:
    """A move meant for an earlier table (a page left open, a move queued offline): answered 409, not 400."""
    return getattr(exc, "code", None) == "stale"


@transaction.atomic
def match_act(*, match_id: int, seat: int, action: list | tuple, user, expected_version: int | None = None) -> Match:
    """Apply `seat`'s action. `expected_version`, when given, refuses a stale page's button. A move is not
    audited, so the archive is checked here (an archived campaign's matches stand still)."""
    match = lock(Match.objects.select_related("campaign")).get(pk=match_id)
    refuse_if_archived(match.campaign)
    if match.status != Match.Status.ACTIVE:  # before the version: a finished match's page is stale too
        raise ValidationError("This match is over: nothing more can be played.")
    if expected_version is not None and expected_version != match.version:
        raise ValidationError(STALE_MOVE, code="stale")
    engine = game_for(match.game)
    state = engine.load(match.state)
    try:
        parsed = as_action(action)
    except RuleError as exc:
        raise ValidationError(exc.message) from None
    _apply(match, engine, state, seat, parsed, user)
    _store(match, engine, state)
    _enqueue_ai_if_due(match)
    _tell_whose_move(match, user)
    return match


@transaction.atomic
def match_play_ai(*, match_id: int, limit: int = AI_MOVES_PER_CALL) -> int:
    """Let AI seats move until a person must act or the match ends. Idempotent: with no AI to move,
    nothing changes; an archived campaign's matches stand still. Returns the number of actions applied."""
    match = lock(Match.objects).filter(pk=match_id, status=Match.Status.ACTIVE,
                                       campaign__archived_at__isnull=True).first()
    if match is None:
        return 0
    ai_seats = {s.seat: s.ai for s in match.seats.all() if s.ai}
    if not ai_seats:
        return 0
    engine = game_for(match.game)
    state = engine.load(match.state)
    applied = 0
    while applied < limit and not engine.is_over(state):
        movers = [seat for seat in engine.to_move(state) if seat in ai_seats]
        if not movers:
            break
        for seat in movers:
            action = _ai_player(ai_seats[seat], match.seed + match.version, engine).choose(engine, state, seat)
            _apply(match, engine, state, seat, action, None)
            applied += 1
    if applied:
        _store(match, engine, state)
        _tell_whose_move(match, None)
    return applied


@transaction.atomic
def match_seat_hand_to_ai(*, match: Match, seat: int, policy: str, actor) -> MatchSeat:
    """A person away from the table lets an AI play their seat for the rest of the match. Only the seat's
    own player or a game master may; the person stays on the seat's record."""
    if policy not in AIPolicy.values or policy == AIPolicy.HUMAN:
        choices = ", ".join(value for value in AIPolicy.values if value)
        raise ValidationError({"policy": f"Pick an AI to play the seat: one of {choices}."})
    match = lock(Match.objects).get(pk=match.pk)
    if match.status != Match.Status.ACTIVE:
        raise ValidationError("This match is over: there is no seat left to hand over.")
    row = match.seats.filter(seat=seat).first()
    if row is None:
        raise ValidationError(f"This match has no seat {seat}.")
    if row.ai:
        raise ValidationError(f"{row.name} is already played by an AI.")
    if actor is not None and row.user_id != actor.pk \
            and not can(membership_for(user=actor, campaign=match.campaign_id), Permission.ACT_FOR_ANY):
        raise NotAllowed(f"Only {row.name} or a game master may hand this seat to an AI.")
    row.ai = policy
    row.save(update_fields=["ai"])
    audit_record(campaign=match.campaign, actor=actor, action="match.seat_to_ai", target=match,
                 data={"seat": seat, "policy": policy})
    _enqueue_ai_if_due(match)
    return row


@transaction.atomic
def match_cancel(*, match: Match, actor) -> Match:
    """A game master calls the match off; every stake goes back to whoever staked it."""
    match = lock(Match.objects).get(pk=match.pk)
    if match.status != Match.Status.ACTIVE:
        raise ValidationError("Only a match in progress can be cancelled.")
    match.status = Match.Status.CANCELLED
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "finished_at"])
    audit_record(campaign=match.campaign, actor=actor, action="match.cancel", target=match)
    _settle(match, actor)
    return match


@transaction.atomic
def match_stakes_settle(*, match: Match, actor=None) -> list[LedgerTransaction]:
    """Pay out a decided match's stakes (the final move does this itself, in the move's transaction).
    Idempotent: under the match's row lock, only holds still in escrow are released, so a second call pays
    nothing."""
    match = lock(Match.objects).get(pk=match.pk)
    if match.status == Match.Status.ACTIVE:
        raise ValidationError("This match is still being played: its stakes stay in escrow.")
    return _settle(match, actor)


def _settle(match: Match, actor) -> list[LedgerTransaction]:
    """The winner's commander takes every stake; on a draw or a cancel, each stake returns to its staker.
    The caller holds the match's row lock."""
    seats = list(match.seats.select_related("commander", "escrow"))
    winner = match.result.get("winner") if match.status == Match.Status.FINISHED else None
    to_winner = next((s.commander for s in seats if s.seat == winner), None)
    paid = []
    for seat in seats:
        hold = seat.escrow
        if hold is None or hold.status != EscrowHold.Status.HELD:
            continue
        staker = seat.commander
        if staker is None:  # the seat_stake_held_in_escrow constraint: a seat with a hold plays for a commander
            raise RuntimeError(f"Seat {seat.pk} holds a stake in escrow but plays for no commander.")
        paid.append(economy_ledger.ledger_escrow_release(hold=hold, to_commander=to_winner or staker, actor=actor,
                                                         reason=_release_reason(match, staker, to_winner)))
    if paid and match.bank_stake and winner is not None:
        paid.append(_bank_side(match, to_winner, seats, actor))
    if paid:
        audit_record(campaign=match.campaign, actor=actor, action="match.stakes", target=match,
                     data={"paid_to": str(to_winner) if to_winner else "stakers",
                           "transactions": [txn.pk for txn in paid]})
    return paid


def _release_reason(match: Match, staker: Commander, to_winner: Commander | None) -> str:
    """One ledger line per stake, each saying whose stake it is: a winner's own stake back and the stake won
    from the other side are two different lines, never two identical ones."""
    if to_winner is None:
        ended = "cancelled" if match.status == Match.Status.CANCELLED else "no winner"
        return f"{match}: {ended}, {staker}'s stake returned"
    if staker == to_winner:
        return f"{match}: won, {to_winner}'s own stake back"
    return f"{match}: won {staker}'s stake"


def _bank_side(match: Match, to_winner: Commander | None, seats: list[MatchSeat], actor) -> LedgerTransaction:
    """The bank's side of a practice stake, once the person's stake is back in their purse: the bank pays them
    as much again when they win, and takes their stake when an AI wins."""
    if to_winner is not None:
        return economy_ledger.ledger_bank_stake(commander=to_winner, amount=match.bank_stake, won=True, actor=actor,
                                                reason=f"{match}: won {match.bank_stake} lunari from the bank")
    staker = next(s.commander for s in seats if s.commander is not None)
    return economy_ledger.ledger_bank_stake(commander=staker, amount=match.bank_stake, won=False, actor=actor,
                                            reason=f"{match}: won by the AI, the bank keeps the stake")
