"""Loading the unit catalogue: idempotent, per campaign or global, and strict about bad entries."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from campaign.catalogue import selectors as catalogue_selectors
from campaign.catalogue.entries import DEFAULT_CATALOGUE, catalogue_load, catalogue_load_file
from campaign.models import UnitRole, UnitType

pytestmark = pytest.mark.django_db

SMALL = [
    {"name": "Soldier", "strength": 2, "role": "Aggressor", "path": "Steel", "traits": [],
     "text": "Discard: +1 to either unit in a Skirmish.",
     "effects": [{"when": "discard", "do": "add", "amount": 1, "to": "either"}], "quest": False,
     "trains_to": "Veteran Soldier", "third_training": None},
    {"name": "Veteran Soldier", "strength": 3, "role": "Aggressor", "path": "Steel", "traits": [], "text": "",
     "effects": [], "quest": False, "trains_to": None, "third_training": "Gains Reach."},
    {"name": "War Banner", "strength": None, "role": "Equipment", "path": "Steel", "traits": [], "text": "",
     "effects": [], "quest": False, "trains_to": None, "third_training": None},
    {"name": "Skeleton Warriors", "strength": 1, "role": "Aggressor", "path": "Magic", "traits": ["Undead"],
     "text": "", "effects": [], "quest": False, "trains_to": None, "third_training": None},
    {"name": "Mind Fog", "strength": None, "role": "Ritual", "path": None, "traits": [], "text": "",
     "effects": [], "quest": True, "trains_to": None, "third_training": None},
]


def test_loading_twice_changes_nothing():
    first = catalogue_load(entries=SMALL)
    assert sorted(first.created) == sorted(e["name"] for e in SMALL)
    second = catalogue_load(entries=SMALL)
    assert (second.created, second.updated) == ([], [])
    assert len(second.unchanged) == len(SMALL)
    soldier = UnitType.objects.get(name="Soldier", campaign=None)
    assert soldier.trains_to.name == "Veteran Soldier"
    assert soldier.effects[0]["amount"] == 1
    banner = UnitType.objects.get(name="War Banner")
    assert (banner.strength, banner.strength_display) == (None, "-")
    assert UnitType.objects.get(name="Skeleton Warriors").is_undead
    assert UnitType.objects.get(name="Mind Fog").path == ""


def test_a_changed_entry_is_updated_in_place():
    catalogue_load(entries=SMALL)
    pk = UnitType.objects.get(name="Soldier").pk
    changed = [dict(SMALL[0], strength=3, trains_to=None), *SMALL[1:]]
    result = catalogue_load(entries=changed)
    assert result.updated == ["Soldier"]
    soldier = UnitType.objects.get(name="Soldier")
    assert (soldier.pk, soldier.strength, soldier.trains_to) == (pk, 3, None)


def test_a_campaign_catalogue_replaces_defaults_by_name(campaign):
    catalogue_load(entries=SMALL)
    catalogue_load(entries=[dict(SMALL[0], strength=4, trains_to=None)], campaign=campaign)
    seen = {t.name: t for t in catalogue_selectors.unit_types_for_campaign(campaign=campaign)}
    assert len(seen) == len(SMALL)
    assert seen["Soldier"].campaign == campaign
    assert seen["Soldier"].strength == 4
    assert seen["War Banner"].campaign is None
    assert catalogue_selectors.unit_type_by_name(campaign=campaign, name="Soldier").strength == 4
    assert catalogue_selectors.unit_type_by_name(campaign=None, name="Soldier").strength == 2


@pytest.mark.parametrize(("entry", "message"), [
    ({"strength": 2}, "needs a name"),
    ({"name": "X", "strength": -1}, "strength must be a whole number"),
    ({"name": "X", "strength": "2"}, "strength must be a whole number"),
    ({"name": "X", "role": "Wizard"}, "role must be one of"),
    ({"name": "X", "path": "Shadow"}, "path must be one of"),
    ({"name": "X", "traits": "Fast"}, "traits must be a list"),
    ({"name": "X", "trains_to": "Nowhere"}, "trains to 'Nowhere', which is not in the catalogue"),
    ({"name": "X", "quest": "yes"}, "quest must be true or false"),
])
def test_bad_entries_are_refused_before_anything_is_written(entry, message):
    with pytest.raises(ValidationError, match=message):
        catalogue_load(entries=[SMALL[2], entry])
    assert UnitType.objects.count() == 0


def test_duplicate_names_are_refused():
    with pytest.raises(ValidationError, match="names these twice: Soldier"):
        catalogue_load(entries=[SMALL[0], SMALL[1], SMALL[0]])


def test_the_command_loads_a_file_per_campaign_or_globally(tmp_path, campaign, capsys):
    path = tmp_path / "units.json"
    path.write_text(json.dumps(SMALL))
    call_command("load_catalogue", file=str(path))
    call_command("load_catalogue", file=str(path))
    assert "0 new, 0 changed, 5 unchanged" in capsys.readouterr().out
    call_command("load_catalogue", file=str(path), campaign=campaign.slug)
    assert UnitType.objects.filter(campaign=campaign).count() == 5
    with pytest.raises(CommandError, match="no campaign"):
        call_command("load_catalogue", file=str(path), campaign="nope")
    bad = tmp_path / "bad.json"
    bad.write_text("[{")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("load_catalogue", file=str(bad))
    with pytest.raises(CommandError, match="There is no catalogue"):
        call_command("load_catalogue", file=str(tmp_path / "missing.json"))


@pytest.mark.skipif(not DEFAULT_CATALOGUE.exists(), reason="the default catalogue is not written yet")
def test_the_default_catalogue_loads_and_covers_every_role_and_path():
    result = catalogue_load_file()
    assert result.total >= 20
    assert catalogue_load_file().created == []
    assert set(UnitType.objects.values_list("role", flat=True)) >= set(UnitRole.values)
    assert any(t.is_undead for t in UnitType.objects.all())
    assert UnitType.objects.filter(strength__isnull=True).exists()


# --- effects in the battle engine's vocabulary, and a campaign's own versions ---------------------------------


@pytest.mark.parametrize(("effects", "message"), [
    ([{"when": "discard", "do": "add", "amount": 1, "to": "everyone"}], "needs 'to' of own, enemy or either"),
    ([{"when": "sometimes", "do": "add"}], "has an unknown 'when'"),
    ({"when": "discard"}, "effects must be a list of effects"),
])
def test_effects_the_engine_cannot_play_are_refused_with_its_sentence(effects, message):
    with pytest.raises(ValidationError, match=message) as caught:
        catalogue_load(entries=[dict(SMALL[1], effects=effects)])
    assert "Veteran Soldier" in caught.value.messages[0]
    assert UnitType.objects.count() == 0


def test_a_campaign_type_may_train_into_a_default_and_follows_a_replacement(campaign):
    catalogue_load(entries=SMALL)
    catalogue_load(entries=[dict(SMALL[0], strength=3)], campaign=campaign)
    own_soldier = UnitType.objects.get(campaign=campaign, name="Soldier")
    assert own_soldier.trains_to == UnitType.objects.get(campaign=None, name="Veteran Soldier")
    catalogue_load(entries=[dict(SMALL[1], strength=4)], campaign=campaign)
    own_soldier.refresh_from_db()
    assert own_soldier.trains_to == UnitType.objects.get(campaign=campaign, name="Veteran Soldier")
    assert UnitType.objects.get(campaign=None, name="Soldier").trains_to.campaign is None
