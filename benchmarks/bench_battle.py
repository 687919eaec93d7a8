"""Random-vs-random Army Combat battles between two 12-unit armies, on one core.

legal_actions, apply and the history (actions and dice log) are on; event text is off.
Prints one JSON line: {"benchmark": "battle_random", "actions_per_second": .., "battles_per_second": ..,
"actions_per_cpu_second": .., "battles_per_cpu_second": ..}: per wall-clock second, and per CPU second of this
process (steadier on a shared machine).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battles.engine import GAME  # noqa: E402

CATALOGUE = {u["name"]: u for u in json.loads((ROOT / "campaign/catalogue/data/unit_catalogue.json").read_text())}

ARMY_A = ["Spearmen", "Soldier", "Soldier", "Pikemen", "Knights", "Longbowmen", "Field Surgeon",
          "Siege Ram", "Light Cavalry", "Temple Guard", "Rite of Steel", "Battle Mages"]
ARMY_B = ["Archers", "Rangers", "Griffon Riders", "Earth Elemental", "Druid Circle", "Giant Eagles",
          "Fire Elemental", "Skeleton Warriors", "Wraith", "Zombie Horde", "Call of the Wild", "Caltrops"]


def army(names: list[str]) -> list[dict]:
    units = []
    for i, name in enumerate(names, start=1):
        card = CATALOGUE[name]
        units.append({"id": i, "name": name, "strength": card["strength"], "role": card["role"],
                      "path": card["path"], "traits": card["traits"], "effects": card["effects"],
                      "retinue": i == 1})
    return units


CONFIG = {
    "verbose": False,
    "commanders": [
        {"name": "Ayla", "level": 6, "influence": 1, "is_player_character": True, "power": "Evoker",
         "units": army(ARMY_A)},
        {"name": "Borin", "level": 4, "is_player_character": False, "power": "Master of Arms",
         "units": army(ARMY_B)},
    ],
}


def main(seconds: float = 3.0) -> None:
    rng = random.Random(1)
    choice = rng.choice
    game = GAME
    battles = actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_game(CONFIG, ["a", "b"], seed=battles)
        while not game.is_over(state):
            seat = game.to_move(state)[0]
            game.apply(state, choice(game.legal_actions(state, seat)), seat)
            actions += 1
        battles += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(json.dumps({"benchmark": "battle_random", "actions_per_second": round(actions / elapsed),
                      "battles_per_second": round(battles / elapsed),
                      "actions_per_cpu_second": round(actions / cpu), "battles_per_cpu_second": round(battles / cpu),
                      "actions_per_battle": round(actions / battles, 1)}))


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
