"""The board builders of the game layouts, over random games of each engine: in every phase each legal move of
the seat to move becomes exactly one button (on a card in the hand, or in a group), and every seat and the GM
watching get a board. No database: the builders read a TableView, here built straight from the engine."""

import json
import random
from types import SimpleNamespace

import pytest

from cardgames.registry import game_for
from cardgames.selectors import TableView, action_label
from cardgames.templatetags.squad_combat import squad_combat_board
from cardgames.templatetags.unholy_war import unholy_war_board
from cardgames.templatetags.unity import unity_board

BOARDS = {"unholy-war": unholy_war_board, "squad-combat": squad_combat_board, "unity": unity_board}


def table_for(engine, state, seat, config) -> TableView:
    to_move = list(engine.to_move(state))
    actions = [(action_label(engine, state, a), json.dumps(a)) for a in engine.legal_actions(state, seat)] \
        if seat in to_move else []
    return TableView(match=SimpleNamespace(config=config), seat=seat, view=engine.view(state, seat),
                     actions=actions, log=[], to_move=to_move, over=engine.is_over(state))


def buttons(board) -> list[str]:
    on_cards = [m["action"] for card in board["hand"] for m in card["moves"]]
    return on_cards + [m["action"] for group in board["groups"] for m in group["moves"]]


@pytest.mark.parametrize("game", sorted(BOARDS))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_legal_move_is_one_button_in_every_phase(game, seed):
    engine, build, config = game_for(game), BOARDS[game], {}
    state = engine.new_game(config, ["amira", "bastian"], seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        if engine.is_over(state):
            break
        seat = engine.to_move(state)[0]
        table = table_for(engine, state, seat, config)
        assert sorted(buttons(build(table))) == sorted(a for _, a in table.actions)
        for watcher in (1 - seat, None):
            assert buttons(build(table_for(engine, state, watcher, config))) == []
        engine.apply(state, rng.choice(engine.legal_actions(state, seat)), seat)
