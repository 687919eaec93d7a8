"""README's "What is where" table is a map a newcomer follows in one hop: every path it names exists, and
the places it points to hold what it says (recruiting is priced, the hour tick moves armies, a Skirmish is
rolled)."""

from __future__ import annotations

import re

from tests.import_graph import ROOT

README = (ROOT / "README.md").read_text()


def _table_rows() -> list[tuple[str, str]]:
    section = README.split("## What is where", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].startswith("`"):
            rows.append((cells[0], cells[1]))
    return rows


def test_every_path_and_file_in_the_table_exists():
    rows = _table_rows()
    assert len(rows) >= 10
    for paths, holds in rows:
        folders = re.findall(r"`([^`]+)`", paths)
        for folder in folders:
            assert (ROOT / folder).exists(), f"README names {folder}, which does not exist"
        for name in re.findall(r"`([\w/]+\.(?:py|json))`", holds):
            assert any((ROOT / folder / name).exists() for folder in folders) or (ROOT / name).exists(), (
                f"{name} is not in {folders}")


def _holds(path: str, name: str) -> bool:
    return re.search(rf"^(def|class) {name}\b", (ROOT / path).read_text(), re.M) is not None


def test_the_one_hop_answers_are_where_the_table_says():
    table = dict(_table_rows())
    assert "`recruit_price`" in table["`campaign/economy/`"]
    assert _holds("campaign/economy/rules.py", "recruit_price")
    assert "`hour.py`" in table["`campaign/map/`"]
    assert "moves armies" in table["`campaign/map/`"]
    assert _holds("campaign/map/hour.py", "event_hour_process")
    assert "`engine/skirmish.py`" in table["`battles/`"]
    assert _holds("battles/engine/skirmish.py", "roll")
