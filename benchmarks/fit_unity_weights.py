"""Fit the weights of Unity's position estimate (cardgames/engine/unity/evaluation.py) to who wins.

Plays two-player games between greedy players that judge by cards left (one move in five random, so
the positions vary), keeps about one position in three, and fits a logistic model without intercept:
P(seat wins) = sigmoid(w . (features(seat) - features(rival))), by Newton's method with a small ridge.
Prints one JSON line: the weights to copy into `evaluation.WEIGHTS`, and the held-out log-loss and
accuracy of the fitted model against the same model given only the cards left.
Run: ``python benchmarks/fit_unity_weights.py [games] [seed]`` (3,000 games take about a minute).
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames.engine.unity.evaluation import FEATURES, features
from cardgames.engine.unity.game import UnityGame
from cardgames.engine.unity.state import UnityState
from gamekit.players import GreedyPlayer

Sample = tuple[list[float], int]


class CardCounting(UnityGame):
    """The data's players judge by cards left, so the fit does not lean on the weights it replaces."""

    def heuristic(self, state: UnityState, player: int) -> float:
        if self.is_over(state):
            return 0.0 if state.winner is None else (1.0 if state.winner == player else -1.0)
        mine, rival = len(state.hands[player]), len(state.hands[1 - player])
        return 0.9 * (rival - mine) / (rival + mine + 1)


def positions(games: int, seed: int) -> list[list[Sample]]:
    """Per game: (feature difference, won) for both seats at the positions kept."""
    rng = random.Random(seed)
    game = CardCounting(text=False)
    out = []
    for _ in range(games):
        players = [GreedyPlayer(rng.getrandbits(32), samples=2) for _ in range(2)]
        state = game.new_game({}, ["a", "b"], seed=rng.getrandbits(32))
        kept = []
        while not game.is_over(state):
            (seat,) = game.to_move(state)
            if rng.random() < 0.3:
                kept.append((features(state, 0), features(state, 1)))
            action = (rng.choice(game.legal_actions(state, seat)) if rng.random() < 0.2
                      else players[seat].choose(game, state, seat))
            game.apply(state, action, seat)
        if state.winner is not None:
            out.append([sample for f0, f1 in kept
                        for sample in (([a - b for a, b in zip(f0, f1, strict=True)], int(state.winner == 0)),
                                       ([b - a for a, b in zip(f0, f1, strict=True)], int(state.winner == 1)))])
    return out


def fit(samples: list[Sample], ridge: float = 1e-3, steps: int = 8) -> list[float]:
    """Logistic regression by Newton's method (the model is tiny, so plain lists will do)."""
    k = len(samples[0][0])
    w = [0.0] * k
    for _ in range(steps):
        grad = [ridge * x for x in w]
        hess = [[ridge * (i == j) for j in range(k)] for i in range(k)]
        for x, y in samples:
            p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True))))
            g, h = p - y, p * (1.0 - p)
            for i in range(k):
                if x[i]:
                    grad[i] += g * x[i]
                    hx = h * x[i]
                    row = hess[i]
                    for j in range(k):
                        row[j] += hx * x[j]
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting; a feature that never varies gets weight 0."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def quality(w: list[float], samples: list[Sample]) -> dict[str, float]:
    loss = right = 0.0
    for x, y in samples:
        z = sum(a * b for a, b in zip(w, x, strict=True))
        p = min(max(1.0 / (1.0 + math.exp(-z)), 1e-9), 1 - 1e-9)
        loss -= math.log(p) if y else math.log(1.0 - p)
        right += (z > 0) == bool(y)
    return {"log_loss": round(loss / len(samples), 4), "accuracy": round(right / len(samples), 4)}


def main(games: int = 3000, seed: int = 2) -> dict[str, object]:
    per_game = positions(games, seed)
    split = len(per_game) * 4 // 5  # whole games held out, so no game is in both parts
    train = [s for g in per_game[:split] for s in g]
    test = [s for g in per_game[split:] for s in g]
    w = fit(train)
    cards_left = [([sum(x[:6])], y) for x, y in train]  # the hand's size: every card is one of the six kinds
    w_cards = fit(cards_left)
    return {"benchmark": "unity_weights", "games": len(per_game), "positions": len(train) + len(test),
            "weights": {f: round(v, 3) for f, v in zip(FEATURES, w, strict=True)},
            "fitted": quality(w, test),
            "cards_left_only": quality(w_cards, [([sum(x[:6])], y) for x, y in test])}


if __name__ == "__main__":
    print(json.dumps(main(*(int(a) for a in sys.argv[1:3]))))
