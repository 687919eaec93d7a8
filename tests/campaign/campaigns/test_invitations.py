"""Signing up and invitations: every refusal is a sentence that says what to do, joining twice is harmless, and
each change is audited."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils import timezone

from campaign.campaigns import services
from campaign.models import AuditEntry, Invitation, Membership, Role
from tests.campaign.factories import UserFactory

pytestmark = pytest.mark.django_db


def _invite(campaign, gm, **kwargs) -> Invitation:
    kwargs.setdefault("expires_at", timezone.now() + timedelta(days=7))
    return services.invitation_create(campaign=campaign, actor=gm, **kwargs)


def test_sign_up_makes_an_account_with_a_checked_password(db):
    user = services.user_sign_up(username=" rowan ", password="lantern-harbour-77")
    assert user.username == "rowan"
    assert user.check_password("lantern-harbour-77")


@pytest.mark.parametrize(("username", "password", "says"), [
    ("", "lantern-harbour-77", "Choose a username"),
    ("no spaces", "lantern-harbour-77", "valid username"),
    ("GM1", "lantern-harbour-77", "is taken"),
    ("rowan", "short", "too short"),
    ("rowan", "password123", "too common"),
    ("rowan", "83749211657", "entirely numeric"),
])
def test_sign_up_refusals_say_what_to_do(gm, username, password, says):
    with pytest.raises(ValidationError) as refused:
        services.user_sign_up(username=username, password=password)
    assert says in " ".join(refused.value.messages)
    assert not User.objects.filter(username="rowan").exists()


def test_an_invitation_has_an_unguessable_code_and_is_audited(campaign, gm):
    first, second = _invite(campaign, gm), _invite(campaign, gm, role=Role.GM, max_uses=3)
    assert len(first.code) >= 40
    assert first.code != second.code
    assert (second.role, second.max_uses, second.uses) == (Role.GM, 3, 0)
    assert AuditEntry.objects.filter(campaign=campaign, action="invitation.create").count() == 2


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"role": "emperor"}, "Role must be one of"),
    ({"expires_at": timezone.now() - timedelta(minutes=1)}, "expire in the future"),
    ({"expires_at": (timezone.now() + timedelta(days=1)).replace(tzinfo=None)}, "expire in the future"),
    ({"max_uses": 0}, "at least one use"),
])
def test_invitation_create_refusals(campaign, gm, kwargs, says):
    with pytest.raises(ValidationError) as refused:
        _invite(campaign, gm, **kwargs)
    assert says in " ".join(refused.value.messages)
    assert not Invitation.objects.exists()


def test_joining_adds_the_member_with_the_invitations_role_and_counts_a_use(campaign, gm):
    invitation = _invite(campaign, gm, role=Role.GM)
    newcomer = UserFactory(username="rowan")
    joined = services.invitation_join(code=invitation.code, user=newcomer)
    assert joined.new
    assert joined.membership.role == Role.GM
    invitation.refresh_from_db()
    assert invitation.uses == 1
    assert AuditEntry.objects.filter(campaign=campaign, action="invitation.join", target="rowan").count() == 1


def test_joining_twice_is_harmless_even_once_the_invitation_is_used_up(campaign, gm, player):
    invitation = _invite(campaign, gm, max_uses=1)
    newcomer = UserFactory(username="rowan")
    first = services.invitation_join(code=invitation.code, user=newcomer)
    again = services.invitation_join(code=invitation.code, user=newcomer)
    assert not again.new
    assert again.membership.pk == first.membership.pk
    assert services.invitation_join(code=invitation.code, user=player).membership.role == Role.PLAYER
    invitation.refresh_from_db()
    assert invitation.uses == 1
    assert Membership.objects.filter(campaign=campaign, user=newcomer).count() == 1
    assert AuditEntry.objects.filter(action="invitation.join").count() == 1


def test_a_gm_following_a_player_invitation_keeps_the_gm_role(campaign, gm):
    invitation = _invite(campaign, gm)
    assert services.invitation_join(code=invitation.code, user=gm).membership.role == Role.GM


def _revoked(campaign, gm):
    return services.invitation_revoke(invitation=_invite(campaign, gm), actor=gm)


def _expired(campaign, gm):
    invitation = _invite(campaign, gm)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    return invitation


def _used_up(campaign, gm):
    invitation = _invite(campaign, gm, max_uses=1)
    services.invitation_join(code=invitation.code, user=UserFactory(username="first"))
    return invitation


@pytest.mark.parametrize(("make", "says"), [
    (_revoked, "was withdrawn"),
    (_expired, "expired on"),
    (_used_up, "used as many times as it allows (1)"),
])
def test_an_invitation_that_no_longer_holds_is_refused_with_what_to_do(campaign, gm, make, says):
    invitation = make(campaign, gm)
    with pytest.raises(ValidationError) as refused:
        services.invitation_join(code=invitation.code, user=UserFactory(username="late"))
    sentence = " ".join(refused.value.messages)
    assert says in sentence
    assert f"ask a game master of {campaign} for a new link" in sentence
    assert not Membership.objects.filter(user__username="late").exists()


def test_an_unknown_code_is_refused_with_what_to_do(db):
    with pytest.raises(ValidationError) as refused:
        services.invitation_join(code="not-a-code", user=UserFactory(username="late"))
    assert "check that you copied all of it" in " ".join(refused.value.messages)


def test_revoking_twice_changes_nothing_and_audits_once(campaign, gm):
    invitation = _revoked(campaign, gm)
    at = invitation.revoked_at
    assert services.invitation_revoke(invitation=invitation, actor=gm).revoked_at == at
    assert AuditEntry.objects.filter(action="invitation.revoke").count() == 1
