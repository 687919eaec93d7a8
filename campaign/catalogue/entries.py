"""Loading the unit catalogue (campaign/catalogue/data/unit_catalogue.json, or a campaign's own list).

The file is a list of unit types: {"name", "strength" (an int, or null for "-"), "role", "path", "traits",
"text", "effects" (in the battle engine's vocabulary, battles/engine/effects.py), "quest", "trains_to" (a name
in the same list or scope; a campaign's scope includes the defaults it sees), "third_training" (the words),
"third_training_traits" and "third_training_effects" (what the engine plays after the third training)}. Loading is
idempotent: a type is matched by name within its scope (a campaign, or the global defaults), updated in
place when it changed and left alone when not; artwork is never touched. A bad entry stops the load with
a message naming it, before anything is written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from battles.engine.effects import compile_effects
from battles.engine.state import TRAITS
from campaign.locking import lock
from campaign.models import Campaign, UnitPath, UnitRole, UnitType
from gamekit.errors import RuleError

DEFAULT_CATALOGUE = Path(__file__).resolve().parent / "data" / "unit_catalogue.json"
FIELDS = ("strength", "role", "path", "traits", "text", "effects", "quest", "third_training", "third_training_traits",
          "third_training_effects")


@dataclass
class CatalogueLoadResult:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.created) + len(self.updated) + len(self.unchanged)


def catalogue_effects_check(*, name: str, effects: object) -> list:
    """A card's effects, checked against the battle engine's vocabulary: a card the engine cannot play is refused
    here, when it is written, not in the middle of a Battle."""
    if not isinstance(effects, list):
        raise ValidationError(f"{name}: effects must be a list of effects, like "
                              '[{"when": "discard", "do": "add", "amount": 1, "to": "own"}], or [] for none.')
    try:
        compile_effects(name, effects)
    except RuleError as exc:
        raise ValidationError(exc.message) from exc
    return effects


def catalogue_gained_traits_check(*, name: str, traits: object) -> list[str]:
    """The traits a third training gives: the battle engine must know each one, since it plays them."""
    if not isinstance(traits, list) or not all(isinstance(t, str) for t in traits):
        raise ValidationError(f"{name}: third_training_traits must be a list of traits, or [] for none.")
    unknown = [t for t in traits if t not in TRAITS]
    if unknown:
        raise ValidationError(f"{name}: the third training can give only traits the battle engine plays "
                              f"({', '.join(TRAITS)}), not {', '.join(unknown)}.")
    return list(dict.fromkeys(traits))


def catalogue_entry_of(unit_type: UnitType) -> dict:
    """A unit type as a catalogue entry: what a campaign's own version of a default starts from."""
    entry = {f: getattr(unit_type, f) for f in FIELDS}
    entry["name"] = unit_type.name
    entry["trains_to"] = unit_type.trains_to.name if unit_type.trains_to else None
    return entry


def catalogue_entry_clean(raw: object, *, index: int = 0) -> dict:
    """One entry checked and normalised (its trains_to is checked against the scope by catalogue_load)."""
    if not isinstance(raw, dict):
        raise ValidationError(f"Catalogue entry {index + 1} is not an object: each unit type is a JSON object.")
    name = raw.get("name")
    label = f"Catalogue entry {index + 1} ({name!r})"
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 120:
        raise ValidationError(f"Catalogue entry {index + 1} needs a name of 1 to 120 characters.")
    strength = raw.get("strength")
    if strength == "-":
        strength = None
    if strength is not None and (isinstance(strength, bool) or not isinstance(strength, int) or strength < 0):
        raise ValidationError(f"{label}: strength must be a whole number of 0 or more, or null for \"-\".")
    role, path = raw.get("role") or "", raw.get("path") or ""
    if role not in UnitRole.values and role != "":
        raise ValidationError(f"{label}: role must be one of {', '.join(UnitRole.values)} or null.")
    if path not in UnitPath.values and path != "":
        raise ValidationError(f"{label}: path must be one of {', '.join(UnitPath.values)} or null.")
    traits = raw.get("traits") or []
    if not isinstance(traits, list) or not all(isinstance(t, str) for t in traits):
        raise ValidationError(f"{label}: traits must be a list of words.")
    effects = raw.get("effects")
    effects = catalogue_effects_check(name=name.strip(), effects=[] if effects is None else effects)
    trains_to = raw.get("trains_to") or None
    if trains_to is not None and not isinstance(trains_to, str):
        raise ValidationError(f"{label}: trains_to must be the name of another unit type, or null.")
    quest = raw.get("quest", False)
    if not isinstance(quest, bool):
        raise ValidationError(f"{label}: quest must be true or false.")
    return {
        "name": name.strip(), "strength": strength, "role": role, "path": path, "traits": traits,
        "text": str(raw.get("text") or ""), "effects": effects, "quest": quest,
        "third_training": str(raw.get("third_training") or ""), "trains_to": trains_to.strip() if trains_to else None,
        "third_training_traits": catalogue_gained_traits_check(name=label,
                                                               traits=raw.get("third_training_traits") or []),
        "third_training_effects": catalogue_effects_check(name=f"{label}'s third training",
                                                          effects=raw.get("third_training_effects") or []),
    }


@transaction.atomic
def catalogue_load(*, entries: list, campaign: Campaign | None = None,
                   actor: User | None = None) -> CatalogueLoadResult:
    """Load unit types into a scope (a campaign's own catalogue, or the global defaults when campaign is None)."""
    if not isinstance(entries, list):
        raise ValidationError("A unit catalogue is a JSON list of unit types.")
    cleaned = [catalogue_entry_clean(raw, index=i) for i, raw in enumerate(entries)]
    names = [entry["name"] for entry in cleaned]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValidationError(f"The catalogue names these twice: {', '.join(duplicates)}. Keep one of each.")
    existing = {t.name: t for t in lock(UnitType.objects).filter(campaign=campaign)}
    defaults = {} if campaign is None else {t.name: t for t in UnitType.objects.filter(campaign__isnull=True)}
    known = set(existing) | set(names) | set(defaults)
    for entry in cleaned:
        if entry["trains_to"] and entry["trains_to"] not in known:
            raise ValidationError(f"{entry['name']} trains to {entry['trains_to']!r}, which is not in the catalogue: "
                                  "add it or fix the name.")
    result = CatalogueLoadResult()
    changed_entries = {}
    for entry in cleaned:
        unit_type = existing.get(entry["name"])
        if unit_type is None:
            unit_type = UnitType.objects.create(campaign=campaign, name=entry["name"],
                                                **{f: entry[f] for f in FIELDS})
            existing[unit_type.name] = unit_type
            result.created.append(unit_type.name)
            continue
        changed = [f for f in FIELDS if getattr(unit_type, f) != entry[f]]
        if changed:
            for f in changed:
                setattr(unit_type, f, entry[f])
            unit_type.save(update_fields=changed)
        changed_entries[unit_type.name] = changed
    for entry in cleaned:
        unit_type = existing[entry["name"]]
        target = (existing.get(entry["trains_to"]) or defaults[entry["trains_to"]]) if entry["trains_to"] else None
        if unit_type.trains_to_id != (target.pk if target else None):
            unit_type.trains_to = target
            unit_type.save(update_fields=["trains_to"])
            if unit_type.name not in result.created:  # a type made now is new, not updated
                changed_entries.setdefault(unit_type.name, []).append("trains_to")
    if result.created and defaults and campaign is not None:
        _repoint_to_replacements(campaign=campaign, own=existing, replaced=result.created)
    for name, changed in changed_entries.items():
        (result.updated if changed else result.unchanged).append(name)
    if campaign is not None:
        from campaign.campaigns.audit import audit_record

        audit_record(campaign=campaign, actor=actor, action="catalogue.load", target=campaign,
                     data={"created": len(result.created), "updated": len(result.updated)})
    return result


def _repoint_to_replacements(*, campaign: Campaign, own: dict[str, UnitType], replaced: list[str]) -> None:
    """The campaign's types that trained into a default now train into the campaign's version of it."""
    for unit_type in UnitType.objects.filter(campaign=campaign, trains_to__campaign__isnull=True,
                                             trains_to__name__in=replaced).select_related("trains_to"):
        unit_type.trains_to = own[cast(UnitType, unit_type.trains_to).name]
        unit_type.save(update_fields=["trains_to"])


def catalogue_read(path: Path | str = DEFAULT_CATALOGUE) -> list:
    """The entries of a catalogue file, or a ValidationError saying what is wrong with it."""
    path = Path(path)
    if not path.exists():
        raise ValidationError(f"There is no catalogue at {path}: pass --file with the path of one.")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValidationError(f"{path} is not valid JSON ({exc}): fix the file and load it again.") from exc


def catalogue_load_file(*, path: Path | str = DEFAULT_CATALOGUE, campaign: Campaign | None = None,
                        actor: User | None = None) -> CatalogueLoadResult:
    return catalogue_load(entries=catalogue_read(path), campaign=campaign, actor=actor)
