"""The card-game part of the demo: a Command Dice wager in progress between the two demo players,
and a finished match against the AI to replay."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model

from cardgames import services
from cardgames.models import AIPolicy, Match
from cardgames.selectors import match_table


def load_demo_matches(*, campaign) -> list[Match]:
    """Idempotent: a campaign that already has matches keeps them."""
    if campaign.matches.exists():
        return list(campaign.matches.all())
    users = {u.username: u for u in get_user_model().objects.filter(username__in=["gm", "amira", "bastian"])}
    gm, amira, bastian = users["gm"], users["amira"], users["bastian"]
    event = campaign.events.order_by("starts_at").first()
    wager = services.match_create(
        campaign=campaign, event=event, game="command-dice", actor=gm, seed=2026,
        title="Wager at the Gilded Goat",
        seats=[services.SeatSpec("amira", amira), services.SeatSpec("bastian", bastian)],
    )
    # Amira has already made her secret choice; Bastian is to choose.
    services.match_act(match_id=wager.pk, seat=0, action=_first_legal(wager, 0), user=amira)
    practice = services.match_create(
        campaign=campaign, event=event, game="command-dice", actor=gm, seed=7, title="Practice against the AI",
        seats=[services.SeatSpec("AI: random", None, AIPolicy.RANDOM),
               services.SeatSpec("AI: greedy", None, AIPolicy.GREEDY)],
    )
    services.match_play_ai(match_id=practice.pk)
    return [wager, practice]


def _first_legal(match: Match, seat: int) -> list:
    match.refresh_from_db()
    return json.loads(match_table(match=match, seat=seat).actions[0][1])
