"""The chronicle's pages (a campaign's, a commander's) and each user's Atom feed of it. What each shows is what
campaign.campaigns.chronicle lets that member read; the feed's address carries the user's secret token, since a
feed reader cannot sign in."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.syndication.views import Feed
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from campaign.campaigns import chronicle, services
from campaign.campaigns.fragments import fragment
from campaign.campaigns.permissions import may_act_for
from campaign.campaigns.views import campaign_membership
from campaign.models import Commander, FeedToken, Membership
from campaign.web.numbers import parse_id

CHRONICLE_ROWS = 50


@login_required
def chronicle_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's chronicle, newest first, narrowed by kind and Day (``?kind=&day=``)."""
    _, membership = campaign_membership(request, slug)
    return _render(request, membership, commander=None)


@login_required
def commander_chronicle(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    """One commander's chronicle: what concerns them, for whoever may open their page (a GM, their player)."""
    campaign, membership = campaign_membership(request, slug)
    commander = get_object_or_404(Commander, pk=commander_id, campaign=campaign)
    if not may_act_for(membership, commander.player_id):
        raise Http404("No such commander.")
    return _render(request, membership, commander=commander)


def _render(request: HttpRequest, membership: Membership, commander: Commander | None) -> HttpResponse:
    """The chronicle page; its entries are built from every source once per viewer and change of the campaign
    (campaign.campaigns.fragments), not on every request: at 10,000 items building them is the page's cost."""
    campaign, get = membership.campaign, request.GET
    days = chronicle.campaign_days(campaign_id=campaign.pk)
    day_id = parse_id(get.get("day"))
    filters = chronicle.ChronicleFilters(kind=get.get("kind", "") if get.get("kind") in chronicle.KINDS else "",
                                         day=next((d for d in days if d.pk == day_id), None), commander=commander)
    query = urlencode({key: get[key] for key in ("kind", "day") if get.get(key)})

    def entries() -> dict:
        lines = chronicle.chronicle_for(membership=membership, filters=filters, days=days)
        return {"page": Paginator(lines, CHRONICLE_ROWS).get_page(get.get("page")), "query": query}

    name = (f"chronicle:{commander.pk if commander else ''}:{filters.kind}:{filters.day.pk if filters.day else ''}"
            f":{get.get('page', '')}")
    feed = FeedToken.objects.filter(user=request.user).first()
    feed_url = request.build_absolute_uri(reverse("chronicle-feed", args=(campaign.slug, feed.token))) if feed else ""
    return render(request, "campaign/chronicle.html", {
        "campaign": campaign, "commander": commander, "filters": filters, "kinds": chronicle.KINDS,
        "days": days[::-1], "feed": feed, "feed_url": feed_url,
        "entries": fragment(request, campaign_id=campaign.pk, name=name, template="campaign/_chronicle_entries.html",
                            context=entries),
    })


@login_required
@require_POST
def feed_link_reset(request: HttpRequest, slug: str) -> HttpResponse:
    """Make my feed address, or a new one in place of the old (which stops answering). The form sends the token it
    showed, so a retried request changes nothing the second time."""
    campaign, _ = campaign_membership(request, slug)
    services.feed_token_reset(user=request.user, current=request.POST.get("current", ""))
    return redirect(reverse("chronicle", args=(campaign.slug,)) + "#feed")


class ChronicleFeed(Feed):
    """A user's chronicle of one campaign as an Atom feed: the newest items that user may read, found by the
    secret token in the address (a wrong or reset token: 404, as for a campaign one is not in)."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, slug: str, token: str) -> Membership:
        feed = FeedToken.objects.filter(token=token).only("user_id").first()
        membership = (Membership.objects.select_related("campaign", "user")
                      .filter(user_id=feed.user_id, campaign__slug=slug).first() if feed else None)
        if membership is None:
            raise Http404("No such feed.")
        return membership

    def title(self, obj: Membership) -> str:
        return f"{obj.campaign.name}: the chronicle"

    def subtitle(self, obj: Membership) -> str:
        return f"What {obj.user.get_username()} may know of {obj.campaign.name}, newest first."

    def link(self, obj: Membership) -> str:
        return reverse("chronicle", args=(obj.campaign.slug,))

    def items(self, obj: Membership) -> list[chronicle.ChronicleLine]:
        return chronicle.chronicle_for(membership=obj, filters=chronicle.ChronicleFilters(), limit=chronicle.FEED_ITEMS)

    def item_title(self, item: chronicle.ChronicleLine) -> str:
        return item.told.words

    def item_description(self, item: chronicle.ChronicleLine) -> str:
        return f"{item.day or 'Between Days'}: {item.told.words}"

    def item_link(self, item: chronicle.ChronicleLine) -> str:
        return item.href

    def item_guid(self, item: chronicle.ChronicleLine) -> str:
        return f"muster-chronicle:{item.key}"

    item_guid_is_permalink = False

    def item_pubdate(self, item: chronicle.ChronicleLine):
        return item.at

    def item_updateddate(self, item: chronicle.ChronicleLine):
        return item.at

    def item_categories(self, item: chronicle.ChronicleLine) -> list[str]:
        return [item.kind]
