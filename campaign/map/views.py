"""Map pages: the interactive map (a page whose script, static/js/tactical_map.js, draws the JSON of
`map_data_view`; fog of war applied by campaign.map.selectors; orders go through the move-orders API), the SVG
the GM's map editor shows, and the editor itself.

Thin: parse the form, check the role, call a service, show its sentence as a message.
"""

from __future__ import annotations

import hashlib
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST

from campaign.campaigns.permissions import Action, require
from campaign.campaigns.selectors import campaign_change_stamp
from campaign.campaigns.views import campaign_membership
from campaign.live.topics import member_topics
from campaign.map import armies, map_at_hour, map_data, map_print, orders, selectors, services
from campaign.models import Army, Base, Commander, Location, MoveOrder, Reveal, TerrainRegion
from campaign.web.installable import mark_owner
from campaign.web.media_files import private_file_response
from campaign.web.numbers import parse_id
from campaign.web.page_cache import page_keep, page_version
from campaign.web.poll_tokens import MAX_AGE_SECONDS, poll_token
from campaign.web.refusals import refusal_sentence, refusal_shown


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except ValueError:
        return None


def _map_or_404(campaign):
    tactical_map = selectors.tactical_map_for(campaign=campaign)
    if tactical_map is None:
        raise Http404("This campaign has no map yet.")
    return tactical_map


def _own_orders(view: selectors.MapView) -> list[selectors.ArmyMarker]:
    return [a for a in view.armies if a.own and a.order_id]


def _version_key(kind: str, tactical_map_id: int, user_id: int, stamp: str) -> str:
    """Where the version of one viewer's `kind` of map ("map": the SVG, "map-data": the JSON) is remembered."""
    return f"{kind}-version:{tactical_map_id}:{user_id}:{stamp}"


def _svg(request: HttpRequest, tactical_map, membership) -> tuple[selectors.MapView, str, str]:
    """What the member may see of the map, its SVG and its version (a hash of what this viewer sees, so a poll
    learns nothing else: the layers, the hour, the viewer's orders under way and Battles due). The version is
    remembered under the campaign's change stamp, read before the view is built, so that an unchanged poll
    can be answered without building it."""
    stamp = campaign_change_stamp(campaign_id=tactical_map.campaign_id)
    view = selectors.map_view(tactical_map=tactical_map, membership=membership)
    layers = render_to_string("campaign/map/_layers.html", {"view": view}, request=request)
    status = (view.event.pk, view.event.status) if view.event else None
    seen = [layers, status, view.hour, [(a.order_id, a.order_kind, a.arrival_hour) for a in _own_orders(view)],
            [(b["id"], b["hour"]) for b in view.due_battles]]
    version = hashlib.sha256(repr(seen).encode()).hexdigest()[:16]
    cache.set(_version_key("map", tactical_map.pk, request.user.pk, stamp), version, MAX_AGE_SECONDS)
    svg = render_to_string("campaign/map/_svg.html", {
        "view": view, "layers": mark_safe(layers), "version": version,  # noqa: S308
        "poll_token": poll_token("map", tactical_map.campaign_id, tactical_map.pk, request.user.pk),
        "live_topics": member_topics(membership),
    }, request=request)
    return view, svg, version


def remembered_version(subject: list) -> str | None:
    """The version of one viewer's map ("map" or "map-data", from a poll token's subject) remembered under the
    campaign's current change stamp (one query; None when the campaign changed since: the view decides)."""
    if len(subject) != 4:
        return None
    kind, campaign_id, tactical_map_id, user_id = subject
    stamp = campaign_change_stamp(campaign_id=campaign_id)
    return cache.get(_version_key(kind, tactical_map_id, user_id, stamp))


@login_required
def map_page(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    tactical_map = selectors.tactical_map_for(campaign=campaign)
    if tactical_map is None:
        if membership.is_gm and campaign.archived_at is None:  # an archived campaign's editor refuses writes
            return redirect("map-edit", slug)
        return render(request, "campaign/map/no_map.html", {"campaign": campaign})
    # The page holds the hours and controls; its script draws the map from map_data_view.
    page_keep(request, "stamp", campaign.pk, version=page_version(request, "stamp", campaign.pk))
    return render(request, "campaign/map/map.html", {
        "campaign": campaign, "is_gm": membership.is_gm, "live_topics": member_topics(membership),
        "hours": map_at_hour.hours_offered(tactical_map=tactical_map, membership=membership)})


@login_required
def map_export(request: HttpRequest, slug: str, pdf: bool = False) -> HttpResponse:
    """The map at an hour (``?hour=N``; none: the current hour) printed for a member, as a PNG or an A4 PDF: what
    they may see then (campaign.map.map_at_hour, drawn by campaign.map.map_print). An hour that cannot be drawn
    answers 400 with the sentence saying why, above the form to pick another."""
    campaign, membership = campaign_membership(request, slug)
    tactical_map = _map_or_404(campaign)
    try:
        body, content_type, name = map_print.map_export(
            tactical_map=tactical_map, membership=membership, pdf=pdf,
            hour=map_at_hour.hour_parse(request.GET.get("hour")))
    except ValidationError as exc:
        return render(request, "campaign/map/export_refused.html", {
            "campaign": campaign, "refusal": refusal_sentence(exc), "asked": request.GET.get("hour", ""),
            "hours": map_at_hour.hours_offered(tactical_map=tactical_map, membership=membership)}, status=400)
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-cache"
    return response


@gzip_page
@login_required
def map_data_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The map as JSON (campaign.map.map_data) for the page's script, with its version ``v`` and poll token ``t``.
    Polled with both: 204 while this viewer's data is unchanged (answered by the poll middleware from the token
    and one query when nothing in the campaign changed); else only the changes since the version polled (or
    everything, "map", when that version is no longer remembered). Gzipped (it is large at thousands of armies);
    BREACH does not apply, as the response echoes nothing from the request and holds no CSRF token."""
    campaign, membership = campaign_membership(request, slug)
    tactical_map = _map_or_404(campaign)
    stamp = campaign_change_stamp(campaign_id=campaign.pk)
    view = selectors.map_view(tactical_map=tactical_map, membership=membership)
    fields, version = map_data.map_data_since(data=map_data.map_data(view=view, membership=membership),
                                              viewer=(tactical_map.pk, request.user.pk), seen=request.GET.get("v"))
    cache.set(_version_key("map-data", tactical_map.pk, request.user.pk, stamp), version, MAX_AGE_SECONDS)
    if request.GET.get("v") == version:
        return HttpResponse(status=204)
    token = poll_token("map-data", campaign.pk, tactical_map.pk, request.user.pk)
    response = HttpResponse(f'{{"v":"{version}","t":"{token}",{fields}}}', content_type="application/json")
    response["Cache-Control"] = "no-cache"
    return mark_owner(response, request.user.pk)  # the full data (no `v`) is kept offline with the map page


@login_required
def map_svg(request: HttpRequest, slug: str) -> HttpResponse:
    """The SVG htmx polls (204 while the version is the one shown: see remembered_version). With the SVG go the
    hour badge and the orders under way, swapped out of band (hx-swap-oob), so the page around the map keeps up
    too."""
    campaign, membership = campaign_membership(request, slug)
    view, svg, version = _svg(request, _map_or_404(campaign), membership)
    if request.GET.get("v") == version:
        return HttpResponse(status=204)
    context = {"campaign": campaign, "view": view, "is_gm": membership.is_gm, "own_orders": _own_orders(view),
               "oob": True}
    live = render_to_string("campaign/map/_hour.html", context, request=request) + render_to_string(
        "campaign/map/_under_way.html", context, request=request)
    return HttpResponse(svg + live)


@login_required
@require_POST
def order_cancel(request: HttpRequest, slug: str, order_id: int) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    order = get_object_or_404(MoveOrder.objects.select_related("army__commander"), pk=order_id,
                              army__campaign=campaign)
    if not membership.is_gm and order.army.commander.player_id != request.user.pk:
        raise Http404("No such order.")
    with refusal_shown(request, ValidationError):
        orders.move_order_cancel(order=order, actor=request.user)
        messages.success(request, f"{order.army.name}'s order is cancelled: it stays where it stands.")
    return redirect("map", slug)


# --- the GM's editor ----------------------------------------------------------------------------------------


def _points(raw: str) -> list:
    try:
        points = json.loads(raw or "[]")
    except json.JSONDecodeError:
        raise ValidationError("Click at least three corners on the map to draw the terrain.") from None
    return points if isinstance(points, list) else []


def _base_location(post, tactical_map, x: float, y: float) -> Location | None:
    """The location a Base is linked to: the one picked, none ("none"), or the nearest where it stands ("")."""
    picked = post.get("location", "")
    if picked == "none":
        return None
    if picked == "":
        return services.base_location_near(tactical_map=tactical_map, x=x, y=y)
    return get_object_or_404(Location, pk=parse_id(picked) or 0, map=tactical_map)


def _edit_base(action: str, post, tactical_map, x, y, actor) -> str:
    base = get_object_or_404(Base, pk=parse_id(post.get("id")) or 0, map=tactical_map)
    if action == "move-base":
        base = services.base_update(base=base, x=x, y=y, location=_base_location(post, tactical_map, x, y),
                                    actor=actor)
        return f"{base.name} is moved{f' to {base.location.name}' if base.location else ''}."
    if action == "link-base":
        base = services.base_update(base=base, location=_base_location(post, tactical_map, base.x, base.y),
                                    actor=actor)
        return f"{base.name} is linked to {base.location.name}." if base.location else f"{base.name} is unlinked."
    if action == "restore-base":
        services.base_bonus_restore(base=base, actor=actor)
        return f"{base.name}'s Morale bonus is restored: it can be spent again today."
    services.base_delete(base=base, actor=actor)
    return f"{base.name} is removed."


def _edit(request: HttpRequest, campaign, tactical_map) -> str:
    """Apply one editor form; returns the success sentence."""
    post, action, actor = request.POST, request.POST.get("action"), request.user
    x, y = _float(post.get("x")), _float(post.get("y"))
    if action in ("location", "base", "place", "move-base", "move-location") and (x is None or y is None):
        raise ValidationError("Click the map to choose where.")
    if action == "picture":
        if "picture" not in request.FILES:
            raise ValidationError("Choose a picture file to upload.")
        services.tactical_map_set_picture(tactical_map=tactical_map, upload=request.FILES["picture"], actor=actor)
        return "The map picture is uploaded."
    if action == "scale":
        services.tactical_map_set_scale(tactical_map=tactical_map, width_inches=_float(post.get("width_inches")),
                                        height_inches=_float(post.get("height_inches")), actor=actor)
        return "The map's scale is set."
    if action == "region":
        region = services.terrain_region_create(
            tactical_map=tactical_map, name=post.get("name", ""), kind=post.get("kind", ""),
            points=_points(post.get("points", "")), penalty=_float(post.get("penalty")) or 0.0, actor=actor)
        return f"{region.name} is drawn."
    if action == "location":
        holder = Commander.objects.filter(pk=parse_id(post.get("holder")) or 0, campaign=campaign).first()
        location = services.location_create(
            tactical_map=tactical_map, name=post.get("name", ""), size=post.get("size", ""), x=x, y=y, holder=holder,
            capture_threshold=parse_id(post.get("threshold")), actor=actor)
        return f"{location.name} is placed."
    if action == "base":
        base = services.base_create(tactical_map=tactical_map, name=post.get("name", ""), x=x, y=y,
                                    morale_bonus=parse_id(post.get("morale_bonus")) or 0, actor=actor,
                                    location=_base_location(post, tactical_map, x, y))
        return f"{base.name} is placed{f' at {base.location.name}' if base.location else ', linked to no location'}."
    if action in ("move-base", "link-base", "restore-base", "delete-base"):
        return _edit_base(action, post, tactical_map, x, y, actor)
    if action == "place":
        army = get_object_or_404(Army, pk=post.get("army") or 0, campaign=campaign)
        armies.army_place(army=army, tactical_map=tactical_map, x=x, y=y, actor=actor)
        return f"{army.name} is placed."
    if action == "delete-region":
        services.terrain_region_delete(region=get_object_or_404(TerrainRegion, pk=post.get("id") or 0,
                                                                map=tactical_map), actor=actor)
        return "The terrain is removed."
    if action in ("edit-location", "move-location"):
        location = get_object_or_404(Location, pk=parse_id(post.get("id")) or 0, map=tactical_map)
        if action == "move-location":
            services.location_update(location=location, x=x, y=y, actor=actor)
            return f"{location.name} is moved."
        holder = Commander.objects.filter(pk=parse_id(post.get("holder")) or 0, campaign=campaign).first()
        location = services.location_update(location=location, name=post.get("name"), size=post.get("size"),
                                            capture_threshold=parse_id(post.get("threshold")), actor=actor)
        if holder != location.holder:
            services.location_set_holder(location=location, holder=holder, actor=actor)
        return f"{location.name} is saved."
    if action == "delete-location":
        services.location_delete(location=get_object_or_404(Location, pk=post.get("id") or 0, map=tactical_map),
                                 actor=actor)
        return "The location is removed."
    if action == "reveal":
        army = get_object_or_404(Army, pk=post.get("army") or 0, campaign=campaign)
        to = get_object_or_404(Commander, pk=post.get("to_commander") or 0, campaign=campaign)
        services.reveal_create(army=army, to_commander=to, what=post.get("what", ""), actor=actor)
        return f"{to}'s player now sees {army.name}'s {post.get('what')}."
    raise ValidationError("Pick something to do.")


@login_required
def map_edit(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.EDIT_CAMPAIGN)
    tactical_map = services.tactical_map_get_or_create(campaign=campaign, actor=request.user)
    if request.method == "POST":
        with refusal_shown(request, ValidationError):
            messages.success(request, _edit(request, campaign, tactical_map))
        return redirect("map-edit", slug)
    view, svg, _ = _svg(request, tactical_map, membership)
    return render(request, "campaign/map/edit.html", {
        "campaign": campaign, "view": view, "svg": svg, "kinds": TerrainRegion.Kind.choices,
        "sizes": Location.Size.choices, "reveal_kinds": Reveal.What.choices,
        "armies": Army.objects.filter(campaign=campaign).select_related("commander").order_by("name"),
        "commanders": Commander.objects.filter(campaign=campaign).order_by("name"),
    })


@login_required
def map_picture(request: HttpRequest, slug: str, size: str = "full") -> FileResponse:
    """The map picture (size "thumbnail": its thumbnail): every member sees the terrain (fog hides armies only)."""
    campaign, _ = campaign_membership(request, slug)
    tactical_map = selectors.tactical_map_for(campaign=campaign)
    if tactical_map is None:
        raise Http404("This campaign has no map yet.")
    picture = tactical_map.thumbnail if size == "thumbnail" else tactical_map.picture
    return private_file_response(picture, missing="This map has no picture yet.")
