"""The done-when of #15 item 5: the demo campaign after a played Day, exported, the instance emptied, imported:
every row of every table and every file's bytes come back (compared by code, not by eye)."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.files.storage import default_storage
from django.db import models

from battles.demo import load_demo_battles
from campaign.campaigns import selectors as campaigns_selectors
from campaign.demo import DEMO_SLUG, load_demo
from campaign.economy.upkeep import day_close
from campaign.map.clock import event_clock_advance
from campaign.models import AuditEntry, Campaign, Event, UnitType
from campaign.transfer.graph import campaign_models
from campaign.transfer.import_ import campaign_import
from cardgames.demo import load_demo_matches
from tests.campaign.transfer.emptying import empty_instance
from tests.campaign.transfer.zips import export_bytes

pytestmark = pytest.mark.django_db


def _value(obj: models.Model, field: models.Field):
    """A field's value, people by user name and content types by name (their ids are the instance's own)."""
    value = getattr(obj, field.attname)
    if isinstance(field, models.FileField):
        return value.name
    if value is not None and isinstance(field, models.ForeignKey):
        if field.related_model is get_user_model():
            return ("user", get_user_model().objects.get(pk=value).username)
        if field.related_model is ContentType:
            return ("content type", ContentType.objects.get(pk=value).natural_key())
    return value


def snapshot(campaign: Campaign) -> tuple[dict, dict]:
    """Every row of every table the campaign has (with its id), and every file's bytes by name."""
    from campaign.transfer.graph import campaign_rows

    rows, files = {}, {}
    for model, path in campaign_models():
        fields = model._meta.concrete_fields
        table = {}
        for obj in campaign_rows(model, path, campaign):
            table[obj.pk] = {field.name: _value(obj, field) for field in fields}
            for field in fields:
                if isinstance(field, models.FileField) and (name := getattr(obj, field.attname).name):
                    with default_storage.open(name, "rb") as stored:
                        files[name] = stored.read()
        rows[model._meta.label_lower] = table
    used = {row["unit_type"] for row in rows["campaign.unit"].values()}
    rows["shared unit types"] = {
        t.name: {f.name: _value(t, f) for f in t._meta.concrete_fields if f.name not in ("id", "trains_to")}
        for t in UnitType.objects.filter(pk__in=used, campaign__isnull=True)}
    return rows, files


@pytest.fixture
def played_demo(media_root):
    """The demo with its matches and battles, an hour advanced and the Day closed, through the services."""
    campaign, _ = load_demo()
    load_demo_matches(campaign=campaign)
    load_demo_battles(campaign=campaign)
    gm = get_user_model().objects.get(username="gm")
    event = Event.objects.get(campaign=campaign)
    event_clock_advance(event=event, actor=gm)
    day_close(day=campaigns_selectors.event_current_day(event=event), actor=gm)
    return campaign


def test_export_then_import_into_an_emptied_instance_brings_back_every_row_and_file(played_demo):
    before_rows, before_files = snapshot(played_demo)
    assert before_rows["campaign.upkeepbill"], "the Day was not closed"
    assert before_rows["campaign.hourlog"], "no hour was played"
    assert before_rows["battles.battle"]
    assert before_rows["cardgames.matchaction"]
    assert before_files
    exported = export_bytes(played_demo)

    empty_instance()
    assert not Campaign.objects.exists()
    assert not get_user_model().objects.exists()
    for name in before_files:
        default_storage.delete(name)

    imported = campaign_import(upload=io.BytesIO(exported), actor=None)

    assert imported.slug == DEMO_SLUG
    after_rows, after_files = snapshot(imported)
    (import_entry,) = AuditEntry.objects.filter(campaign=imported, action="campaign.import")
    del after_rows["campaign.auditentry"][import_entry.pk]
    for label in before_rows:
        assert after_rows[label] == before_rows[label], f"{label} differs after the round trip"
    assert after_files == before_files
    assert not get_user_model().objects.get(username="amira").has_usable_password()
