"""One permission layer for pages and the API.

A game master may do everything in their campaign; a player may look at the
campaign and act on what is theirs; anyone else gets a 404 for the campaign, so
its existence is not revealed. Views and API permission classes both ask here.

An archived campaign is read only, and the refusal is one sentence (Archived, a 403): every change a person makes
is recorded in the audit trail in its own transaction, so the trail's writer refuses (and rolls back) any change to
an archived campaign but archiving, exporting and the like (campaign.campaigns.audit); require_acting_for() refuses
before any work, and card-game moves, which are not audited, check in cardgames.services.match_act. can() and
require() stay the role's answer: a GM's pages still open on an archived campaign and show as much as before.
"""

from __future__ import annotations

from enum import StrEnum

from django.contrib.auth.models import User
from django.http import Http404

from campaign.campaigns.memberships_kept import membership_kept
from campaign.models import Campaign, Commander, Membership, Role


class Action(StrEnum):
    VIEW_CAMPAIGN = "view_campaign"
    EDIT_CAMPAIGN = "edit_campaign"
    DELETE_CAMPAIGN = "delete_campaign"
    VIEW_MEMBERS = "view_members"
    MANAGE_MEMBERS = "manage_members"
    VIEW_EVENTS = "view_events"
    MANAGE_EVENTS = "manage_events"
    RUN_CLOCK = "run_clock"
    VIEW_AUDIT = "view_audit"
    ACT_FOR_OWN = "act_for_own"
    ACT_FOR_ANY = "act_for_any"
    ARCHIVE_CAMPAIGN = "archive_campaign"
    EXPORT_CAMPAIGN = "export_campaign"
    START_NEW_SEASON = "start_new_season"



ROLE_ACTIONS: dict[str, frozenset[Action]] = {
    Role.GM: frozenset(Action),
    Role.PLAYER: frozenset({Action.VIEW_CAMPAIGN, Action.VIEW_MEMBERS, Action.VIEW_EVENTS, Action.ACT_FOR_OWN}),
}


class NotAllowed(Exception):
    """A member tried something their role does not allow (a 403: they may know the campaign exists)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Archived(NotAllowed):
    """A write to an archived campaign (a 403 with the sentence)."""

    def __init__(self, campaign: Campaign) -> None:
        super().__init__(f"{campaign} is archived and read only: a game master may unarchive it from its page "
                         "to change anything.")


def refuse_if_archived(campaign: Campaign) -> None:
    if campaign.archived_at is not None:
        raise Archived(campaign)


def membership_for(*, user, campaign: Campaign | int) -> Membership | None:
    if not user.is_authenticated:
        return None
    campaign_id = campaign.pk if isinstance(campaign, Campaign) else campaign
    return Membership.objects.select_related("campaign").filter(user=user, campaign_id=campaign_id).order_by().first()


def membership_or_404(*, user, campaign: Campaign | int) -> Membership:
    """The user's membership of the campaign, or a 404 as if the campaign did not exist."""
    membership = membership_for(user=user, campaign=campaign)
    if membership is None:
        raise Http404("No such campaign.")
    return membership


def membership_by_slug_or_404(*, user, slug: str) -> Membership:
    """The user's membership of the campaign with this slug, the campaign joined in (one query for the two
    that every campaign page needs, kept in the shared cache: memberships_kept), or a 404 as if the campaign did
    not exist. A user has one membership of a campaign, so it is not sorted (the default order joins the user to
    sort by name)."""
    membership = (membership_kept(user.pk, slug, Membership.objects.select_related("campaign")
                                  .filter(user=user, campaign__slug=slug).order_by().first)
                  if user.is_authenticated else None)
    if membership is None:
        raise Http404("No such campaign.")
    return membership


def can(membership: Membership | None, action: Action) -> bool:
    """What the role allows (what a GM sees, too), archived or not."""
    return membership is not None and action in ROLE_ACTIONS[membership.role]


def require(membership: Membership | None, action: Action) -> None:
    """Refuse with a sentence a person can act on."""
    if membership is None:
        raise Http404("No such campaign.")
    if not can(membership, action):
        raise NotAllowed(f"Only a game master of {membership.campaign} may do that ({action.value.replace('_', ' ')}).")


def may_act_for(membership: Membership | None, owner_user_id: int | None) -> bool:
    """A GM may act for anything in the campaign; a player only for what they own."""
    if membership is None:
        return False
    if can(membership, Action.ACT_FOR_ANY):
        return True
    return owner_user_id is not None and owner_user_id == membership.user_id


def require_acting_for(*, actor: User | None, commander: Commander, what: str = "") -> None:
    """A GM may act for any commander; a player only for their own (actor None: a scheduled job or the demo).
    `what` finishes the refusal ("give Amira's armies orders"); by default "do that for <commander>"."""
    if actor is None:
        return
    membership = membership_for(user=actor, campaign=commander.campaign_id)
    if membership is not None:
        refuse_if_archived(membership.campaign)
    if not may_act_for(membership, commander.player_id):
        raise NotAllowed(f"Only {commander}'s player or a game master may {what or f'do that for {commander}'}.")
