"""Lent units in Battle: "Retinues may be used by other Commanders, but do not receive their Strength bonus
when this is done" (army-combat.txt, Retinues)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles import services
from battles.models import Battle
from campaign.campaigns.permissions import NotAllowed
from campaign.economy import selectors as economy_selectors
from campaign.map import armies, lending
from campaign.models import AuditEntry, Unit
from tests.helpers import api_for

pytestmark = pytest.mark.django_db


def _lend_retinue_to_brann(host):
    lending.unit_lend(unit=host.retinue, to=host.brann, actor=host.ayla.player)
    armies.army_assign_unit(unit=host.retinue, army=host.wall, actor=host.brann.player)
    host.retinue.refresh_from_db()


def test_a_retinue_lent_to_another_commander_fights_for_them_without_its_bonus(host, gm):
    _lend_retinue_to_brann(host)
    assert economy_selectors.unit_retinue_owner(unit=host.retinue) == host.ayla  # still Ayla's retinue
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm, seed=3)
    ayla, brann = battle.config["commanders"]
    assert [u["id"] for u in ayla["units"]] == [host.archers.pk]
    lent = next(u for u in brann["units"] if u["id"] == host.retinue.pk)
    assert lent["retinue"] is False  # Brann commands it: no +1


def test_back_with_its_owner_the_retinue_adds_again(host, gm):
    _lend_retinue_to_brann(host)
    lending.unit_recall(unit=host.retinue, actor=host.ayla.player)
    host.retinue.refresh_from_db()
    assert (host.retinue.lent_to, host.retinue.army, host.retinue.state) == (None, None, Unit.State.RESERVE)
    armies.army_assign_unit(unit=host.retinue, army=host.vanguard, actor=host.ayla.player)
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, actor=gm, seed=3)
    assert [u["retinue"] for u in battle.config["commanders"][0]["units"]] == [True, False]


def test_a_lent_unit_killed_in_the_borrowers_battle_is_killed(host, gm):
    _lend_retinue_to_brann(host)
    battle = services.battle_start(attacker_army=host.vanguard, defender_army=host.wall, mode=Battle.Mode.LOGGED,
                                   actor=gm)
    services.battle_log_result(battle=battle, actor=gm, winner=0, killed=[[], [host.retinue.pk]],
                               disabled=[[], []], exhausted=[[], []], morale_left=[6, 1], influence_spent=[0, 0])
    host.retinue.refresh_from_db()
    assert host.retinue.state == Unit.State.KILLED
    assert host.retinue.commander == host.ayla  # Ayla's fallen, whose wages she may donate


def test_only_the_owner_lends_and_only_owner_or_borrower_recalls(host, campaign):
    from tests.campaign.factories import CommanderFactory, MembershipFactory, UserFactory

    stranger = MembershipFactory(campaign=campaign, user=UserFactory(username="stranger")).user
    CommanderFactory(campaign=campaign, name="Cyra", player=stranger)
    with pytest.raises(NotAllowed, match="Only Ayla's player or a game master may lend Ayla's units"):
        lending.unit_lend(unit=host.retinue, to=host.brann, actor=host.brann.player)
    _lend_retinue_to_brann(host)
    with pytest.raises(NotAllowed, match="its owner or borrower may"):
        lending.unit_recall(unit=host.retinue, actor=stranger)
    lending.unit_recall(unit=host.retinue, actor=host.brann.player)  # the borrower returns it
    host.retinue.refresh_from_db()
    assert host.retinue.lent_to is None
    assert list(AuditEntry.objects.filter(action__in=["unit.lend", "unit.recall"]).values_list("action", flat=True)
                .order_by("pk")) == ["unit.lend", "unit.recall"]


def test_lending_refuses_what_cannot_be_lent(host):
    with pytest.raises(ValidationError, match="Lend Spearmen to another commander"):
        lending.unit_lend(unit=host.retinue, to=host.ayla, actor=None)
    with pytest.raises(ValidationError, match="was Killed: it cannot be lent"):
        lending.unit_lend(unit=host.dead, to=host.brann, actor=None)
    with pytest.raises(ValidationError, match="a unit joins the armies of the commander who leads it"):
        armies.army_assign_unit(unit=host.reserve, army=host.wall, actor=None)
    host.ayla.in_battle = True
    host.ayla.save(update_fields=["in_battle"])
    with pytest.raises(ValidationError, match="in a Battle: wait until the Battle ends"):
        lending.unit_lend(unit=host.retinue, to=host.brann, actor=None)


def test_lending_from_the_page_and_the_api(host, client):
    slug = host.ayla.campaign.slug
    client.force_login(host.ayla.player)
    page = client.get(reverse("commander-detail", args=[slug, host.ayla.pk])).content.decode()
    assert f'data-testid="lend-{host.retinue.pk}"' in page
    response = client.post(reverse("unit-lend", args=[slug, host.ayla.pk, host.retinue.pk]), {"to": host.brann.pk},
                           follow=True)
    assert "Spearmen is lent to Brann" in response.content.decode()
    assert "Lent to Brann" in response.content.decode()
    client.force_login(host.brann.player)
    page = client.get(reverse("commander-detail", args=[slug, host.brann.pk])).content.decode()
    assert "from Ayla" in page
    armies_page = client.get(reverse("commander-armies", args=[slug, host.brann.pk])).content.decode()
    assert f'name="units" value="{host.retinue.pk}"' in armies_page  # Brann may form an army with it
    brann_api = api_for(host.brann.player)
    assert host.retinue.pk in [u["id"] for u in brann_api.get("/api/units/").json()["results"]]
    response = brann_api.post(f"/api/units/{host.retinue.pk}/recall/")
    assert response.status_code == 200, response.content
    assert response.json()["lent_to"] is None
    assert host.retinue.pk not in [u["id"] for u in brann_api.get("/api/units/").json()["results"]]
    ayla_api = api_for(host.ayla.player)
    response = ayla_api.post(f"/api/units/{host.retinue.pk}/lend/", {"to": host.brann.pk}, format="json")
    assert (response.status_code, response.json()["lent_to"]) == (200, host.brann.pk)
    assert ayla_api.post(f"/api/units/{host.retinue.pk}/lend/", {"to": host.brann.pk},
                         format="json").status_code == 200  # a retry changes nothing
    assert AuditEntry.objects.filter(action="unit.lend").count() == 2
