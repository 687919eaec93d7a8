"""The map page and its polled SVG for a game master with 500 armies on the map: server time and query count.

Runs on the configured database (SQLite by default; DATABASE_URL for PostgreSQL) in a throwaway test database,
through Django's test client. Prints one JSON line:
{"benchmark": "map_page", "armies": 500, "page_seconds": .., "page_queries": .., "svg_seconds": .., ...}.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

ARMIES = 500


def build():
    from django.contrib.auth import get_user_model

    from campaign.models import (
        Army,
        Campaign,
        Commander,
        Day,
        Event,
        Location,
        Membership,
        MoveOrder,
        TacticalMap,
        TerrainRegion,
        Unit,
        UnitType,
    )

    gm = get_user_model().objects.create_user(username="bench-gm")  # force_login: no password needed
    campaign = Campaign.objects.create(name="Bench", slug="bench")
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    now = timezone.now()
    event = Event.objects.create(campaign=campaign, name="Bench", starts_at=now, ends_at=now + timedelta(days=2),
                                 status=Event.Status.RUNNING)
    Day.objects.create(event=event, number=1)
    board = TacticalMap.objects.create(campaign=campaign, width_inches=100, height_inches=100)
    TerrainRegion.objects.bulk_create([TerrainRegion(map=board, name=f"Forest {i}", kind="difficult",
                                                     points=[[i * 9, 10], [i * 9 + 5, 10], [i * 9 + 5, 40]])
                                       for i in range(10)])
    Location.objects.bulk_create([Location(map=board, name=f"Town {i}", size="town", x=5 + i * 9, y=90,
                                           capture_threshold=15) for i in range(10)])
    unit_type = UnitType.objects.create(campaign=campaign, name="Spear", strength=2)
    commanders = Commander.objects.bulk_create([Commander(campaign=campaign, name=f"C{i}", power="Cleric")
                                                for i in range(50)])
    armies = Army.objects.bulk_create([Army(campaign=campaign, commander=commanders[i % 50], name=f"A{i}", map=board,
                                            x=1 + (i % 25) * 4, y=1 + (i // 25) * 4.5) for i in range(ARMIES)])
    Unit.objects.bulk_create([Unit(campaign=campaign, commander_id=a.commander_id, unit_type=unit_type, strength=2,
                                   army=a, state="army") for a in armies for _ in range(6)])
    MoveOrder.objects.bulk_create([MoveOrder(army=a, event=event, kind="point", target_x=a.x, target_y=a.y + 3,
                                             path=[[a.x, a.y], [a.x, a.y + 3]], ordered_hour=0, arrival_hour=1)
                                   for a in armies])
    return gm


def timed(client: Client, url: str) -> tuple[float, int, int]:
    with CaptureQueriesContext(connection) as ctx:
        start = time.perf_counter()
        response = client.get(url)
        seconds = time.perf_counter() - start
    assert response.status_code == 200, response.status_code
    return seconds, len(ctx.captured_queries), len(response.content)


def main() -> None:
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False, serialize=False)
    try:
        gm = build()
        client = Client()
        client.force_login(gm)
        timed(client, "/c/bench/map/")  # warm caches, as in a running server
        page_seconds, page_queries, page_bytes = timed(client, "/c/bench/map/")
        svg_seconds, svg_queries, _ = timed(client, "/c/bench/map/svg/")
        print(json.dumps({
            "benchmark": "map_page", "database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
            "armies": ARMIES, "page_seconds": round(page_seconds, 3), "page_queries": page_queries,
            "page_bytes": page_bytes, "svg_seconds": round(svg_seconds, 3), "svg_queries": svg_queries,
        }))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
