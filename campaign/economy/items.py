"""Item cards: a game master hands them out, the holder gives them to another commander or destroys them.

A weapon card destroyed for training takes 5 lunari off it (campaign.economy.services.unit_train); the cards
here are the ones a commander holds until then. A destroyed card stays on record, never deleted.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import Action, membership_for, require, require_acting_for
from campaign.locking import lock
from campaign.models import AuditEntry, Commander, Item


@transaction.atomic
def item_add(*, commander: Commander, name: str, kind: str, actor: User | None) -> Item:
    """A game master gives a commander an item card (the card in the player's hand, recorded)."""
    if actor is not None:
        require(membership_for(user=actor, campaign=commander.campaign_id), Action.ACT_FOR_ANY)
    if kind not in Item.Kind.values:
        raise ValidationError({"kind": f"An item is one of: {', '.join(Item.Kind.labels)}."})
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise ValidationError({"name": "Give the item a name of 1 to 120 characters."})
    item = Item.objects.create(commander=commander, name=name, kind=kind)
    audit_record(campaign=commander.campaign, actor=actor, action="item.add", target=item,
                 data={"commander": commander.pk, "kind": kind})
    return item


def _held(item: Item, actor: User | None, what: str) -> Item:
    """The item locked, after checking that the actor acts for its holder and that it still exists."""
    item = lock(Item.objects).select_related("commander").get(pk=item.pk)
    require_acting_for(actor=actor, commander=item.commander, what=f"{what} {item.commander}'s {item.name}")
    return item


@transaction.atomic
def item_give(*, item: Item, to: Commander, actor: User | None) -> Item:
    """The holder hands an item card to another commander of the campaign. A retried give (the card is with
    `to` already) is answered with the card, to whoever may act for the commander who gave it."""
    current = Item.objects.select_related("commander").get(pk=item.pk)
    if current.commander_id == to.pk:
        given = (AuditEntry.objects.filter(campaign_id=to.campaign_id, action="item.give", data__item=item.pk,
                                           data__to=to.pk).order_by("-pk").first())
        giver = Commander.objects.get(pk=given.data["from"]) if given else current.commander
        require_acting_for(actor=actor, commander=giver, what=f"give {giver}'s {current.name}")
        return current
    item = _held(item, actor, "give")
    if item.destroyed_at is not None:
        raise ValidationError(f"{item.name} was destroyed: it cannot be given.")
    if to.campaign_id != item.commander.campaign_id:
        raise ValidationError({"to": f"{to} is in another campaign: give items within {item.commander.campaign}."})
    giver = item.commander
    item.commander = to
    item.save(update_fields=["commander"])
    audit_record(campaign=giver.campaign, actor=actor, action="item.give", target=item,
                 data={"item": item.pk, "from": giver.pk, "to": to.pk})
    return item


@transaction.atomic
def item_destroy(*, item: Item, actor: User | None) -> Item:
    """The holder (or a game master) destroys an item card; a destroyed card stays destroyed (a retry is
    answered with it as it is)."""
    item = _held(item, actor, "destroy")
    if item.destroyed_at is None:
        item.destroyed_at = timezone.now()
        item.save(update_fields=["destroyed_at"])
        audit_record(campaign=item.commander.campaign, actor=actor, action="item.destroy", target=item,
                     data={"commander": item.commander_id})
    return item
