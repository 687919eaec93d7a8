"""The benchmarks tell the truth: the database ones refuse, saying what they need, rather than print "skipped";
the page benchmark runs end to end on PostgreSQL and prints its ratios; the shared helpers measure CPU time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
DATABASE_BENCHMARKS = ("bench_day_close.py", "bench_hour.py", "bench_map_page.py", "bench_pages.py",
                       "bench_load.py", "bench_live.py", "bench_chronicle.py", "bench_replay.py")


def run(script: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | env
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / script)], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.parametrize("script", DATABASE_BENCHMARKS)
def test_a_database_benchmark_without_postgresql_says_what_it_needs_and_fails(script):
    result = run(script)
    assert result.returncode == 2, result.stderr
    assert "needs DATABASE_URL pointing at PostgreSQL" in result.stderr
    assert "error" in json.loads(result.stdout.strip().splitlines()[-1])
    assert "skipped" not in result.stdout


@pytest.mark.postgres
def test_the_page_benchmark_prints_every_page_with_its_ratio_to_healthz(settings):
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/postgres"
    result = run("bench_pages.py", DATABASE_URL=url, BENCH_PAGE_REPEATS="2")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    pages = {(line.get("size"), line["page"]): line for line in lines if "page" in line}
    names = {"commander_page", "map_page", "match_table", "gm_clock_page", "match_table_unchanged", "map_unchanged"}
    assert set(pages) == {(None, "healthz")} | {(size, name) for size in ("demo", "grown") for name in names}
    for (_size, name), line in pages.items():
        if name != "healthz":
            assert line["ratio_to_healthz"] > 0
            assert line["queries"] == 1, "a remembered page or an unchanged poll: its versions, in one read"
        if "cold_queries" in line:
            assert line["cold_meets_query_goal"], f"{name} drawn after a change: {line['cold_queries']} queries"
    assert pages["demo", "map_unchanged"]["queries"] == 1  # answered from the token and the change stamp
    demo, grown = pages["demo", "commander_page"], pages["grown", "commander_page"]
    assert grown["cold_queries"] == demo["cold_queries"], "a commander's page reads each table once, however long"
    assert lines[-1]["grown"]["units"] > 60


@pytest.mark.postgres
def test_the_day_close_benchmark_prints_both_sizes_with_constant_statements_and_a_floor(settings, db):
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/postgres"
    result = run("bench_day_close.py", DATABASE_URL=url, BENCH_REPEATS="2", BENCH_DAY_CLOSE_SIZES="10,30")
    assert result.returncode == 0, result.stderr
    [line] = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    small, large = line["commanders_10"], line["commanders_30"]
    assert (small["bills"], small["arrears"], large["bills"], large["arrears"]) == (10, 1, 30, 3)
    assert small["queries"] == large["queries"], "the statements of a close do not grow with the commanders"
    assert small["reopen"]["queries"] == large["reopen"]["queries"]
    for figures in (small, large, small["reopen"], large["reopen"]):
        for clock in ("seconds", "cpu_seconds", "postgres_cpu_seconds"):
            assert 0 <= figures[clock]["min"] <= figures[clock]["median"]
    assert line["baseline_copy_600_rows_seconds"]["median"] > 0
    assert line["load_average"] >= 0
    from common import TEMPLATE_PREFIX, migrations_digest

    with connection.cursor() as cursor:  # kept for the next run, so no benchmark migrates a database of its own
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [TEMPLATE_PREFIX + migrations_digest()])
        assert cursor.fetchone() == (1,)


def test_rates_are_items_per_cpu_second_with_min_and_median():
    from common import python_baseline, rates, spread

    assert spread([3.0, 1.0, 2.0]) == {"min": 1.0, "median": 2.0}
    figures = rates(lambda: 1000, repeats=3)
    assert figures["min"] <= figures["median"]
    assert python_baseline(repeats=1)["median"] > 10_000


@pytest.mark.django_db
def test_a_page_is_measured_in_cpu_ms_with_its_queries_and_bytes_and_a_wrong_answer_stops_the_benchmark(client):
    from common import measure_page

    figures = measure_page(client, "/healthz", repeats=3)
    assert 0 < figures["cpu_ms"]["min"] <= figures["cpu_ms"]["median"]
    assert figures["bytes"] > 0
    assert figures["queries"] >= 0
    with pytest.raises(SystemExit, match="answered 200, expected 204"):
        measure_page(client, "/healthz", repeats=1, expect=204, cold=True)


@pytest.mark.django_db
def test_grant_each_writes_what_ledger_grant_writes_for_every_commander_named(campaign, gm):
    from common import grant_each

    from campaign.economy.ledger import ledger_balance, ledger_purse_balance
    from campaign.models import Account, AuditEntry, LedgerTransaction
    from tests.campaign.factories import CommanderFactory

    ayla, borin = CommanderFactory(campaign=campaign), CommanderFactory(campaign=campaign)
    grant_each([ayla, borin, ayla], 7, reason="Prize", actor=gm)

    assert (ledger_purse_balance(commander=ayla), ledger_purse_balance(commander=borin)) == (14, 7)
    grants = LedgerTransaction.objects.filter(campaign=campaign, kind=LedgerTransaction.Kind.GRANT)
    assert sorted(grants.values_list("reason", "actor", "entries__amount")) == sorted(
        [("Prize", gm.pk, amount) for amount in (-7, -7, -7, 7, 7, 7)])
    audits = AuditEntry.objects.filter(campaign=campaign, action="ledger.grant")
    assert sorted((a.target, a.data["amount"], a.data["transaction"]) for a in audits) == sorted(
        (str(c), 7, txn) for c, txn in zip([ayla, borin, ayla], grants.order_by("pk").values_list("pk", flat=True),
                                           strict=True))
    for account in Account.objects.filter(campaign=campaign):
        assert account.balance == ledger_balance(account=account)


@pytest.mark.postgres
def test_the_map_benchmark_prints_the_maps_json_figures_against_healthz(settings):
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/postgres"
    result = run("bench_map_page.py", DATABASE_URL=url, BENCH_MAP_REPEATS="1", BENCH_MAP_SIZES="20")
    assert result.returncode == 0, result.stderr
    [line] = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert line["armies"] == 20
    assert line["data_unchanged"]["queries"] == 1
    assert line["data_cold"]["content_encoding"] == "gzip"
    assert line["data_one_change"]["bytes_sent"] < line["data_cold"]["gzip_bytes"]
    assert {"data_cold_ratio_to_healthz", "data_unchanged_ratio_to_healthz", "export_png_ratio_to_healthz",
            "export_pdf_ratio_to_healthz"} <= set(line)


@pytest.mark.browser
def test_the_map_browser_benchmark_prints_frames_with_a_baseline():
    result = run("bench_map_browser.py", BENCH_MAP_BROWSER_SIZES="30", BENCH_MAP_BROWSER_REPEATS="2")
    assert result.returncode == 0, result.stderr
    [line] = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert (line["armies"], line["viewport"], line["repeats"]) == (30, "390x844", 2)
    assert line["frames"]["min"] > 0
    assert line["baseline_no_armies"]["frames"]["min"] > 0
    assert line["max_frame_ms"]["median"] >= line["p95_frame_ms"]["median"]
    assert 0 < line["longest_task_cpu_ms"]["min"] <= line["longest_task_cpu_ms"]["median"]
    assert line["load_ms"]["min"] > 0


@pytest.mark.parametrize(("script", "args", "sizes"), [
    ("bench_unity.py", ["2"], {"3_players", "4_players"}),
    ("bench_battle.py", ["2"], {"6_units", "12_units"}),
    ("bench_search.py", ["--game", "unity", "--moves", "1"],
     {"2_players_400_iterations", "2_players_1600_iterations", "4_players_400_iterations",
      "4_players_1600_iterations"}),
])
def test_an_engine_benchmark_prints_each_figure_at_two_sizes_with_its_baseline_ratio_and_goal(script, args, sizes):
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | {"BENCH_REPEATS": "2"}
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr
    line = json.loads(result.stdout.strip().splitlines()[-1])
    assert line["clock"] == "cpu"
    assert line["repeats"] == 2
    assert line["goal"] in (100_000, 5_000)
    assert line["baseline_ops_per_cpu_second"]["median"] > 0
    assert set(line["figures"]) == sizes
    for figure in line["figures"].values():
        assert 0 < figure["min"] <= figure["median"]
        ratio = figure["median"] / line["baseline_ops_per_cpu_second"]["median"]
        assert figure["ratio_to_baseline"] == float(f"{ratio:.3g}")
        assert figure["meets_goal"] == (figure["median"] >= line["goal"])
