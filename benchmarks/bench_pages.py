"""The pages players and GMs open most, against `/healthz`, in one process through Django's test client.

Needs DATABASE_URL pointing at PostgreSQL (it says so and exits 2 otherwise): creates a throwaway database
next to it (muster_bench_<pid>), loads the demo campaign (`make run`'s data), and signs in as its player (amira)
and its GM. For each page: this process's CPU seconds per request (min and median of BENCH_PAGE_REPEATS,
default 30, after two warm-up requests) and the queries it runs; `/healthz` is measured the same way in the
same run and every page is given as a ratio to it. Each session's pages are remembered whole until anything
they show changes (campaign.web.page_cache), so each page is also measured cold: after a change in the
campaign (an audited one, as every service makes) before each request, as for the first viewer after it. Two
sizes: the demo, then the same with its player's commander grown (grow: more units, ledger transactions and
items), so that a page whose cost grows with what it lists shows it. Goals (#18): a page at most 10x
`/healthz` and at most 10 queries; an unchanged poll at most 3x. Prints one JSON line per page and size, and
a summary line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import emit, grant_each, json_poll_url, measure_page, throwaway_postgres

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.test import Client  # noqa: E402

REPEATS = int(os.environ.get("BENCH_PAGE_REPEATS", "30"))
GROWN_UNITS, GROWN_GRANTS, GROWN_ITEMS = 60, 300, 20
PAGE_GOAL, POLL_GOAL, QUERY_GOAL = 10, 3, 10


def measure(client: Client, url: str, *, expect: int = 200,
            change: Callable[[], Any] | None = None) -> dict[str, object]:
    return measure_page(client, url, repeats=REPEATS, expect=expect, change=change)


def pages() -> list[tuple[str, str, str, int, str]]:
    """(name, who, url, expected status, kind) of every measured page of the demo campaign."""
    from campaign.demo import DEMO_SLUG
    from campaign.models import Commander
    from cardgames.models import Match

    commander = Commander.objects.filter(campaign__slug=DEMO_SLUG, player__username="amira").first()
    match = Match.objects.filter(campaign__slug=DEMO_SLUG, status=Match.Status.ACTIVE).order_by("pk").first()
    base = f"/c/{DEMO_SLUG}"
    return [
        ("commander_page", "player", f"{base}/commanders/{commander.pk}/", 200, "page"),
        ("map_page", "player", f"{base}/map/", 200, "page"),
        ("match_table", "player", f"{base}/matches/{match.pk}/table/", 200, "page"),
        ("gm_clock_page", "gm", f"{base}/clock/", 200, "page"),
    ]


def poll_url(client: Client, page: str, polled: str) -> str:
    """The poll a page makes, with the version (and token) it was drawn at, read from its hx-get as htmx does."""
    import re

    found = re.search(rf'hx-get="([^"]*{polled}[^"]*)"', client.get(page).content.decode())
    if not found:
        raise SystemExit(f"{page} polls no {polled}: update this benchmark.")
    return found.group(1).replace("&amp;", "&")


def grow(commander: Any) -> dict[str, int]:
    """The player's commander after a long campaign, the second size: GROWN_UNITS more units, GROWN_GRANTS more
    ledger transactions and GROWN_ITEMS more items (what their page lists), so that a page's cost growing with
    what it shows is seen. Returns the counts."""
    from campaign.models import Item, Unit

    types = sorted({unit.unit_type for unit in commander.units.select_related("unit_type")}, key=lambda t: t.pk)
    Unit.objects.bulk_create([Unit(campaign_id=commander.campaign_id, commander=commander,
                                   unit_type=types[i % len(types)], strength=types[i % len(types)].strength)
                              for i in range(GROWN_UNITS)])
    grant_each([commander] * GROWN_GRANTS, 5, reason="Bench bounty")
    Item.objects.bulk_create([Item(commander=commander, name=f"Relic {i}") for i in range(GROWN_ITEMS)])
    return {"units": commander.units.count(), "items": commander.items.count()}


def measure_all(clients: dict[str, Client], base_ms: float, size: str, change: Callable[[], Any]) -> dict[str, float]:
    """Every page and poll at one size, each emitted with its ratio to /healthz, and each page cold too (after
    `change`, a change in the campaign); the worst ratios and queries."""
    worst = {"page": 0.0, "poll": 0.0, "queries": 0, "cold_queries": 0}
    rows = [(name, who, url, expect, kind) for name, who, url, expect, kind in pages()]
    rows.append(("match_table_unchanged", "player", poll_url(clients["player"], rows[2][2], "/table/"), 204, "poll"))
    rows.append(("map_unchanged", "player", json_poll_url(clients["player"], f"{rows[1][2]}data/"), 204, "poll"))
    for name, who, url, expect, kind in rows:
        figures = measure(clients[who], url, expect=expect)
        ratio = round(figures["cpu_ms"]["median"] / base_ms, 1)  # type: ignore[index]
        goal = PAGE_GOAL if kind == "page" else POLL_GOAL
        if kind == "page":  # what the first viewer after a change pays
            cold = measure(clients[who], url, expect=expect, change=change)
            figures |= {"cold_cpu_ms": cold["cpu_ms"], "cold_queries": cold["queries"],
                        "cold_ratio_to_healthz": round(cold["cpu_ms"]["median"] / base_ms, 1),  # type: ignore[index]
                        "cold_meets_query_goal": cold["queries"] <= QUERY_GOAL}  # type: ignore[operator]
            worst["cold_queries"] = max(worst["cold_queries"], cold["queries"])  # type: ignore[call-overload]
        emit({"benchmark": "pages", "size": size, "page": name, "as": who, **figures, "ratio_to_healthz": ratio,
              "goal_ratio": goal, "goal_queries": QUERY_GOAL,
              "meets_goals": ratio <= goal and figures["queries"] <= QUERY_GOAL})
        worst[kind] = max(worst[kind], ratio)
        worst["queries"] = max(worst["queries"], figures["queries"])  # type: ignore[call-overload]
    return worst


def main() -> None:
    settings.DEBUG, settings.ALLOWED_HOSTS = False, ["testserver"]
    with throwaway_postgres("pages"):
        from django.contrib.auth import get_user_model

        from battles.demo import load_demo_battles
        from campaign.campaigns.audit import audit_record
        from campaign.demo import load_demo
        from campaign.models import Commander
        from cardgames.demo import load_demo_matches

        campaign, _ = load_demo()
        load_demo_matches(campaign=campaign)
        load_demo_battles(campaign=campaign)
        clients = {}
        for who, username in (("player", "amira"), ("gm", "gm")):
            clients[who] = Client()
            clients[who].force_login(get_user_model().objects.get(username=username))
        anonymous = Client()
        baseline = measure(anonymous, "/healthz")
        emit({"benchmark": "pages", "page": "healthz", **baseline})
        base_ms = baseline["cpu_ms"]["median"]  # type: ignore[index]
        def change() -> None:  # what any service does: an audited change moves the campaign's change stamp
            audit_record(campaign=campaign, actor=None, action="bench.change")

        sizes = {"demo": measure_all(clients, base_ms, "demo", change)}
        amira = Commander.objects.get(campaign=campaign, player__username="amira")
        grown = grow(amira)
        sizes["grown"] = measure_all(clients, base_ms, "grown", change)
        emit({"benchmark": "pages", "summary": True, "healthz_cpu_ms": base_ms, "grown": grown,
              **{f"{size}_worst": worst for size, worst in sizes.items()}})


if __name__ == "__main__":
    main()
