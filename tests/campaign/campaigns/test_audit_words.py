"""The audit trail in words, naming the real actor (a player, a game master, the event clock, a finished game),
with filters by kind, person, commander and Day; every action the code records has its words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from campaign.campaigns.audit import audit_record
from campaign.campaigns.audit_words import PHRASES
from campaign.economy import ledger
from campaign.map import clock
from tests.campaign.factories import CommanderFactory

pytestmark = pytest.mark.django_db
URL = "/c/river-valley/audit/"
ROOT = Path(__file__).resolve().parents[3]


def test_every_recorded_action_has_its_words():
    written = set()
    for package in ("campaign", "battles", "cardgames"):
        for path in (ROOT / package).rglob("*.py"):
            written |= set(re.findall(r'action="([a-z_]+(?:\.[a-z_]+)+)"', path.read_text()))
    assert written - set(PHRASES) == set()


def test_the_trail_says_who_did_what_in_words(client, gm, player, campaign, event, day):
    amira = CommanderFactory(campaign=campaign, name="Amira", player=player)
    ledger.ledger_grant(commander=amira, amount=50, reason="Prize", actor=gm)
    clock.event_clock_advance(event=event, actor=None)
    client.force_login(gm)
    page = client.get(URL).content.decode()
    assert "gm1 (game master) granted Amira 50 lunari: Prize." in page
    assert "The event clock advanced Spring Muster (River Valley) to hour 1." in page


def test_the_filters_narrow_the_trail(client, gm, player, campaign, event, day):
    amira = CommanderFactory(campaign=campaign, name="Amira", player=player)
    bastian = CommanderFactory(campaign=campaign, name="Bastian")
    ledger.ledger_grant(commander=amira, amount=50, reason="Prize", actor=gm)
    audit_record(campaign=campaign, actor=player, action="upkeep.pledge_morale", target=amira, data={"points": 2})
    clock.event_clock_advance(event=event, actor=None)
    client.force_login(gm)

    def sentences(query: str) -> list[str]:
        response = client.get(f"{URL}?{query}")
        return [re.sub(r"\s+", " ", s).strip() for s in re.findall(r'data-testid="audit-entry"><div>(.*?)</div>',
                                                                   response.content.decode(), re.S)]

    assert sentences("kind=ledger") == ["gm1 (game master) granted Amira 50 lunari: Prize."]
    assert sentences("who=nobody") == ["The event clock advanced Spring Muster (River Valley) to hour 1."]
    assert sentences(f"who={player.pk}") == ["player1 (player) pledged 2 Morale against Amira&#x27;s upkeep."]
    assert sentences(f"commander={bastian.pk}") == []
    assert len(sentences(f"commander={amira.pk}")) == 2
    assert len(sentences(f"day={day.pk}")) >= 3
