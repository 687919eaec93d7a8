"""The card-game part of the demo: a Command Dice wager in progress between the two demo players, with
20 lunari of each one's commander in escrow, a finished match against the AI to replay, one
encounter of each other card game under way between the two players (the Unity game has a third seat,
played by an AI, and a house rule: a hand of 7), and an open challenge from Bastian to Amira."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model

from campaign.models import Commander
from cardgames import challenges, services
from cardgames.models import AIPolicy, Match
from cardgames.registry import CARD_GAMES
from cardgames.selectors import match_table

WAGER_STAKE = 20
CHALLENGE_STAKE = 10
UNDER_WAY = [("unholy-war", "Duel of the Unholy War at the shrine", 11, (), {}),
             ("squad-combat", "Squads clash in the ravine", 5, (), {}),
             ("unity", "A game of Unity by the campfire", 3, (AIPolicy.GREEDY,), {"hand_size": 7})]
"""(game, title, seed, AIs in the seats after the two players', settings) of the encounters under way: a few
moves made."""
OPENING_MOVES = 4


def load_demo_matches(*, campaign) -> list[Match]:
    """Idempotent: a campaign that already has matches keeps them."""
    matches = campaign.matches.filter(game__in=CARD_GAMES)
    if matches.exists():
        return list(matches)
    users = {u.username: u for u in get_user_model().objects.filter(username__in=["gm", "amira", "bastian"])}
    gm, amira, bastian = users["gm"], users["amira"], users["bastian"]
    event = campaign.events.order_by("starts_at").first()
    wager = services.match_create(
        campaign=campaign, event=event, game="command-dice", actor=gm, seed=2026,
        title="Wager at the Gilded Goat", seats=[_staking_seat(campaign, amira), _staking_seat(campaign, bastian)],
    )
    # Amira has already made her secret choice; Bastian is to choose.
    services.match_act(match_id=wager.pk, seat=0, action=_first_legal(wager, 0), user=amira)
    practice = services.match_create(
        campaign=campaign, event=event, game="command-dice", actor=gm, seed=7, title="Practice against the AI",
        seats=[services.SeatSpec("AI: random", None, AIPolicy.RANDOM),
               services.SeatSpec("AI: greedy", None, AIPolicy.GREEDY)],
    )
    services.match_play_ai(match_id=practice.pk)
    under_way = [_under_way(campaign, event, gm, game, title, seed, [amira, bastian], ais, config)
                 for game, title, seed, ais, config in UNDER_WAY]
    challenger, challenged = (_first_commander(campaign, user) for user in (bastian, amira))
    if challenger and challenged:
        challenges.challenge_create(challenger=challenger, challenged=challenged, game="command-dice",
                                    stake=CHALLENGE_STAKE, actor=bastian)
    return [wager, practice, *under_way]


def _under_way(campaign, event, gm, game: str, title: str, seed: int, players, ais, config) -> Match:
    """A match between the players (and AIs after them) with its first moves made, each the first legal one;
    the seeds are chosen so that these are the players' moves (an AI moves when its turn comes)."""
    seats = [services.SeatSpec(user.username, user) for user in players]
    seats += [services.SeatSpec(dict(AIPolicy.choices)[ai], None, ai) for ai in ais]
    match = services.match_create(campaign=campaign, event=event, game=game, actor=gm, seed=seed, title=title,
                                  seats=seats, config=config)
    for _ in range(OPENING_MOVES):
        seat = match_table(match=match, seat=None).to_move[0]
        match = services.match_act(match_id=match.pk, seat=seat, action=_first_legal(match, seat),
                                   user=players[seat])
    return match


def _first_legal(match: Match, seat: int) -> list:
    match.refresh_from_db()
    return json.loads(match_table(match=match, seat=seat).actions[0][1])


def _staking_seat(campaign, user) -> services.SeatSpec:
    """The player's seat, staking for their first commander (no stake if the demo economy made none)."""
    commander = _first_commander(campaign, user)
    return services.SeatSpec(user.username, user, commander=commander, stake=WAGER_STAKE if commander else 0)


def _first_commander(campaign, user) -> Commander | None:
    return Commander.objects.filter(campaign=campaign, player=user).order_by("pk").first()
