"""The tactical map as data: a compact JSON of what one member may see, built only from selectors.map_view (fog
of war is applied there, so this module adds nothing a viewer may not know) and drawn by the browser.

Short keys and rounded inches keep 5,000 armies small; the version is a hash of the data itself, so a viewer's
version changes only when something they see changes (an enemy's hidden order leaves it as it was). A page that
has a version gets only what changed since (map_data_since), while that version is remembered.
"""

from __future__ import annotations

import hashlib
import json

from django.core.cache import cache
from django.urls import reverse

from campaign.map import selectors
from campaign.models import Commander, DueBattle, Membership


def _inches(value: float) -> float:
    return round(value, 2)


def _army(marker: selectors.ArmyMarker) -> dict:
    """One army: id, name (n), commander (c), x, y, miniatures (m, null if unknown), own, and, when seen by a
    reveal, the hour it was seen (seen); with an order: its kind (k), arrival hour (at), destination in words
    (to) and the route still ahead (p)."""
    row: dict = {"id": marker.id, "n": marker.name, "c": marker.commander, "x": _inches(marker.x),
                 "y": _inches(marker.y), "m": marker.miniatures, "own": marker.own}
    if marker.as_of_hour is not None:
        row["seen"] = marker.as_of_hour
    if marker.order_id and marker.own:
        ahead = [(marker.x, marker.y), *marker.path[1:]] if len(marker.path) > 1 else []
        row.update(o=marker.order_id, k=marker.order_kind, at=marker.arrival_hour, to=marker.destination,
                   p=[[_inches(x), _inches(y)] for x, y in ahead])
    return row


def battle_entry(row: dict, status: str, where: dict[int, tuple[float, float]]) -> dict:
    """A Battle due or fought, placed at its location, else between the armies this viewer can see in it."""
    location = row["location"]
    if location is not None:
        x, y = location.x, location.y
    else:
        points = [where[pk] for pk, _ in row["sides"] if pk in where] or [(0.0, 0.0)]
        x, y = sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    return {"id": row["id"], "hour": row["hour"], "status": status, "x": _inches(x), "y": _inches(y),
            "armies": row["armies"], "ids": [pk for pk, _ in row["sides"]], "at": location.name if location else ""}


def map_data(*, view: selectors.MapView, membership: Membership) -> dict:
    """Everything the map page draws, for this member: terrain, locations, Bases, armies with their routes,
    Battles due and fought this Event, and the hour. A game master also gets the commanders (to reveal to)."""
    tactical_map = view.tactical_map
    slug = tactical_map.campaign.slug
    where = {a.id: (a.x, a.y) for a in view.armies}
    battles = [battle_entry(b, DueBattle.Status.DUE, where) for b in view.due_battles]
    if view.event is not None:
        own = set() if view.is_gm else selectors.own_commander_ids(membership=membership)
        battles += [battle_entry(b, DueBattle.Status.FOUGHT, where) for b in selectors.due_battles_for(
            event=view.event, is_gm=view.is_gm, own_ids=own, status=DueBattle.Status.FOUGHT)]
    data = {
        "w": tactical_map.width_inches, "h": tactical_map.height_inches,
        "picture": (f"{reverse('map-picture', args=[slug])}?v={tactical_map.picture.name}"
                    if tactical_map.picture else None),
        "contact": tactical_map.contact_inches, "gm": view.is_gm, "hour": view.hour,
        "event": {"name": view.event.name, "status": view.event.status} if view.event else None,
        "regions": [{"n": r.name, "k": r.kind, "pen": r.penalty, "pts": r.points} for r in view.regions],
        "locations": [{"id": loc.pk, "n": loc.name, "size": loc.size, "x": _inches(loc.x), "y": _inches(loc.y),
                       "holder": loc.holder.name if loc.holder else "", "progress": loc.capture_progress,
                       "threshold": loc.capture_threshold} for loc in view.locations],
        "bases": [{"n": b.name, "x": _inches(b.x), "y": _inches(b.y), "bonus": b.morale_bonus,
                   "spent": b.spent_on_id is not None} for b in view.bases],
        "armies": [_army(a) for a in view.armies],
        "battles": battles,
    }
    if view.is_gm:
        data["commanders"] = [list(c) for c in Commander.objects.filter(campaign_id=tactical_map.campaign_id)
                              .order_by("name").values_list("pk", "name")]
    return data


def map_data_json(data: dict) -> tuple[str, str]:
    """The data as compact JSON and its version (a hash of exactly what this viewer sees)."""
    body = json.dumps(data, separators=(",", ":"))
    return body, hashlib.sha256(body.encode()).hexdigest()[:16]


CHANGES_TTL_SECONDS = 15 * 60
"""How long a viewer's data at one version is remembered, to send the changes since: a few polls' worth."""


def map_data_changes(old: dict, new: dict) -> dict:
    """What changed from `old` to `new` (both as map_data gives them): the armies changed or new ("set") and the
    ids of those gone ("gone"); every other part whole, where it differs."""
    before = {army["id"]: army for army in old["armies"]}
    now = {army["id"] for army in new["armies"]}
    changes = {key: value for key, value in new.items() if key != "armies" and old.get(key) != value}
    changes["armies"] = {"set": [army for army in new["armies"] if before.get(army["id"]) != army],
                         "gone": [army_id for army_id in before if army_id not in now]}
    return changes


def map_data_since(*, data: dict, viewer: tuple[int, int], seen: str | None) -> tuple[str, str]:
    """This viewer's (map id, user id) data as JSON fields and its version: ``"base":<seen>,"changes":{...}`` when
    the page shows version `seen` and it is still remembered for this viewer, else ``"map":{...}``, everything.
    The data is remembered under its version for the next poll."""
    body, version = map_data_json(data)
    cache.set(f"map-data-body:{viewer[0]}:{viewer[1]}:{version}", body, CHANGES_TTL_SECONDS)
    old = cache.get(f"map-data-body:{viewer[0]}:{viewer[1]}:{seen}") if seen and seen != version else None
    if old is None:
        return f'"map":{body}', version
    changes = map_data_changes(json.loads(old), json.loads(body))
    return f'"base":"{seen}","changes":{json.dumps(changes, separators=(",", ":"))}', version
