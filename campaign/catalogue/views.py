"""The unit catalogue page: every unit type a campaign sees, for its members; game masters add and edit types
and upload artwork. Saves go through services.unit_type_save (and so campaign.catalogue.entries' checks);
the artwork through Pillow in campaign.catalogue.artwork. Editing a default type makes the campaign's own
version of it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from campaign.campaigns.permissions import Action, can, require
from campaign.campaigns.views import campaign_membership
from campaign.catalogue import selectors, services
from campaign.catalogue.entries import catalogue_load_file
from campaign.catalogue.forms import ArtworkForm, UnitTypeForm
from campaign.models import Campaign, UnitType
from campaign.web.media_files import private_file_response
from campaign.web.refusals import refusal_shown


def unit_type_seen_or_404(*, campaign: Campaign, unit_type_id: int) -> UnitType:
    """A type the campaign sees (its own, or a default it has not replaced), else a 404."""
    return get_object_or_404(selectors.unit_types_for_campaign(campaign=campaign), pk=unit_type_id)


def _names(campaign: Campaign) -> list[str]:
    return list(selectors.unit_types_for_campaign(campaign=campaign).values_list("name", flat=True))


@login_required
def catalogue_page(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    return render(request, "campaign/catalogue.html", {
        "campaign": campaign, "unit_types": selectors.unit_types_for_campaign(campaign=campaign),
        "may_edit": can(membership, Action.EDIT_CAMPAIGN), "artwork_form": ArtworkForm(),
    })


@login_required
@require_POST
def catalogue_load_defaults(request: HttpRequest, slug: str) -> HttpResponse:
    """Load the unit catalogue Muster ships with (campaign/catalogue/data) as the shared defaults: a new server
    starts with an empty catalogue. Loading again adds new types and updates changed ones; a campaign's own
    versions are untouched."""
    _, membership = campaign_membership(request, slug)
    require(membership, Action.EDIT_CAMPAIGN)
    result = catalogue_load_file(actor=request.user)
    messages.success(request, f"The default catalogue is loaded: {len(result.created)} new, "
                              f"{len(result.updated)} updated, {len(result.unchanged)} unchanged.")
    return redirect("catalogue", slug)


def _save(request: HttpRequest, campaign: Campaign, unit_type: UnitType | None) -> HttpResponse:
    names = [n for n in _names(campaign) if unit_type is None or n != unit_type.name]
    if request.method == "POST":
        form = UnitTypeForm(request.POST, names=names)
        if form.is_valid():
            try:
                saved = services.unit_type_save(campaign=campaign, entry=form.entry(), unit_type=unit_type,
                                                actor=request.user)
            except ValidationError as exc:
                if hasattr(exc, "error_dict"):
                    for field, errors in exc.error_dict.items():
                        form.add_error(field if field in form.fields else None, errors)
                else:
                    form.add_error(None, exc)
            else:
                replaced = unit_type is not None and unit_type.campaign_id is None
                done = (f"Saved {saved}: {campaign} now uses its own version instead of the default."
                        if replaced else f"Saved {saved}.")
                messages.success(request, done)
                response = redirect("catalogue", slug=campaign.slug)
                response["Location"] += f"#type-{saved.pk}"
                return response
    else:
        form = UnitTypeForm(initial=UnitTypeForm.initial_of(unit_type) if unit_type else None, names=names)
    return render(request, "campaign/catalogue_form.html", {"campaign": campaign, "form": form,
                                                            "unit_type": unit_type})


@login_required
def unit_type_add(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.EDIT_CAMPAIGN)
    return _save(request, campaign, None)


@login_required
def unit_type_edit(request: HttpRequest, slug: str, unit_type_id: int) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.EDIT_CAMPAIGN)
    return _save(request, campaign, unit_type_seen_or_404(campaign=campaign, unit_type_id=unit_type_id))


@login_required
@require_POST
def unit_type_delete(request: HttpRequest, slug: str, unit_type_id: int) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.EDIT_CAMPAIGN)
    unit_type = unit_type_seen_or_404(campaign=campaign, unit_type_id=unit_type_id)
    with refusal_shown(request, ValidationError):
        name = services.unit_type_delete(campaign=campaign, unit_type=unit_type, actor=request.user)
        messages.success(request, f"Deleted {name} from {campaign}'s catalogue.")
        return redirect("catalogue", slug=campaign.slug)
    return redirect("unit-type-edit", slug=campaign.slug, unit_type_id=unit_type.pk)


@login_required
@require_POST
def unit_type_artwork(request: HttpRequest, slug: str, unit_type_id: int) -> HttpResponse:
    """Upload artwork; for a default type this makes the campaign's own version (other campaigns keep theirs)."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.EDIT_CAMPAIGN)
    unit_type = unit_type_seen_or_404(campaign=campaign, unit_type_id=unit_type_id)
    form = ArtworkForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, "Choose an image to upload: a PNG, JPEG, WebP or GIF of at most 5 MB.")
    else:
        try:
            unit_type = services.unit_type_set_campaign_artwork(campaign=campaign, unit_type=unit_type,
                                                                upload=form.cleaned_data["artwork"],
                                                                actor=request.user)
        except ValidationError as exc:
            messages.error(request, f"{unit_type}: {' '.join(exc.messages)}")
        else:
            messages.success(request, f"New artwork for {unit_type}.")
    response = redirect("catalogue", slug=campaign.slug)
    response["Location"] += f"#type-{unit_type.pk}"
    return response


def unit_type_picture_response(unit_type: UnitType, size: str) -> FileResponse:
    """The artwork file (size "thumbnail": the thumbnail) of a type the asker may see, or a 404."""
    image = unit_type.artwork_thumbnail if size == "thumbnail" else unit_type.artwork
    return private_file_response(image, missing="This unit type has no artwork.")


@login_required
def unit_type_picture(request: HttpRequest, slug: str, unit_type_id: int, size: str = "full") -> FileResponse:
    """A type's artwork (or its thumbnail) for the campaign's members: media are not public files."""
    campaign, _ = campaign_membership(request, slug)
    return unit_type_picture_response(unit_type_seen_or_404(campaign=campaign, unit_type_id=unit_type_id), size)
