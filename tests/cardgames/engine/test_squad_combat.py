"""Squad Combat rules, one test per rule of rules/squad-combat.txt and RULINGS.md (scripted dice)."""

from __future__ import annotations

import pytest

from cardgames.engine.squad_combat import GAME
from cardgames.engine.squad_combat.cards import default_set
from cardgames.engine.squad_combat.rules import pay_dice
from cardgames.engine.squad_combat.state import ACTION, ATTACK_DIE, DEFENCE_DIE, END_DISCARD, MODIFIERS, PAY
from gamekit.dice import Dice
from gamekit.errors import RuleError

CS = default_set()
NAMES = ["Ann", "Bob", "Cy"]


def card(key: str) -> int:
    return CS.card_index[key]


def table(hands, dice=(), *, first=0, script=(), players=2, **config):
    """A game after setup with chosen hands and character dice; later chance comes from `script`.
    Characters per seat: Knight (slot 0), Mage (slot 1), Rogue (slot 2)."""
    st = GAME.new_game(config, NAMES[:players], seed=1)
    for seat in range(players):
        st.deck[seat].extend(st.hand[seat])
        st.hand[seat] = []
        for key in hands[seat]:
            st.deck[seat].remove(card(key))
            st.hand[seat].append(card(key))
    for ch, values in enumerate(dice):
        st.held[ch] = sorted(values, reverse=True)
    st.first = st.actor = st.cur = first
    st.dice = Dice.scripted(script)
    return st


def wound(st, ch, owner, key):
    """Put an attack card from `owner`'s deck under character `ch`, as a hit would."""
    st.deck[owner].remove(card(key))
    st.wounds[ch].append((owner, card(key)))
    st.dmg[ch] += CS.damage[card(key)]


def play(st, *actions):
    events = []
    for action in actions:
        events += GAME.apply(st, action, st.cur)
    return events


def rule_of(st, action):
    with pytest.raises(RuleError) as info:
        GAME.apply(st, action)
    return info.value.rule


# --- Setup --------------------------------------------------------------------------------------


def test_setup_three_characters_five_cards_dice_left_to_right_random_first_player():
    deck = ["sword-strike"] * 6
    outcomes = [6, 5, 4, 3, 2] * 2 + [1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5] + [2]
    st = GAME.new_game({"decks": [deck, deck]}, NAMES[:2], dice=Dice.scripted(outcomes))
    assert [len(h) for h in st.hand] == [5, 5]
    assert [len(d) for d in st.deck] == [1, 1]
    # Knight 2 dice, Mage 3, Rogue 3; rolled seat by seat, left to right.
    assert st.held == [[2, 1], [5, 4, 3], [6, 6, 5], [4, 3], [2, 2, 1], [5, 4, 3]]
    assert st.first == st.cur == 1  # the last outcome, a d2 showing 2
    assert st.alive == [True] * 6
    assert st.step == ACTION
    assert st.turn == 1


def test_squads_are_three_characters():
    with pytest.raises(RuleError, match="exactly three"):
        GAME.new_game({"squads": [["knight", "mage"], None]}, NAMES[:2], seed=1)


def test_one_squad_and_one_deck_serve_every_seat_and_a_bad_one_is_named():
    st = GAME.new_game({"squad": ["priest", "ranger", "rogue"], "deck": {"mend": 7}}, NAMES[:3], seed=1)
    assert [CS.ch_keys[d] for d in st.chdef] == ["priest", "ranger", "rogue"] * 3
    assert all(sorted(st.hand[s] + st.deck[s]) == [card("mend")] * 7 for s in range(3))
    with pytest.raises(RuleError, match="no card 'dragon'"):
        GAME.new_game({"deck": {"dragon": 2}}, NAMES[:2], seed=1)
    with pytest.raises(RuleError, match="at most 200 cards"):
        GAME.new_game({"deck": {"mend": 10**6}}, NAMES[:2], seed=1)
    with pytest.raises(RuleError, match="card key"):
        GAME.new_game({"deck": {"mend": "3"}}, NAMES[:2], seed=1)
    with pytest.raises(RuleError, match="list of three"):
        GAME.new_game({"squad": "knight"}, NAMES[:2], seed=1)


# --- Paying costs -------------------------------------------------------------------------------


def test_worked_example_3_energy_and_a_die_of_any_value():
    """<3>[1]: the character pays 3 energy and spends 1 die of any value (Meteor)."""
    st = table([["meteor"], []], [[], [1]])
    play(st, ("play", card("meteor"), 1, 1, 0))
    assert st.spent[1] == 3
    assert st.held[1] == []
    assert st.step == ATTACK_DIE


def test_worked_example_two_dice_of_two_or_more_and_four_or_more():
    """[2][4]: one die of 2 or more and one of 4 or more (Lightning)."""
    assert pay_dice([4, 1, 1], (4, 2)) is None
    assert pay_dice([5, 2, 1], (4, 2)) == [1]
    assert pay_dice([6, 4, 3], (4, 2)) == [6]  # the smallest dice that meet each minimum
    st = table([["lightning"], []], [[], [4, 1, 1]])
    assert rule_of(st, ("play", card("lightning"), 1, 1, 0)) == "dice cost"
    st.held[1] = [6, 4, 3]
    play(st, ("play", card("lightning"), 1, 1, 0))
    assert st.held[1] == [6]
    assert st.spent[1] == 0


def test_energy_cost_needs_energy_left_and_places_spent_energy():
    st = table([["meteor", "sword-strike"], []], [[], [6, 6, 6]])
    st.spent[1] = 2  # the Mage has 4 energy, 2 spent
    assert rule_of(st, ("play", card("meteor"), 1, 1, 0)) == "energy cost"
    play(st, ("play", card("sword-strike"), 0, 1, 0))
    assert st.spent[0] == 1


def test_card_cost_discards_other_cards_of_the_players_choice():
    st = table([["backstab"], []], [[], [], [3]])
    assert rule_of(st, ("play", card("backstab"), 2, 1, 0)) == "card cost"
    st = table([["backstab", "mend", "scout"], []], [[], [], [3]])
    play(st, ("play", card("backstab"), 2, 1, 0))
    assert st.step == PAY
    assert st.cur == 0
    assert GAME.legal_actions(st, 0) == [("discard", card("mend")), ("discard", card("scout"))]
    play(st, ("discard", card("scout")))
    assert st.discard[0] == [card("scout")]
    assert st.hand[0] == [card("mend")]
    assert st.step == ATTACK_DIE


def test_a_character_must_share_a_trait_with_the_card():
    st = table([["firebolt"], []], [[5, 5], [5], []])
    assert rule_of(st, ("play", card("firebolt"), 0, 1, 0)) == "traits"  # the Knight is no arcanist
    assert all(a[2] == 1 for a in GAME.legal_actions(st, 0) if a[0] == "play")


# --- Action phases and passing ------------------------------------------------------------------


def test_action_phases_go_round_in_turn_order_from_the_first_player():
    st = table([[], [], []], players=3, first=1, script=[1] * 12)
    order = []
    for _ in range(4):
        order.append(st.cur)
        play(st, ("refresh", 2))  # the Rogue's refresh costs 1 energy
    assert order == [1, 2, 0, 1]


def test_a_player_who_passes_gets_no_more_action_phases_and_all_passing_ends_the_turn():
    st = table([[], []], script=[1, 1, 1, 1, 1, 1])
    play(st, ("pass",))
    assert st.passed[0]
    assert st.cur == 1
    play(st, ("refresh", 2), ("refresh", 1))
    assert st.cur == 1
    assert st.step == ACTION
    play(st, ("pass",))
    assert st.step == END_DISCARD
    assert st.turn == 1


def test_an_any_time_edge_does_not_use_the_action_phase():
    st = table([["quick-thinking"], []], [[], [3]])
    events = play(st, ("edge", card("quick-thinking"), 1))
    assert st.cur == 0
    assert st.step == ACTION
    assert len(st.hand[0]) == 1
    assert card("quick-thinking") in st.discard[0]
    drawn = [e for e in events if e.kind == "drawn"]
    assert drawn
    assert drawn[0].see == (0,)


def test_edges_keep_their_timing():
    st = table([["parry", "battle-cry", "sword-strike"], ["battle-cry"]], [[4, 4], [], [], [3, 3]])
    assert rule_of(st, ("edge", card("parry"), 0)) == "edge timing"
    play(st, ("play", card("sword-strike"), 0, 1, 0), ("die", 4), ("die", 3))
    assert st.step == MODIFIERS
    assert st.cur == 0
    play(st, ("done",))
    assert rule_of(st, ("edge", card("battle-cry"), 0)) == "edge timing"  # the defender is not attacking


def test_a_player_who_passed_may_still_play_edges_when_attacked():
    st = table([["sword-strike"], ["parry"]], [[5, 5], [], [], [2, 2]])
    st.first = st.actor = st.cur = 1
    play(st, ("pass",))
    play(st, ("play", card("sword-strike"), 0, 1, 0), ("die", 5), ("die", 2), ("done",))
    assert st.cur == 1
    assert ("edge", card("parry"), 0) in GAME.legal_actions(st, 1)
    play(st, ("edge", card("parry"), 0), ("done",), ("done",))
    assert st.dmg[3] == 2  # 5 + 1 = 6 against 2 + 2 = 4: a hit


# --- Attacks ------------------------------------------------------------------------------------


def _attack(attacker_die, defender_die, *, edges=()):
    st = table([["sword-strike", "battle-cry"], ["parry", "dodge"]],
               [[5, 4], [], [], [5, 3], [], [3, 2, 2]])
    play(st, ("play", card("sword-strike"), 0, 1, 0), ("die", attacker_die), ("die", defender_die))
    for edge in edges:
        play(st, edge)
    play(st, ("done",), ("done",))
    return st


def test_attacker_then_defender_spend_a_die_and_the_attack_needs_to_equal_or_beat():
    st = table([["sword-strike"], []], [[5, 4], [], [], [5, 3]])
    play(st, ("play", card("sword-strike"), 0, 1, 0))
    assert st.step == ATTACK_DIE
    assert GAME.to_move(st) == (0,)
    assert GAME.legal_actions(st, 0) == [("die", 0), ("die", 4), ("die", 5)]
    play(st, ("die", 4))
    assert st.step == DEFENCE_DIE
    assert GAME.to_move(st) == (1,)
    assert st.held[0] == [5]
    play(st, ("die", 5), ("done",), ("done",))
    assert st.dmg[3] == 2
    assert st.wounds[3] == [(0, card("sword-strike"))]


def test_a_miss_and_played_edges_are_discarded():
    st = _attack(4, 3, edges=[("done",), ("edge", card("parry"), 0)])  # 4 + 1 against 3 + 2: a hit
    assert st.dmg[3] == 2
    assert card("parry") in st.discard[1]
    st = _attack(0, 3)  # 0 + 1 against 3
    assert st.dmg[3] == 0
    assert st.discard[0] == [card("sword-strike")]


def test_declining_a_die_counts_as_zero():
    st = _attack(0, 0)
    assert st.dmg[3] == 2
    assert st.held[0] == [5, 4]
    assert st.held[3] == [5, 3]


def test_modifiers_from_edges_alternate_until_both_sides_are_done():
    # 4 + 1 against 3 + 2 (Parry) ties and hits; Dodge needs a die of 2 from the Rogue: +3 more.
    st = table([["sword-strike", "battle-cry"], ["parry", "dodge"]],
               [[5, 4], [], [], [5, 3], [], [3, 2, 2]])
    play(st, ("play", card("sword-strike"), 0, 1, 0), ("die", 4), ("die", 3), ("done",))
    play(st, ("edge", card("parry"), 0))
    assert st.cur == 0
    assert st.d_mod == 2
    play(st, ("edge", card("battle-cry"), 0))
    assert st.cur == 1
    assert st.a_mod == 1
    assert st.spent[0] == 2
    play(st, ("edge", card("dodge"), 2), ("done",), ("done",))
    assert st.held[5] == [3, 2]  # the Rogue's smallest die of 2 or more paid
    assert st.dmg[3] == 0  # 4 + 1 + 1 = 6 against 3 + 2 + 3 = 8: a miss


def test_a_hit_wounds_and_damage_equal_to_life_removes_the_character():
    st = table([["sword-strike"], []], [[5, 4]])
    wound(st, 4, 0, "lightning")  # the Mage (life 5) has taken 4
    play(st, ("play", card("sword-strike"), 0, 1, 1), ("die", 5), ("die", 0), ("done",), ("done",))
    assert not st.alive[4]
    assert st.wounds[4] == []
    assert sorted(st.discard[0]) == sorted([card("lightning"), card("sword-strike")])
    assert all(a[:2] != ("play", card("sword-strike")) or a[4] != 1 for a in GAME.legal_actions(st, 1))


def test_the_last_side_with_characters_alive_wins():
    st = table([["heavy-blow"], []], [[4, 4]])
    st.alive[3] = st.alive[5] = False
    wound(st, 4, 0, "lightning")
    play(st, ("play", card("heavy-blow"), 0, 1, 1), ("die", 4), ("die", 0), ("done",), ("done",))
    assert GAME.is_over(st)
    assert GAME.to_move(st) == ()
    assert GAME.result(st)["winner"] == 0
    assert GAME.heuristic(st, 0) == 1.0
    assert GAME.heuristic(st, 1) == -1.0
    assert rule_of(st, ("pass",)) == "game over"


def test_a_defeated_player_gets_no_more_action_phases():
    st = table([["sword-strike"], [], []], [[5, 5]], players=3, script=[1, 1, 1])
    st.alive[3] = st.alive[5] = False
    wound(st, 4, 2, "lightning")
    play(st, ("play", card("sword-strike"), 0, 1, 1), ("die", 5), ("die", 0), ("done",), ("done",))
    assert not st.alive[4]
    assert st.passed[1]
    assert not GAME.is_over(st)
    assert st.cur == 2
    play(st, ("refresh", 2))
    assert st.cur == 0


# --- Refreshing dice and other effects ----------------------------------------------------------


def test_refresh_pays_energy_rolls_the_pool_and_keeps_no_more_than_the_pool():
    st = table([[], []], [[1], [], [4, 4, 4]], script=[6, 5, 6, 1, 2])
    play(st, ("refresh", 0))
    assert st.held[0] == [6, 5]
    assert st.spent[0] == 2
    play(st, ("pass",))
    play(st, ("refresh", 2))
    assert st.held[2] == [6, 4, 4]
    assert st.spent[2] == 1
    assert rule_of(st, ("refresh", 0)) == "dice refresh"  # 1 energy left, refresh costs 2


def test_actions_take_effect_and_are_discarded():
    st = table([["mend", "focus", "study", "scout", "second-wind"], []], [[2, 1], [3, 3, 1], [6, 5, 5]],
               script=[6])
    wound(st, 2, 1, "heavy-blow")
    wound(st, 2, 1, "sword-strike")
    play(st, ("play", card("mend"), 0, 0, 2))  # the Knight mends the Rogue
    assert st.dmg[2] == 3
    assert st.discard[1] == [card("sword-strike")]
    assert card("mend") in st.discard[0]
    st.cur = st.actor = 0
    play(st, ("play", card("focus"), 1))
    assert st.held[1] == [6, 3, 3]
    st.cur = st.actor = 0
    hand = len(st.hand[0])
    play(st, ("play", card("study"), 1), ("discard", card("scout")))
    assert len(st.hand[0]) == hand - 2 + 2
    assert st.held[1] == [6, 3]
    st.cur = st.actor = 0
    st.spent[0] = 3
    play(st, ("edge", card("second-wind"), 0))
    assert st.spent[0] == 1
    assert st.held[0] == [2]


# --- End of turn --------------------------------------------------------------------------------


def test_end_of_turn_clears_spent_energy_discards_up_to_two_and_draws_to_five():
    st = table([["scout", "mend", "focus"], ["parry"]], script=[1, 1, 1])
    play(st, ("refresh", 2), ("pass",), ("pass",))
    assert st.step == END_DISCARD
    assert st.spent == [0] * 6
    assert st.cur == 0
    play(st, ("discard", card("scout")), ("discard", card("mend")))
    assert len(st.hand[0]) == 5
    assert st.cur == 1
    assert GAME.legal_actions(st, 1) == [("done",), ("discard", card("parry"))]
    play(st, ("done",))
    assert len(st.hand[1]) == 5
    assert st.turn == 2
    assert st.step == ACTION
    assert st.cur == 0


def test_the_first_player_can_rotate_as_a_house_rule():
    st = table([[], []], rotate_first_player=True)
    play(st, ("pass",), ("pass",), ("done",), ("done",))
    assert st.turn == 2
    assert st.first == st.cur == 1


def test_an_empty_deck_is_refilled_only_at_the_end_of_turn_draw():
    st = table([["quick-thinking"], []], [[], [5]], script=[1])
    st.discard[0], st.deck[0] = st.deck[0], []
    play(st, ("edge", card("quick-thinking"), 1))
    assert st.hand[0] == []  # nothing to draw mid-turn
    pile = len(st.discard[0])
    st.dice = Dice(3)
    play(st, ("pass",), ("pass",), ("done",))
    assert len(st.hand[0]) == 5
    assert len(st.deck[0]) == pile - 5
    assert st.discard[0] == []


def test_the_turn_limit_ends_the_game_as_a_draw():
    st = table([[], []], max_turns=1)
    play(st, ("pass",), ("pass",))
    assert GAME.is_over(st)
    assert GAME.result(st)["winner"] is None
    assert GAME.heuristic(st, 0) == 0.0


# --- Errors -------------------------------------------------------------------------------------


def test_illegal_actions_name_the_rule_and_change_nothing():
    st = table([["sword-strike"], []], [[5, 4]])
    before = GAME.dump(st)
    assert rule_of(st, ("die", 3)) == "action"
    assert rule_of(st, ("play", card("parry"), 0)) == "card kind"
    assert rule_of(st, ("play", card("sword-strike"), 0, 0, 1)) == "target"  # not an enemy
    assert rule_of(st, ("play", card("sword-strike"), 0)) == "target"
    assert rule_of(st, ("play", card("mend"), 0)) == "hand"
    assert rule_of(st, ("play", card("sword-strike"), 7, 1, 0)) == "character"
    assert rule_of(st, ("play", "x")) == "action"
    with pytest.raises(RuleError) as info:
        GAME.apply(st, ("pass",), 1)
    assert info.value.rule == "turn order"
    assert "wait" in info.value.message
    assert GAME.dump(st) == before


def test_the_default_set_covers_every_cost_type_kind_effect_and_timing():
    deck = set(CS.deck)
    assert {CS.kind[c] for c in deck} == {0, 1, 2}
    assert {CS.effect[c] for c in deck} == set(range(7))
    assert {CS.when[c] for c in deck if CS.kind[c] == 2} == {0, 1, 2}
    assert any(CS.energy[c] for c in deck)
    assert any(CS.dice[c] for c in deck)
    assert any(CS.discards[c] for c in deck)
    assert any(len(CS.dice[c]) > 1 for c in deck)  # several dice of different minimums
    squad_traits = 0
    for d in CS.squad:
        squad_traits |= CS.ch_traits[d]
    assert all(CS.traits[c] & squad_traits for c in deck)  # every card is playable by the default squad
    assert len(CS.squad) == 3


def test_card_set_is_data_and_is_checked():
    raw = dict(CS.raw, cards=[*CS.raw["cards"], {"key": "bad", "kind": "edge", "traits": ["might"],
                                                  "effect": "attack", "when": "defence", "amount": 1}])
    with pytest.raises(RuleError, match="modifier"):
        GAME.new_game({"set": raw}, NAMES[:2], seed=1)
    raw = dict(CS.raw, characters=[dict(CS.raw["characters"][0], refresh=0)])
    with pytest.raises(RuleError, match="refresh"):
        GAME.new_game({"set": raw}, NAMES[:2], seed=1)
