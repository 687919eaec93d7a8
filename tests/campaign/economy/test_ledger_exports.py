"""The ledger as CSV: a commander's purse for their player or a GM, with the balance after each entry; the
whole campaign's ledger for GMs only; both oldest first, each side of every movement, reversals named."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from campaign.economy import ledger
from tests.campaign.factories import CommanderFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def _rows(response) -> list[dict]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


@pytest.fixture
def amira(campaign, player, gm):
    amira = CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=100)
    fine = ledger.ledger_fine(commander=amira, amount=30, reason="Late to muster", actor=gm)
    ledger.ledger_reverse(transaction_to_reverse=fine, reason="She was on time", actor=gm)
    return amira


def test_a_player_downloads_their_commanders_ledger_with_balances(client, player, amira, campaign):
    client.force_login(player)
    rows = _rows(client.get(reverse("commander-ledger-csv", args=[campaign.slug, amira.pk])))
    assert [(r["kind"], r["amount"], r["balance_after"]) for r in rows] == [
        ("grant", "100", "100"), ("fine", "-30", "70"), ("reversal", "30", "100")]
    assert rows[2]["reverses"] == rows[1]["transaction"]
    assert rows[1]["by"] == "gm1"


def test_no_one_downloads_another_commanders_ledger(client, campaign, amira):
    rival = MembershipFactory(campaign=campaign, user=UserFactory(username="rival")).user
    client.force_login(rival)
    assert client.get(reverse("commander-ledger-csv", args=[campaign.slug, amira.pk])).status_code == 404
    assert client.get(reverse("campaign-ledger-csv", args=[campaign.slug])).status_code == 403


def test_a_gm_downloads_the_whole_campaigns_ledger_and_it_balances(client, gm, amira, campaign):
    client.force_login(gm)
    rows = _rows(client.get(reverse("campaign-ledger-csv", args=[campaign.slug])))
    assert len(rows) == 6  # three movements, two sides each
    assert sum(int(r["amount"]) for r in rows) == 0
    assert {r["account"] for r in rows} == {"bank", "purse"}
    assert {r["commander"] for r in rows if r["account"] == "purse"} == {"Amira"}
