"""The unit catalogue page: every type the campaign sees, for its members; game masters add and edit types (a
default edited becomes the campaign's own version) and upload artwork, refusals shown as sentences; the admin
adds and changes types through the same service."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.models import UnitType
from tests.campaign.catalogue.test_artwork import image_bytes, upload

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_root")]



def page(campaign, tail=""):
    return f"/c/{campaign.slug}/catalogue/{tail}"


def form_data(**changes):
    data = {"name": "Bowmen", "strength": "2", "role": "Aggressor", "path": "Steel", "traits": ["Ranged"],
            "other_traits": "", "text": "Ranged.", "effects": "", "trains_to": "", "third_training": ""}
    return {**data, **changes}


def test_members_see_every_type_with_its_card(client, campaign, player, defaults):
    client.force_login(player)
    body = client.get(page(campaign)).content.decode()
    for name in ("Soldier", "Veteran Soldier", "War Banner", "Skeleton Warriors", "Mind Fog"):
        assert name in body
    assert 'data-testid="strength">-<' in body  # War Banner has no Strength
    assert "Discard: +1 to either unit in a Skirmish." in body
    assert "Trains into</dt><dd>Veteran Soldier" in body
    assert "Third training</dt><dd>Gains Reach." in body
    assert "Undead" in body
    assert "Quest" in body
    assert "edit-unit-type" not in body
    assert "Upload artwork" not in body
    assert "catalogue-link" in client.get(f"/c/{campaign.slug}/").content.decode()


def test_an_outsider_gets_a_404(client, campaign, outsider, defaults):
    client.force_login(outsider)
    assert client.get(page(campaign)).status_code == 404
    assert client.get(page(campaign, f"{defaults['Soldier'].pk}/thumbnail/")).status_code == 404


def test_players_cannot_edit_the_catalogue(client, campaign, player, defaults):
    client.force_login(player)
    soldier = defaults["Soldier"]
    assert client.get(page(campaign, "new/")).status_code == 403
    assert client.post(page(campaign, "new/"), form_data()).status_code == 403
    response = client.post(page(campaign, f"{soldier.pk}/edit/"), form_data(name="Soldier", strength="9"))
    assert response.status_code == 403
    assert "Only a game master" in response.content.decode()
    assert client.post(page(campaign, f"{soldier.pk}/artwork/"),
                       {"artwork": upload(image_bytes())}).status_code == 403
    assert not UnitType.objects.filter(campaign=campaign).exists()


def test_a_gm_adds_a_type_with_traits_and_effects(client, campaign, gm, defaults):
    client.force_login(gm)
    effects = [{"when": "reveal", "do": "add", "amount": 1, "to": "own", "against": {"trait": "Fly"}}]
    response = client.post(page(campaign, "new/"), form_data(
        traits=["Ranged", "Fast"], other_traits="Mounted, fly", strength="-", effects=json.dumps(effects),
        trains_to="Veteran Soldier", quest="on", third_training="Gains Reach."), follow=True)
    assert "Saved Bowmen." in response.content.decode()
    bowmen = UnitType.objects.get(campaign=campaign, name="Bowmen")
    assert bowmen.traits == ["Ranged", "Fast", "Mounted", "Fly"]
    assert (bowmen.strength, bowmen.quest, bowmen.effects) == (None, True, effects)
    assert bowmen.trains_to == defaults["Veteran Soldier"]


@pytest.mark.parametrize(("changes", "message"), [
    ({"effects": '[{"when": "discard", "do": "add", "amount": 1, "to": "everyone"}]'},
     "Bowmen: effect {&#x27;when&#x27;: &#x27;discard&#x27;"),
    ({"effects": "[{oops"}, "That is not JSON"),
    ({"effects": '{"when": "discard"}'}, "effects must be a list of effects"),
    ({"strength": "two"}, "Write a whole number of 0 or more, or &quot;-&quot; for none."),
    ({"name": ""}, "This field is required."),
])
def test_bad_input_is_explained_on_the_form(client, campaign, gm, changes, message):
    client.force_login(gm)
    response = client.post(page(campaign, "new/"), form_data(**changes))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not UnitType.objects.filter(campaign=campaign).exists()


def test_adding_a_name_the_campaign_has_says_to_edit_it(client, campaign, gm):
    client.force_login(gm)
    client.post(page(campaign, "new/"), form_data())
    response = client.post(page(campaign, "new/"), form_data(strength="5"))
    assert "The catalogue already has Bowmen: edit it instead" in response.content.decode()
    assert UnitType.objects.get(campaign=campaign, name="Bowmen").strength == 2


def test_editing_a_default_makes_the_campaigns_own_version(client, campaign, gm, defaults):
    soldier = defaults["Soldier"]
    client.force_login(gm)
    form = client.get(page(campaign, f"{soldier.pk}/edit/")).content.decode()
    assert 'data-testid="default-note"' in form
    assert 'value="Soldier"' in form
    assert "&quot;to&quot;: &quot;either&quot;" in form  # the effects as JSON text
    data = form_data(name="Soldier", strength="3", role="Aggressor", traits=[], text="Discard: +1.",
                     effects=json.dumps(soldier.effects), trains_to="Veteran Soldier")
    response = client.post(page(campaign, f"{soldier.pk}/edit/"), data, follow=True)
    assert "now uses its own version instead of the default" in response.content.decode()
    own = UnitType.objects.get(campaign=campaign, name="Soldier")
    assert (own.strength, own.text) == (3, "Discard: +1.")
    assert UnitType.objects.get(pk=soldier.pk).strength == 2
    listed = client.get(page(campaign)).content.decode()
    assert listed.count("<h2>Soldier</h2>") == 1
    assert client.get(page(campaign, f"{soldier.pk}/edit/")).status_code == 404  # replaced: not seen any more


def test_a_gm_uploads_artwork_and_members_see_the_thumbnail(client, campaign, gm, player, defaults):
    client.force_login(gm)
    soldier = defaults["Soldier"]
    response = client.post(page(campaign, f"{soldier.pk}/artwork/"), {"artwork": upload(image_bytes((600, 400)))},
                           follow=True)
    assert "New artwork for Soldier." in response.content.decode()
    own = UnitType.objects.get(campaign=campaign, name="Soldier")
    assert own.artwork_thumbnail
    assert not UnitType.objects.get(pk=soldier.pk).artwork
    client.force_login(player)
    assert 'data-testid="artwork"' in client.get(page(campaign)).content.decode()
    thumbnail = client.get(page(campaign, f"{own.pk}/thumbnail/"))
    assert (thumbnail.status_code, thumbnail["Content-Type"]) == (200, "image/jpeg")
    assert client.get(page(campaign, f"{own.pk}/picture/")).status_code == 200
    assert client.get(page(campaign, f"{defaults['Mind Fog'].pk}/picture/")).status_code == 404  # no artwork


def test_a_file_that_is_no_image_is_refused_with_a_sentence(client, campaign, gm, defaults):
    client.force_login(gm)
    response = client.post(page(campaign, f"{defaults['Soldier'].pk}/artwork/"),
                           {"artwork": upload(b"MZ\x90\x00 a program", name="x.jpg")}, follow=True)
    assert "Soldier: That file is not an image Muster can use: upload a PNG, JPEG, WebP or GIF." in \
        response.content.decode()
    assert not UnitType.objects.filter(campaign=campaign).exists()
    response = client.post(page(campaign, f"{defaults['Soldier'].pk}/artwork/"), {}, follow=True)
    assert "Choose an image to upload" in response.content.decode()


# --- the admin ------------------------------------------------------------------------------------------------


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_superuser("root", "root@example.org", "pass-word-123")


def admin_data(**changes):
    data = {"campaign": "", "name": "Bowmen", "strength": "2", "role": "Aggressor", "path": "Steel",
            "traits": '["Ranged"]', "text": "", "effects": "[]", "trains_to": "", "third_training": ""}
    return {**data, **changes}


def test_the_admin_adds_and_changes_types_through_the_service(client, staff, campaign):
    client.force_login(staff)
    response = client.post("/admin/campaign/unittype/add/", admin_data(campaign=campaign.pk,
                                                                       upload=upload(image_bytes())))
    assert response.status_code == 302
    bowmen = UnitType.objects.get(campaign=campaign, name="Bowmen")
    assert bowmen.traits == ["Ranged"]
    assert bowmen.artwork_thumbnail
    response = client.post(f"/admin/campaign/unittype/{bowmen.pk}/change/", admin_data(strength="3"))
    assert response.status_code == 302
    bowmen.refresh_from_db()
    assert (bowmen.strength, bowmen.campaign) == (3, campaign)


def test_the_admin_refuses_bad_effects_and_files_on_the_form(client, staff):
    client.force_login(staff)
    response = client.post("/admin/campaign/unittype/add/", admin_data(
        effects='[{"when": "discard", "do": "fly"}]', upload=upload(b"%PDF-1.4", name="a.png")))
    body = response.content.decode()
    assert response.status_code == 200
    assert "has an unknown discard" in body
    assert "That file is not an image Muster can use" in body
    assert not UnitType.objects.exists()


def test_a_gm_deletes_an_own_type_from_its_edit_page(client, campaign, gm, defaults):
    from campaign.catalogue.entries import catalogue_load
    from campaign.models import AuditEntry

    catalogue_load(entries=[{"name": "Bowmen", "strength": 2}], campaign=campaign)
    bowmen = UnitType.objects.get(campaign=campaign, name="Bowmen")
    client.force_login(gm)
    edit = client.get(reverse("unit-type-edit", args=[campaign.slug, bowmen.pk])).content.decode()
    assert 'data-testid="delete-unit-type"' in edit
    default = UnitType.objects.filter(campaign=None).first()
    assert 'data-testid="delete-unit-type"' not in client.get(
        reverse("unit-type-edit", args=[campaign.slug, default.pk])).content.decode()
    page = client.post(reverse("unit-type-delete", args=[campaign.slug, bowmen.pk]), follow=True).content.decode()
    assert "Deleted Bowmen from" in page
    assert not UnitType.objects.filter(pk=bowmen.pk).exists()
    assert AuditEntry.objects.filter(action="catalogue.delete", data__name="Bowmen").exists()
