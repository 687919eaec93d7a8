"""How well a seat stands in Unity: the estimate the greedy and search players judge positions by.

Counting cards left is a poor guide here: a game is won by the last play (two righteous cards or a
Unity card), and an evil card is much harder to shed than a Unity card, which can end the game on its
own. So each seat gets a score, a weighted count of what it holds and of the moment it is in
(`features` times `WEIGHTS`), and the estimate is a logistic model of who wins:
``2 * sigmoid(my score - the best rival's score) - 1``, kept within (-0.9, 0.9) so that only a
finished game is worth a full win or loss.

`WEIGHTS` were fitted by logistic regression (``benchmarks/fit_unity_weights.py``) to positions of
two-player games between greedy players, and say: a Unity card is worth most, then a free turn, a
special answer (Trinity, an Angel, God's Judgement or Glory, David) and a righteous object; an evil
card weighs most as a burden, then a festival card, being under attack, and each card an unanswered
chain of righteousness would make you draw. With them the search player won 293 of 400 mirror games
against the greedy player (both judging by these weights; ``bench_card_ai.py`` seeds 41 and 7), where it
had won 176 of 400 when both judged by cards left (seeds 21 and 5).
"""

from __future__ import annotations

import math
from functools import lru_cache

from cardgames.engine.unity.deck import ANSWERS, EVIL, FESTIVAL, HUMAN, R_OBJECT, UNITY, Deck
from cardgames.engine.unity.state import ENTER, FREE, OVER, RESPOND, UnityState

FEATURES = ("human", "righteous_object", "evil", "festival", "answer", "unity",
            "free_turn", "attacked", "attack_points", "chain_to_enter", "picked")
"""What a seat's score counts: the cards in its hand by kind, then whether it has the free turn, is
answering an attack (and the attack's points), owes the draws of a chain it has not yet answered, and
how many cards it has picked for the play it is building."""

WEIGHTS = {
    "human": -0.047, "righteous_object": 0.04, "evil": -0.12, "festival": -0.055, "answer": 0.084,
    "unity": 0.626, "free_turn": 0.143, "attacked": -0.108, "attack_points": 0.004,
    "chain_to_enter": -0.034, "picked": 0.022,
}
"""Log-odds of winning per unit of each feature: ``fit_unity_weights.py 3000 2`` prints them (held-out log-loss
0.669 and accuracy 57.9%, against 0.685 and 55.5% for cards left alone; the game is mostly luck)."""

_W = tuple(WEIGHTS[f] for f in FEATURES)


def features(s: UnityState, seat: int) -> list[float]:
    """The seat's counts in `FEATURES` order."""
    d = s.deck
    human = obj = evil = festival = answer = unity = 0
    for c in s.hands[seat]:
        flags = d.flags[c]
        if flags & ANSWERS:
            answer += 1
        elif flags & UNITY:
            unity += 1
        elif flags & HUMAN:
            human += 1
        elif flags & R_OBJECT:
            obj += 1
        elif d.side[c] == EVIL:
            evil += 1
        elif d.side[c] == FESTIVAL:
            festival += 1
    moving = s.turn == seat
    attacked = moving and s.phase == RESPOND
    return [human, obj, evil, festival, answer, unity,
            float(moving and s.phase == FREE), float(attacked),
            sum(map(d.value.__getitem__, s.attack)) if attacked else 0,
            s.chain_count if moving and s.phase == ENTER and not s.drawn else 0,
            len(s.sel) if moving else 0]


@lru_cache(maxsize=8)
def card_weights(deck: Deck) -> tuple[float, ...]:
    """Per card id, the weight its kind adds to a hand's score (the card counts of `features`, weighed)."""
    out = []
    for c in range(deck.ncards):
        flags, side = deck.flags[c], deck.side[c]
        kind = ("answer" if flags & ANSWERS else "unity" if flags & UNITY else "human" if flags & HUMAN
                else "righteous_object" if flags & R_OBJECT else "evil" if side == EVIL
                else "festival" if side == FESTIVAL else None)
        out.append(WEIGHTS[kind] if kind else 0.0)
    return tuple(out)


def score(s: UnityState, seat: int) -> float:
    """The seat's weighted score, ``features . WEIGHTS``: higher stands better. Summed straight from each
    card's weight and the moment's terms, without building the feature list (the search's hot path)."""
    total = sum(map(card_weights(s.deck).__getitem__, s.hands[seat]))
    if s.turn == seat:
        phase = s.phase
        if phase == FREE:
            total += WEIGHTS["free_turn"]
        elif phase == RESPOND:
            total += WEIGHTS["attacked"] + WEIGHTS["attack_points"] * sum(map(s.deck.value.__getitem__, s.attack))
        elif phase == ENTER and not s.drawn:
            total += WEIGHTS["chain_to_enter"] * s.chain_count
        total += WEIGHTS["picked"] * len(s.sel)
    return total


def scores(s: UnityState) -> list[float]:
    """Every seat's `score`, worked out once per position: the search asks each seat's estimate in turn."""
    cached = s.scores
    if cached is not None and cached[0] == len(s.actions):
        return cached[1]
    out = [score(s, seat) for seat in range(s.n)]
    s.scores = (len(s.actions), out)
    return out


def estimate(s: UnityState, player: int) -> float:
    """1 for a win, -1 for a loss, 0 for a game ended with no winner; otherwise the logistic estimate of
    `player` against the best-placed rival, within (-0.9, 0.9)."""
    if s.phase == OVER:
        return 0.0 if s.winner is None else (1.0 if s.winner == player else -1.0)
    each = scores(s)
    lead = each[player] - max(x for q, x in enumerate(each) if q != player)
    return max(-0.9, min(0.9, 2.0 / (1.0 + math.exp(-lead)) - 1.0))
