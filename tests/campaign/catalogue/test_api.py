"""The unit catalogue API: members list what their campaign sees; game masters create and change types through
the catalogue's checks (400 with the sentence), a default changed becomes the campaign's own version, artwork is
a multipart upload Pillow checks. Players get a 403 with the sentence, outsiders a 404."""

import pytest

from campaign.catalogue.entries import catalogue_load
from campaign.models import UnitType
from tests.campaign.catalogue.test_artwork import image_bytes, upload
from tests.campaign.catalogue.test_entries import SMALL
from tests.campaign.factories import CampaignFactory
from tests.helpers import api_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_root")]




def names(response) -> list[str]:
    return [row["name"] for row in response.json()["results"]]


def test_members_list_what_their_campaign_sees(campaign, gm, player, outsider, defaults):
    catalogue_load(entries=[dict(SMALL[0], strength=4, trains_to=None)], campaign=campaign)
    catalogue_load(entries=[{"name": "Secret Golem", "strength": 5}], campaign=CampaignFactory())
    rows = api_for(player).get(f"/api/unit-types/?campaign={campaign.pk}").json()["results"]
    assert [r["name"] for r in rows] == sorted(e["name"] for e in SMALL)
    soldier = next(r for r in rows if r["name"] == "Soldier")
    assert (soldier["campaign"], soldier["strength"]) == (campaign.pk, 4)
    banner = next(r for r in rows if r["name"] == "War Banner")
    assert (banner["strength"], banner["strength_display"], banner["artwork_url"]) == (None, "-", None)
    assert "Secret Golem" not in names(api_for(player).get("/api/unit-types/"))
    assert names(api_for(outsider).get(f"/api/unit-types/?campaign={campaign.pk}")) == []
    own = UnitType.objects.get(campaign=campaign)
    assert api_for(outsider).get(f"/api/unit-types/{own.pk}/").status_code == 404


def test_a_gm_creates_a_type(campaign, gm, defaults):
    body = {"campaign": campaign.pk, "name": "Bowmen", "strength": 2, "role": "Aggressor", "traits": ["Ranged"],
            "effects": [{"when": "discard", "do": "add", "amount": 1, "to": "own"}], "trains_to": "Veteran Soldier"}
    response = api_for(gm).post("/api/unit-types/", body, format="json")
    assert response.status_code == 201, response.json()
    assert (response.json()["campaign"], response.json()["trains_to"]) == (campaign.pk, "Veteran Soldier")
    assert UnitType.objects.get(campaign=campaign, name="Bowmen").effects[0]["to"] == "own"


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"effects": [{"when": "discard", "do": "add", "amount": 1, "to": "everyone"}]}, "effects",
     "needs 'to' of own, enemy or either"),
    ({"role": "Wizard"}, "role", "'Wizard' is not a Role"),
    ({"trains_to": "Nowhere"}, "detail", "which is not in the catalogue"),
    ({"campaign": None}, "campaign", "This field may not be null."),
])
def test_bad_types_are_a_400_with_the_sentence(campaign, gm, body, field, message):
    response = api_for(gm).post("/api/unit-types/", {"campaign": campaign.pk, "name": "Bowmen", **body},
                                format="json")
    assert response.status_code == 400
    body = response.json()
    assert message in body["detail"]
    assert field == "detail" or message in " ".join(body[field])
    assert not UnitType.objects.filter(campaign=campaign).exists()


def test_players_cannot_edit_the_catalogue(campaign, player, defaults):
    client = api_for(player)
    response = client.post("/api/unit-types/", {"campaign": campaign.pk, "name": "Bowmen"}, format="json")
    assert response.status_code == 403
    assert "Only a game master of River Valley may do that" in response.json()["detail"]
    soldier = defaults["Soldier"]
    assert client.patch(f"/api/unit-types/{soldier.pk}/", {"campaign": campaign.pk, "strength": 9},
                        format="json").status_code == 403
    assert client.post(f"/api/unit-types/{soldier.pk}/artwork/", {"campaign": campaign.pk,
                                                                  "artwork": upload(image_bytes())}).status_code == 403
    assert not UnitType.objects.filter(campaign=campaign).exists()
    assert UnitType.objects.get(pk=soldier.pk).strength == 2


def test_changing_a_default_needs_the_campaign_and_makes_its_own_version(campaign, gm, defaults):
    soldier = defaults["Soldier"]
    response = api_for(gm).patch(f"/api/unit-types/{soldier.pk}/", {"strength": 3}, format="json")
    assert response.status_code == 400
    assert "Say which campaign's catalogue to change" in response.json()["campaign"][0]
    response = api_for(gm).patch(f"/api/unit-types/{soldier.pk}/", {"campaign": campaign.pk, "strength": 3},
                                 format="json")
    assert response.status_code == 200
    own = response.json()
    assert (own["campaign"], own["name"], own["strength"], own["trains_to"]) == (campaign.pk, "Soldier", 3,
                                                                                 "Veteran Soldier")
    assert UnitType.objects.get(pk=soldier.pk).strength == 2
    response = api_for(gm).patch(f"/api/unit-types/{own['id']}/", {"text": "Steady."}, format="json")
    assert (response.json()["id"], response.json()["text"], response.json()["strength"]) == (own["id"], "Steady.", 3)


def test_a_type_of_another_campaign_cannot_be_changed(campaign, gm):
    catalogue_load(entries=[{"name": "Golem", "strength": 5}], campaign=CampaignFactory())
    golem = UnitType.objects.get(name="Golem")
    assert api_for(gm).patch(f"/api/unit-types/{golem.pk}/", {"strength": 1}, format="json").status_code == 404


def test_artwork_upload_and_the_image(campaign, gm, player, defaults):
    soldier = defaults["Soldier"]
    response = api_for(gm).post(f"/api/unit-types/{soldier.pk}/artwork/",
                                {"campaign": campaign.pk, "artwork": upload(b"GIF89a not really")})
    assert response.status_code == 400
    assert "not an image Muster can use" in response.json()["detail"]
    response = api_for(gm).post(f"/api/unit-types/{soldier.pk}/artwork/",
                                {"campaign": campaign.pk, "artwork": upload(image_bytes((300, 200)))})
    assert response.status_code == 200
    own = response.json()
    assert own["campaign"] == campaign.pk
    assert "/api/unit-types/" in own["thumbnail_url"]
    assert "size=thumbnail" in own["thumbnail_url"]
    image = api_for(player).get(f"/api/unit-types/{own['id']}/image/?size=thumbnail")
    assert (image.status_code, image["Content-Type"]) == (200, "image/jpeg")
    assert api_for(player).get(f"/api/unit-types/{soldier.pk}/image/").status_code == 404


def test_a_gm_deletes_an_unused_own_type_and_the_default_shows_again(campaign, gm, player, defaults):
    catalogue_load(entries=[dict(SMALL[0], strength=4, trains_to=None)], campaign=campaign)
    own = UnitType.objects.get(campaign=campaign, name="Soldier")
    assert api_for(player).delete(f"/api/unit-types/{own.pk}/").status_code == 403
    default = UnitType.objects.get(campaign=None, name="Soldier")
    refused = api_for(gm).delete(f"/api/unit-types/{default.pk}/")
    assert refused.status_code == 400
    assert "a default type is shared by every campaign" in str(refused.json())
    assert api_for(gm).delete(f"/api/unit-types/{own.pk}/").status_code == 204
    rows = api_for(player).get(f"/api/unit-types/?campaign={campaign.pk}").json()["results"]
    assert next(r for r in rows if r["name"] == "Soldier")["campaign"] is None


def test_a_type_units_or_records_name_cannot_be_deleted(campaign, gm, defaults):
    from tests.campaign.factories import UnitFactory

    catalogue_load(entries=[{"name": "Bowmen", "strength": 2}], campaign=campaign)
    bowmen = UnitType.objects.get(campaign=campaign, name="Bowmen")
    UnitFactory(campaign=campaign, unit_type=bowmen)
    refused = api_for(gm).delete(f"/api/unit-types/{bowmen.pk}/")
    assert refused.status_code == 400
    assert "Bowmen cannot be deleted: 1 unit name it. Edit it instead." in str(refused.json())
    assert UnitType.objects.filter(pk=bowmen.pk).exists()
