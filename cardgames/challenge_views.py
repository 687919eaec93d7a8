"""The encounters page's forms for players: challenge another commander, answer a challenge (accept, decline,
withdraw) and start a practice game against an AI.

Thin like the other views: find the campaign and the rows the member may see (else a 404), parse the form, call
the service, show its sentence; a started match opens its table, anything else returns to the encounters page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaign.campaigns.permissions import Action, can
from campaign.campaigns.views import campaign_membership
from campaign.web.forms import form_errors_sentence
from campaign.web.refusals import refusal_shown
from cardgames import challenges, selectors
from cardgames.forms import ChallengeForm, PracticeForm

ANSWERS = {"accept": challenges.challenge_accept, "decline": challenges.challenge_decline,
           "withdraw": challenges.challenge_withdraw}


def challenge_form(campaign, user, data=None) -> ChallengeForm:
    return ChallengeForm(data, mine=campaign.commanders.filter(player=user),
                         others=campaign.commanders.exclude(player=user).exclude(player=None))


def practice_form(campaign, user, data=None) -> PracticeForm:
    return PracticeForm(data, mine=campaign.commanders.filter(player=user),
                        bank_stakes=campaign.house_rules.get(challenges.HOUSE_RULE) is True)


def player_side(campaign, user) -> dict:
    """The encounters page's part for a player with a commander: their open challenges, the games they sit at
    and the forms to start one (nothing for a member without a commander)."""
    if not campaign.commanders.filter(player=user).exists():
        return {}
    return {"encounters": selectors.encounters_for(campaign=campaign, user=user),
            "challenge_form": challenge_form(campaign, user), "practice_form": practice_form(campaign, user)}


def _back(slug: str) -> HttpResponse:
    return redirect(reverse("match-list", args=[slug]) + "#challenges")


def _started(request: HttpRequest, slug: str, start) -> HttpResponse:
    """Run `start` (returns the match) and open its table; a refusal goes back to the encounters page."""
    with refusal_shown(request):
        match = start()
        messages.success(request, f"{match} has started.")
        return redirect("match-play", slug=slug, match_id=match.pk)
    return _back(slug)


@login_required
@require_POST
def challenge_create(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, _ = campaign_membership(request, slug)
    form = challenge_form(campaign, request.user, request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return _back(slug)
    with refusal_shown(request):
        sent = challenges.challenge_create(actor=request.user, **form.cleaned_data)
        messages.success(request, f"Challenge sent: {sent}.")
    return _back(slug)


@login_required
@require_POST
def challenge_answer(request: HttpRequest, slug: str, challenge_id: int, answer: str) -> HttpResponse:
    """Accept (opens the match), decline or withdraw a challenge to or from one of my commanders."""
    campaign, membership = campaign_membership(request, slug)
    if answer not in ANSWERS:
        raise Http404("A challenge is accepted, declined or withdrawn.")
    gm_of = [campaign.pk] if can(membership, Action.ACT_FOR_ANY) else []
    challenge = get_object_or_404(selectors.challenges_visible(user=request.user, gm_of=gm_of),
                                  pk=challenge_id, campaign=campaign)
    if answer == "accept":
        return _started(request, slug, lambda: challenges.challenge_accept(challenge=challenge, actor=request.user))
    with refusal_shown(request):
        answered = ANSWERS[answer](challenge=challenge, actor=request.user)
        messages.success(request, f"Challenge {answered.get_status_display().lower()}: {answered}.")
    return _back(slug)


@login_required
@require_POST
def practice_start(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, _ = campaign_membership(request, slug)
    form = practice_form(campaign, request.user, request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return _back(slug)
    return _started(request, slug, lambda: challenges.practice_start(actor=request.user, **form.cleaned_data))
