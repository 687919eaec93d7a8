"""The commander page's forms for what a commander holds besides lunari: item cards (a GM adds them, the holder
gives or destroys them), units lent to or borrowed from another commander, the wages of the dead, and quests
done for them (a GM records them; each lets them recruit one unit at the quest price).

Thin like the other economy views: find the commander among those the member may act for (else a 404), parse
the form, call the service, show its sentence and return to the commander page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from campaign.economy import donations, items, quests
from campaign.economy.forms import DonateWagesForm, ItemAddForm, OtherCommanderForm
from campaign.economy.views import _back, _commander
from campaign.map import lending
from campaign.models import EventRecruitOffer, Item, Unit
from campaign.web.forms import form_errors_sentence
from campaign.web.refusals import refusal_shown


def _label(unit: Unit) -> str:
    return unit.name or unit.unit_type.name


def _done(request: HttpRequest, commander, anchor: str, act, form=None) -> HttpResponse:
    """Check `form` (if any), run `act` (returns the success sentence) and go back to the commander page; what
    the form or the service refused is shown as an error."""
    if form is not None and not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return _back(commander, anchor)
    with refusal_shown(request):
        messages.success(request, act())
    return _back(commander, anchor)


@login_required
@require_POST
def item_add(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    _, _, commander = _commander(request, slug, commander_id)
    form = ItemAddForm(request.POST)
    return _done(request, commander, "items", lambda: (
        f"{items.item_add(commander=commander, actor=request.user, **form.cleaned_data)} is now {commander}'s."),
        form)


@login_required
@require_POST
def item_give(request: HttpRequest, slug: str, commander_id: int, item_id: int) -> HttpResponse:
    campaign, _, commander = _commander(request, slug, commander_id)
    item = get_object_or_404(Item, pk=item_id, commander__campaign=campaign)  # a retry finds it with its new holder
    form = OtherCommanderForm(request.POST, commander=commander)
    return _done(request, commander, "items", lambda: (
        f"{items.item_give(item=item, to=form.cleaned_data['to'], actor=request.user).name} now belongs to "
        f"{form.cleaned_data['to']}."), form)


@login_required
@require_POST
def item_destroy(request: HttpRequest, slug: str, commander_id: int, item_id: int) -> HttpResponse:
    _, _, commander = _commander(request, slug, commander_id)
    item = get_object_or_404(Item, pk=item_id, commander=commander)
    return _done(request, commander, "items", lambda: (
        f"{items.item_destroy(item=item, actor=request.user).name} is destroyed."))


@login_required
@require_POST
def unit_lend(request: HttpRequest, slug: str, commander_id: int, unit_id: int) -> HttpResponse:
    _, _, commander = _commander(request, slug, commander_id)
    unit = get_object_or_404(Unit.objects.select_related("unit_type"), pk=unit_id, commander=commander)
    form = OtherCommanderForm(request.POST, commander=commander)
    return _done(request, commander, "units", lambda: (
        f"{_label(lending.unit_lend(unit=unit, to=form.cleaned_data['to'], actor=request.user))} is lent to "
        f"{form.cleaned_data['to']}: it waits in their reserve and fights for them without the retinue bonus."), form)


@login_required
@require_POST
def unit_recall(request: HttpRequest, slug: str, commander_id: int, unit_id: int) -> HttpResponse:
    """The owner recalls a lent unit, or the borrower returns it: either commander's page posts here."""
    _, _, commander = _commander(request, slug, commander_id)
    unit = get_object_or_404(Unit.objects.select_related("unit_type", "commander"),
                             Q(commander=commander) | Q(lent_to=commander), pk=unit_id)
    return _done(request, commander, "units", lambda: (
        f"{_label(lending.unit_recall(unit=unit, actor=request.user))} is back in {unit.commander}'s reserve."))


@login_required
@require_POST
def unit_donate(request: HttpRequest, slug: str, commander_id: int, unit_id: int) -> HttpResponse:
    _, _, commander = _commander(request, slug, commander_id)
    unit = get_object_or_404(Unit.objects.select_related("unit_type"), pk=unit_id, commander=commander)
    form = DonateWagesForm(request.POST)
    return _done(request, commander, "fallen", lambda: (
        f"Donated: {donations.unit_donate_wages(unit=unit, actor=request.user, **form.cleaned_data).reason}."), form)


@login_required
@require_POST
def quest_record(request: HttpRequest, slug: str, commander_id: int, offer_id: int) -> HttpResponse:
    """A game master records that a character did the offer's quest for this commander."""
    campaign, _, commander = _commander(request, slug, commander_id)
    offer = get_object_or_404(EventRecruitOffer.objects.select_related("unit_type"), pk=offer_id,
                              event__campaign=campaign)
    character = request.POST.get("character", "")

    def record() -> str:
        done = quests.quest_record(offer=offer, commander=commander, character=character, actor=request.user)
        return f"{done.character} did the quest for {offer.unit_type}: {commander} may recruit one at the quest price."
    return _done(request, commander, "recruit", record)
