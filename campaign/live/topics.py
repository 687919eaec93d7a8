"""Who may join which topic: the one place a socket subscription is allowed or refused.

A card table's topic needs a seat at it or the campaign's game master role; a commander's topic needs to be
that commander's player or a game master; the hour topic needs membership of the campaign; the game masters'
topic needs the role. Anything else (an unknown shape, another campaign, another commander) is refused, and
the socket joins none of the topics it asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from campaign.live import push
from campaign.models import Commander, Membership
from campaign.models.campaigns import Role
from cardgames.models import Match, MatchSeat

MAX_TOPICS = 8
_SHAPE = re.compile(r"^(match|commander)\.(\d{1,12})$|^campaign\.(\d{1,12})\.(hour|gm)$")


def _role(user, campaign_id: int) -> str | None:
    return Membership.objects.filter(user=user, campaign_id=campaign_id).values_list("role", flat=True).first()


def may_join(user, topic: str) -> bool:
    """True when `user` may hear about changes to `topic` (see the module's rules)."""
    if user is None or not user.is_authenticated:
        return False
    shape = _SHAPE.match(topic)
    if shape is None:
        return False
    kind, object_id, campaign_id, audience = shape.groups()
    if campaign_id is not None:
        role = _role(user, int(campaign_id))
        return role == Role.GM if audience == "gm" else role is not None
    if kind == "match":
        match_campaign = Match.objects.filter(pk=int(object_id)).values_list("campaign_id", flat=True).first()
        if match_campaign is None:
            return False
        seated = MatchSeat.objects.filter(match_id=int(object_id), user=user, ai="").exists()
        return seated or _role(user, match_campaign) == Role.GM
    commander = Commander.objects.filter(pk=int(object_id)).values_list("campaign_id", "player_id").first()
    if commander is None:
        return False
    campaign_of, player_id = commander
    return player_id == user.pk or _role(user, campaign_of) == Role.GM


def topics_allowed(user, topics: list[str]) -> bool:
    """All or nothing: a socket asking for one topic it may not hear joins none."""
    return 0 < len(topics) <= MAX_TOPICS and all(may_join(user, topic) for topic in topics)


def member_topics(membership, commanders: Iterable[Commander] | None = None) -> str:
    """The topics a campaign page of this member listens to, space-separated for ``data-live-topics``: the hour
    and, for a game master, everything in the campaign; for a player, their own commanders (the first by id:
    a socket joins at most MAX_TOPICS). `commanders`, the campaign's commanders when the page has read them
    all, spares reading the player's own again."""
    campaign_id = membership.campaign_id
    if membership.role == Role.GM:
        return f"{push.hour_topic(campaign_id)} {push.gm_topic(campaign_id)}"
    if commanders is None:
        own = list(Commander.objects.filter(campaign_id=campaign_id, player_id=membership.user_id)
                   .order_by("pk").values_list("pk", flat=True)[:MAX_TOPICS - 1])
    else:
        own = sorted(c.pk for c in commanders if c.player_id == membership.user_id)[:MAX_TOPICS - 1]
    return " ".join([push.hour_topic(campaign_id), *(push.commander_topic(pk) for pk in own)])
