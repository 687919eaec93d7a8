"""The interactive map in Chromium at 500 and 5,000 armies: the longest frame while it pans and zooms, and the
first load.

The map's data is built by the server's own code (campaign.map.map_data from an in-memory MapView: armies
spread over a 100 x 100 inch map, each with a route, and terrain), so the browser draws exactly what the server
would send; static/js/tactical_map.js and the vendored Leaflet are served from disk by Playwright's routing
into a page holding the elements the map page gives the script (no server, no database). In a phone-sized
window the benchmark drags the map, zooms with the wheel and the zoom buttons and pans by script, and measures
with the Performance API: the gaps between animation frames (requestAnimationFrame and performance.now) and
the long tasks the browser reports (PerformanceObserver). Those are wall-clock times, which a busy shared
machine stretches (a task waits while other processes run), so a trace of the page's main thread gives each
task's own CPU time too (`*_cpu_ms`): the longest task of the load and of the pans and zooms. The load is timed
apart: from navigation until the lists beside the map hold every army (`load_ms`), and its longest task.
Every figure is the min and median over BENCH_MAP_BROWSER_REPEATS runs (3), each in a fresh page. The baseline
is the same runs on a map with no armies. Prints one JSON line per size. Needs Debian's Chromium at
/usr/bin/chromium.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, emit, refuse, spread

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from campaign.map import map_data, selectors  # noqa: E402
from campaign.models import Campaign, TacticalMap, TerrainRegion  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
SIZES = tuple(int(n) for n in os.environ.get("BENCH_MAP_BROWSER_SIZES", "500,5000").split(","))  # tests: one small
REPEATS = int(os.environ.get("BENCH_MAP_BROWSER_REPEATS", "3"))
TRACE = ["toplevel", "blink.user_timing"]  # each task with its CPU time (light to record), and the mark
ORIGIN = "http://muster.bench"
HOST_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/vendor/leaflet/leaflet.css"><link rel="stylesheet" href="/static/css/muster.css">
</head><body><main><h1>Tactical map <span id="map-hour"></span></h1>
<div id="tactical-map" class="tactical-map" data-src="/data/" data-battle-start="/battles/start/"></div>
<section id="map-panel" class="card map-panel" aria-live="polite" hidden></section>
<p id="map-announce" class="visually-hidden" aria-live="polite"></p>
<div class="cards map-lists"><section class="card"><ul id="list-battles"></ul></section>
<section class="card"><details id="armies-list" open><summary><h2>Armies <span id="armies-count"></span></h2>
</summary><ul id="list-armies"></ul></details></section>
<section class="card"><ul id="list-locations"></ul></section></div>
<input type="hidden" name="csrfmiddlewaretoken" value="bench">
<script src="/static/vendor/leaflet/leaflet.js"></script><script src="/static/js/tactical_map.js"></script>
</main></body></html>"""

RECORD = """() => {
  window.frames_ms = []; window.long_tasks_ms = []; window.load_tasks_ms = [];
  const started = performance.now();
  performance.mark("interactions");
  new PerformanceObserver(list => list.getEntries().forEach(e =>
    (e.startTime < started ? window.load_tasks_ms : window.long_tasks_ms).push(e.duration)))
    .observe({type: "longtask", buffered: true});
  let last = performance.now();
  window.recording = true;
  const tick = now => {
    window.frames_ms.push(now - last); last = now;
    if (window.recording) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def data_json(armies: int) -> str:
    """What /map/data/ answers a viewer who sees `armies` armies, each marching somewhere."""
    rng = random.Random(16)
    campaign = Campaign(name="Bench", slug="bench")
    board = TacticalMap(campaign=campaign, width_inches=100, height_inches=100)
    regions = [TerrainRegion(name=f"Forest {i}", kind="difficult",
                             points=[[i * 9, 10], [i * 9 + 5, 10], [i * 9 + 5, 40]]) for i in range(10)]
    markers = []
    for i in range(armies):
        x, y = rng.uniform(1, 99), rng.uniform(1, 99)
        markers.append(selectors.ArmyMarker(
            id=i + 1, name=f"Army {i + 1}", commander=f"Commander {i % 50}", commander_id=i % 50, x=x, y=y,
            miniatures=rng.randint(1, 12), own=True, order_id=i + 1, order_kind="point", arrival_hour=rng.randint(1, 9),
            path=[[x, y], [min(99, x + 3), y], [min(99, x + 3), min(99, y + 3)]], destination="a point"))
    view = selectors.MapView(tactical_map=board, event=None, is_gm=False, regions=regions, locations=[], bases=[],
                             armies=markers, due_battles=[])
    body, version = map_data.map_data_json(map_data.map_data(view=view, membership=None))  # type: ignore[arg-type]
    return f'{{"v":"{version}","t":"bench","map":{body}}}'


def serve(route, armies_json: str) -> None:
    path = route.request.url.removeprefix(ORIGIN).split("?")[0]
    if path == "/map/":
        return route.fulfill(body=HOST_PAGE, content_type="text/html")
    if path == "/data/" and "?v=" in route.request.url:
        return route.fulfill(status=204, body="")  # the script's poll: nothing changed, as the server answers
    if path == "/data/":
        return route.fulfill(body=armies_json, content_type="application/json")
    if path.startswith("/static/"):
        file = ROOT / "static" / path.removeprefix("/static/")
        kinds = {".js": "text/javascript", ".css": "text/css", ".png": "image/png"}
        return route.fulfill(body=file.read_bytes(), content_type=kinds.get(file.suffix, "application/octet-stream"))
    return route.fulfill(status=404, body="")


def main_thread_tasks(trace_path: str) -> tuple[list[float], list[float]]:
    """CPU milliseconds of each task of the page's main thread (a task's thread time, at most its wall time), before
    and after the "interactions" mark."""
    with open(trace_path) as handle:
        events = json.load(handle)
    events = events["traceEvents"] if isinstance(events, dict) else events
    main = {(e["pid"], e["tid"]) for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"
            and e["args"].get("name") == "CrRendererMain"}
    mark = min((e["ts"] for e in events if e.get("name") == "interactions" and (e["pid"], e["tid"]) in main),
               default=0)
    before, after = [], []
    for e in events:
        if e.get("name") == "ThreadControllerImpl::RunTask" and e.get("ph") == "X" and (e["pid"], e["tid"]) in main:
            (before if e["ts"] < mark else after).append(min(e.get("tdur", 0), e["dur"]) / 1000)  # never over its wall
    return before, after


def measure(browser, armies: int) -> dict:
    """One run: the page loaded with `armies` armies, then panned and zoomed: the longest frame, the 95th
    percentile and how many took over 100 ms, the longest task (wall and CPU), and the load's time and longest
    task."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    body = data_json(armies)
    page.route(f"{ORIGIN}/**", lambda route: serve(route, body))
    trace = tempfile.NamedTemporaryFile(suffix=".json", delete=False)  # noqa: SIM115 (Chromium writes it)
    trace.close()
    browser.start_tracing(page=page, path=trace.name, categories=TRACE)
    started = time.perf_counter()
    page.goto(f"{ORIGIN}/map/")
    page.wait_for_function(f"document.querySelectorAll('#list-armies li').length >= {max(armies, 1)}",
                           polling="raf")
    load_ms = (time.perf_counter() - started) * 1000
    page.evaluate(RECORD)
    box = page.locator("#tactical-map").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for round_ in range(3):
        page.mouse.move(cx, cy)
        page.mouse.down()
        for step in range(1, 16):
            page.mouse.move(cx - step * 8, cy - step * 6)
        page.mouse.up()
        page.mouse.wheel(0, -240)  # zoom in where the pointer is
        page.wait_for_timeout(400)
        page.locator(".leaflet-control-zoom-in").click()
        page.wait_for_timeout(400)
        page.evaluate("() => document.getElementById('tactical-map').leafletMap.panBy([120, 90])")
        page.wait_for_timeout(400)
        page.locator(".leaflet-control-zoom-out").click()
        page.wait_for_timeout(400)
        page.mouse.wheel(0, 240)
        page.wait_for_timeout(400 + round_ * 50)
    frames = page.evaluate("() => { window.recording = false; return window.frames_ms.slice(1); }")
    long_tasks, load_tasks = page.evaluate("() => [window.long_tasks_ms, window.load_tasks_ms]")
    browser.stop_tracing()
    context.close()
    load_cpu, interactions_cpu = main_thread_tasks(trace.name)
    os.unlink(trace.name)
    frames.sort()
    return {"frames": len(frames), "max_frame_ms": frames[-1], "p95_frame_ms": frames[int(len(frames) * 0.95)],
            "frames_over_100_ms": sum(1 for f in frames if f > 100), "longest_task_ms": max(long_tasks, default=0),
            "longest_task_cpu_ms": max(interactions_cpu, default=0), "load_ms": load_ms,
            "load_longest_task_ms": max(load_tasks, default=0), "load_longest_task_cpu_ms": max(load_cpu, default=0)}


def repeated(browser, armies: int) -> dict:
    """Each figure of `measure` over REPEATS runs: min and median."""
    runs = [measure(browser, armies) for _ in range(REPEATS)]
    return {key: spread([run[key] for run in runs], 1) for key in runs[0]}


def main() -> None:
    if not Path(CHROMIUM).exists():
        refuse("map_browser", f"Chromium at {CHROMIUM} (Debian's chromium package)")
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        baseline = repeated(browser, 0)
        for armies in SIZES:
            figures = repeated(browser, armies)
            emit({"benchmark": "map_browser", "armies": armies, "viewport": "390x844", "repeats": REPEATS, **figures,
                  "baseline_no_armies": baseline,
                  "max_frame_ratio_to_baseline": round(figures["max_frame_ms"]["median"]
                                                       / max(baseline["max_frame_ms"]["median"], 1), 1)})
        browser.close()


if __name__ == "__main__":
    main()
