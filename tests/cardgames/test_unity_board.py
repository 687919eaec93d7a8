"""The Unity layout shows the engine's own labels (`describe_action`) and the engine's card faces: nothing
is worded or looked up again in the layout. No database: the board is built from a TableView."""

import json
import random
from types import SimpleNamespace

from cardgames.engine.unity import GAME
from cardgames.selectors import TableView, action_label
from cardgames.templatetags.unity import unity_board


def board_for(state, seat):
    to_move = list(GAME.to_move(state))
    actions = [(action_label(GAME, state, a), json.dumps(a)) for a in GAME.legal_actions(state, seat)] \
        if seat in to_move else []
    table = TableView(match=SimpleNamespace(config={}), seat=seat, view=GAME.view(state, seat), actions=actions,
                      log=[], to_move=to_move, over=GAME.is_over(state))
    return unity_board(table), actions


def test_every_button_bears_the_engines_label_and_every_card_its_face():
    state = GAME.new_game({"max_turns": 60}, ["amira", "bastian", "chen"], seed=5)
    rng = random.Random(5)
    while not GAME.is_over(state):
        (seat,) = GAME.to_move(state)
        board, actions = board_for(state, seat)
        buttons = [(m["label"], m["action"]) for card in board["hand"] for m in card["moves"]]
        buttons += [(m["label"], m["action"]) for group in board["groups"] for m in group["moves"]]
        assert sorted(buttons) == sorted(actions)
        for card in board["hand"] + [c for pile in board["piles"] for c in pile["cards"]]:
            assert {k: card[k] for k in ("name", "category", "value", "side", "text")} == {
                k: v for k, v in state.deck.card(card["id"]).items() if k != "id"}
        GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat)
