"""Encounters players start on their own: a challenge from one commander to another of the campaign (accepted,
declined or withdrawn), and a practice game of a commander against an AI.

A challenge names the game, its settings and the stake each side puts up; it is checked like a match's start
when it is sent, and the match starts when the challenged commander's player accepts, both stakes moving into
escrow in that transaction. A practice game stakes nothing, unless the campaign's house rule `card_ai_stakes`
lets the bank match the player's stake.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import require_acting_for
from campaign.economy.ledger import ledger_purse_balance
from campaign.locking import lock
from campaign.models import Commander
from cardgames.models import AIPolicy, Challenge, Match
from cardgames.registry import CARD_GAMES, SettingsError, game_start, game_title
from cardgames.services import SeatSpec, match_create
from config.celery import enqueue_on_commit

HOUSE_RULE = "card_ai_stakes"
"""The campaign's house rule that lets the bank take a player's stake in a practice game against an AI."""


def _checked_game(game: str, config: dict[str, Any], players: list[str]) -> None:
    """The game is a card game that starts with these players and settings (`registry.game_start`)."""
    if game not in CARD_GAMES:
        raise ValidationError({"game": f"Choose one of the card games: {', '.join(CARD_GAMES)}."})
    try:
        game_start(game, config, players, 0)
    except SettingsError as exc:
        field = "seats" if exc.setting == "seats" else "config"
        raise ValidationError({field: f"{game_title(game)} cannot start so: {exc.message}"}) from None


def _check_stake(commander: Commander, stake: int) -> None:
    """A stake is 0 or more and the commander's purse covers it now (escrow checks again when it is held)."""
    if stake < 0:
        raise ValidationError({"stake": f"A stake is 0 or more lunari, not {stake}."})
    balance = ledger_purse_balance(commander=commander)
    if stake > balance:
        raise ValidationError({"stake": f"Not enough lunari: the stake is {stake}, {commander} has {balance}. "
                                        f"Stake at most {balance}."})


def _player_name(commander: Commander, field: str) -> str:
    """The commander's player's name: a commander without a player cannot sit at a table."""
    if commander.player is None:
        raise ValidationError({field: f"{commander} has no player to sit at the table: ask a game master."})
    return commander.player.get_username()


@transaction.atomic
def challenge_create(*, challenger: Commander, challenged: Commander, game: str, actor, stake: int = 0,
                     config: dict[str, Any] | None = None) -> Challenge:
    """A player challenges another commander of the campaign, who has a player to answer; each side will
    stake `stake`, which the challenger's purse must cover now."""
    require_acting_for(actor=actor, commander=challenger, what=f"challenge for {challenger}")
    if challenged.campaign_id != challenger.campaign_id:
        raise ValidationError({"challenged": f"{challenged} is not a commander of this campaign."})
    if challenged.pk == challenger.pk or (challenged.player_id and challenged.player_id == challenger.player_id):
        raise ValidationError({"challenged": "You cannot challenge yourself: pick another player's commander."})
    config = config or {}
    _checked_game(game, config, [_player_name(challenger, "challenger"), _player_name(challenged, "challenged")])
    _check_stake(challenger, stake)
    challenge = Challenge.objects.create(campaign_id=challenger.campaign_id, challenger=challenger,
                                         challenged=challenged, game=game, config=config, stake=stake,
                                         created_by=actor)
    audit_record(campaign=challenger.campaign, actor=actor, action="challenge.create", target=challenge,
                 data={"game": game, "stake": stake, "challenged": challenged.pk})
    enqueue_on_commit("campaign.notify_challenge", challenge.pk)
    return challenge


def _answered(challenge: Challenge, actor, commander: Commander, what: str, status: str) -> Challenge | None:
    """Lock the challenge and check the actor answers for `commander`. The challenge already has `status`
    (a retried request): None, nothing to do. Still open: the locked row. Otherwise a refusal."""
    require_acting_for(actor=actor, commander=commander, what=what)
    locked = lock(Challenge.objects).get(pk=challenge.pk)
    if locked.status == status:
        return None
    if locked.status != Challenge.Status.OPEN:
        raise ValidationError(f"This challenge was {locked.get_status_display().lower()} already: "
                              "nothing more can be answered.")
    return locked


def _close(challenge: Challenge, status: str, actor, match: Match | None = None) -> Challenge:
    challenge.status = status
    challenge.match = match
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "match", "answered_at"])
    audit_record(campaign=challenge.campaign, actor=actor, action=f"challenge.{status}",
                 target=challenge, data={"match": match.pk if match else None})
    return challenge


@transaction.atomic
def challenge_accept(*, challenge: Challenge, actor) -> Match:
    """The challenged commander's player accepts: the match starts with both stakes in escrow, or, if a purse
    cannot cover its stake, nothing is written. A retried accept answers the match it started."""
    locked = _answered(challenge, actor, challenge.challenged, f"accept challenges to {challenge.challenged}",
                       Challenge.Status.ACCEPTED)
    if locked is None:
        return Match.objects.get(challenge__pk=challenge.pk)
    sides = [locked.challenger, locked.challenged]
    match = match_create(campaign=locked.campaign, game=locked.game, config=locked.config, actor=actor,
                         title=f"{sides[0]} against {sides[1]}",
                         seats=[SeatSpec(_player_name(c, "challenger"), c.player, commander=c, stake=locked.stake)
                                for c in sides])
    _close(locked, Challenge.Status.ACCEPTED, actor, match)
    return match


@transaction.atomic
def challenge_decline(*, challenge: Challenge, actor) -> Challenge:
    """The challenged commander's player declines; no lunari move. Declining twice changes nothing."""
    locked = _answered(challenge, actor, challenge.challenged, f"decline challenges to {challenge.challenged}",
                       Challenge.Status.DECLINED)
    return challenge if locked is None else _close(locked, Challenge.Status.DECLINED, actor)


@transaction.atomic
def challenge_withdraw(*, challenge: Challenge, actor) -> Challenge:
    """The challenger takes back a challenge still open; no lunari move."""
    locked = _answered(challenge, actor, challenge.challenger, f"withdraw {challenge.challenger}'s challenges",
                       Challenge.Status.WITHDRAWN)
    return challenge if locked is None else _close(locked, Challenge.Status.WITHDRAWN, actor)


@transaction.atomic
def practice_start(*, commander: Commander, game: str, policy: str, actor, stake: int = 0,
                   config: dict[str, Any] | None = None) -> Match:
    """A player's commander plays an AI. Nothing is staked unless the campaign's house rule `card_ai_stakes`
    lets the bank match the stake: then the winner takes the pot, and the bank keeps it if the AI wins."""
    require_acting_for(actor=actor, commander=commander, what=f"start a practice game for {commander}")
    if policy not in AIPolicy.values or policy == AIPolicy.HUMAN:
        choices = ", ".join(value for value in AIPolicy.values if value)
        raise ValidationError({"policy": f"Pick the AI to play against: one of {choices}."})
    campaign = commander.campaign
    if stake and campaign.house_rules.get(HOUSE_RULE) is not True:
        raise ValidationError({"stake": "Practice against an AI is for nothing at stake: this campaign's house "
                                        f"rules do not let the bank take stakes ({HOUSE_RULE}). Set the stake "
                                        "to 0."})
    config = config or {}
    ai_name = dict(AIPolicy.choices)[policy]
    name = _player_name(commander, "commander")
    _checked_game(game, config, [name, ai_name])
    _check_stake(commander, stake)
    return match_create(campaign=campaign, game=game, config=config, actor=actor, bank_stake=stake,
                        title=f"{commander} practises against the AI",
                        seats=[SeatSpec(name, commander.player, commander=commander, stake=stake),
                               SeatSpec(ai_name, None, policy)])
