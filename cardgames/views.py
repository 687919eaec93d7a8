"""Play pages: each seat plays from its own device; the table follows the other side by polling."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST

from campaign.campaigns.fragments import fragment
from campaign.campaigns.permissions import Action, NotAllowed, can, require
from campaign.campaigns.views import campaign_membership
from campaign.live.topics import member_topics
from campaign.web.numbers import parse_id
from campaign.web.page_cache import page_depends, page_keep, page_version
from campaign.web.poll_tokens import poll_token
from campaign.web.refusals import refusal_sentence, refusal_shown
from cardgames import claims, selectors, services
from cardgames.challenge_views import player_side
from cardgames.forms import MatchStartForm
from cardgames.models import Match
from cardgames.registry import CARD_GAMES, card_game_choices, game_title
from cardgames.replay_pages import replay_context

SEAT_PREFETCH = ("seats__commander", "seats__escrow")


def _match_and_seat(request: HttpRequest, slug: str, match_id: int):
    """The match, my seat in it (None if I have none), and whether I am the GM.
    A GM may watch any seat with ``?seat=N``."""
    campaign, membership = campaign_membership(request, slug)
    match = get_object_or_404(Match.objects.prefetch_related(*SEAT_PREFETCH), pk=match_id, campaign=campaign)
    match.campaign = campaign  # read with the membership
    seat = selectors.match_seat_for(match=match, user=request.user)
    is_gm = can(membership, Action.ACT_FOR_ANY)
    watch = parse_id(request.GET.get("seat"))
    if is_gm and seat is None and watch is not None:
        seat = watch if watch < match.seats.count() else None
    return match, seat, is_gm


@login_required
def match_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's encounters; a player with a commander also gets their challenges, the games they sit at and
    the forms to challenge or practise, and a GM the start form of the game chosen with ``?game=`` and who is
    resolving which encounter, redrawn as another game master claims one (the game masters' topic)."""
    campaign, membership = campaign_membership(request, slug)
    members = campaign.memberships.select_related("user")
    form = None
    if can(membership, Action.MANAGE_EVENTS):
        game = request.POST.get("game") or request.GET.get("game")
        form = MatchStartForm(request.POST or None, game=game if game in CARD_GAMES else CARD_GAMES[0],
                              members=members,
                              commanders=campaign.commanders.filter(player__isnull=False).select_related("player"))
        if request.method == "POST" and form.is_valid():
            with refusal_shown(request, ValidationError):
                match = services.match_create(campaign=campaign, game=form.cleaned_data["game"],
                                              seats=form.cleaned_data["seats"], actor=request.user,
                                              title=form.cleaned_data["title"], config=form.cleaned_data["config"])
                messages.success(request, f"{match} has started.")
                return redirect("match-play", slug=slug, match_id=match.pk)
    elif request.method == "POST":
        raise NotAllowed("Only a game master may start a match.")
    matches = campaign.matches.filter(game__in=CARD_GAMES).select_related("claimed_by") \
        .prefetch_related(*SEAT_PREFETCH)
    rows = [(match, selectors.match_stakes(match=match)) for match in matches]
    is_gm = can(membership, Action.MANAGE_EVENTS)
    return render(request, "cardgames/match_list.html", {"campaign": campaign, "rows": rows, "form": form,
                                                         "games": card_game_choices(), "is_gm": is_gm,
                                                         "live_topics": member_topics(membership) if is_gm else "",
                                                         **player_side(campaign, request.user)})


def _table_context(match: Match, seat: int | None, is_gm: bool) -> dict:
    table = selectors.match_table(match=match, seat=seat)
    return {"table": table, "match": match, "seat": seat, "is_gm": is_gm, "game_title": game_title(match.game),
            "seats": list(match.seats.all()), "stakes": selectors.match_stakes(match=match),
            "poll_token": poll_token("match", match.pk)}


@login_required
def match_play(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    match, seat, is_gm = _match_and_seat(request, slug, match_id)
    return render(request, "cardgames/match_play.html", {**_table_context(match, seat, is_gm),
                                                         "settings": selectors.match_settings(match=match)})


@login_required
def match_table(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """The table fragment htmx polls (204 while the version is the one shown, answered by the poll middleware
    from the poll token and one query: see cardgames.apps)."""
    match, seat, is_gm = _match_and_seat(request, slug, match_id)
    if request.GET.get("v") == str(match.version):
        return HttpResponse(status=204)
    name = f"table:{match.pk}:{match.version}:{seat}"  # moves are not audited: the version says the table changed
    stamp = page_version(request, "stamp", match.campaign_id)
    page_depends(request, "stamp", match.campaign_id, version=stamp)
    page_keep(request, "match", match.pk, version=match.version)
    return HttpResponse(fragment(request, campaign_id=match.campaign_id, name=name, template="cardgames/_table.html",
                                 context=lambda: _table_context(match, seat, is_gm), stamp=stamp))


@login_required
@require_POST
def match_act(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    match, seat, is_gm = _match_and_seat(request, slug, match_id)
    if seat is None or selectors.match_seat_for(match=match, user=request.user) != seat:
        raise Http404("You have no seat at this table.")
    refused, status = None, 200
    try:
        action = json.loads(request.POST.get("action", ""))
        version = int(request.POST.get("v", ""))
    except ValueError:
        refused = "That move could not be read: choose one of the buttons."
    else:
        try:
            match = services.match_act(match_id=match.pk, seat=seat, action=action, user=request.user,
                                       expected_version=version)
        except ValidationError as exc:
            refused, status = refusal_sentence(exc), 409 if services.is_stale(exc) else 200
    if request.htmx:  # only the table is redrawn, so the refusal is said inside it, once
        match.refresh_from_db()
        return render(request, "cardgames/_table.html", {**_table_context(match, seat, is_gm), "refused": refused},
                      status=status)
    if refused:
        messages.error(request, refused)
    return redirect("match-play", slug=slug, match_id=match.pk)


@login_required
@require_POST
def match_cancel(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.MANAGE_EVENTS)
    match = get_object_or_404(Match, pk=match_id, campaign=campaign)
    with refusal_shown(request, ValidationError):
        services.match_cancel(match=match, actor=request.user)
        messages.success(request, f"{match} was cancelled.")
    return redirect("match-list", slug=slug)


@login_required
@require_POST
def match_claim(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A GM claims an encounter to resolve it (``release=1``: lets it go), so the others leave it to them; back to
    the match page with ``back=play``, else to the list."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.MANAGE_EVENTS)
    match = get_object_or_404(Match, pk=match_id, campaign=campaign)
    with refusal_shown(request, ValidationError):
        if request.POST.get("release"):
            claims.match_release(match=match, actor=request.user)
            messages.success(request, f"{match} is free for any game master.")
        else:
            claims.match_claim(match=match, actor=request.user)
            messages.success(request, f"You are resolving {match}: the other game masters see it.")
    if request.POST.get("back") == "play":
        return redirect("match-play", slug=slug, match_id=match.pk)
    return redirect("match-list", slug=slug)


@gzip_page  # every step rides along (up to ~1.7 MB of HTML); Django masks the CSRF token per response (BREACH)
@login_required
def match_replay(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Step forward and back through a finished match, as my seat saw it: every step is on the page for
    static/js/replay.js to play in the browser; ``?step=N`` shows step N without JavaScript."""
    match, seat, _ = _match_and_seat(request, slug, match_id)
    if match.status == Match.Status.ACTIVE:
        messages.error(request, "A match can be replayed once it is over.")
        return redirect("match-play", slug=slug, match_id=match.pk)
    return render(request, "cardgames/match_replay.html", {
        "match": match, "seat": seat, **replay_context(match=match, seat=seat, step=request.GET.get("step", "0")),
        "seats": list(match.seats.all()), "game_title": game_title(match.game),
    })
