"""AI players for every engine, written once against the game protocol (gamekit.protocol).

A player is an object with ``choose(game, state, seat) -> action``. On a simultaneous
move (`to_move` names several seats) each seat's player is asked for its own action.
Players that look ahead never read hidden information: every trial starts from
``game.determinize(state, seat, rng)``, a state drawn from what `seat` has seen.
A game may offer ``game.quiet``, the same rules without event text; players search with it.
"""

from __future__ import annotations

import math
import random
from typing import Any

from gamekit.protocol import Action, Game


def quiet(game: Game) -> Game:
    """The game without event text when it offers one (search and simulation never read the text)."""
    return getattr(game, "quiet", game)


def rewards(game: Game, state: Any, seats: int) -> list[float]:
    """Per seat in [-1, 1]: +1 to the winner, -1 to the others, 0 in a draw; before the end, the heuristic."""
    if game.is_over(state):
        winner = game.result(state)["winner"]
        return [0.0 if winner is None else (1.0 if s == winner else -1.0) for s in range(seats)]
    return [game.heuristic(state, s) for s in range(seats)]


def play_random(game: Game, state: Any, rng: random.Random, *, until: int | None = None,
                stop_at: int | None = None) -> int:
    """Play uniformly random legal actions for every seat; stop when over, after `until` actions, or
    when `stop_at` is to move. Returns the number of actions applied."""
    applied = 0
    while not game.is_over(state) and (until is None or applied < until):
        movers = game.to_move(state)
        if stop_at in movers:
            break
        for seat in movers:
            game.apply(state, rng.choice(game.legal_actions(state, seat)), seat)
            applied += 1
    return applied


class RandomPlayer:
    """A uniformly random legal action: the baseline every other player must beat."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, state: Any, seat: int) -> Action:
        return self.rng.choice(game.legal_actions(state, seat))


class GreedyPlayer:
    """One-step lookahead: the action whose result scores best by ``game.heuristic``.

    Each action is tried in the same `samples` determinized worlds (same hidden cards, same
    dice; common random numbers make the comparison fair). Other seats' moves up to this
    seat's next decision, including the other half of a simultaneous move, are random.
    """

    def __init__(self, seed: int | None = None, *, samples: int = 4) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, game: Game, state: Any, seat: int) -> Action:
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        game = quiet(game)
        seeds = [self.rng.getrandbits(64) for _ in range(self.samples)]
        best, best_score = actions[0], -math.inf
        for action in actions:
            score = 0.0
            for seed in seeds:
                rng = random.Random(seed)
                trial = game.determinize(state, seat, rng)
                game.apply(trial, action, seat)
                play_random(game, trial, rng, stop_at=seat)
                score += game.heuristic(trial, seat)
            if score > best_score:
                best, best_score = action, score
        return best


class _Node:
    """A tree node keyed by actions. ``stats[(seat, action)] = [visits, reward, available]``;
    children are keyed by the joint move made here (one ``(seat, action)`` per mover)."""

    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple, _Node] = {}
        self.stats: dict[tuple[int, Action], list[float]] = {}


class ISMCTSPlayer:
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012).

    Each iteration determinizes the state from this seat's view, descends the one tree with
    UCB1 over the actions legal in that determinization (each weighted by how often it was
    available, not by the parent's visits), expands one node, plays out at random (cut off
    after `rollout_depth` actions, or sooner at this seat's next decision with `rollout_to_turn`, and
    scored by ``game.heuristic``; ``None`` plays to the end) and backs up each seat's reward to that
    seat's actions. A simultaneous move is decoupled:
    each mover picks from its own statistics at the node, so no seat's choice depends on another's.
    The defaults (score the new leaf at once, exploration 0.35 on rewards in [-1, 1]) won most
    against the greedy player at Command Dice; random play-outs only added noise there. A game
    tuned otherwise names its settings in ``game.search_settings``; `search_player` applies them.
    """

    def __init__(self, seed: int | None = None, *, iterations: int = 1000, exploration: float = 0.35,
                 rollout_depth: int | None = 0, rollout_to_turn: bool = False) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.rollout_to_turn = rollout_to_turn
        self._stop_at: int | None = None

    def choose(self, game: Game, state: Any, seat: int) -> Action:
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        self._stop_at = seat if self.rollout_to_turn else None
        game = quiet(game)
        root = _Node()
        seats = len(state.players)
        for _ in range(self.iterations):
            self._iterate(game, game.determinize(state, seat, self.rng), root, seats)
        return max(actions, key=lambda a: root.stats.get((seat, a), (0,))[0])

    def _iterate(self, game: Game, world: Any, root: _Node, seats: int) -> None:
        rng = self.rng
        node, path = root, []
        while not game.is_over(world):
            picks = tuple((s, self._select(node, s, game.legal_actions(world, s)))
                          for s in game.to_move(world))
            for s, action in picks:
                game.apply(world, action, s)
            path.append((node, picks))
            child = node.children.get(picks)
            if child is None:
                node.children[picks] = _Node()
                break
            node = child
        play_random(game, world, rng, until=self.rollout_depth, stop_at=self._stop_at)
        reward = rewards(game, world, seats)
        for node, picks in path:
            for s, action in picks:
                stat = node.stats[(s, action)]
                stat[0] += 1
                stat[1] += reward[s]

    def _select(self, node: _Node, seat: int, legal: list[Action]) -> Action:
        """An untried legal action at random if any; else UCB1 with availability counts."""
        stats = node.stats
        untried = []
        best, best_value = legal[0], -math.inf
        c = self.exploration
        for action in legal:
            stat = stats.get((seat, action))
            if stat is None:
                untried.append(action)
                continue
            stat[2] += 1
            if not untried:
                visits = stat[0]
                value = (stat[1] / visits + c * math.sqrt(math.log(stat[2]) / visits)) if visits else math.inf
                if value > best_value:
                    best, best_value = action, value
        if untried:
            best = self.rng.choice(untried)
            stats[(seat, best)] = [0, 0.0, 1]
        return best


def search_player(game: Game, seed: int | None = None, *, iterations: int = 1000, **settings: Any) -> ISMCTSPlayer:
    """The search player with the settings measured best for `game` (``game.search_settings``), which
    `settings` override."""
    return ISMCTSPlayer(seed, iterations=iterations, **{**getattr(game, "search_settings", {}), **settings})
