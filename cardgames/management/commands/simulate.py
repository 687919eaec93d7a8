"""`manage.py simulate GAME --games N --seed S --players random,greedy`: AI against AI, as JSON."""

import json

from django.core.management.base import BaseCommand, CommandError

from cardgames.registry import ENGINES, game_for
from gamekit.players import GreedyPlayer, RandomPlayer, search_player
from gamekit.simulate import simulate

POLICIES = {"random": RandomPlayer, "greedy": GreedyPlayer, "search": search_player}


class Command(BaseCommand):
    help = "Play AI players against each other and print wins per seat, average length and speed as JSON."

    def add_arguments(self, parser):
        parser.add_argument("game", choices=sorted(ENGINES))
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--players", default="random,random",
                            help=f"comma-separated, one per seat: {', '.join(POLICIES)}")
        parser.add_argument("--iterations", type=int, default=200, help="search iterations per move")
        parser.add_argument("--alternate", action="store_true", help="rotate seats each game")

    def handle(self, *args, game, games, seed, players, iterations, alternate, **options):
        if games < 1:
            raise CommandError("--games must be at least 1.")
        names = [name.strip() for name in players.split(",") if name.strip()]
        unknown = [name for name in names if name not in POLICIES]
        if unknown or len(names) < 2:
            raise CommandError(f"--players needs two or more of {', '.join(POLICIES)}; got {players!r}.")
        engine = game_for(game)
        seated = [search_player(engine, seed + i, iterations=iterations) if name == "search"
                  else POLICIES[name](seed + i) for i, name in enumerate(names)]
        result = simulate(engine, {}, seated, games=games, seed=seed, alternate=alternate)
        result["players"] = names
        self.stdout.write(json.dumps(result))
