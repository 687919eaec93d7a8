"""Every rule of shared/rules/unity.txt (with RULINGS.md) as a test, on stacked decks."""

from __future__ import annotations

import pytest

from cardgames.engine.unity import GAME, stacked_order
from cardgames.engine.unity.deck import default_data
from cardgames.engine.unity.state import CELEBRATE, ENTER, FREE, OVER, RESPOND
from gamekit.dice import Dice
from gamekit.errors import RuleError

from .unity_tables import NAMES, cid, new


def names(state, seat):
    return sorted(state.deck.name[c] for c in state.hands[seat])


def act(state, *action):
    return GAME.apply(state, action, state.turn)


def play(state, *cards):
    """Pick the named cards of the player to move (in hand order) and play them."""
    seat = state.turn
    events = []
    for c in sorted(cid(state, seat, n) for n in cards):
        events += act(state, "pick", c)
    return events + act(state, "play")


def picks(state):
    return sorted(state.deck.name[a[1]] for a in GAME.legal_actions(state, state.turn) if a[0] == "pick")


def kinds(state):
    return {a[0] for a in GAME.legal_actions(state, state.turn)}


# --- the deal and the free turn -------------------------------------------------------------

def test_each_player_is_dealt_eight_and_the_player_left_of_the_dealer_starts():
    state = GAME.new_game({}, NAMES[:4], seed=3)
    assert [len(h) for h in state.hands] == [8, 8, 8, 8]
    assert len(state.pile) == state.deck.ncards - 32
    assert GAME.to_move(state) == (0,)
    assert state.phase == FREE


def test_the_shuffle_comes_from_the_dice():
    a = GAME.new_game({}, NAMES[:2], dice=Dice.scripted([1] * 104))
    b = GAME.new_game({}, NAMES[:2], dice=Dice.scripted([1] * 104))
    assert a.hands == b.hands
    assert a.pile == b.pile
    assert len(a.dice.log) == 104
    assert GAME.new_game({}, NAMES[:2], seed=5).hands == GAME.new_game({}, NAMES[:2], seed=5).hands


@pytest.mark.parametrize("count", [1, 7])
def test_two_to_six_players(count):
    with pytest.raises(RuleError) as err:
        GAME.new_game({}, [f"p{i}" for i in range(count)], seed=1)
    assert err.value.rule == "players"


def test_a_free_turn_is_an_attack_an_invitation_or_a_festival():
    state = new([["Legion", "Abraham", "Passover"], ["Moses", "Noah", "Esther"]])
    assert kinds(state) == {"pick", "festival"}
    assert picks(state) == ["Abraham", "Legion"]
    with pytest.raises(RuleError) as err:
        act(state, "draw")
    assert err.value.rule == "free-turn"


# --- Section 1: evil attacks ----------------------------------------------------------------

def test_an_attack_is_one_evil_category():
    state = new([["Beelzebub", "Pharaoh", "Legion"], ["Moses", "Noah", "Esther"]])
    act(state, "pick", cid(state, 0, "Beelzebub"))
    assert picks(state) == ["Legion"]
    with pytest.raises(RuleError) as err:
        act(state, "pick", cid(state, 0, "Pharaoh"))
    assert err.value.rule == "attack-category"


def test_an_asherah_pole_brings_in_a_second_category():
    state = new([["Beelzebub", "Pharaoh", "Asherah Pole"], ["Moses", "Noah", "Esther"]])
    act(state, "pick", cid(state, 0, "Beelzebub"))
    act(state, "pick", cid(state, 0, "Pharaoh"))
    assert kinds(state) == {"pick"}, "two categories need the pole"
    act(state, "pick", cid(state, 0, "Asherah Pole"))
    events = act(state, "play")
    assert state.phase == RESPOND
    assert state.turn == 1
    assert [e.data["strength"] for e in events if e.kind == "attack"] == [14]


def test_evil_objects_add_points_or_attack_alone():
    state = new([["Legion", "Idol", "Golden Calf"], ["Moses", "Noah", "Esther"]])
    play(state, "Legion", "Idol")
    assert GAME.view(state, 1)["attack"]["strength"] == 9
    alone = new([["Idol", "Abraham", "Moses"], ["Noah", "Esther", "Daniel"]])
    play(alone, "Idol")
    assert GAME.view(alone, 1)["attack"]["strength"] == 3


def test_a_zero_point_attack_must_still_be_defeated_with_a_righteous_card():
    state = new([["Asherah Pole", "Abraham", "Moses"], ["Ruth", "Greed", "Idol"]])
    play(state, "Asherah Pole")
    assert GAME.view(state, 1)["attack"]["strength"] == 0
    assert "draw" not in kinds(state)
    play(state, "Ruth")
    assert state.phase == FREE


def test_the_attacked_player_uses_their_turn_so_the_next_player_moves_after_the_battle():
    state = new([["Legion", "Abraham", "Moses"], ["Elijah", "Noah", "Esther"], ["Ruth", "Deborah", "Joseph"]])
    play(state, "Legion")
    assert state.turn == 1
    play(state, "Elijah", "Noah")
    assert (state.phase, state.turn) == (FREE, 2)


# (a) in unity

def test_unity_worked_example_sixteen_points_beaten_by_six_six_five():
    attack = ["Beelzebub", "Legion", "Unclean Spirit"]
    state = new([[*attack, "Baal"], ["Abraham", "Moses", "Noah", "Ruth"], ["Solomon", "Peter", "Levi", "Judah"]])
    play(state, *attack)
    assert GAME.view(state, 1)["attack"]["strength"] == 16
    for name in ("Abraham", "Moses", "Noah"):
        act(state, "pick", cid(state, 1, name))
    assert GAME.legal_actions(state, 1) == [("play",)], "a fourth Righteous Person is more than needed"
    with pytest.raises(RuleError) as err:
        act(state, "pick", cid(state, 1, "Ruth"))
    assert err.value.rule == "unity"
    act(state, "play")
    assert names(state, 1) == ["Ruth"]
    assert (state.phase, state.turn) == (FREE, 2)


def test_no_more_righteous_points_than_needed():
    state = new([["Beelzebub", "Legion", "Abraham", "Baal"], ["Moses", "Ruth", "Shofar", "Greed"]])
    play(state, "Beelzebub")
    assert picks(state) == ["Moses"], "Ruth and the Shofar make only 6: they cannot beat 7 without Moses"
    act(state, "pick", cid(state, 1, "Moses"))
    assert picks(state) == ["Ruth", "Shofar"]
    act(state, "pick", cid(state, 1, "Ruth"))
    assert GAME.legal_actions(state, 1) == [("play",)], "Moses and Ruth beat 7 without the Shofar"


def test_righteous_objects_add_points_to_a_righteous_character_only():
    state = new([["Legion", "Abraham", "Moses"], ["Ruth", "Sandals of Peace", "Greed"]])
    play(state, "Legion")
    assert picks(state) == ["Ruth"]
    act(state, "pick", cid(state, 1, "Ruth"))
    assert picks(state) == ["Sandals of Peace"]
    act(state, "pick", cid(state, 1, "Sandals of Peace"))
    act(state, "play")
    assert state.phase == FREE
    only_objects = new([["Legion", "Abraham", "Moses"], ["Ark of the Covenant", "Sword of the Spirit", "Greed"]])
    play(only_objects, "Legion")
    assert GAME.legal_actions(only_objects, 1) == [("draw",)]


def test_categories_combine_only_with_a_unity_card():
    attack = ["Beelzebub", "Legion", "Lying Spirit"]
    hand = ["Abraham", "Solomon", "Peter", "Bartholomew"]
    without = new([[*attack, "Baal", "Bel"], [*hand, "Greed"]])
    play(without, *attack)
    assert GAME.legal_actions(without, 1) == [("draw",)]
    state = new([[*attack, "Baal", "Bel"], [*hand, "Unity"]])
    play(state, *attack)
    play(state, *hand, "Unity")  # the text's example: a Person, a King and two Apostles with Unity
    assert state.phase == OVER
    assert state.winner == 1


# (b) David and Goliath

def test_david_defeats_goliath_and_the_attacker_draws_three():
    state = new([["Goliath", "Abraham", "Moses"], ["David", "Ruth", "Greed"]])
    play(state, "Goliath")
    act(state, "david", cid(state, 1, "David"))
    assert len(state.hands[0]) == 2 + 3
    assert (state.phase, state.turn) == (FREE, 0)
    assert state.deck.name[state.discard[1][-1]] == "Goliath"


def test_david_leaves_the_rest_of_the_attack_to_be_defeated():
    state = new([["Goliath", "Haman", "Moses"], ["David", "Abraham", "Greed"]])
    play(state, "Goliath", "Haman")
    act(state, "david", cid(state, 1, "David"))
    assert (state.phase, state.turn) == (RESPOND, 1)
    assert GAME.view(state, 1)["attack"]["strength"] == 5
    play(state, "Abraham")
    assert (state.phase, state.turn) == (FREE, 0)


def test_david_answers_only_goliath():
    state = new([["Haman", "Abraham", "Moses"], ["David", "Ruth", "Greed"]])
    play(state, "Haman")
    assert "david" not in kinds(state)
    with pytest.raises(RuleError) as err:
        act(state, "david", cid(state, 1, "David"))
    assert err.value.rule == "david"


# (c) special cards

def test_trinity_defeats_the_attack_the_attacker_draws_four_and_it_is_still_your_turn():
    state = new([["Legion", "Abraham", "Moses"], ["Trinity", "Ruth", "Greed"], ["Noah", "Esther", "Daniel"]])
    play(state, "Legion")
    act(state, "trinity", cid(state, 1, "Trinity"))
    assert len(state.hands[0]) == 2 + 4
    assert (state.phase, state.turn) == (FREE, 1)


def test_gods_judgement_turns_the_attack_back_on_the_attacker():
    state = new([["Legion", "Abraham", "Moses", "Baal"], ["God's Judgement", "Ruth", "Greed", "Envy"],
                 ["Noah", "Esther", "Daniel", "Deborah"]])
    play(state, "Legion")
    act(state, "judgement", cid(state, 1, "God's Judgement"))
    assert (state.phase, state.turn) == (RESPOND, 0)
    assert GAME.view(state, 0)["attack"]["strength"] == 6
    play(state, "Abraham", "Moses")
    assert (state.phase, state.turn) == (FREE, 2)


def test_gods_glory_sends_the_evil_cards_back_to_the_attacker():
    state = new([["Legion", "Abaddon", "Moses"], ["God's Glory", "Ruth", "Greed"], ["Noah", "Esther", "Daniel"]])
    play(state, "Legion", "Abaddon")
    act(state, "glory", cid(state, 1, "God's Glory"))
    assert names(state, 0) == ["Abaddon", "Legion", "Moses"]
    assert {c["name"] for c in GAME.view(state, 2)["shown"][0]} == {"Legion", "Abaddon"}
    assert (state.phase, state.turn) == (FREE, 2)


def test_an_angel_with_any_righteous_card_defeats_any_attack_and_it_is_still_your_turn():
    attack = ["Beelzebub", "Legion", "Abaddon", "Lying Spirit"]
    state = new([attack, ["Michael", "Shield of Faith", "Greed", "Envy"], ["Noah", "Esther", "Daniel", "Ruth"]])
    play(state, *attack)
    action = ("angel", cid(state, 1, "Michael"), cid(state, 1, "Shield of Faith"))
    assert action in GAME.legal_actions(state, 1)
    act(state, *action)
    assert (state.phase, state.turn) == (FREE, 1)


# (d) evil fighting evil

def test_evil_may_defeat_evil_with_more_points_and_costs_two_cards():
    state = new([["Unclean Spirit", "Abraham", "Moses"], ["Elijah", "Molech", "Greed"]])
    play(state, "Unclean Spirit")
    assert picks(state) == ["Elijah", "Molech"], "evil is open even when righteousness is"
    play(state, "Molech")
    assert len(state.hands[1]) == 3 - 1 + 2
    assert (state.phase, state.turn) == (FREE, 0)


def test_evil_against_evil_follows_the_attack_rules_and_must_exceed():
    state = new([["Legion", "Abraham", "Moses"], ["Chemosh", "Idol", "Jezebel"]])
    play(state, "Legion")
    assert picks(state) == ["Chemosh", "Jezebel"]  # with the Idol: 7 and 9 beat 6; alone they do not
    act(state, "pick", cid(state, 1, "Chemosh"))
    assert GAME.legal_actions(state, 1) == [("pick", cid(state, 1, "Idol"))]
    with pytest.raises(RuleError) as err:
        act(state, "play")
    assert err.value.rule == "evil-defeats-evil"


# (e) drawing

def test_draw_until_the_attack_can_be_defeated_by_righteousness():
    state = new([["Beelzebub", "Abraham", "Moses"], ["Deceit", "Greed", "Korah"]],
                top=["Pride", "Elijah", "Noah"])
    play(state, "Beelzebub")
    assert GAME.legal_actions(state, 1) == [("draw",)]
    act(state, "draw")
    assert kinds(state) == {"pick", "draw"}, "evil became possible; drawing may go on"
    act(state, "draw")
    assert "draw" in kinds(state)
    act(state, "draw")
    assert "draw" not in kinds(state), "Elijah and Noah beat Beelzebub: stop drawing"
    with pytest.raises(RuleError) as err:
        act(state, "draw")
    assert err.value.rule == "must-defeat"


def test_an_undefeatable_attack_lapses_when_nothing_is_left_to_draw():
    data = default_data()
    deck = {"categories": data["categories"],
            "cards": [c for c in data["cards"] if c["name"] in ("Beelzebub", "Greed", "Abraham", "Moses")]}
    state = GAME.new_game({"deck": deck, "hand_size": 2, "deck_order": [0, 2, 1, 3]}, NAMES[:2], seed=1)
    assert names(state, 0) == ["Abraham", "Beelzebub"]
    assert names(state, 1) == ["Greed", "Moses"]
    events = play(state, "Beelzebub")
    assert [e.kind for e in events][-1] == "lapse", "Moses 6 and Greed 3 cannot beat 7, nothing to draw"
    assert (state.phase, state.turn) == (FREE, 0)
    assert [state.deck.name[c] for c in state.discard[1]] == ["Beelzebub"]


# --- Section 2: righteousness ---------------------------------------------------------------

def test_an_invitation_is_one_righteous_category_unless_unity_or_the_shofar_combine():
    state = new([["Solomon", "Abraham", "Legion"], ["Moses", "Noah", "Esther"]])
    act(state, "pick", cid(state, 0, "Abraham"))
    assert picks(state) == []
    with pytest.raises(RuleError) as err:
        act(state, "pick", cid(state, 0, "Solomon"))
    assert err.value.rule == "invitation-category"
    shofar = new([["Solomon", "Abraham", "Shofar"], ["Moses", "Noah", "Esther"]])
    act(shofar, "pick", cid(shofar, 0, "Abraham"))
    assert picks(shofar) == ["Shofar", "Solomon"]


def test_chain_worked_example_four_players():
    state = new([["Solomon", "Hezekiah", "Abraham"], ["Josiah", "Jehoshaphat", "Moses"],
                 ["Noah", "Esther", "Daniel"], ["Ruth", "Deborah", "Peter"]],
                top=["Jotham", "Judah", "Levi", "Reuben", "Asa", "Benjamin", "Issachar", "Zebulun", "Simeon"])
    play(state, "Solomon", "Hezekiah")
    assert (state.phase, state.turn) == (ENTER, 1)
    play(state, "Josiah", "Jehoshaphat")
    assert picks(state) == []
    act(state, "decline")
    assert len(state.hands[2]) == 3 + 4, "four Righteous Kings have been played"
    play(state, "Jotham")
    act(state, "decline")
    assert len(state.hands[3]) == 3 + 5
    play(state, "Asa")
    assert (state.phase, state.turn) == (FREE, 1), "Ann and Ben both played two; Ben was the later"


def test_the_player_who_entered_with_the_most_cards_has_the_free_turn():
    state = new([["Solomon", "Hezekiah", "Abraham"], ["Josiah", "Moses", "Noah"]])
    play(state, "Solomon", "Hezekiah")
    play(state, "Josiah")
    assert (state.phase, state.turn) == (FREE, 0)


def test_a_broken_chain_gives_the_next_player_the_free_turn():
    state = new([["Solomon", "Hezekiah", "Abraham"], ["Moses", "Noah", "Esther"], ["Ruth", "Deborah", "Peter"]],
                top=["Legion", "Baal"])
    play(state, "Solomon", "Hezekiah")
    act(state, "decline")
    assert names(state, 1) == ["Baal", "Esther", "Legion", "Moses", "Noah"]
    assert (state.phase, state.turn) == (FREE, 2)


def test_a_player_may_choose_not_to_enter_and_draws():
    state = new([["Solomon", "Abraham", "Legion"], ["Josiah", "Moses", "Noah"]], top=["Baal"])
    play(state, "Solomon")
    assert kinds(state) == {"pick", "decline"}
    act(state, "decline")
    assert "Baal" in names(state, 1)
    assert GAME.legal_actions(state, 1) == [("pick", cid(state, 1, "Josiah"))], "after drawing, enter if able"
    with pytest.raises(RuleError) as err:
        act(state, "decline")
    assert err.value.rule == "chain-draw"


def test_after_combining_categories_any_category_played_may_be_matched():
    state = new([["Solomon", "Abraham", "Unity"], ["Moses", "Peter", "Legion"]])
    play(state, "Solomon", "Abraham", "Unity")
    assert state.winner == 0
    state = new([["Solomon", "Abraham", "Shofar", "Legion"], ["Moses", "Peter", "Baal", "Bel"]])
    play(state, "Solomon", "Abraham", "Shofar")
    assert picks(state) == ["Moses"]
    play(state, "Moses")
    assert (state.phase, state.turn) == (FREE, 0)


def test_a_card_that_enters_with_another_category():
    state = new([["Solomon", "Abraham", "Legion"], ["Michael", "Peter", "Baal"]])
    play(state, "Solomon")
    assert picks(state) == ["Michael"], "the Angel enters; the Apostle matches no category played"
    play(state, "Michael")
    assert state.phase == FREE


# --- Section 3: festivals -------------------------------------------------------------------

def test_each_player_celebrates_in_turn_and_the_festival_player_keeps_the_turn():
    state = new([["Passover", "Legion", "Abraham"], ["Moses", "Noah", "Esther"],
                 ["Abaddon", "Lying Spirit", "Ruth"]])
    act(state, "festival", cid(state, 0, "Passover"))
    assert (state.phase, state.turn) == (CELEBRATE, 0)
    assert GAME.legal_actions(state, 0) == [("celebrate", cid(state, 0, "Legion"))]
    act(state, "celebrate", cid(state, 0, "Legion"))
    assert state.turn == 2, "Ben holds no Demon and does not take part"
    act(state, "celebrate", cid(state, 2, "Lying Spirit"))
    assert (state.phase, state.turn) == (FREE, 0)
    assert [state.deck.name[c] for c in state.discard[1]] == ["Legion", "Lying Spirit"]
    assert [state.deck.name[c] for c in state.discard[2]] == ["Passover"]


def test_firstfruits_draws_from_the_righteous_discard_pile_turned_over():
    state = new([["Solomon", "Firstfruits", "Legion"], ["Josiah", "Moses", "Noah"]])
    play(state, "Solomon")
    play(state, "Josiah")
    assert state.turn == 1  # a tie: Ben entered later
    state = new([["Solomon", "Abraham", "Legion"], ["Josiah", "Firstfruits", "Noah"]])
    play(state, "Solomon")
    play(state, "Josiah")
    events = act(state, "festival", cid(state, 1, "Firstfruits"))
    assert "Solomon" in names(state, 1)
    assert "Josiah" in names(state, 0)
    assert all(e.see is None for e in events if e.kind == "festival_draw")
    assert (state.phase, state.turn) == (FREE, 1)


def test_every_festival_of_leviticus_23_has_an_effect_in_the_deck_data():
    festivals = {c["name"]: c["festival"] for c in default_data()["cards"] if c["category"] == "Festival"}
    assert set(festivals) == {"Passover", "Unleavened Bread", "Firstfruits", "Weeks", "Trumpets",
                              "Day of Atonement", "Tabernacles"}


# --- winning, drawing two, the piles ----------------------------------------------------------

def test_win_by_playing_two_or_more_righteous_cards_last():
    state = new([["Solomon", "Josiah"], ["Moses", "Noah"]])
    play(state, "Solomon", "Josiah")
    assert state.phase == OVER
    assert GAME.result(state)["winner"] == 0
    assert GAME.result(state)["scores"] == [1.0, -1.0]


def test_win_by_playing_a_single_unity_card_last():
    state = new([["Unity"], ["Moses"]])
    play(state, "Unity")
    assert GAME.result(state)["winner"] == 0


def test_out_of_cards_without_winning_draws_two_at_once():
    state = new([["Solomon"], ["Moses"]], top=["Legion", "Baal"])
    play(state, "Solomon")
    assert names(state, 0) == ["Baal", "Legion"]
    assert state.phase == ENTER
    attack = new([["Legion"], ["Moses"]], top=["Baal", "Bel"])
    play(attack, "Legion")
    assert names(attack, 0) == ["Baal", "Bel"]


def test_an_empty_pile_is_refilled_by_reshuffling_the_discard_piles():
    data = default_data()
    keep = ("Solomon", "Josiah", "Legion", "Abraham", "Beelzebub", "Moses", "Idol")
    deck = {"categories": data["categories"],
            "cards": [{**c, "copies": 1} for c in data["cards"] if c["name"] in keep]}
    order = stacked_order([["Solomon", "Legion"], ["Abraham", "Beelzebub"]], ["Josiah", "Moses", "Idol"],
                          deck=GAME.new_game({"deck": deck, "hand_size": 1}, NAMES[:2], seed=1).deck)
    state = GAME.new_game({"deck": deck, "hand_size": 2, "deck_order": order}, NAMES[:2], seed=1)
    play(state, "Solomon")
    act(state, "decline")
    play(state, "Josiah")
    assert state.turn == 1
    play(state, "Beelzebub")
    act(state, "draw")
    act(state, "draw")
    assert state.pile == []
    rolls = len(state.dice.log)
    events = act(state, "draw")
    assert any(e.kind == "reshuffle" for e in events)
    assert len(state.dice.log) == rolls + 1
    assert state.discard == [[], [], []]
    assert len(state.pile) == 1


def test_the_turn_limit_ends_the_game_with_no_winner():
    state = new([["Solomon", "Hezekiah"], ["Josiah", "Moses"]], max_turns=1)
    play(state, "Solomon")
    play(state, "Josiah")
    assert state.phase == OVER
    assert GAME.result(state)["winner"] is None
    assert GAME.result(state)["reason"] == "turn limit"


def test_gods_judgement_may_be_turned_back_again():
    state = new([["Unclean Spirit", "God's Judgement", "Moses"], ["God's Judgement", "Ruth", "Greed"],
                 ["Noah", "Esther", "Daniel"]])
    play(state, "Unclean Spirit")
    act(state, "judgement", cid(state, 1, "God's Judgement"))
    act(state, "judgement", cid(state, 0, "God's Judgement"))
    assert (state.phase, state.turn) == (RESPOND, 1)
    play(state, "Ruth")
    assert (state.phase, state.turn) == (FREE, 2)


def test_cards_owed_when_nothing_can_be_drawn_are_drawn_at_the_next_free_turn():
    data = default_data()
    deck = {"categories": data["categories"], "cards": [c for c in data["cards"] if c["name"] in ("Legion", "Moses")]}
    state = GAME.new_game({"deck": deck, "hand_size": 1}, NAMES[:2], seed=1)
    if names(state, 0) != ["Legion"]:
        state = GAME.new_game({"deck": deck, "hand_size": 1, "deck_order": [1, 0]}, NAMES[:2], seed=1)
    assert names(state, 0) == ["Legion"]
    events = play(state, "Legion")
    assert "lapse" in [e.kind for e in events], "Moses 6 does not beat Legion 6 and nothing can be drawn"
    assert names(state, 0) == ["Legion"], "Ann drew her two owed cards: only Legion was left to draw"
    assert (state.phase, state.turn) == (FREE, 0)


def test_an_entry_with_the_shofar_may_mix_categories_when_one_card_matches():
    state = new([["Solomon", "Abraham", "Legion"], ["Josiah", "Peter", "Shofar"]])
    play(state, "Solomon")
    play(state, "Josiah", "Peter", "Shofar")
    assert (state.phase, state.winner) == (OVER, 1)


def test_wild_cards_go_with_one_category_in_an_invitation():
    state = new([["Solomon", "Josiah", "Michael", "Abraham"], ["Moses", "Noah", "Esther", "Ruth"]])
    act(state, "pick", cid(state, 0, "Solomon"))
    assert picks(state) == ["Josiah", "Michael"]


def test_a_pick_that_names_no_card_is_refused_with_the_form_to_send():
    from cardgames.engine.unity import GAME as UNITY

    state = UNITY.new_game({}, ["a", "b"], seed=1)
    seat = UNITY.to_move(state)[0]
    with pytest.raises(RuleError, match=r"Name the card you pick: send \('pick', card\)"):
        UNITY.apply(state, ("pick",), seat)
