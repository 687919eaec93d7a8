"""Export and import: what the export covers, and the import's refusals and matching (people, default unit types,
files), by page-free service calls and the management commands."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from campaign.models import AuditEntry, Campaign, Commander, Unit, UnitType
from campaign.transfer.export import DOCUMENT
from campaign.transfer.graph import NOT_A_CAMPAIGNS, PROJECT_APPS, campaign_models
from campaign.transfer.import_ import campaign_import
from tests.campaign.factories import CampaignFactory, CommanderFactory, UnitFactory, UnitTypeFactory
from tests.campaign.transfer.emptying import empty_instance
from tests.campaign.transfer.zips import export_bytes

pytestmark = pytest.mark.django_db


def test_every_model_of_the_project_is_exported_or_said_to_belong_to_no_campaign():
    covered = {model._meta.label_lower for model, _ in campaign_models()}
    models = {m._meta.label_lower for label in PROJECT_APPS for m in apps.get_app_config(label).get_models()}
    assert models - covered == set(NOT_A_CAMPAIGNS)
    assert not covered & set(NOT_A_CAMPAIGNS)
    assert {m._meta.label_lower: path for m, path in campaign_models()}["campaign.ledgerentry"] == \
        "transaction__campaign"


@pytest.fixture
def small(campaign, gm, player, media_root):
    """A commander of the player with lunari and a unit of a default type that has artwork."""
    spearmen = UnitTypeFactory(name="Spearmen", artwork=SimpleUploadedFile("spear.png", b"\x89PNG spear"))
    amira = CommanderFactory(campaign=campaign, player=player, name="Amira", lunari=70)
    UnitFactory(commander=amira, unit_type=spearmen)
    return campaign


def _emptied(exported: bytes) -> io.BytesIO:
    empty_instance()
    return io.BytesIO(exported)


def test_import_uses_the_default_unit_type_of_the_same_name_this_instance_has(small, media_root):
    exported = export_bytes(small)
    upload = _emptied(exported)
    UnitTypeFactory(name="Someone else's")
    here = UnitTypeFactory(name="Spearmen")
    imported = campaign_import(upload=upload, actor=None)
    unit = Unit.objects.get(campaign=imported)
    assert unit.unit_type == here
    assert UnitType.objects.filter(name="Spearmen").count() == 1
    amira = Commander.objects.get(campaign=imported)
    assert (amira.player.username, amira.purse.balance) == ("player1", 70)


def test_import_makes_a_missing_default_unit_type_with_its_artwork(small, media_root):
    upload = _emptied(export_bytes(small))
    (media_root / "units").rename(media_root / "lost")
    imported = campaign_import(upload=upload, actor=None)
    spearmen = Unit.objects.get(campaign=imported).unit_type
    assert spearmen.campaign is None
    assert spearmen.artwork.read() == b"\x89PNG spear"


def test_export_and_import_are_recorded_in_the_audit_trail_and_a_retried_import_changes_nothing(small, gm):
    exported = export_bytes(small, gm)
    assert AuditEntry.objects.get(campaign=small, action="campaign.export").actor == gm
    imported = campaign_import(upload=_emptied(exported), actor=None)
    assert list(AuditEntry.objects.filter(campaign=imported).values_list("action", flat=True)[:1]) == \
        ["campaign.import"]
    entries = AuditEntry.objects.count()
    assert campaign_import(upload=io.BytesIO(exported), actor=None) == imported
    assert AuditEntry.objects.count() == entries


def _zip(document: dict | None, extra: dict[str, bytes] | None = None) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        if document is not None:
            archive.writestr(DOCUMENT, json.dumps(document))
        for name, content in (extra or {}).items():
            archive.writestr(name, content)
    buffer.seek(0)
    return buffer


def _document(exported: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(exported)) as archive:
        return json.loads(archive.read(DOCUMENT))


@pytest.mark.parametrize(("upload", "sentence"), [
    (io.BytesIO(b"not a zip at all"), "not a readable zip"),
    (_zip(None, {"notes.txt": b"hello"}), "it is not a Muster export"),
    (_zip({"format": "something-else", "version": 1}), "not a Muster export"),
    (_zip({"format": "muster-export", "version": 2}), "this Muster reads version 1 only"),
])
def test_import_refuses_what_is_not_an_export_it_can_read(db, upload, sentence):
    with pytest.raises(ValidationError, match=sentence):
        campaign_import(upload=upload, actor=None)
    assert not Campaign.objects.exists()


def test_import_refuses_a_damaged_file_and_a_campaign_this_instance_has(small):
    exported = export_bytes(small)
    with pytest.raises(ValidationError, match="already has a campaign “river-valley”"):
        campaign_import(upload=io.BytesIO(exported), actor=None)
    document = _document(exported)
    (listed,) = document["files"]
    with pytest.raises(ValidationError, match=f"The file {listed['name']} in the export is missing or damaged"):
        campaign_import(upload=_zip(document, {f"files/{listed['name']}": b"other bytes"}), actor=None)


def test_import_refuses_a_zip_that_unpacks_to_more_than_an_export_could(small, monkeypatch):
    exported = export_bytes(small)
    monkeypatch.setattr("campaign.transfer.import_.MAX_UNPACKED_BYTES", len(_document(exported)["rows"]))
    empty_instance()
    with pytest.raises(ValidationError, match=r"This zip unpacks to 0\.0 GiB, more than an export of a campaign"):
        campaign_import(upload=io.BytesIO(exported), actor=None)
    assert not Campaign.objects.exists()


def test_a_file_in_the_zip_its_document_does_not_list_is_not_brought_in(small, media_root):
    document = _document(export_bytes(small))
    (listed,) = document["files"]
    document["files"] = []  # the artwork's row names a file, which the zip holds unlisted (not checked)
    upload = _zip(document, {f"files/{listed['name']}": b"unchecked bytes"})
    empty_instance()
    (media_root / "units").rename(media_root / "lost")
    imported = campaign_import(upload=upload, actor=None)
    assert not Unit.objects.get(campaign=imported).unit_type.artwork


def test_import_refuses_ids_this_instance_already_uses_and_changes_nothing(small):
    document = _document(export_bytes(small))
    document["campaign"]["slug"] = "river-valley-again"
    for row in document["rows"]:
        if row["model"] == "campaign.campaign":
            row["fields"]["slug"] = "river-valley-again"
    document["files"] = []
    users = get_user_model().objects.count()
    with pytest.raises(ValidationError, match="already holds campaigns with the ids the export uses"):
        campaign_import(upload=_zip(document), actor=None)
    assert get_user_model().objects.count() == users
    assert Campaign.objects.count() == 1


def test_import_refuses_rows_no_campaign_has_or_of_another_campaign(small, gm):
    document = _document(export_bytes(small))
    empty_instance()
    other = CampaignFactory(pk=500, slug="elsewhere")  # an id the export does not use
    intruder = {"model": "auth.user", "pk": 999, "fields": {"username": "root", "is_superuser": True}}
    with pytest.raises(ValidationError, match=r"rows no campaign has \(auth.user\)"):
        campaign_import(upload=_zip({**document, "files": [], "rows": [*document["rows"], intruder]}), actor=None)
    foothold = {"model": "campaign.membership", "pk": 999,
                "fields": {"campaign": other.pk, "user": ["player1"], "role": "gm",
                           "joined_at": "2026-01-01T00:00:00Z"}}
    with pytest.raises(ValidationError, match="holds memberships of another campaign"):
        campaign_import(upload=_zip({**document, "files": [], "rows": [*document["rows"], foothold]}), actor=None)
    assert list(Campaign.objects.all()) == [other]
    assert not get_user_model().objects.filter(username="root").exists()


def test_import_refuses_a_ledger_that_does_not_add_up(small):
    document = _document(export_bytes(small))
    empty_instance()
    entry = next(row for row in document["rows"]
                 if row["model"] == "campaign.ledgerentry" and row["fields"]["amount"] > 0)
    entry["fields"]["amount"] += 1000
    with pytest.raises(ValidationError, match="The export's ledger does not add up"):
        campaign_import(upload=_zip({**document, "files": []}), actor=None)
    assert not Campaign.objects.exists()


def test_the_commands_export_to_a_file_and_import_from_it(small, tmp_path, capsys):
    target = tmp_path / "river.zip"
    call_command("export_campaign", "river-valley", str(target))
    assert "Exported River Valley" in capsys.readouterr().out
    with pytest.raises(CommandError, match="already has a campaign"):
        call_command("import_campaign", str(target))
    empty_instance()
    call_command("import_campaign", str(target))
    assert "Imported River Valley at /c/river-valley/." in capsys.readouterr().out
    with pytest.raises(CommandError, match="no campaign with the slug 'nowhere'"):
        call_command("export_campaign", "nowhere", str(target))
