"""A new server has an empty catalogue: a game master loads the one Muster ships with from the catalogue page,
no shell needed; loading again changes nothing."""

import pytest

from campaign.models import UnitType

pytestmark = pytest.mark.django_db
URL = "/c/river-valley/catalogue/"


def test_a_gm_loads_the_default_catalogue_from_the_page(client, gm):
    client.force_login(gm)
    empty = client.get(URL).content.decode()
    assert 'data-testid="load-defaults"' in empty
    assert "<title>Unit catalogue · River Valley · Muster</title>" in empty
    first = client.post(f"{URL}defaults/", follow=True).content.decode()
    loaded = UnitType.objects.filter(campaign__isnull=True).count()
    assert loaded >= 30
    assert f"The default catalogue is loaded: {loaded} new, 0 updated, 0 unchanged." in first
    again = client.post(f"{URL}defaults/", follow=True).content.decode()
    assert "<title>Unit catalogue · River Valley · Muster</title>" in again  # the form is in the page, not the title
    assert f"0 new, 0 updated, {loaded} unchanged." in again


def test_a_player_cannot_load_it(client, player):
    client.force_login(player)
    assert client.post(f"{URL}defaults/").status_code == 403
    assert not UnitType.objects.exists()
