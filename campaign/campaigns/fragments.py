"""Page fragments remembered until the campaign changes: the expensive body of a page is rendered once per
viewer and change stamp, then served from the cache while nothing in the campaign has changed.

The key holds the viewer's session key (so the CSRF tokens inside the fragment stay the session's own and
no viewer is ever served another's page) and the campaign's change stamp, read before the fragment is
built (so a change made while it renders makes the next request build it again). What a fragment may not
hold: anything that changes without a change to the campaign (the time of day, messages, the query
string); those stay in the page around it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from campaign.campaigns.selectors import campaign_change_stamp
from campaign.web.page_cache import page_keep, page_version

TTL_SECONDS = 60 * 60
"""How long an unchanged campaign's fragment is kept: an hour bounds the memory of idle viewers' pages."""


def fragment(request: HttpRequest, *, campaign_id: int, name: str, template: str,
             context: Callable[[], dict], stamp: str | None = None) -> SafeString:
    """The fragment `name` of this viewer's page: remembered, or `template` rendered with `context()` (called
    only then) and remembered. `name` must say everything else the fragment depends on (ids, versions).
    `stamp` is the campaign's change stamp when the caller has just read it."""
    def build() -> str:
        return render_to_string(template, context(), request=request)

    session_key = request.session.session_key
    if not session_key:
        return mark_safe(build())  # noqa: S308 (a template Django rendered and escaped)
    key = f"fragment:{name}:{session_key}:{stamp or campaign_change_stamp(campaign_id=campaign_id)}"
    html = cache.get(key)
    if html is None:
        html = build()
        cache.set(key, html, TTL_SECONDS)
    return mark_safe(html)  # noqa: S308 (as above, remembered)


def remembered_page(request: HttpRequest, *, campaign_id: int, name: str, title: str, template: str,
                    context: Callable[[], dict], live_topics: str | Callable[[], str] = "") -> HttpResponse:
    """A whole page whose body (`template`, which does not extend base.html) is a remembered fragment; the
    navigation and messages around it are drawn fresh. The whole page is remembered too (campaign.web.page_cache)
    until the campaign changes.

    With `live_topics` the body redraws itself: on a socket message for one of them (campaign.live), or by a
    poll while there is no socket. Either asks with ``?since=<stamp>`` and is answered 204 from the change stamp
    while the campaign has not changed (no body is built or read). `live_topics` may be a function, called once
    the body is drawn (so it may use what drawing it read)."""
    stamp = page_version(request, "stamp", campaign_id)
    if live_topics and request.headers.get("HX-Request") and request.GET.get("since") == stamp:
        return HttpResponse(status=204)
    page_keep(request, "stamp", campaign_id, version=stamp)
    body = fragment(request, campaign_id=campaign_id, name=name, template=template, context=context, stamp=stamp)
    topics = live_topics() if callable(live_topics) else live_topics
    return render(request, "remembered_page.html", {"title": title, "body": body, "live_topics": topics,
                                                    "since": stamp})
