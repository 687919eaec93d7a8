"""A campaign as one zip: `muster-export.json` (format "muster-export", version 1: every row of the campaign as
Django serializes it, people by user name, content types by name) and `files/<name>` for every picture the rows
name (the map picture, artwork). Primary keys are kept as they are, because rows name each other by id inside
their JSON too (a Battle's config, a match's state, an audit entry's data): the import brings them back unchanged.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import IO, Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.files.storage import Storage
from django.db import connection, models, transaction
from django.utils import timezone

from campaign.campaigns.audit import audit_record
from campaign.models import Campaign, UnitType
from campaign.transfer.graph import campaign_models, campaign_rows

FORMAT = "muster-export"
VERSION = 1
DOCUMENT = "muster-export.json"
FILES = "files/"
CHUNK_BYTES = 1024 * 1024
"""Pictures go into and out of an export a mebibyte at a time."""


def _json_default(value: Any) -> str:
    """Dates and times in full (Django's encoder drops microseconds, and the round trip must not)."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    raise TypeError(f"Cannot export a {type(value).__name__}.")


def _serialize(rows: models.QuerySet | list) -> list[dict]:
    return serializers.serialize("python", rows, use_natural_foreign_keys=True)


def _keys_to(model: type[models.Model], target: type[models.Model]) -> list[models.ForeignKey]:
    return [f for f in model._meta.concrete_fields
            if isinstance(f, models.ForeignKey) and f.related_model is target]


def _shared_unit_types(campaign: Campaign) -> list[UnitType]:
    """The default unit types the campaign's rows name (and the defaults those train into)."""
    wanted: set[int] = set()
    for model, path in campaign_models():
        for field in _keys_to(model, UnitType):
            wanted |= set(campaign_rows(model, path, campaign).exclude(**{field.attname: None})
                          .values_list(field.attname, flat=True))
    found: dict[int, UnitType] = {}
    asked: set[int] = set()
    while wanted - asked:
        asked |= wanted
        found |= {t.pk: t for t in UnitType.objects.filter(pk__in=wanted, campaign__isnull=True)}
        wanted = {t.trains_to_id for t in found.values() if t.trains_to_id}
    return sorted(found.values(), key=lambda unit_type: unit_type.pk)


def _files(objects: list[models.Model]) -> dict[str, Storage]:
    """Every stored file the rows name, with the storage holding it."""
    return {getattr(obj, field.attname).name: field.storage for obj in objects for field in obj._meta.concrete_fields
            if isinstance(field, models.FileField) and getattr(obj, field.attname)}


def _usernames(model: type[models.Model], rows: models.QuerySet) -> set[str]:
    names: set[str] = set()
    for field in _keys_to(model, get_user_model()):
        names |= set(rows.exclude(**{field.attname: None}).values_list(f"{field.name}__username", flat=True))
    return names


def export_document(campaign: Campaign) -> tuple[dict, list[models.Model]]:
    """The document of the campaign, and the rows whose files go beside it."""
    rows: list[dict] = []
    usernames: set[str] = set()
    with_files: list[models.Model] = []
    for model, path in campaign_models():
        queryset = campaign_rows(model, path, campaign)
        objects = list(queryset)
        rows += _serialize(objects)
        usernames |= _usernames(model, queryset)
        if any(isinstance(f, models.FileField) for f in model._meta.concrete_fields):
            with_files += objects
    shared = _shared_unit_types(campaign)
    users = get_user_model().objects.filter(username__in=usernames).order_by("username")
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "campaign": {"slug": campaign.slug, "name": campaign.name},
        "users": [{"username": u.username, "first_name": u.first_name, "last_name": u.last_name, "email": u.email}
                  for u in users],
        "shared_unit_types": _serialize(shared),
        "rows": rows,
    }
    return document, with_files + shared


@contextmanager
def _one_snapshot() -> Iterator[None]:
    """Every query of the export reads the same moment, though play goes on meanwhile: one transaction, and on
    PostgreSQL a repeatable-read one (its default lets each query see the commits made since the one before).
    Inside a transaction already (a test, a command's caller) the export reads in that one."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def campaign_export(*, campaign: Campaign, actor, into: IO[bytes]) -> None:
    """Write the campaign's zip (see the module's docstring) into the file `into`; records who exported it. The
    pictures are copied in chunks, so a campaign's export never needs its pictures' size in memory."""
    with _one_snapshot():
        document, with_files = export_document(campaign)
    files = []
    with zipfile.ZipFile(into, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, storage in sorted(_files(with_files).items()):
            if not storage.exists(name):
                continue  # a row naming a file the server lost: the import says the row has none
            digest = hashlib.sha256()
            with storage.open(name, "rb") as stored, archive.open(FILES + name, "w", force_zip64=True) as member:
                while chunk := stored.read(CHUNK_BYTES):
                    digest.update(chunk)
                    member.write(chunk)
            files.append({"name": name, "sha256": digest.hexdigest()})
        document["files"] = files
        archive.writestr(DOCUMENT, json.dumps(document, default=_json_default, ensure_ascii=False, indent=1))
    audit_record(campaign=campaign, actor=actor, action="campaign.export", target=campaign,
                 data={"rows": len(document["rows"]), "files": len(files)})
