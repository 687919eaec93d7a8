"""A game master creates commanders, changes their sheets and who plays them, and reverses ledger entries with a
reason, from the pages and the API, without the Django admin."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign.campaigns.permissions import NotAllowed
from campaign.economy import ledger, services
from campaign.models import AuditEntry, Commander, LedgerTransaction
from tests.campaign.factories import CommanderFactory, EventRecruitOfferFactory, UnitTypeFactory
from tests.helpers import api_for

pytestmark = pytest.mark.django_db


def test_a_gm_creates_a_commander_from_the_page(client, campaign, gm, player):
    client.force_login(gm)
    page = client.get(reverse("commander-list", args=[campaign.slug])).content.decode()
    assert 'data-testid="commander-new"' in page
    response = client.post(reverse("commander-new", args=[campaign.slug]), {
        "name": "Layla", "level": "4", "power": "Tactician", "tactician_choice": "Rogue", "influence": "2",
        "player": player.pk}, follow=True)
    layla = Commander.objects.get(name="Layla")
    assert "Layla joins River Valley, with 6 Morale and an empty purse." in response.content.decode()
    assert (layla.level, layla.power, layla.tactician_choice, layla.influence, layla.player) == (
        4, "Tactician", "Rogue", 2, player)
    assert ledger.ledger_purse_balance(commander=layla) == 0


def test_a_player_neither_creates_nor_edits(client, campaign, player):
    client.force_login(player)
    mine = CommanderFactory(campaign=campaign, name="Mine", player=player)
    assert 'data-testid="commander-new"' not in client.get(reverse("commander-list", args=[campaign.slug])
                                                          ).content.decode()
    response = client.post(reverse("commander-new", args=[campaign.slug]),
                           {"name": "Sneaky", "level": "9", "power": "Cleric", "influence": "0"}, follow=True)
    assert "Only a game master may create commanders." in response.content.decode()
    response = client.post(reverse("commander-edit", args=[campaign.slug, mine.pk]),
                           {"name": "Mine", "level": "20", "power": "Cleric", "influence": "9"}, follow=True)
    assert "Only a game master may change a commander&#x27;s sheet." in response.content.decode()
    mine.refresh_from_db()
    assert mine.level == 2


def test_a_gm_edits_a_sheet_and_hands_the_commander_to_the_game_masters(client, campaign, gm, player):
    amira = CommanderFactory(campaign=campaign, name="Amira", player=player, level=2)
    client.force_login(gm)
    page = client.get(reverse("commander-detail", args=[campaign.slug, amira.pk])).content.decode()
    assert 'data-testid="commander-sheet"' in page
    client.post(reverse("commander-edit", args=[campaign.slug, amira.pk]),
                {"name": "Amira", "level": "6", "power": "Cleric", "influence": "1", "player": ""})
    amira.refresh_from_db()
    assert (amira.level, amira.power, amira.player, amira.starting_morale) == (6, "Cleric", None, 7)
    assert AuditEntry.objects.filter(action="commander.update").exists()
    with pytest.raises(ValidationError, match="Pick one of the twenty commander powers"):
        services.commander_update(commander=amira, power="Wizard", actor=gm)


def test_a_gm_reverses_a_ledger_entry_once_with_a_reason(client, campaign, gm, player):
    amira = CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=100)
    fine = ledger.ledger_fine(commander=amira, amount=30, reason="Late to muster", actor=gm)
    client.force_login(gm)
    page = client.get(reverse("commander-detail", args=[campaign.slug, amira.pk])).content.decode()
    assert f'data-testid="reverse-{fine.pk}"' in page
    url = reverse("ledger-reverse", args=[campaign.slug, amira.pk])
    response = client.post(url, {"transaction": fine.pk, "reason": "She was on time after all"}, follow=True)
    assert "Reversed: Late to muster." in response.content.decode()
    assert ledger.ledger_purse_balance(commander=amira) == 100
    again = client.post(url, {"transaction": fine.pk, "reason": "Twice?"}, follow=True)
    assert f"Transaction #{fine.pk} was already reversed." in again.content.decode()
    assert LedgerTransaction.objects.filter(kind="reversal").count() == 1
    client.force_login(player)
    refused = client.post(url, {"transaction": fine.pk, "reason": "mine"}, follow=True)
    assert "Only a game master may reverse a ledger entry." in refused.content.decode()


def test_commanders_and_reversals_in_the_api(campaign, gm, player):
    api = api_for(gm)
    made = api.post("/api/commanders/", {"campaign": campaign.pk, "name": "Layla", "level": 3, "power": "Scout",
                                         "player": player.username}, format="json")
    assert made.status_code == 201, made.content
    layla = made.json()["id"]
    assert made.json()["player"] == player.username
    patched = api.patch(f"/api/commanders/{layla}/", {"level": 5, "player": None}, format="json")
    assert (patched.status_code, patched.json()["level"], patched.json()["player"]) == (200, 5, None)
    refused = api_for(player).post("/api/commanders/", {"campaign": campaign.pk, "name": "X", "power": "Scout"},
                                   format="json")
    assert refused.status_code == 403
    commander = Commander.objects.get(pk=layla)
    grant = ledger.ledger_grant(commander=commander, amount=50, reason="Prize", actor=gm)
    reversed_ = api.post(f"/api/commanders/{layla}/reverse/", {"transaction": grant.pk, "reason": "Wrong winner"},
                         format="json")
    assert (reversed_.status_code, reversed_.json()["purse_balance"]) == (200, 0)
    assert api.post(f"/api/commanders/{layla}/reverse/", {"transaction": 999999, "reason": "x"},
                    format="json").status_code == 404
    with pytest.raises(NotAllowed):
        services.commander_create(campaign=campaign, name="Y", level=1, power="Scout", actor=player)


def test_a_gm_retires_a_commander_and_brings_them_back(client, campaign, gm, player, event):
    amira = CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=100)
    bastian = CommanderFactory(campaign=campaign, name="Bastian")
    client.force_login(gm)
    url = reverse("commander-retire", args=[campaign.slug, amira.pk])
    response = client.post(url, {"retired": "1"}, follow=True)
    assert "Amira is retired: on record, out of play." in response.content.decode()
    listing = client.get(reverse("commander-list", args=[campaign.slug])).content.decode()
    assert 'data-testid="retired-list"' in listing
    bastian_page = client.get(reverse("commander-detail", args=[campaign.slug, bastian.pk])).content.decode()
    assert f'<option value="{amira.pk}">Amira</option>' not in bastian_page  # not a lending or giving target
    spearmen = UnitTypeFactory(strength=2)
    EventRecruitOfferFactory(event=event, unit_type=spearmen)
    with pytest.raises(ValidationError, match="Amira is retired"):
        services.unit_recruit(commander=Commander.objects.get(pk=amira.pk), unit_type=spearmen, event=event,
                              paid_by=amira, actor=None)
    assert ledger.ledger_purse_balance(commander=amira) == 100  # on record: the purse stays
    back = api_for(gm).post(f"/api/commanders/{amira.pk}/retire/", {"retired": False}, format="json")
    assert (back.status_code, back.json()["retired_at"]) == (200, None)
    assert api_for(player).post(f"/api/commanders/{amira.pk}/retire/", {"retired": True},
                                format="json").status_code == 403


def test_a_commander_in_battle_or_on_the_map_is_not_retired(campaign, gm):
    busy = CommanderFactory(campaign=campaign, name="Busy", in_battle=True)
    with pytest.raises(ValidationError, match="is in a Battle"):
        services.commander_retire(commander=busy, actor=gm)
