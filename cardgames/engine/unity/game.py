"""`UnityGame`: Unity behind the shared game protocol (`gamekit.protocol`). The rules are in the modules it binds:
`dealing` (the deal, drawing, the re-deal for search), `legal`, `actions` (apply, with `attack`,
`righteousness`, `festivals` and `turns`), `views` and `labels`."""

from __future__ import annotations

from typing import Any

from cardgames.engine.unity import actions, dealing, evaluation, labels, legal, views
from cardgames.engine.unity.deck import deck_for
from cardgames.engine.unity.state import OVER, UnityState, copy_state, state_dump, state_load


class UnityGame:
    """The Unity rules; every method takes or returns plain data (see `gamekit.protocol.Game`). `quiet` is the
    same game without event text, for search and simulation."""

    name = "unity"

    def __init__(self, *, text: bool = True) -> None:
        self.text = text
        self.quiet = self if not text else UnityGame(text=False)
        self.apply = actions.applier(text)
        """``apply(state, action, player=None) -> list[Event]``: the rules, with or without event text."""

    new_game = staticmethod(dealing.new_game)
    """``new_game(config, players, seed=None, dice=None)``: shuffle and deal."""

    legal_actions = staticmethod(legal.legal_actions)
    """``legal_actions(state, player)``: bound straight to the rules (no wrapper call on the hot path)."""

    determinize = staticmethod(dealing.determinize)
    """``determinize(state, player, rng)``: the cards `player` has not seen, re-dealt at random."""

    def to_move(self, state: UnityState) -> tuple[int, ...]:
        return () if state.phase == OVER else (state.turn,)

    def is_over(self, state: UnityState) -> bool:
        return state.phase == OVER

    def result(self, state: UnityState) -> dict[str, Any]:
        return views.result(state)

    def describe_action(self, state: UnityState, action: Any) -> str:
        """A button label for one of the mover's legal actions, naming its cards (see `labels`); any other
        action raises the RuleError `apply` would."""
        return labels.describe(state, action, legal.legal_actions(state, state.turn))

    def view(self, state: UnityState, player: int | None) -> dict[str, Any]:
        return views.view(state, player)

    def clone(self, state: UnityState) -> UnityState:
        log = state.dice.log
        seed = hash((state.seed or 0, len(state.actions), len(log) if log is not None else -1)) & (1 << 62) - 1
        return copy_state(state, state.dice.fork(seed))

    def dump(self, state: UnityState) -> dict[str, Any]:
        return state_dump(state)

    def load(self, data: dict[str, Any]) -> UnityState:
        return state_load(data, deck_for(data["config"]))

    def heuristic(self, state: UnityState, player: int) -> float:
        """1 for a win, -1 for a loss; otherwise the fitted estimate of `evaluation`, within (-0.9, 0.9)."""
        return evaluation.estimate(state, player)


GAME = UnityGame()
