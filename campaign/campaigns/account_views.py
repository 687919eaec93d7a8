"""Pages that start everything: signing up, creating a campaign, and joining one through an invitation link.

Thin like every page: parse the form, call the service, show its sentence, redirect.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from campaign.campaigns import selectors, services
from campaign.campaigns.forms import CampaignForm, SignUpForm
from campaign.web.forms import form_errors_sentence
from campaign.web.login_limits import client_address, sign_up_record, sign_up_wait_seconds
from campaign.web.refusals import refusal_shown


def _join(request: HttpRequest, code: str) -> HttpResponse:
    """Join with the code and land on the campaign's page; a refusal is shown on the home page."""
    with refusal_shown(request, ValidationError):
        joined = services.invitation_join(code=code, user=request.user)
        membership = joined.membership
        role = membership.get_role_display().lower()
        messages.success(request, f"Welcome to {membership.campaign}: you are a {role} here." if joined.new
                         else f"You are already a {role} in {membership.campaign}.")
        return redirect("campaign-detail", membership.campaign.slug)
    return redirect("home")


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    """A new account, signed in at once; with an invitation's code it joins that campaign too."""
    if request.user.is_authenticated and request.method == "GET":
        return redirect("home")
    form = SignUpForm(request.POST or None, initial={"invitation": request.GET.get("invitation", "")})
    if request.method == "POST" and (wait := sign_up_wait_seconds(address=client_address(request))) is not None:
        response = render(request, "registration/sign_up.html", {"form": form, "limited": (
            f"Too many sign-ups from this address: wait {max(1, -(-wait // 60))} minutes and try again.")},
            status=429)
        response["Retry-After"] = str(wait)
        return response
    if request.method == "POST":
        sign_up_record(address=client_address(request))
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_sign_up(username=form.cleaned_data["username"],
                                         password=form.cleaned_data["password"])
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            login(request, user)
            if form.cleaned_data["invitation"]:
                return _join(request, form.cleaned_data["invitation"])
            messages.success(request, f"Welcome, {user}: create a campaign, or open the invitation link your game "
                                      "master sent you.")
            return redirect("home")
    return render(request, "registration/sign_up.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_new(request: HttpRequest) -> HttpResponse:
    """Whoever creates a campaign is its first game master."""
    form = CampaignForm(request.POST or None)
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, form_errors_sentence(form))
        else:
            with refusal_shown(request, ValidationError):
                campaign = services.campaign_create(creator=request.user, **form.cleaned_data)
                messages.success(request, f"{campaign} is created and you are its game master: the checklist "
                                          "below says what to set up next.")
                return redirect("campaign-detail", campaign.slug)
    return render(request, "campaign/campaign_new.html", {"form": form})


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    """The invitation link: says what it invites to (or why it no longer does); a signed-in person joins with a
    button, anyone else signs up (or logs in) first."""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?{urlencode({'next': request.path})}")
        return _join(request, code)
    invitation = selectors.invitation_by_code(code=code)
    if invitation is not None and request.user.is_authenticated and \
            invitation.campaign.memberships.filter(user=request.user).exists():
        return redirect("campaign-detail", invitation.campaign.slug)
    refusal = services.UNKNOWN_INVITATION if invitation is None else selectors.invitation_refusal(invitation)
    return render(request, "campaign/join.html", {
        "invitation": invitation, "refusal": refusal, "code": code,
        "form": SignUpForm(initial={"invitation": code}),
        "login_url": f"{reverse('login')}?{urlencode({'next': request.path})}",
    })
