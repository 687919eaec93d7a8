"""The game masters' pages for taking a campaign out and bringing one in: download its export, import an export
(the server's staff only: an import names people by user name), start a new season, archive or unarchive.
Thin like every page: check the role, call the service, show its sentence, redirect."""

from __future__ import annotations

import tempfile

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from campaign.campaigns import services as campaigns_services
from campaign.campaigns.permissions import Action, NotAllowed, require
from campaign.campaigns.views import campaign_membership
from campaign.transfer.export import campaign_export
from campaign.transfer.forms import ImportForm, NewSeasonForm
from campaign.transfer.import_ import campaign_import
from campaign.transfer.seasons import campaign_new_season
from campaign.web.forms import form_errors_sentence
from campaign.web.refusals import refusal_shown


@login_required
@require_POST
def export_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's export as a download (a POST: it is recorded in the audit trail), written to a temporary file
    and sent from it, so a campaign with many pictures is never held in memory whole."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.EXPORT_CAMPAIGN)
    zipped = tempfile.TemporaryFile()  # noqa: SIM115 (FileResponse closes it once sent)
    campaign_export(campaign=campaign, actor=request.user, into=zipped)
    zipped.seek(0)
    return FileResponse(zipped, as_attachment=True, content_type="application/zip",
                        filename=f"{campaign.slug}-{timezone.now():%Y-%m-%d}.zip")


@login_required
@require_POST
def archive(request: HttpRequest, slug: str) -> HttpResponse:
    """Archive (archived=1) or unarchive (archived=0): the state asked for, so a repeated tap changes nothing."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.ARCHIVE_CAMPAIGN)
    archived = request.POST.get("archived") == "1"
    campaigns_services.campaign_set_archived(campaign=campaign, archived=archived, actor=request.user)
    messages.success(request, f"{campaign} is archived: read only, and off the home page (under “Archived”)."
                     if archived else f"{campaign} is back in play.")
    return redirect("campaign-detail", campaign.slug)


@login_required
@require_http_methods(["GET", "POST"])
def new_season(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.START_NEW_SEASON)
    form = NewSeasonForm(request.POST or None, initial={"name": f"{campaign.name}, next season"})
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, form_errors_sentence(form))
        else:
            with refusal_shown(request, ValidationError):
                season = campaign_new_season(source=campaign, actor=request.user, **form.cleaned_data)
                messages.success(request, f"{season} starts from {campaign}: add its first Event to begin.")
                return redirect("campaign-detail", season.slug)
    return render(request, "campaign/transfer/new_season.html", {"campaign": campaign, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def import_page(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise NotAllowed("Only the server's staff may import a campaign (an import names people by user name): "
                         "ask your server's administrator.")
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, form_errors_sentence(form))
        else:
            with refusal_shown(request, ValidationError):
                campaign = campaign_import(upload=form.cleaned_data["export"], actor=request.user, join_as_gm=True)
                messages.success(request, f"{campaign} is imported with its history, members and pictures.")
                return redirect("campaign-detail", campaign.slug)
    return render(request, "campaign/transfer/import.html", {"form": form})
