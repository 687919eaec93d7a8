"""The commander page drawn cold (nothing remembered, as for the first viewer after any change in the campaign)
reads each table once: its queries do not grow with the commander's units, items, ledger, funding requests,
fallen or borrowed units, nor with the Event's recruit offers (#18)."""

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.economy import donations, funding, quests
from campaign.economy import ledger as economy_ledger
from campaign.economy import services as economy_services
from campaign.map import armies
from campaign.models import Unit
from tests.campaign.factories import (
    ArmyDayActivityFactory,
    ArmyFactory,
    EventRecruitOfferFactory,
    ItemFactory,
    UnitFactory,
    UnitTypeFactory,
)

pytestmark = pytest.mark.django_db

COLD_PAGE_QUERIES = 14
"""The whole request with nothing in any cache: session, user, membership, commander, change stamp and the
header's unread count, then the page's own reads (a player's live topics come from the commanders it reads)."""


def _fill(n: int, *, mine, theirs, event, day, gm) -> None:
    """n of everything the page lists: recruited units (a retinue: recruited, trained and in an army led today),
    weapon cards, ledger lines, a Killed unit and the donation of its wages, a unit borrowed from another
    commander, funding requests and a quest offer done for the commander."""
    economy_ledger.ledger_grant(commander=mine, amount=1000 * n, reason="War chest", actor=gm)
    army = ArmyFactory(commander=mine, name=f"Host {n}")
    ArmyDayActivityFactory(army=army, day=day)
    for i in range(n):
        unit_type = UnitTypeFactory(name=f"Spearmen {n}-{i}", strength=2, traits=["Reach"])
        EventRecruitOfferFactory(event=event, unit_type=unit_type)
        unit = economy_services.unit_recruit(commander=mine, unit_type=unit_type, event=event, paid_by=mine,
                                             actor=gm)
        economy_services.unit_train(unit=unit, event=event, paid_by=mine, actor=gm)
        armies.army_assign_unit(unit=Unit.objects.get(pk=unit.pk), army=army, actor=None)
        ItemFactory(commander=mine, name=f"Scimitar {n}-{i}", kind="weapon")
        dead = UnitFactory(commander=mine, unit_type=unit_type, state=Unit.State.KILLED, strength=2)
        donations.unit_donate_wages(unit=dead, recipient="a Temple", actor=gm)
        UnitFactory(commander=theirs, unit_type=unit_type, lent_to=mine)
        funding.funding_request_create(requester=mine, funder=theirs, amount=5, reason=f"Boots {i}", actor=gm)
        quest = EventRecruitOfferFactory(event=event, unit_type=UnitTypeFactory(name=f"Knights {n}-{i}", strength=4,
                                                                                 quest=True), by_quest=True)
        quests.quest_record(offer=quest, commander=mine, actor=gm)


def _cold_page(client, page: str) -> tuple[str, int]:
    """The page with nothing remembered (no page, no body, no session in any cache), and its queries."""
    for cache in caches.all():
        cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(page)
    assert response.status_code == 200
    return response.content.decode(), len(ctx.captured_queries)


@pytest.mark.parametrize("viewer", ["player", "gm"])
def test_the_cold_commander_page_reads_each_table_once(viewer, request, client, campaign, mine, theirs, event, day,
                                                       gm, django_assert_max_num_queries):
    client.force_login(request.getfixturevalue(viewer))
    page = f"/c/{campaign.slug}/commanders/{mine.pk}/"
    _fill(1, mine=mine, theirs=theirs, event=event, day=day, gm=gm)
    _cold_page(client, page)  # once, for what a process reads only once (content types)
    few, few_queries = _cold_page(client, page)
    _fill(4, mine=mine, theirs=theirs, event=event, day=day, gm=gm)
    with django_assert_max_num_queries(few_queries):
        many, _ = _cold_page(client, page)
    assert few_queries <= COLD_PAGE_QUERIES
    assert few.count('data-testid="unit"') == 1
    assert many.count('data-testid="unit"') == 5
    assert many.count('data-testid="item"') == 5
    assert many.count('data-testid="fallen"') == 5
    assert many.count('data-testid="donated"') == 5
    assert many.count('data-testid="borrowed"') == 5
    assert many.count('data-testid="funding-request"') == 5
    assert many.count("Retinue of Amira") == 5
    assert "done for Amira" in many
    assert 'data-testid="forecast-total">' in many
    if viewer == "player":  # the owner names their retinues, each at its own address
        for unit in Unit.objects.filter(commander=mine, state=Unit.State.IN_ARMY):
            assert f'action="{reverse("unit-name", args=[campaign.slug, mine.pk, unit.pk])}"' in many


def test_each_unit_row_posts_to_its_own_unit(client, campaign, player, mine, theirs, event):
    """The unit rows' addresses are reversed once and the id put in (commander_page._addresses): each form
    still posts to its own unit, a lent unit's to its recall and a unit at home's to its loan."""
    home, lent = UnitFactory(commander=mine), UnitFactory(commander=mine, lent_to=theirs)
    client.force_login(player)
    page = client.get(f"/c/{campaign.slug}/commanders/{mine.pk}/").content.decode()
    for name, unit in (("unit-train", home), ("unit-lend", home), ("unit-recall", lent), ("unit-train", lent)):
        assert f'action="{reverse(name, args=[campaign.slug, mine.pk, unit.pk])}"' in page
    assert reverse("unit-lend", args=[campaign.slug, mine.pk, lent.pk]) not in page
    assert reverse("unit-recall", args=[campaign.slug, mine.pk, home.pk]) not in page
