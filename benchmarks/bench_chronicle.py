"""The chronicle page and feed at 1,000 and 10,000 items: server CPU and queries, as a GM (who reads every item)
and as a player (who reads their own and the public ones).

Needs DATABASE_URL pointing at PostgreSQL (says so and exits 2 otherwise); builds each campaign in a throwaway
database (recruits, trainings and deaths in the audit trail, arrivals and captures in the map's hour log,
grants in the ledger, among 20 commanders of 10 players) and requests it through Django's test client. CPU
milliseconds of this process, min and median of BENCH_CHRONICLE_REPEATS (default 3), with `/healthz` and the
audit trail's first page (the same records, paginated in the database) measured in the same run as baselines.
Prints one JSON line per size.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import emit, grant_each, throwaway_postgres

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

REPEATS = int(os.environ.get("BENCH_CHRONICLE_REPEATS", "3"))
SIZES = (1_000, 10_000)
ENTRIES_PER_HOUR = 4


def build(items: int):
    """A campaign with about `items` chronicle items; returns (gm, a player, the player's feed token)."""
    from django.contrib.auth import get_user_model

    from campaign.campaigns.services import feed_token_reset
    from campaign.models import (
        AuditEntry,
        Campaign,
        Commander,
        Day,
        Event,
        HourLog,
        Membership,
        TacticalMap,
        Unit,
        UnitType,
    )

    users = get_user_model().objects
    gm = users.create_user(username=f"gm-{items}")
    players = [users.create_user(username=f"p{i}-{items}") for i in range(10)]
    campaign = Campaign.objects.create(name=f"Bench {items}", slug=f"bench-{items}")
    Membership.objects.bulk_create([Membership(campaign=campaign, user=gm, role="gm")]
                                   + [Membership(campaign=campaign, user=p, role="player") for p in players])
    now = timezone.now()
    event = Event.objects.create(campaign=campaign, name="Bench", starts_at=now, ends_at=now + timedelta(days=2),
                                 status=Event.Status.RUNNING)
    Day.objects.create(event=event, number=1)
    TacticalMap.objects.create(campaign=campaign, width_inches=100, height_inches=100)
    commanders = Commander.objects.bulk_create([Commander(campaign=campaign, name=f"C{i}", power="Cleric",
                                                          player=players[i % 10]) for i in range(20)])
    unit_type = UnitType.objects.create(campaign=campaign, name="Spear", strength=2)
    units = Unit.objects.bulk_create([Unit(campaign=campaign, commander=commanders[i % 20], unit_type=unit_type,
                                           strength=2) for i in range(200)])
    grants, hours = items // 10, items * 3 // 10 // ENTRIES_PER_HOUR
    grant_each([commanders[i % 20] for i in range(grants)], 5, reason="Prize", actor=gm)
    actions = ("unit.recruit", "unit.train", "unit.kill")
    AuditEntry.objects.bulk_create([AuditEntry(
        campaign=campaign, action=actions[i % 3], target="Spear, Strength 2",
        data={"unit": units[i % 200].pk, "commander": units[i % 200].commander_id, "price": 30, "paid": 30,
              "strength": 3, "paid_by": units[i % 200].commander_id})
        for i in range(items - grants - hours * ENTRIES_PER_HOUR)])
    HourLog.objects.bulk_create([HourLog(event=event, hour=h + 1, entries=[
        {"kind": "arrived", "army": 0, "name": f"A{h}-{k}", "promised": h, "at": [1.0, 1.0]} if k % 2 else
        {"kind": "captured", "location": 0, "name": "Town", "army": 0, "army_name": f"A{h}", "commander":
         commanders[k % 20].pk} for k in range(ENTRIES_PER_HOUR)]) for h in range(hours)])
    return gm, players[0], feed_token_reset(user=players[0], current="").token


def timed(client: Client, url: str) -> dict[str, object]:
    times = []
    for _ in range(REPEATS):
        started = time.process_time()
        response = client.get(url)
        times.append(time.process_time() - started)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    return {"cpu_ms": {"min": round(min(times) * 1000, 1), "median": round(statistics.median(times) * 1000, 1)},
            "queries": len(ctx.captured_queries)}


def main() -> None:
    settings.DEBUG, settings.ALLOWED_HOSTS = False, ["testserver"]
    with throwaway_postgres("chronicle"):
        healthz = timed(Client(), "/healthz")["cpu_ms"]["median"]  # type: ignore[index]
        for items in SIZES:
            gm, player, token = build(items)
            base = f"/c/bench-{items}/"
            as_gm, as_player = Client(), Client()
            as_gm.force_login(gm)
            as_player.force_login(player)
            as_gm.get(f"{base}chronicle/")  # warm the template caches, as in a running server
            figures = {"gm_page": timed(as_gm, f"{base}chronicle/"),
                       "gm_audit_page": timed(as_gm, f"{base}audit/"),
                       "player_page": timed(as_player, f"{base}chronicle/"),
                       "player_feed": timed(Client(), f"{base}chronicle/feed/{token}/")}
            emit({"benchmark": "chronicle", "database": "postgresql", "items": items, "healthz_cpu_ms": healthz,
                  **figures, **{f"{name}_ratio_to_healthz": round(f["cpu_ms"]["median"] / healthz, 1)  # type: ignore[index]
                                for name, f in figures.items()}})


if __name__ == "__main__":
    main()
