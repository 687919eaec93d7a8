"""The AI players: legal, honest about hidden information, repeatable, and stronger in order."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from cardgames.engine.command_dice import GAME
from gamekit.dice import Dice
from gamekit.errors import RuleError
from gamekit.events import Event
from gamekit.players import GreedyPlayer, ISMCTSPlayer, RandomPlayer
from gamekit.simulate import play, simulate


@dataclass
class GuessState:
    config: dict
    players: list[str]
    seed: int | None
    dice: Dice
    secret: int | None = None
    guess: int | None = None
    actions: list = field(default_factory=list)


class GuessGame:
    """Seat 1 hides a card (0 or 1); seat 0 names it and wins if right. Only a cheat always wins."""

    name = "guess"

    def __init__(self, *, honest: bool = True) -> None:
        self.honest = honest

    def new_game(self, config, players, seed=None, dice=None) -> GuessState:
        return GuessState(config, list(players), seed, dice or Dice(seed))

    def to_move(self, state):
        if state.secret is None:
            return (1,)
        return () if state.guess is not None else (0,)

    def legal_actions(self, state, player):
        return [("card", 0), ("card", 1)] if player in self.to_move(state) else []

    def apply(self, state, action, player=None):
        if action not in self.legal_actions(state, player if player is not None else self.to_move(state)[0]):
            raise RuleError("turn", "Not your move.")
        if state.secret is None:
            state.secret = action[1]
        else:
            state.guess = action[1]
        state.actions.append((player, action))
        return [Event("move", "A move.")]

    def is_over(self, state):
        return state.guess is not None

    def result(self, state):
        winner = 0 if state.guess == state.secret else 1
        return {"winner": winner, "scores": [int(winner == 0), int(winner == 1)]}

    def view(self, state, player):
        return {"hidden": state.secret is not None, "guess": state.guess}

    def clone(self, state):
        return GuessState(state.config, state.players, state.seed, state.dice.fork(0), state.secret,
                          state.guess, list(state.actions))

    def determinize(self, state, player, rng):
        copy = self.clone(state)
        if self.honest and player == 0 and copy.secret is not None:
            copy.secret = rng.randrange(2)
        return copy

    def heuristic(self, state, player):
        return 0.0


def hidden(game: GuessGame, secret: int) -> GuessState:
    state = game.new_game({}, ["Ann", "Bob"], seed=1)
    game.apply(state, ("card", secret), 1)
    return state


class Checked:
    """Wraps a player and asserts every action it chooses is legal at that moment."""

    def __init__(self, player: Any) -> None:
        self.player = player

    def choose(self, game, state, seat):
        action = self.player.choose(game, state, seat)
        assert action in game.legal_actions(state, seat)
        return action


@pytest.mark.parametrize("make", [lambda s: RandomPlayer(s), lambda s: GreedyPlayer(s, samples=2),
                                  lambda s: ISMCTSPlayer(s, iterations=30),
                                  lambda s: ISMCTSPlayer(s, iterations=10, rollout_depth=None)])
def test_players_choose_only_legal_actions(make):
    state = GAME.new_game({}, ["Ann", "Bob"], seed=4)
    play(GAME, state, [Checked(make(1)), Checked(make(2))])
    assert GAME.is_over(state)


def test_ismcts_chooses_from_what_it_has_seen_not_the_hidden_card():
    game = GuessGame()
    choices = {ISMCTSPlayer(7, iterations=200).choose(game, hidden(game, secret), 0) for secret in (0, 1)}
    assert len(choices) == 1


def test_the_guess_test_would_catch_a_peeking_search():
    cheat = GuessGame(honest=False)
    assert [ISMCTSPlayer(7, iterations=200).choose(cheat, hidden(cheat, s), 0) for s in (0, 1)] == [
        ("card", 0), ("card", 1)]


def test_ismcts_and_greedy_reach_the_state_only_through_determinize():
    calls = []

    class Spy(GuessGame):
        def determinize(self, state, player, rng):
            calls.append(player)
            return super().determinize(state, player, rng)

        def clone(self, state):
            assert calls, "a search copied the true state before determinizing it"
            return super().clone(state)

    game = Spy()
    ISMCTSPlayer(1, iterations=20).choose(game, hidden(game, 1), 0)
    assert calls == [0] * 20
    calls.clear()
    GreedyPlayer(1, samples=3).choose(game, hidden(game, 1), 0)
    assert calls == [0] * 6


def test_ismcts_ignores_the_other_secret_dice_choice_and_deck_order():
    state = GAME.new_game({}, ["Ann", "Bob"], seed=8)
    GAME.apply(state, ("choose", 4, 0, 0), 1)
    other = GAME.load(GAME.dump(state))
    other.chosen[1] = (0, 0, 1)
    other.deck = other.deck[:3] + other.deck[3:][::-1]
    assert ISMCTSPlayer(3, iterations=150).choose(GAME, state, 0) == \
        ISMCTSPlayer(3, iterations=150).choose(GAME, other, 0)


@pytest.mark.parametrize("make", [lambda: RandomPlayer(5), lambda: GreedyPlayer(5, samples=2),
                                  lambda: ISMCTSPlayer(5, iterations=40)])
def test_players_are_deterministic_given_seeds(make):
    runs = []
    for _ in range(2):
        state = GAME.new_game({}, ["Ann", "Bob"], seed=9)
        play(GAME, state, [make(), RandomPlayer(6)])
        runs.append(list(state.actions))
    assert runs[0] == runs[1]


def test_greedy_clearly_beats_random_at_command_dice():
    outcome = simulate(GAME, {}, [GreedyPlayer(1, samples=2), RandomPlayer(2)], games=40, seed=3, alternate=True)
    assert outcome["wins"][0] >= 32


def test_ismcts_beats_random_at_command_dice():
    # at 200 iterations it wins about 88% (53 of 60 games); at 60 it won only 58% (116 of 200), a coin's luck
    outcome = simulate(GAME, {"victories": 2}, [ISMCTSPlayer(1, iterations=200), RandomPlayer(2)], games=10,
                       seed=4, alternate=True)
    assert outcome["wins"][0] >= 8


def test_a_forced_move_needs_no_search():
    state = GAME.new_game({}, ["Ann", "Bob"], seed=10)
    rng = random.Random(0)
    while len(GAME.legal_actions(state, GAME.to_move(state)[0])) != 1:
        for seat in GAME.to_move(state):
            GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat)
    seat = GAME.to_move(state)[0]
    player = ISMCTSPlayer(1, iterations=10**9)
    assert player.choose(GAME, state, seat) == GAME.legal_actions(state, seat)[0]


def test_search_player_takes_the_games_tuned_settings_and_overrides():
    from battles.engine import GAME as BATTLE
    from gamekit.players import search_player

    tuned = search_player(BATTLE, 1, iterations=50)
    assert (tuned.iterations, tuned.exploration, tuned.rollout_depth, tuned.rollout_to_turn) == (50, 0.7, 12, True)
    assert search_player(BATTLE, 1, exploration=0.2).exploration == 0.2
    plain = search_player(GAME, 1)  # Command Dice keeps the player's defaults
    assert (plain.exploration, plain.rollout_depth, plain.rollout_to_turn) == (0.35, 0, False)


def test_play_outs_stop_at_the_searchers_next_decision_only_when_asked(monkeypatch):
    from gamekit import players

    seen = []
    real = players.play_random
    monkeypatch.setattr(players, "play_random", lambda *a, **k: seen.append(k["stop_at"]) or real(*a, **k))
    game = GuessGame()
    for to_turn, expected in ((True, 0), (False, None)):
        seen.clear()
        ISMCTSPlayer(3, iterations=10, rollout_to_turn=to_turn).choose(game, hidden(game, 1), 0)
        assert len(seen) == 10
        assert set(seen) == {expected}
