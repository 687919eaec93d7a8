"""The chronicle: what happened in a campaign, in plain words, newest first, and who may know each thing.

Every item is built from the records (campaign.campaigns.chronicle_sources) as a ChronicleEntry naming the
commanders it concerns, with its words in full and, when every member may know of it, its public words.
`entry_told` is the one rule of who reads what, and the pages and the feed both read through `chronicle_for`:

- a game master reads everything in full;
- a player reads in full what concerns one of their own commanders (campaign.map.selectors.own_commander_ids,
  the fog of war's own rule): their armies' moves and captures, their units, their lunari;
- of the rest, only the public words: Battles and encounters (fought in the open: any member may open them), a
  location passing to a new holder (every map shows who holds each location), never which army took it. Another
  commander's army arriving anywhere, their units, purse, grants, fines and funding stay unsaid.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from django.urls import reverse

from campaign.campaigns import chronicle_sources
from campaign.campaigns.chronicle_sources import ChronicleEntry, Told
from campaign.map.selectors import own_commander_ids
from campaign.models import Commander, Day, Membership

KINDS = chronicle_sources.KINDS
FEED_ITEMS = 50
"""A feed carries the newest fifty items: feed readers keep what they have already fetched."""


@dataclass(frozen=True, slots=True)
class Viewer:
    is_gm: bool
    own: frozenset[int]


def viewer_for(*, membership: Membership) -> Viewer:
    if membership.is_gm:
        return Viewer(is_gm=True, own=frozenset())
    return Viewer(is_gm=False, own=frozenset(own_commander_ids(membership=membership)))


def entry_told(entry: ChronicleEntry, viewer: Viewer) -> Told | None:
    """What this viewer may read of the entry (see the module's docstring), or None: nothing at all. A link to a
    commander's page is kept only for those who may open that page (a GM, or that commander's player)."""
    if viewer.is_gm:
        return entry.full
    told = entry.full if entry.commanders & viewer.own else entry.public
    if told is not None and told.page_of is not None and told.page_of not in viewer.own:
        return replace(told, link="", link_label="")
    return told


@dataclass(frozen=True, slots=True)
class ChronicleLine:
    """One entry as one viewer reads it, with the Day it happened on (None: between Days)."""

    key: str
    kind: str
    at: datetime
    day: Day | None
    told: Told
    href: str

    @property
    def anchor(self) -> str:
        return anchor_of(self.key)


def anchor_of(key: str) -> str:
    """The id of an item's row on the chronicle page (a feed item with no link of its own points there)."""
    return key.replace(":", "-")


@dataclass(frozen=True)
class ChronicleFilters:
    """What a page narrows the chronicle to: one kind (a key of KINDS), one Day, one commander's items."""

    kind: str = ""
    day: Day | None = None
    commander: Commander | None = None


def campaign_days(*, campaign_id: int) -> list[Day]:
    return list(Day.objects.filter(event__campaign_id=campaign_id).select_related("event").order_by("opened_at", "id"))


def _day_finder(days: list[Day]) -> Callable[[datetime], Day | None]:
    """The Day a moment falls in: the last opened before it, unless that Day had closed by then."""
    opened = [day.opened_at for day in days]

    def day_of(at: datetime) -> Day | None:
        index = bisect.bisect_right(opened, at) - 1
        if index < 0:
            return None
        day = days[index]
        return day if day.closed_at is None or at <= day.closed_at else None
    return day_of


def chronicle_for(*, membership: Membership, filters: ChronicleFilters, limit: int | None = None,
                  days: list[Day] | None = None) -> list[ChronicleLine]:
    """What the member may read of the campaign's chronicle, newest first, narrowed by kind, Day and commander
    (`days`: the campaign's, as campaign_days gives them, when the caller has them already). The number of queries
    does not grow with the number of entries (one or two per kind of record)."""
    campaign = membership.campaign
    viewer = viewer_for(membership=membership)
    days = campaign_days(campaign_id=campaign.pk) if days is None else days
    day_of = _day_finder(days)
    since = filters.day.opened_at if filters.day else None
    until = filters.day.closed_at if filters.day else None
    kinds = [filters.kind] if filters.kind else list(KINDS)
    entries = chronicle_sources.chronicle_entries(campaign=campaign, kinds=kinds, since=since, until=until)
    page = reverse("chronicle", args=(campaign.slug,))
    lines = []
    for entry in sorted(entries, key=lambda e: (e.at, e.key), reverse=True):
        if filters.commander is not None and filters.commander.pk not in entry.commanders:
            continue
        told = entry_told(entry, viewer)
        if told is None:
            continue
        lines.append(ChronicleLine(key=entry.key, kind=entry.kind, at=entry.at, day=day_of(entry.at), told=told,
                                   href=told.link or f"{page}#{anchor_of(entry.key)}"))
        if limit is not None and len(lines) >= limit:
            break
    return lines
