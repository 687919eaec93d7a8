"""The simulator: tallies, repeatability, seat rotation and honest simultaneous moves."""

from __future__ import annotations

from cardgames.engine.command_dice import GAME
from gamekit.players import RandomPlayer
from gamekit.simulate import simulate

SPEEDS = ("games_per_second", "actions_per_second")


def test_simulate_tallies_every_game():
    outcome = simulate(GAME, {}, [RandomPlayer(1), RandomPlayer(2)], games=30, seed=5)
    assert outcome["game"] == "command-dice"
    assert sum(outcome["wins"]) + outcome["draws"] == 30
    assert outcome["seat_wins"] == outcome["wins"]
    assert 20 < outcome["average_length"] < 400
    assert all(outcome[k] > 0 for k in SPEEDS)


def test_simulate_is_repeatable_given_seeds():
    runs = [simulate(GAME, {"victories": 2}, [RandomPlayer(1), RandomPlayer(2)], games=20, seed=6)
            for _ in range(2)]
    first, second = ({k: v for k, v in r.items() if k not in SPEEDS} for r in runs)
    assert first == second


def test_alternate_rotates_seats_and_counts_wins_by_player():
    outcome = simulate(GAME, {}, [RandomPlayer(1), RandomPlayer(2)], games=31, seed=7, alternate=True)
    assert sum(outcome["wins"]) == sum(outcome["seat_wins"]) == 31 - outcome["draws"]


def test_every_mover_chooses_before_any_simultaneous_choice_is_applied():
    seen = []

    class Watcher(RandomPlayer):
        def choose(self, game, state, seat):
            if state.phase == 0:
                seen.append(state.chosen[1 - seat])
            return super().choose(game, state, seat)

    simulate(GAME, {"victories": 1}, [Watcher(1), Watcher(2)], games=3, seed=8)
    assert seen
    assert all(other is None for other in seen)
