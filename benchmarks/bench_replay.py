"""The replay page, which renders every step of a finished match for its viewer at once (static/js/replay.js
steps through them in the browser), against `/healthz`, in one process through Django's test client.

Needs DATABASE_URL pointing at PostgreSQL (it says so and exits 2 otherwise): creates a throwaway database next
to it, loads the demo campaign and plays a Unity match between its two players and an AI to the end (seed 3).
For the player's and the GM's replay page: CPU ms per request cold (the steps rendered) and warm (remembered):
min and median of BENCH_PAGE_REPEATS (default 10) after two warm-ups (common.measure_page); cold per step, the
queries (with nothing remembered), the bytes and the bytes remembered.
`/healthz` is measured the same way in the same run. Prints one JSON line.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import emit, measure_page, throwaway_postgres

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.test import Client  # noqa: E402

REPEATS = int(os.environ.get("BENCH_PAGE_REPEATS", "10"))


def main() -> None:
    settings.DEBUG, settings.ALLOWED_HOSTS = False, ["testserver"]
    with throwaway_postgres("bench_replay"):
        from django.contrib.auth import get_user_model
        from django.core.cache import cache
        from django.urls import reverse

        from campaign.demo import load_demo
        from cardgames import services
        from cardgames.models import AIPolicy
        from cardgames.replay_pages import steps_key

        campaign, _ = load_demo()
        users = {u.username: u for u in get_user_model().objects.filter(username__in=["gm", "amira", "bastian"])}
        match = services.match_create(campaign=campaign, game="unity", actor=users["gm"], seed=3, seats=[
            services.SeatSpec("Amira", users["amira"], AIPolicy.RANDOM),
            services.SeatSpec("Bastian", users["bastian"], AIPolicy.RANDOM),
            services.SeatSpec("AI: greedy", None, AIPolicy.GREEDY)])
        while services.match_play_ai(match_id=match.pk):
            pass
        match.refresh_from_db()
        match.seats.filter(user__isnull=False).update(ai="")  # the AI chose; the seats are the players' own
        url = reverse("match-replay", args=[campaign.slug, match.pk])
        client = Client()
        healthz = measure_page(client, "/healthz", repeats=REPEATS)
        figures: dict[str, object] = {"benchmark": "bench_replay", "steps": match.version, "healthz": healthz}
        for name in ("amira", "gm"):
            client.force_login(users[name])
            page = measure_page(client, url + f"?step={match.version}", repeats=REPEATS, cold=True)
            page["warm_cpu_ms"] = measure_page(client, url + f"?step={match.version}", repeats=REPEATS)["cpu_ms"]
            page["remembered_bytes"] = len(cache.get(steps_key(match=match, seat=0 if name == "amira" else None)))
            page["cpu_ms_per_step"] = round(page["cpu_ms"]["median"] / (match.version + 1), 3)  # type: ignore[index]
            page["ratio_to_healthz"] = round(page["cpu_ms"]["median"] / healthz["cpu_ms"]["median"], 1)  # type: ignore[index]
            figures[f"page_{name}"] = page
        emit(figures)


if __name__ == "__main__":
    main()
