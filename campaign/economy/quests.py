"""Quests: "there may be other units that can be recruited by completing certain tasks (quests) ... Upon
completing a unit's quest, someone must still pay a recruitment cost, but this will usually be reduced"
(army-combat.txt, Recruiting).

A quest is done by a character: a game master records it for the commander that character serves (usually
their own), and only that commander may then recruit one unit of the offer, at the quest price. Each unit
recruited uses one completion; the quest must be done again for another.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import Action, membership_for, require
from campaign.locking import lock
from campaign.models import Commander, Event, EventRecruitOffer, QuestCompletion


def quest_unused(*, offer: EventRecruitOffer, commander: Commander | int) -> QuestCompletion | None:
    """The oldest completion of the offer's quest the commander has not yet recruited with."""
    return offer.quest_completions.filter(commander=commander, unit__isnull=True).order_by("pk").first()


def recruit_offers_with_quests(*, event: Event, commander: Commander) -> list[tuple[EventRecruitOffer, int]]:
    """The Event's recruit offers (with their unit types), each with the unused completions of its quest the
    commander holds (0 for an offer not recruited by quest); one query."""
    unused = (QuestCompletion.objects.filter(offer=OuterRef("pk"), commander=commander, unit__isnull=True)
              .order_by().values("offer").annotate(n=Count("pk")).values("n"))
    offers = (EventRecruitOffer.objects.filter(event=event).select_related("unit_type")
              .annotate(quests_unused=Coalesce(Subquery(unused), 0)).order_by("unit_type__name"))  # one Event's
    return [(offer, offer.quests_unused if offer.by_quest else 0) for offer in offers]


@transaction.atomic
def quest_record(*, offer: EventRecruitOffer, commander: Commander, actor: User | None,
                 character: str = "") -> QuestCompletion:
    """A game master records that a character did the offer's quest for `commander` (the character's name
    defaults to the commander's)."""
    offer = lock(EventRecruitOffer.objects).select_related("event__campaign", "unit_type").get(pk=offer.pk)
    if actor is not None:
        require(membership_for(user=actor, campaign=offer.event.campaign_id), Action.ACT_FOR_ANY)
    if not offer.by_quest:
        raise ValidationError(f"{offer.unit_type} is not recruited by quest: there is no quest to record.")
    if commander.campaign_id != offer.event.campaign_id:
        raise ValidationError({"commander": f"{commander} is in another campaign."})
    character = (character or "").strip() or commander.name
    if len(character) > 120:
        raise ValidationError({"character": "Name the character in at most 120 characters."})
    done = QuestCompletion.objects.create(offer=offer, commander=commander, character=character,
                                          recorded_by=actor if actor and actor.pk else None)
    audit_record(campaign=offer.event.campaign, actor=actor, action="quest.record", target=offer,
                 data={"offer": offer.pk, "commander": commander.pk, "character": character, "completion": done.pk})
    return done


@transaction.atomic
def quest_unrecord(*, completion: QuestCompletion, actor: User | None) -> None:
    """A game master takes back a completion recorded by mistake, while no unit was recruited with it."""
    completion = lock(QuestCompletion.objects).select_related("offer__event__campaign", "commander").get(
        pk=completion.pk)
    if actor is not None:
        require(membership_for(user=actor, campaign=completion.offer.event.campaign_id), Action.ACT_FOR_ANY)
    if completion.unit_id is not None:
        raise ValidationError("A unit was recruited with this quest: it stays on record.")
    audit_record(campaign=completion.offer.event.campaign, actor=actor, action="quest.unrecord",
                 target=completion.offer, data={"commander": completion.commander_id,
                                                "character": completion.character})
    completion.delete()
