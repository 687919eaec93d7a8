"""Writes for accounts (signing up), campaigns, their members, roles and invitations (at least one game master
always), Events and the workers' heartbeat. Each change a person makes to a campaign is audited.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify

from campaign.campaigns.audit import audit_record
from campaign.campaigns.house_rules import house_rules_check
from campaign.campaigns.selectors import invitation_refusal
from campaign.locking import lock
from campaign.models import (
    Campaign,
    Day,
    Event,
    FeedToken,
    Heartbeat,
    Invitation,
    Membership,
    Role,
)

UNKNOWN_INVITATION = ("This invitation link is not known: check that you copied all of it, or ask a game master "
                      "of the campaign for a new one.")


@transaction.atomic
def user_sign_up(*, username: str, password: str) -> User:
    """A new account: a name no one has (in any letter case) and a password Django's validators accept."""
    username = username.strip()
    if not username:
        raise ValidationError({"username": "Choose a username."})
    UnicodeUsernameValidator()(username)
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": f"The username {username} is taken: choose another, or log in."})
    validate_password(password, User(username=username))
    return User.objects.create_user(username=username, password=password)


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "campaign"
    slug, n = base, 1
    while Campaign.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def campaign_create(*, name: str, creator: User, description: str = "") -> Campaign:
    """A new campaign; its creator is its first game master."""
    if not name.strip():
        raise ValidationError({"name": "Give the campaign a name."})
    campaign = Campaign.objects.create(name=name.strip(), slug=_unique_slug(name), description=description)
    Membership.objects.create(campaign=campaign, user=creator, role=Role.GM)
    audit_record(campaign=campaign, actor=creator, action="campaign.create", target=campaign)
    return campaign


@transaction.atomic
def campaign_update(*, campaign: Campaign, actor: User, name: str | None = None,
                    description: str | None = None, house_rules: dict | None = None) -> Campaign:
    changed = []
    if name is not None:
        if not name.strip():
            raise ValidationError({"name": "Give the campaign a name."})
        campaign.name = name.strip()
        changed.append("name")
    if description is not None:
        campaign.description = description
        changed.append("description")
    if house_rules is not None:
        house_rules_check(house_rules)
        campaign.house_rules = house_rules
        changed.append("house_rules")
    if changed:
        campaign.save(update_fields=changed)
        audit_record(campaign=campaign, actor=actor, action="campaign.update", target=campaign,
                     data={"fields": changed})
    return campaign


@transaction.atomic
def campaign_set_archived(*, campaign: Campaign, archived: bool, actor: User | None) -> Campaign:
    """Archive the campaign (read only, off the home page) or bring it back. Idempotent: asking for the state it
    is already in changes nothing and records nothing."""
    campaign = lock(Campaign.objects).get(pk=campaign.pk)
    if (campaign.archived_at is not None) == archived:
        return campaign
    campaign.archived_at = timezone.now() if archived else None
    campaign.save(update_fields=["archived_at"])
    audit_record(campaign=campaign, actor=actor, action="campaign.archive" if archived else "campaign.unarchive",
                 target=campaign)
    return campaign


def _check_role(role: str) -> None:
    if role not in Role.values:
        raise ValidationError({"role": f"Role must be one of: {', '.join(Role.values)}."})


@transaction.atomic
def membership_add(*, campaign: Campaign, user: User, role: str,
                   actor: User | None) -> Membership:
    _check_role(role)
    if Membership.objects.filter(campaign=campaign, user=user).exists():
        raise ValidationError({"user": f"{user} is already in {campaign}: change their role instead."})
    membership = Membership.objects.create(campaign=campaign, user=user, role=role)
    audit_record(campaign=campaign, actor=actor, action="membership.add", target=user, data={"role": role})
    return membership


def _ensure_another_gm(membership: Membership) -> None:
    others = lock(Membership.objects).filter(campaign=membership.campaign_id, role=Role.GM)
    if membership.role == Role.GM and others.exclude(pk=membership.pk).count() == 0:
        raise ValidationError({"role": "A campaign needs a game master: make someone else GM first."})


@transaction.atomic
def membership_set_role(*, membership: Membership, role: str, actor: User) -> Membership:
    _check_role(role)
    if role != membership.role:
        _ensure_another_gm(membership)
        old = membership.role
        membership.role = role
        membership.save(update_fields=["role"])
        audit_record(campaign=membership.campaign, actor=actor, action="membership.role",
                     target=membership.user, data={"from": old, "to": role})
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, actor: User) -> None:
    _ensure_another_gm(membership)
    audit_record(campaign=membership.campaign, actor=actor, action="membership.remove", target=membership.user)
    membership.delete()


@transaction.atomic
def invitation_create(*, campaign: Campaign, actor: User, expires_at: datetime, role: str = Role.PLAYER,
                      max_uses: int | None = None) -> Invitation:
    """An invitation link with a role. Its code is 32 random bytes: it cannot be guessed, only handed on."""
    _check_role(role)
    if timezone.is_naive(expires_at) or expires_at <= timezone.now():
        raise ValidationError({"expires_at": "An invitation must expire in the future: pick a later date."})
    if max_uses is not None and max_uses < 1:
        raise ValidationError({"max_uses": "Allow at least one use, or leave the number of uses empty."})
    invitation = Invitation.objects.create(campaign=campaign, code=secrets.token_urlsafe(32), role=role,
                                           created_by=actor, expires_at=expires_at, max_uses=max_uses)
    audit_record(campaign=campaign, actor=actor, action="invitation.create", target=invitation,
                 data={"invitation": invitation.pk, "role": role, "expires_at": expires_at.isoformat(),
                       "max_uses": max_uses})
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, actor: User) -> Invitation:
    """Nobody joins with it from now on; those who joined stay. Revoking twice changes nothing."""
    invitation = lock(Invitation.objects).select_related("campaign").get(pk=invitation.pk)
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        audit_record(campaign=invitation.campaign, actor=actor, action="invitation.revoke", target=invitation,
                     data={"invitation": invitation.pk})
    return invitation


@dataclass(frozen=True)
class Joined:
    membership: Membership
    new: bool  # False: they were already a member, and nothing changed


@transaction.atomic
def invitation_join(*, code: str, user: User) -> Joined:
    """Join the invitation's campaign with its role. Idempotent: a member who follows it again (a retry on poor
    signal, a second click) keeps their membership and role, and uses nothing up, even if it has since run out."""
    invitation = lock(Invitation.objects).select_related("campaign").filter(code=code).first()
    if invitation is None:
        raise ValidationError(UNKNOWN_INVITATION)
    existing = Membership.objects.select_related("campaign").filter(campaign=invitation.campaign, user=user).first()
    if existing is not None:
        return Joined(membership=existing, new=False)
    refusal = invitation_refusal(invitation)
    if refusal:
        raise ValidationError(refusal)
    membership = Membership.objects.create(campaign=invitation.campaign, user=user, role=invitation.role)
    Invitation.objects.filter(pk=invitation.pk).update(uses=F("uses") + 1)
    audit_record(campaign=invitation.campaign, actor=user, action="invitation.join", target=user,
                 data={"invitation": invitation.pk, "role": invitation.role})
    return Joined(membership=membership, new=True)


def _check_event_times(starts_at: datetime, ends_at: datetime) -> None:
    if timezone.is_naive(starts_at) or timezone.is_naive(ends_at):
        raise ValidationError("Event times need a time zone.")
    if ends_at <= starts_at:
        raise ValidationError({"ends_at": "An Event must end after it starts: pick a later end."})


@transaction.atomic
def event_create(*, campaign: Campaign, name: str, starts_at: datetime, ends_at: datetime,
                 actor: User | None, minutes_per_hour: int = 60) -> Event:
    """A planned Event with its first Day open."""
    _check_event_times(starts_at, ends_at)
    if minutes_per_hour < 1:
        raise ValidationError({"minutes_per_hour": "An in-game hour must last at least one real minute."})
    event = Event.objects.create(campaign=campaign, name=name, starts_at=starts_at, ends_at=ends_at,
                                 minutes_per_hour=minutes_per_hour)
    Day.objects.create(event=event, number=1)
    audit_record(campaign=campaign, actor=actor, action="event.create", target=event)
    return event


@transaction.atomic
def event_update(*, event: Event, actor: User, **fields) -> Event:
    allowed = {"name", "starts_at", "ends_at", "minutes_per_hour"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError(f"These fields cannot be changed here: {', '.join(sorted(unknown))}.")
    for key, value in fields.items():
        setattr(event, key, value)
    _check_event_times(event.starts_at, event.ends_at)
    if fields:
        event.save(update_fields=sorted(fields))
        audit_record(campaign=event.campaign, actor=actor, action="event.update", target=event,
                     data={"fields": sorted(fields)})
    return event


def heartbeat_record(*, name: str) -> Heartbeat:
    """Note that a background process is alive (idempotent apart from the counter)."""
    now = timezone.now()
    heartbeat, created = Heartbeat.objects.get_or_create(name=name, defaults={"seen_at": now, "beats": 1})
    if not created:
        Heartbeat.objects.filter(pk=heartbeat.pk).update(seen_at=now, beats=F("beats") + 1)
        heartbeat.refresh_from_db()
    return heartbeat


@transaction.atomic
def feed_token_reset(*, user: User, current: str) -> FeedToken:
    """A new secret for the user's chronicle feed addresses (the first one, or one in place of a leaked one: the
    old addresses stop answering). `current` is the token the page showed: when it is no longer the token, the
    reset was done already (a phone retrying) and nothing changes."""
    feed = lock(FeedToken.objects.filter(user=user)).first()
    if feed is None:
        try:
            with transaction.atomic():
                return FeedToken.objects.create(user=user, token=secrets.token_urlsafe(32))
        except IntegrityError:  # the same request, retried while the first was committing
            return FeedToken.objects.get(user=user)
    if feed.token == current:
        feed.token = secrets.token_urlsafe(32)
        feed.save(update_fields=["token", "made_at"])
    return feed
