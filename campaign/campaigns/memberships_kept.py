"""A user's memberships, each with its campaign, kept in the shared cache (Redis): every campaign page asks for
the viewer's (permissions.membership_by_slug_or_404), so a page drawn after a change costs one query less.

A user's memberships are dropped once a change to any of them, or to a campaign the user belongs to, commits
(memberships_kept_connect's signals: a role changed, a player removed, a campaign renamed or archived), and are
kept at most KEEP_SECONDS, which bounds a copy written by a request racing such a change (or left behind by a
drop Redis did not answer). Only memberships found are kept: a refusal is read anew every time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.core.cache import caches
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from campaign.models import Campaign, Membership

KEEP_SECONDS = 5 * 60


def _key(user_id: int) -> str:
    return f"memberships:{user_id}"


def membership_kept(user_id: int, slug: str, read: Callable[[], Membership | None]) -> Membership | None:
    """The user's membership of the campaign with this slug: the kept one, else `read()` (and kept if found)."""
    cache = caches["shared"]
    kept = cache.get(_key(user_id)) or {}
    if slug in kept:
        return kept[slug]
    membership = read()
    if membership is not None:
        cache.set(_key(user_id), {**kept, slug: membership}, timeout=KEEP_SECONDS)
    return membership


def memberships_forget(user_ids: Iterable[int]) -> None:
    """Drops these users' kept memberships now (the rest of this request reads them anew) and again once the
    change being made commits (a request that read them before the commit may have kept them since)."""
    keys = [_key(user_id) for user_id in user_ids]
    caches["shared"].delete_many(keys)
    transaction.on_commit(lambda: caches["shared"].delete_many(keys))


def _membership_changed(instance: Membership, **kwargs) -> None:
    memberships_forget([instance.user_id])


def _campaign_changed(instance: Campaign, **kwargs) -> None:
    memberships_forget(Membership.objects.filter(campaign_id=instance.pk).values_list("user_id", flat=True))


def memberships_kept_connect() -> None:
    """Connects the drops to every saved or deleted membership and campaign (a campaign's deletion deletes its
    memberships one by one, each dropping its user's)."""
    for sender, changed in ((Membership, _membership_changed), (Campaign, _campaign_changed)):
        for signal in (post_save, post_delete):
            signal.connect(changed, sender=sender, weak=False,
                           dispatch_uid=f"campaign.memberships_kept.{sender.__name__}.{signal is post_save}")
