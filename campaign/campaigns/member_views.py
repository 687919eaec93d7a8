"""The members page: who is in the campaign with which role; for game masters, changing roles, removing members
and the invitation links (create, list, revoke). The services keep at least one game master.

Thin: find the row in this campaign (else a 404), check the role, call the service, show its sentence, redirect.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaign.campaigns import selectors, services
from campaign.campaigns.forms import InvitationForm, RoleForm
from campaign.campaigns.permissions import Action, can, require
from campaign.campaigns.views import campaign_membership
from campaign.models import Invitation, Membership
from campaign.web.forms import form_errors_sentence
from campaign.web.refusals import refusal_shown


def _back(slug: str, anchor: str) -> HttpResponse:
    return redirect(f"{reverse('members', args=[slug])}#{anchor}")


@login_required
def members_page(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.VIEW_MEMBERS)
    manage = can(membership, Action.MANAGE_MEMBERS)
    invitations = list(selectors.invitations_of(campaign=campaign)) if manage else []
    return render(request, "campaign/members.html", {
        "campaign": campaign, "membership": membership, "manage": manage,
        "members": selectors.members_of(campaign=campaign), "roles": RoleForm.base_fields["role"].choices,
        "invitations": [(i, selectors.invitation_refusal(i),
                         request.build_absolute_uri(reverse("join", args=[i.code]))) for i in invitations],
        "invitation_form": InvitationForm(),
    })


def _member(request: HttpRequest, slug: str, membership_id: int) -> tuple[Membership, Membership]:
    """My membership (a GM's) and the member's, which must be of this campaign."""
    campaign, mine = campaign_membership(request, slug)
    require(mine, Action.MANAGE_MEMBERS)
    return mine, get_object_or_404(Membership.objects.select_related("user", "campaign"), pk=membership_id,
                                   campaign=campaign)


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    _, member = _member(request, slug, membership_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return _back(slug, "members")
    with refusal_shown(request, ValidationError):
        services.membership_set_role(membership=member, role=form.cleaned_data["role"], actor=request.user)
        messages.success(request, f"{member.user} is now a {member.get_role_display().lower()}.")
    return _back(slug, "members")


@login_required
@require_POST
def member_remove(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    mine, member = _member(request, slug, membership_id)
    leaving = member.pk == mine.pk
    with refusal_shown(request, ValidationError):
        services.membership_remove(membership=member, actor=request.user)
        messages.success(request, f"{member.user} is no longer in {member.campaign}; their commanders stay.")
        return redirect("home") if leaving else _back(slug, "members")
    return _back(slug, "members")


@login_required
@require_POST
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.MANAGE_MEMBERS)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return _back(slug, "invitations")
    with refusal_shown(request, ValidationError):
        invitation = services.invitation_create(campaign=campaign, actor=request.user, role=form.cleaned_data["role"],
                                                expires_at=form.expires_at(), max_uses=form.cleaned_data["max_uses"])
        messages.success(request, f"Invitation created: send its link to whoever should join as a "
                                  f"{invitation.get_role_display().lower()}.")
    return _back(slug, "invitations")


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.MANAGE_MEMBERS)
    invitation = get_object_or_404(Invitation, pk=invitation_id, campaign=campaign)
    services.invitation_revoke(invitation=invitation, actor=request.user)
    messages.success(request, "Invitation revoked: its link no longer lets anyone join; those who joined stay.")
    return _back(slug, "invitations")
