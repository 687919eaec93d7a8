"""catalogue_services.unit_type_save: one unit type added or changed through the catalogue's checks; changing a
default for a campaign makes the campaign's own version, which carries the default's artwork; other campaigns keep
the default."""

import pytest
from django.core.exceptions import ValidationError

from campaign.catalogue import selectors as catalogue_selectors
from campaign.catalogue import services as catalogue_services
from campaign.catalogue.entries import catalogue_entry_of, catalogue_load
from campaign.models import AuditEntry, UnitType
from tests.campaign.catalogue.test_artwork import image_bytes, upload
from tests.campaign.catalogue.test_entries import SMALL
from tests.campaign.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def defaults():
    catalogue_load(entries=SMALL)
    return {t.name: t for t in UnitType.objects.filter(campaign=None)}


def test_changing_a_default_makes_the_campaigns_own_version(campaign, gm, defaults):
    other = CampaignFactory()
    soldier = defaults["Soldier"]
    saved = catalogue_services.unit_type_save(campaign=campaign, entry={**catalogue_entry_of(soldier), "strength": 3},
                                              unit_type=soldier, actor=gm)
    assert (saved.campaign, saved.name, saved.strength) == (campaign, "Soldier", 3)
    assert saved.trains_to == defaults["Veteran Soldier"]
    soldier.refresh_from_db()
    assert soldier.strength == 2
    assert catalogue_selectors.unit_type_by_name(campaign=campaign, name="Soldier") == saved
    assert catalogue_selectors.unit_type_by_name(campaign=other, name="Soldier") == soldier
    assert AuditEntry.objects.filter(campaign=campaign, action="catalogue.load").exists()


def test_the_campaigns_version_starts_with_the_defaults_artwork(settings, tmp_path, campaign, gm, defaults):
    settings.MEDIA_ROOT = tmp_path
    soldier = catalogue_services.unit_type_set_artwork(unit_type=defaults["Soldier"], upload=upload(image_bytes()),
                                                       actor=None)
    saved = catalogue_services.unit_type_save(campaign=campaign, entry=catalogue_entry_of(soldier), unit_type=soldier,
                                              actor=gm)
    assert saved.artwork
    assert saved.artwork.name != soldier.artwork.name
    assert saved.artwork_thumbnail


def test_artwork_for_a_default_goes_on_the_campaigns_own_version(settings, tmp_path, campaign, gm, defaults):
    settings.MEDIA_ROOT = tmp_path
    saved = catalogue_services.unit_type_set_campaign_artwork(campaign=campaign, unit_type=defaults["Soldier"],
                                                              upload=upload(image_bytes()), actor=gm)
    assert saved.campaign == campaign
    assert saved.artwork
    assert not UnitType.objects.get(pk=defaults["Soldier"].pk).artwork


def test_a_bad_picture_for_a_default_changes_nothing(settings, tmp_path, campaign, gm, defaults):
    settings.MEDIA_ROOT = tmp_path
    with pytest.raises(ValidationError, match="not an image"):
        catalogue_services.unit_type_set_campaign_artwork(campaign=campaign, unit_type=defaults["Soldier"],
                                                          upload=upload(b"%PDF-1.4 a document"), actor=gm)
    assert not UnitType.objects.filter(campaign=campaign).exists()


def test_renaming_the_campaigns_own_type_keeps_the_row(campaign, gm):
    first = catalogue_services.unit_type_save(campaign=campaign, entry={"name": "Bowmen", "strength": 2}, actor=gm)
    renamed = catalogue_services.unit_type_save(campaign=campaign, entry={"name": "Longbowmen", "strength": 2},
                                                unit_type=first, actor=gm)
    assert renamed.pk == first.pk
    assert list(UnitType.objects.filter(campaign=campaign).values_list("name", flat=True)) == ["Longbowmen"]


def test_a_new_type_may_not_take_a_name_the_catalogue_has(campaign, gm):
    catalogue_services.unit_type_save(campaign=campaign, entry={"name": "Bowmen", "strength": 2}, actor=gm)
    with pytest.raises(ValidationError, match="already has Bowmen: edit it instead"):
        catalogue_services.unit_type_save(campaign=campaign, entry={"name": "Bowmen", "strength": 4}, actor=gm)
    other = catalogue_services.unit_type_save(campaign=campaign, entry={"name": "Slingers", "strength": 1}, actor=gm)
    with pytest.raises(ValidationError, match="already has Bowmen: pick another name"):
        catalogue_services.unit_type_save(campaign=campaign, entry={"name": "Bowmen"}, unit_type=other, actor=gm)


def test_another_campaigns_type_cannot_be_changed_from_here(campaign, gm):
    theirs = catalogue_services.unit_type_save(campaign=CampaignFactory(), entry={"name": "Bowmen"}, actor=None)
    with pytest.raises(ValidationError, match="belongs to another campaign"):
        catalogue_services.unit_type_save(campaign=campaign, entry={"name": "Bowmen"}, unit_type=theirs, actor=gm)


def test_bad_effects_are_refused_before_anything_is_written(campaign, gm):
    with pytest.raises(ValidationError, match="Bowmen: effect"):
        catalogue_services.unit_type_save(campaign=campaign, entry={"name": "Bowmen", "effects": [{"when": "reveal"}]},
                                          actor=gm)
    assert not UnitType.objects.filter(campaign=campaign).exists()
