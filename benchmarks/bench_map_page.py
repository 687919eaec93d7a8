"""The GM's map at 500 and 5,000 armies: its JSON (what the interactive map draws), the page shell, the SVG the
editor polls and the printed map: server CPU, queries and bytes (raw and gzipped).

Needs DATABASE_URL pointing at PostgreSQL (says so and exits 2 otherwise); builds each map in a throwaway
database and requests it through Django's test client as the GM (who sees every army). Per size: the JSON
as the first viewer after a change gets it (nothing remembered, gzip asked for: `data_cold`), a poll after one
army's order changed (`data_one_change`: only the changes since the version polled), an unchanged poll of it
with its version and token (`data_unchanged`, a 204), the page shell, the SVG a changed poll draws
and an unchanged SVG poll with its token, and the map printed (campaign.map.map_print: an A4 PNG now and 3 hours
ahead along every army's route, and the PDF); CPU milliseconds of this process, min and median of
BENCH_MAP_REPEATS (default 3), with `/healthz` measured in the same run as the baseline. Prints one JSON
line per size.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import emit, json_poll_url, throwaway_postgres

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

REPEATS = int(os.environ.get("BENCH_MAP_REPEATS", "3"))
SIZES = tuple(int(n) for n in os.environ.get("BENCH_MAP_SIZES", "500,5000").split(","))  # the tests use a small one


def build(armies: int):
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

    gm = get_user_model().objects.create_user(username=f"gm-{armies}")  # force_login: no password needed
    campaign = Campaign.objects.create(name=f"Bench {armies}", slug=f"bench-{armies}")
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
                                            x=1 + (i % 25) * 4, y=1 + (i // 25) * 4.5 % 99) for i in range(armies)])
    Unit.objects.bulk_create([Unit(campaign=campaign, commander_id=a.commander_id, unit_type=unit_type, strength=2,
                                   army=a, state="army") for a in armies for _ in range(6)])
    MoveOrder.objects.bulk_create([MoveOrder(army=a, event=event, kind="point", target_x=a.x, target_y=a.y + 3,
                                             path=[[a.x, a.y], [a.x, a.y + 3]], ordered_hour=0, arrival_hour=1)
                                   for a in armies])
    return gm


def timed(client: Client, url: str, *, cold: bool, expect: int = 200, gzipped: bool = False) -> dict[str, object]:
    """CPU ms (min, median), queries and bytes of GET `url`; `cold`: the cache emptied before each request;
    `gzipped`: asked with Accept-Encoding: gzip, so the CPU includes compressing and `bytes` is what is sent."""
    headers = {"HTTP_ACCEPT_ENCODING": "gzip"} if gzipped else {}
    times = []
    for _ in range(REPEATS):
        if cold:
            cache.clear()
        started = time.process_time()
        response = client.get(url, **headers)
        times.append(time.process_time() - started)
        if response.status_code != expect:
            raise SystemExit(f"{url} answered {response.status_code}, expected {expect}")
    if cold:
        cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, **headers)
    figures = {"cpu_ms": {"min": round(min(times) * 1000, 1), "median": round(statistics.median(times) * 1000, 1)},
               "queries": len(ctx.captured_queries)}
    if gzipped:  # what is sent, compressed by the view
        return figures | {"gzip_bytes": len(response.content), "content_encoding": response.get("Content-Encoding")}
    return figures | {"bytes": len(response.content), "gzip_bytes": len(gzip.compress(response.content))}


def one_change(client: Client, url: str, gm) -> dict[str, object]:
    """CPU ms (min, median), queries and bytes sent (gzipped when large) of the poll after one army's new order."""
    from campaign.map.orders import army_order_move
    from campaign.models import Army

    army = Army.objects.filter(campaign__slug=url.split("/")[2]).order_by("pk").first()
    times, sent = [], 0
    for repeat in range(REPEATS + 1):
        seen = json.loads(client.get(url).content)["v"]
        army_order_move(army=army, kind="point", x=army.x, y=army.y + 1 + repeat / 10, actor=gm)
        with CaptureQueriesContext(connection) as ctx:
            started = time.process_time()
            response = client.get(f"{url}?v={seen}", HTTP_ACCEPT_ENCODING="gzip")
            times.append(time.process_time() - started)
        body = gzip.decompress(response.content) if response.get("Content-Encoding") == "gzip" else response.content
        if "base" not in json.loads(body):  # (a small answer goes uncompressed)
            raise SystemExit(f"{url} sent everything after one change, not the changes")
        sent = len(response.content)
    return {"cpu_ms": {"min": round(min(times) * 1000, 1), "median": round(statistics.median(times) * 1000, 1)},
            "queries": len(ctx.captured_queries), "bytes_sent": sent}


def main() -> None:
    settings.DEBUG, settings.ALLOWED_HOSTS = False, ["testserver"]
    with throwaway_postgres("map_page"):
        healthz = timed(Client(), "/healthz", cold=False)["cpu_ms"]["median"]  # type: ignore[index]
        for armies in SIZES:
            client = Client()
            gm = build(armies)
            client.force_login(gm)
            page = f"/c/bench-{armies}/map/"
            client.get(page)  # warm the routing and template caches, as in a running server
            data_url = f"/c/bench-{armies}/map/data/"
            figures = {"data_one_change": one_change(client, data_url, gm),  # first: it changes the campaign
                       "data_cold": timed(client, data_url, cold=True, gzipped=True),
                       "data_unchanged": timed(client, json_poll_url(client, data_url), cold=False, expect=204),
                       "page": timed(client, page, cold=False),
                       "svg_changed": timed(client, f"/c/bench-{armies}/map/svg/", cold=True),
                       "export_png": timed(client, f"/c/bench-{armies}/map/export.png", cold=False),
                       "export_png_3_hours_ahead": timed(client, f"/c/bench-{armies}/map/export.png?hour=3",
                                                         cold=False),
                       "export_pdf": timed(client, f"/c/bench-{armies}/map/export.pdf", cold=False)}
            svg = client.get(f"/c/bench-{armies}/map/svg/").content.decode()
            poll = re.search(r'hx-get="([^"]*map/svg/[^"]*)"', svg).group(1)
            figures["poll_unchanged"] = timed(client, poll.replace("&amp;", "&"), cold=False, expect=204)
            emit({"benchmark": "map_page", "database": "postgresql", "armies": armies, "healthz_cpu_ms": healthz,
                  **figures, **{f"{name}_ratio_to_healthz": round(f["cpu_ms"]["median"] / healthz, 1)  # type: ignore[index]
                                for name, f in figures.items()}})


if __name__ == "__main__":
    main()
