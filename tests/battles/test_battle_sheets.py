"""The printable battle sheet: only a GM or the two commanders' players print it; a table Battle lists both armies,
a live one only the viewer's own units; a table Battle's QR code opens the result form, a live one's the Battle's
page (the engine keeps its result)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles import services, sheets
from battles.engine.powers import TACTICIAN_CHOICES
from battles.models import Battle
from campaign.map import services as map_services
from campaign.models import Commander
from tests.campaign.factories import MembershipFactory, UserFactory
from tests.campaign.map_fixtures import make_map

pytestmark = pytest.mark.django_db


def url(battle: Battle, name: str = "battle-sheet") -> str:
    return reverse(name, args=[battle.campaign.slug, battle.pk])


def units_listed(page: str) -> set[str]:
    """Which of Ayla's Archers and Brann's Shield Walls the sheet names (both armies bring Spearmen)."""
    return {name for name in ("Archers", "Shield Wall") if name in page}


@pytest.fixture
def table(host, gm):
    """Ayla (a Tactician) attacks Brann's Wall at a ford in the Old Forest, where Brann holds a Base (+2 Morale);
    fought at a real table."""
    pick = TACTICIAN_CHOICES[0]
    Commander.objects.filter(pk=host.ayla.pk).update(power="Tactician", tactician_choice=pick)
    host.ayla.refresh_from_db()
    tactical_map = make_map(host.ayla.campaign)
    map_services.terrain_region_create(tactical_map=tactical_map, name="Old Forest", kind="difficult",
                                       points=[[0, 0], [20, 0], [20, 20], [0, 20]], actor=None)
    ford = map_services.location_create(tactical_map=tactical_map, name="Ford", size="camp", x=5, y=5, actor=None)
    map_services.base_create(tactical_map=tactical_map, name="Redoubt", x=5, y=5, morale_bonus=2, location=ford,
                             actor=None)
    return services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, location=ford, actor=gm,
                                 mode=Battle.Mode.LOGGED)


@pytest.fixture
def live(host, gm):
    return services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm, seed=1)


@pytest.fixture
def bystander(campaign):
    """A player of the campaign who commands neither side."""
    return MembershipFactory(campaign=campaign, user=UserFactory(username="bystander")).user


def test_the_gm_prints_both_armies_morale_and_a_code_for_the_result_form(client, gm, host, table):
    client.force_login(gm)
    response = client.get(url(table))
    assert response.status_code == 200
    page = response.content.decode()
    assert units_listed(page) == {"Archers", "Shield Wall"}
    assert page.count('aria-label="Killed"') == len(host.wall_units) + 2  # a row of piles per unit
    ayla, brann = table.config["commanders"]
    assert f"copies {TACTICIAN_CHOICES[0]}" in page
    assert f"Morale {brann['morale'] + 2} ({brann['morale']} + 2 from the Base)" in page
    for words in (f"Morale {ayla['morale']}", f"Influence {ayla['influence']}", "Old Forest (difficult)", "at Ford",
                  "River Valley"):
        assert words in page
    result_form = "http://testserver" + url(table, "battle-log")
    assert response.context["qr_url"] == result_form
    assert sheets.battle_sheet_qr_svg(url=result_form) in page
    assert 'data-testid="sheet-hidden"' not in page


def test_a_commander_at_a_table_prints_both_armies(client, rival, table):
    client.force_login(rival)
    page = client.get(url(table)).content.decode()
    assert units_listed(page) == {"Archers", "Shield Wall"}


def test_a_live_battle_sheet_never_shows_a_player_the_enemy_units(client, player, rival, gm, host, live):
    client.force_login(player)
    response = client.get(url(live))
    page = response.content.decode()
    assert units_listed(page) == {"Archers"}
    assert "3 units: their cards stay hidden until played." in page
    assert 'aria-label="Killed"' not in page  # the engine keeps the piles of a live Battle
    assert response.context["qr_url"] == "http://testserver" + url(live, "battle-detail")
    client.force_login(rival)
    page = client.get(url(live)).content.decode()
    assert units_listed(page) == {"Shield Wall"}
    client.force_login(gm)
    page = client.get(url(live)).content.decode()
    assert units_listed(page) == {"Archers", "Shield Wall"}


def test_only_a_gm_or_a_commander_may_print_it(client, outsider, bystander, gm, host, table):
    services.battle_cancel(battle=table, actor=gm)
    live = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm, seed=1)
    for user in (outsider, bystander):
        client.force_login(user)
        for battle in (table, live):
            assert client.get(url(battle)).status_code == 404
    assert 'data-testid="print-sheet"' not in client.get(url(live, "battle-detail")).content.decode()


def test_the_battle_page_links_the_sheet_while_the_battle_is_fought(client, gm, player, table):
    for user in (gm, player):
        client.force_login(user)
        page = client.get(url(table, "battle-detail")).content.decode()
        assert f'href="{url(table)}" data-testid="print-sheet"' in page
    services.battle_cancel(battle=table, actor=gm)
    assert 'data-testid="print-sheet"' not in client.get(url(table, "battle-detail")).content.decode()
