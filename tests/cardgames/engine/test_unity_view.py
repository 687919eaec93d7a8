"""What a Unity view carries: every card a seat may see with what is printed on it (side, category, value,
text), so an API client can draw the table from the view alone; and never another seat's hand card, another
seat's unplayed picks or the draw pile's order (a property over many random states). No database."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from cardgames.engine.unity import GAME

from .test_unity_properties import PROFILE
from .unity_tables import card_dicts, cid, new


def pick(state, *names):
    for name in names:
        GAME.apply(state, ("pick", cid(state, state.turn, name)), state.turn)


def play(state, *names):
    pick(state, *names)
    GAME.apply(state, ("play",), state.turn)


def test_each_card_in_a_view_carries_its_side_category_value_and_text():
    state = new([["Goliath", "Idol", "Abraham"], ["David", "Moses", "Legion"]])
    view = GAME.view(state, 1)
    assert view["hand"][0] == {"id": cid(state, 1, "Moses"), "name": "Moses", "category": "Righteous Person",
                               "value": 6, "side": "righteous", "text": ""}
    david = next(c for c in view["hand"] if c["name"] == "David")
    assert david["text"].startswith("Defeats Goliath at once")
    play(state, "Goliath", "Idol")
    attack = GAME.view(state, None)["attack"]["cards"]
    assert [(c["name"], c["side"], c["category"], c["value"]) for c in attack] == [
        ("Goliath", "evil", "Evil Person", 9), ("Idol", "evil", "Evil Object", 3)]
    assert attack[1]["text"] == "Play on any evil character to add its points, or by itself."
    GAME.apply(state, ("david", cid(state, 1, "David")), 1)
    piles = GAME.view(state, 0)["discards"]
    assert [(c["name"], c["side"]) for c in piles["righteous"]] == [("David", "righteous")]
    assert [(c["name"], c["side"]) for c in piles["evil"]] == [("Goliath", "evil")]


def test_only_the_picking_seat_sees_its_picked_cards():
    state = new([["Legion", "Abaddon"], ["Moses", "Noah"]])
    pick(state, "Legion")
    assert [c["name"] for c in GAME.view(state, 0)["picked"]] == ["Legion"]
    assert GAME.view(state, 0)["picked"][0]["side"] == "evil"
    assert GAME.view(state, 1)["picked"] == []
    assert "picked" not in GAME.view(state, None)


def test_the_chain_shows_who_entered_with_which_cards_but_not_a_play_still_being_picked():
    state = new([["Abraham", "Moses", "Legion"], ["Ruth", "Baal", "Greed"], ["Noah", "Solomon", "Idol"]])
    play(state, "Abraham", "Moses")
    play(state, "Ruth")
    pick(state, "Noah")
    for seat in (0, None):
        chain = GAME.view(state, seat)["chain"]
        assert [(e["seat"], [c["name"] for c in e["cards"]]) for e in chain["entries"]] == [
            (0, ["Abraham", "Moses"]), (1, ["Ruth"])]
        assert chain["entries"][1]["cards"][0]["category"] == "Righteous Person"
    assert [c["name"] for c in GAME.view(state, 2)["picked"]] == ["Noah"]


def test_a_festival_under_way_says_what_is_written_on_it():
    state = new([["Passover", "Legion"], ["Abaddon", "Moses"]])
    GAME.apply(state, ("festival", cid(state, 0, "Passover")), 0)
    assert GAME.view(state, 1)["festival"]["text"] == "The destroyer passes over: each player discards one Demon card."


def without_selection(state):
    """The same table with the mover's unplayed picks undone (and gone from the history)."""
    t = GAME.clone(state)
    del t.actions[len(t.actions) - len(t.sel):]
    t.sel = []
    return t


def check_views(state, rng, lookers):
    """For each of `lookers` (seats, None for a spectator): each card is shown with its full face, only cards
    it may see are shown, the mover's picks are invisible to the others, and re-dealing what it cannot see
    changes nothing."""
    d = state.deck
    public = set(state.attack) | {c for p in state.discard for c in p}
    public |= {c for h in state.hands for c in h if state.shown[c]}
    for looker in lookers:
        view = GAME.view(state, looker)
        json.dumps(view)
        own = set(state.hands[looker]) if looker is not None else set()
        for card in card_dicts(view):
            assert card == d.card(card["id"])
            assert card["id"] in public | own, "another seat's hand card or a pile card leaked"
        if looker is None:
            continue
        if looker != state.turn:
            assert view["selection"] == view["picked"] == []
            assert view == GAME.view(without_selection(state), looker), "another seat's picks leaked"
        assert view == GAME.view(GAME.determinize(state, looker, rng), looker), "hidden cards leaked"


@PROFILE
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), choices=st.randoms(use_true_random=False))
def test_no_view_shows_another_hand_unplayed_picks_or_the_pile_order(seed, players, choices):
    state = GAME.new_game({"max_turns": 40, "verbose": False}, [f"p{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    everyone = [None, *range(players)]
    steps = 0
    while not GAME.is_over(state):
        check_views(state, rng, [everyone[steps % len(everyone)]])  # each looker in turn
        (seat,) = GAME.to_move(state)
        GAME.apply(state, choices.choice(GAME.legal_actions(state, seat)), seat)
        steps += 1
    check_views(state, rng, everyone)
