"""Bringing an export (campaign.transfer.export) into this instance, all at once or not at all.

Rows keep their primary keys (their JSON names rows by id), so the import refuses when this instance already holds
a row with one of those ids, or a campaign with the slug: it is meant for an instance without that campaign (a
new server, or one restored from a backup). People are matched by user name; one the instance lacks is created
without a usable password (they set one with "forgot password" or an administrator does). The catalogue's default
unit types are matched by name, and created where the instance lacks them.

The ledger's rows come back as they were written (no lunari move: this and campaign.economy.ledger are the only
writers of ledger rows), so its rules are checked instead: every transaction sums to zero and every account's
cached balance is the sum of its entries.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.files.base import File
from django.core.files.storage import default_storage
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection, models, transaction
from django.db.models import F, Sum
from django.db.models.functions import Coalesce

from campaign.campaigns.audit import audit_record
from campaign.models import Account, AuditEntry, Campaign, LedgerTransaction, Membership, Role, UnitType
from campaign.transfer.export import CHUNK_BYTES, DOCUMENT, FILES, FORMAT, VERSION
from campaign.transfer.graph import SHARED_CATALOGUE, campaign_models, campaign_rows

IMPORTED = "campaign.import"
MAX_UNPACKED_BYTES = 8 * 2**30
"""The most an export may unpack to: its document and pictures (each at most 10 MB), with room to spare."""


def _refuse(sentence: str) -> ValidationError:
    return ValidationError(sentence)


class ExportFiles:
    """The pictures of an opened export, each checked against the sha256 its document lists and read from the zip
    only when stored, a chunk at a time."""

    def __init__(self, archive: zipfile.ZipFile, listed: dict[str, str]):
        self.archive, self.sha256 = archive, listed

    def __contains__(self, name: object) -> bool:
        return name in self.sha256

    def __len__(self) -> int:
        return len(self.sha256)

    def names(self) -> set[str]:
        return set(self.sha256)

    def open(self, name: str) -> IO[bytes]:
        return self.archive.open(FILES + name)


def _sha256(stream: IO[bytes]) -> str:
    digest = hashlib.sha256()
    while chunk := stream.read(CHUNK_BYTES):
        digest.update(chunk)
    return digest.hexdigest()


def _refuse_too_large(archive: zipfile.ZipFile) -> None:
    """What a zip says it unpacks to bounds what reading it unpacks (zipfile stops at each member's stated size),
    so a zip that would unpack to more than a campaign's export could is refused before anything is read."""
    unpacked = sum(info.file_size for info in archive.infolist())
    if unpacked > MAX_UNPACKED_BYTES:
        raise _refuse(f"This zip unpacks to {unpacked / 2**30:.1f} GiB, more than an export of a campaign "
                      f"({MAX_UNPACKED_BYTES / 2**30:.0f} GiB at most): choose the zip that “Download export” gave.")


def _document(archive: zipfile.ZipFile) -> dict:
    if DOCUMENT not in archive.namelist():
        raise _refuse(f"This zip has no {DOCUMENT}: it is not a Muster export. Choose the zip that "
                      "“Download export” gave.")
    try:
        document = json.loads(archive.read(DOCUMENT))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise _refuse(f"The export's {DOCUMENT} is damaged ({error}): download the export again.") from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _refuse("This zip is not a Muster export (its document does not say “muster-export”).")
    if document.get("version") != VERSION:
        raise _refuse(f"This export is version {document.get('version')}; this Muster reads version {VERSION} only. "
                      "Import it into the Muster that exported it, or one of the same version.")
    return document


def _files(archive: zipfile.ZipFile, document: dict) -> ExportFiles:
    """The files the document lists, each present and with its listed sha256 (a picture in the zip the document
    does not list is never brought in)."""
    names, listed = set(archive.namelist()), {}
    for entry in document.get("files", []):
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or FILES + name not in names:
            raise _refuse(f"The file {name} in the export is missing or damaged: download the export again.")
        with archive.open(FILES + name) as member:
            if _sha256(member) != entry.get("sha256"):
                raise _refuse(f"The file {name} in the export is missing or damaged: download the export again.")
        listed[name] = entry["sha256"]
    return ExportFiles(archive, listed)


@contextmanager
def opened_export(upload: IO[bytes]) -> Iterator[tuple[dict, ExportFiles]]:
    """The document and files of an export zip while it is open, or a refusal saying what is wrong with it."""
    try:
        archive = zipfile.ZipFile(upload)
    except (zipfile.BadZipFile, EOFError, OSError) as error:
        raise _refuse(f"This file is not a readable zip ({error}): download the export again.") from error
    with archive:
        try:
            _refuse_too_large(archive)
            document = _document(archive)
            files = _files(archive, document)
        except (zipfile.BadZipFile, EOFError, OSError) as error:
            raise _refuse(f"This file is not a readable zip ({error}): download the export again.") from error
        yield document, files


def _ensure_users(document: dict) -> None:
    user_model = get_user_model()
    for person in document["users"]:
        user, created = user_model.objects.get_or_create(
            username=person["username"],
            defaults={key: person.get(key, "") for key in ("first_name", "last_name", "email")})
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])


def _defaults_missing(document: dict) -> list[dict]:
    """The exported default unit types this instance has none of the same name of."""
    here = set(UnitType.objects.filter(campaign__isnull=True).values_list("name", flat=True))
    return [row for row in document["shared_unit_types"] if row["fields"]["name"] not in here]


def _shared_unit_type_ids(document: dict) -> dict[int, int]:
    """Each exported default unit type's id -> the id of the same default here (made if missing)."""
    ids: dict[int, int] = {}
    for row in document["shared_unit_types"]:
        here = UnitType.objects.filter(campaign__isnull=True, name=row["fields"]["name"]).values_list(
            "pk", flat=True).first()
        if here is None:
            fields = {**row["fields"], "trains_to": None}
            taken = UnitType.objects.filter(pk=row["pk"]).exists()
            here = _save({"model": row["model"], "pk": None if taken else row["pk"], "fields": fields}).pk
        ids[row["pk"]] = here
    for row in document["shared_unit_types"]:  # the chain of trainings, once every default exists
        trains_to = row["fields"].get("trains_to")
        if trains_to in ids:
            UnitType.objects.filter(pk=ids[row["pk"]], trains_to__isnull=True).update(trains_to_id=ids[trains_to])
    return ids


def _save(row: dict) -> models.Model:
    (deserialized,) = serializers.deserialize("python", [row])
    deserialized.save()
    return deserialized.object


def _remap_unit_types(rows: list[dict], ids: dict[int, int]) -> None:
    for row in rows:
        model = apps.get_model(row["model"])
        for field in model._meta.concrete_fields:
            if isinstance(field, models.ForeignKey) and field.related_model is UnitType:
                value = row["fields"].get(field.name)
                if value in ids:
                    row["fields"][field.name] = ids[value]


def _refuse_taken_ids(rows: list[dict]) -> None:
    by_model: dict[str, list] = defaultdict(list)
    for row in rows:
        by_model[row["model"]].append(row["pk"])
    for label, pks in by_model.items():
        model = apps.get_model(label)
        taken = list(model._base_manager.filter(pk__in=pks).values_list("pk", flat=True)[:3])
        if taken:
            raise _refuse(f"This instance already holds {model._meta.verbose_name_plural} with the ids the export "
                          f"uses ({', '.join(map(str, taken))}): import it into an instance without that campaign "
                          "(a new one, or one restored from before it existed).")


def _store_files(rows: list[dict], files: ExportFiles) -> None:
    """Write the files the rows name; a name this instance already uses for other bytes gets a new name, and the
    rows follow. A row naming a file the export lacks (the server had lost it) is left without one."""
    renamed: dict[str, str] = {}
    named = {row["fields"][f.name] for row in rows for f in apps.get_model(row["model"])._meta.concrete_fields
             if isinstance(f, models.FileField) and row["fields"].get(f.name)}
    for name in sorted(named & files.names()):
        if default_storage.exists(name):
            with default_storage.open(name, "rb") as stored:
                if _sha256(stored) == files.sha256[name]:
                    continue
        with files.open(name) as member:
            renamed[name] = default_storage.save(name, File(member, name=name))
    for row in rows:
        model = apps.get_model(row["model"])
        for field in model._meta.concrete_fields:
            if isinstance(field, models.FileField) and row["fields"].get(field.name):
                name = row["fields"][field.name]
                row["fields"][field.name] = renamed.get(name, name) if name in files else ""


def _refuse_other_models(document: dict) -> None:
    """Rows only of the models a campaign has (never a user or a permission), and shared rows only of defaults."""
    allowed = {model._meta.label_lower for model, _ in campaign_models()}
    strays = {row["model"] for row in document["rows"]} - allowed
    strays |= {row["model"] for row in document["shared_unit_types"]
               if row["model"] != SHARED_CATALOGUE or row["fields"].get("campaign") is not None}
    if strays:
        raise _refuse(f"The export holds rows no campaign has ({', '.join(sorted(strays))}): it is damaged or from "
                      "an edited file.")


def _refuse_rows_of_another_campaign(campaign: Campaign, rows: list[dict]) -> None:
    """Every row brought in belongs to the campaign brought in (an edited file could aim at another one)."""
    imported: dict[str, set] = defaultdict(set)
    for row in rows:
        imported[row["model"]].add(row["pk"])
    for model, path in campaign_models():
        pks = imported.get(model._meta.label_lower)
        if pks and campaign_rows(model, path, campaign).filter(pk__in=pks).count() != len(pks):
            raise _refuse(f"The export holds {model._meta.verbose_name_plural} of another campaign: it is damaged or "
                          "from an edited file.")


def _refuse_unbalanced_ledger(campaign: Campaign) -> None:
    unbalanced = (LedgerTransaction.objects.filter(campaign=campaign)
                  .annotate(total=Coalesce(Sum("entries__amount"), 0)).exclude(total=0).values_list("pk", flat=True))
    astray = (Account.objects.filter(campaign=campaign).annotate(total=Coalesce(Sum("entries__amount"), 0))
              .exclude(balance=F("total")).values_list("pk", flat=True))
    if unbalanced.exists() or astray.exists():
        raise _refuse(f"The export's ledger does not add up (transactions {list(unbalanced[:3])}, accounts "
                      f"{list(astray[:3])}): it is damaged or from an edited file.")


def _imported_before(slug: str, document: dict) -> Campaign | None:
    """The campaign at `slug` if this very export made it (a retried upload), None if the slug is free; refused
    if the instance holds that campaign otherwise."""
    existing = Campaign.objects.filter(slug=slug).first()
    if existing is None:
        return None
    if AuditEntry.objects.filter(campaign=existing, action=IMPORTED,
                                 data__exported_at=document.get("exported_at")).exists():
        return existing
    raise _refuse(f"This instance already has a campaign “{slug}”: the export is of a campaign it holds.")


def _bring_in(document: dict, files: ExportFiles) -> tuple[Campaign, bool]:
    """The campaign brought in, and whether it is new (False: this export was imported before)."""
    rows = document["rows"]
    _refuse_other_models(document)
    (campaign_row,) = (row for row in rows if row["model"] == "campaign.campaign")
    if (before := _imported_before(campaign_row["fields"]["slug"], document)) is not None:
        return before, False
    _refuse_taken_ids(rows)
    _ensure_users(document)
    _store_files(rows + _defaults_missing(document), files)
    _remap_unit_types(rows, _shared_unit_type_ids(document))
    for deserialized in serializers.deserialize("python", rows):
        deserialized.save()
    connection.check_constraints(table_names=sorted({apps.get_model(r["model"])._meta.db_table for r in rows}))
    campaign = Campaign.objects.get(pk=campaign_row["pk"])
    _refuse_rows_of_another_campaign(campaign, rows)
    _refuse_unbalanced_ledger(campaign)
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), [model for model, _ in campaign_models()]):
            cursor.execute(statement)
    return campaign, True


@transaction.atomic
def campaign_import(*, upload: IO[bytes], actor, join_as_gm: bool = False) -> Campaign:
    """Bring the exported campaign in, with its people, files and history; records who imported it. With
    `join_as_gm` the importer becomes a game master of it if the export does not already make them a member.
    Idempotent: the same export uploaded again (a phone's retry) answers the campaign it made, changing nothing."""
    with opened_export(upload) as (document, files):
        try:
            campaign, new = _bring_in(document, files)
        except (KeyError, LookupError, TypeError, ValueError, DeserializationError, DatabaseError) as error:
            raise _refuse(f"The export's rows do not fit together ({error!r}): it is damaged or from an edited "
                          "file.") from error
    if not new:
        return campaign
    joined = join_as_gm and not Membership.objects.filter(campaign=campaign, user=actor).exists()
    if joined:
        Membership.objects.create(campaign=campaign, user=actor, role=Role.GM)
    audit_record(campaign=campaign, actor=actor, action=IMPORTED, target=campaign,
                 data={"rows": len(document["rows"]), "files": len(files),
                       "exported_at": document.get("exported_at", ""), "joined_as_gm": joined})
    return campaign
