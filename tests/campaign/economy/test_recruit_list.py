"""A game master keeps an Event's recruit list from a page and the API: "Each Event, certain units will be
available for recruitment" (army-combat.txt), by paying or after a quest."""

from __future__ import annotations

import pytest

from campaign.economy import quests
from campaign.models import AuditEntry, EventRecruitOffer, QuestCompletion
from tests.campaign.factories import CommanderFactory, UnitTypeFactory
from tests.helpers import api_for

pytestmark = pytest.mark.django_db
URL = "/c/river-valley/recruiting/"


def test_a_gm_puts_unit_types_on_the_list_changes_and_removes_them(client, gm, event):
    spearmen = UnitTypeFactory(name="Spearmen", strength=2)
    banner = UnitTypeFactory(name="War Banner", strength=None)
    client.force_login(gm)
    assert client.get(URL).status_code == 200
    added = client.post(URL, {"event": event.pk, "action": "set", "unit_type": spearmen.pk}, follow=True)
    assert "Spearmen is on the list, at 30 lunari." in added.content.decode()
    unpriced = client.post(URL, {"event": event.pk, "action": "set", "unit_type": banner.pk}, follow=True)
    assert "War Banner is on the list: it needs a price set by the GMs." in unpriced.content.decode()
    client.post(URL, {"event": event.pk, "action": "set", "unit_type": banner.pk, "gm_price": "40"})
    assert EventRecruitOffer.objects.get(unit_type=banner).gm_price == 40
    quest = client.post(URL, {"event": event.pk, "action": "set", "unit_type": spearmen.pk, "by_quest": "on",
                              "note": "Escort the abbess"}, follow=True)
    assert "Spearmen is on the list by quest, at 24 lunari." in quest.content.decode()
    offer = EventRecruitOffer.objects.get(unit_type=spearmen)
    client.post(URL, {"event": event.pk, "action": "remove", "offer": offer.pk})
    assert not EventRecruitOffer.objects.filter(unit_type=spearmen).exists()
    assert AuditEntry.objects.filter(action="recruit_offer.remove").count() == 1


def test_quests_done_are_listed_and_an_unused_one_taken_back(client, gm, event, campaign):
    knights = UnitTypeFactory(name="Knights", strength=4, quest=True)
    offer = EventRecruitOffer.objects.create(event=event, unit_type=knights, by_quest=True)
    amira = CommanderFactory(campaign=campaign, name="Amira")
    done = quests.quest_record(offer=offer, commander=amira, character="Sir Yusuf", actor=gm)
    client.force_login(gm)
    page = client.get(URL).content.decode()
    assert "Sir Yusuf for Amira · not used yet" in page
    taken = client.post(URL, {"event": event.pk, "action": "unrecord", "completion": done.pk}, follow=True)
    assert "The quest Sir Yusuf did for Knights is taken back." in taken.content.decode()
    assert not QuestCompletion.objects.exists()


def test_players_may_not_keep_the_list(client, player, event):
    client.force_login(player)
    assert client.get(URL).status_code == 403
    assert api_for(player).post("/api/recruit-offers/", {"event": event.pk, "unit_type": UnitTypeFactory().pk},
                                format="json").status_code == 403


def test_the_recruit_list_in_the_api(gm, player, event):
    api = api_for(gm)
    spearmen = UnitTypeFactory(name="Spearmen", strength=2)
    made = api.post("/api/recruit-offers/", {"event": event.pk, "unit_type": spearmen.pk}, format="json")
    assert made.status_code == 201, made.content
    assert (made.json()["price"], made.json()["by_quest"]) == (30, False)
    offer = made.json()["id"]
    changed = api.patch(f"/api/recruit-offers/{offer}/", {"by_quest": True, "note": "Win the joust"},
                        format="json")
    assert (changed.status_code, changed.json()["price"], changed.json()["note"]) == (200, 24, "Win the joust")
    listed = api_for(player).get(f"/api/recruit-offers/?event={event.pk}").json()["results"]
    assert [o["unit_type"] for o in listed] == ["Spearmen"]  # players read the list they recruit from
    assert api.delete(f"/api/recruit-offers/{offer}/").status_code == 204
