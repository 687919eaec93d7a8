"""Unholy War level 1: every rule, and every worked example of the text, with scripted dice."""

from __future__ import annotations

import pytest

from cardgames.engine.unholy_war import GAME
from cardgames.engine.unholy_war.flow import command_next, strategy_next
from cardgames.engine.unholy_war.table import AMBUSH, BACKLASH, COMMAND, OVER, STRATEGY, score
from gamekit.dice import Dice
from gamekit.errors import RuleError

Z, M, G, S, L = range(5)  # Zealot, Mercenary, Guardsman, Sentinel, Slime
NAMES = ("Zealot", "Mercenary", "Guardsman", "Sentinel", "Slime")
DECK = ["Zealot", "Zealot", "Mercenary", "Mercenary", "Guardsman", "Guardsman",
        "Sentinel", "Sentinel", "Slime", "Slime"]


def unshuffled(n: int) -> list[int]:
    """Fisher-Yates outcomes that leave an `n`-card deck in its listed order."""
    return list(range(n, 1, -1))


def new(decks: list[list[str]], rolls: list[int] = (), players=("Jack", "Tina"), **house) -> object:
    """A new game with decks in the listed order (top first) and the given dice after the shuffles."""
    script = [x for d in decks for x in unshuffled(len(d))] + list(rolls)
    return GAME.new_game({"decks": decks, "house_rules": house}, list(players), dice=Dice.scripted(script))


def table(fields, pools, rolls=(), decks=None, players=("Jack", "Tina"), **house):
    """A Command Phase position: cards ``(kind, dice, face_up, tapped)`` per seat; Initiative is checked.
    Unless a test sets another round limit, the game ends (a draw) when this Command Phase does,
    so the position it leaves can be inspected before an Upkeep."""
    house.setdefault("round_limit", 1)
    st = GAME.new_game({"house_rules": house}, list(players), seed=0)
    n = len(players)
    st.dice = Dice.scripted(rolls)
    st.field = [[tuple(c) for c in f] for f in fields]
    st.pool = list(pools)
    st.hand = [[] for _ in range(n)]
    st.discard = [[] for _ in range(n)]
    st.deck = [list(d) for d in decks] if decks else [[] for _ in range(n)]
    events = []
    command_next(st, events)
    return st, events


def play(st, *actions):
    """Apply actions in order, each by the seat to move; return all their events."""
    events = []
    for action in actions:
        events += GAME.apply(st, action, GAME.to_move(st)[0])
    return events


# Rolls and Power ---------------------------------------------------------------------------

@pytest.mark.parametrize(("faces", "result"), [
    ([1, 1, 3, 4, 4], 6),  # the text's example: 4 + 1 + 1
    ([2, 4, 4, 5, 5], 5),
    ([6], 6),
    ([1], 2),
    ([1, 1], 3),
    ([], 0),
])
def test_a_roll_keeps_the_highest_die_plus_one_for_each_one(faces, result):
    assert score(faces) == result


def test_each_player_starts_with_ten_cards_and_five_dice_and_draws_their_power():
    """Example: Jack and Tina start with 10 cards and 5 dice each and both draw 5."""
    st = new([DECK, DECK], [2, 4, 4, 5, 5, 1, 1, 3, 4, 4])
    assert st.pool == [5, 5]
    assert [len(h) for h in st.hand] == [5, 5]
    assert [len(d) for d in st.deck] == [5, 5]
    assert st.hand[0] == [Z, Z, M, M, G]


def test_tied_strategy_initiative_is_rolled_off():
    """Example: Jack rolls [2, 4, 4, 5, 5] = 5, Tina [1, 1, 3, 4, 4] = 6: Tina acts first."""
    st = new([DECK, DECK], [2, 4, 4, 5, 5, 1, 1, 3, 4, 4])
    assert GAME.to_move(st) == (1,)
    assert st.phase == STRATEGY


def test_roll_off_rerolls_until_one_player_is_highest():
    st = new([DECK, DECK], [6, 2, 2, 2, 2, 6, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2])
    assert GAME.to_move(st) == (0,)
    assert st.dice.scripted_left == 0


def test_strategy_initiative_goes_to_the_highest_power_and_skips_zero_power():
    st = GAME.new_game({}, ["A", "B", "C"], seed=1)
    st.pool = [5, 7, 0]
    st.acted = [False, False, False]
    strategy_next(st, None)
    assert GAME.to_move(st) == (1,)
    st.acted[1] = True
    strategy_next(st, None)
    assert GAME.to_move(st) == (0,)
    st.acted[0] = True
    strategy_next(st, None)
    assert st.round == 2  # nobody could act in the Command Phase: the next round began


def test_the_strategy_phase_example():
    """Example: Jack plays a face-up Zealot (2 dice), a face-up Mercenary (2 dice) and a facedown
    card (1 die) and returns his two other cards to the bottom; Tina plays two facedown cards with
    2 dice each and a face-up Mercenary with 1 die. Jack's Zealot and Mercenary then have Initiative."""
    jack = ["Zealot", "Mercenary", "Guardsman", "Sentinel", "Slime",
            "Zealot", "Mercenary", "Guardsman", "Sentinel", "Slime"]
    tina = ["Guardsman", "Sentinel", "Mercenary", "Slime", "Zealot",
            "Zealot", "Mercenary", "Guardsman", "Sentinel", "Slime"]
    st = new([jack, tina], [6, 6, 6, 6, 6, 2, 2, 2, 2, 2])
    assert GAME.to_move(st) == (0,)
    play(st, ("play", Z, "up"), ("assign", 0), ("play", M, "up"), ("assign", 1), ("play", G, "down"))
    assert GAME.legal_actions(st, 0) == [("bottom", S), ("bottom", L)]
    play(st, ("bottom", L))  # the last card, a Sentinel, follows by itself
    assert st.deck[0][-2:] == [L, S]
    assert st.field[0] == [(Z, 2, 1, 0), (M, 2, 1, 0), (G, 1, 0, 0)]
    assert GAME.to_move(st) == (1,)
    play(st, ("play", G, "down"), ("assign", 0), ("play", S, "down"), ("assign", 1), ("play", M, "up"),
         ("bottom", Z))
    assert st.hand[1] == []
    assert st.deck[1][-2:] == [Z, L]
    assert st.phase == COMMAND
    assert GAME.to_move(st) == (0,)
    assert st.init_power == 2


def test_cards_left_in_hand_go_to_the_bottom_in_the_chosen_order():
    st = new([DECK, DECK], [6, 6, 6, 6, 6, 2, 2, 2, 2, 2])
    play(st, ("play", Z, "up"), ("assign", 0), ("assign", 0), ("assign", 0), ("assign", 0))
    assert st.pool[0] == 0
    assert GAME.legal_actions(st, 0) == [("bottom", Z), ("bottom", M), ("bottom", G)]
    play(st, ("bottom", G), ("bottom", Z))
    assert st.deck[0][-4:] == [G, Z, M, M]
    assert GAME.to_move(st) == (1,)


def test_a_turn_cannot_end_with_dice_in_the_pool():
    st = new([DECK, DECK], [6, 6, 6, 6, 6, 2, 2, 2, 2, 2])
    play(st, ("play", Z, "up"))
    assert all(a[0] in ("play", "assign") for a in GAME.legal_actions(st, 0))
    with pytest.raises(RuleError) as err:
        GAME.apply(st, ("bottom", Z), 0)
    assert err.value.rule == "dice"


def test_hurting_yourself_gains_a_die_reshuffles_the_discards_and_draws_to_the_new_power():
    st = new([DECK, DECK], [6, 6, 6, 6, 6, 2, 2, 2, 2, 2])
    st.discard[0] = [S, L]
    st.deck[0] = [S, S]
    st.dice = Dice.scripted([4, 3, 2])  # a Fisher-Yates that keeps [S, S, S, L]
    assert GAME.legal_actions(st, 0)[0] == ("hurt",)
    play(st, ("hurt",))
    assert st.pool[0] == 6
    assert st.discard[0] == []
    assert len(st.hand[0]) == 6
    assert st.hand[0][5] == S
    assert ("hurt",) not in GAME.legal_actions(st, 0)


def test_hurting_yourself_is_only_allowed_at_the_start_of_the_turn():
    st = new([DECK, DECK], [6, 6, 6, 6, 6, 2, 2, 2, 2, 2])
    play(st, ("play", Z, "up"))
    with pytest.raises(RuleError) as err:
        GAME.apply(st, ("hurt",), 0)
    assert err.value.rule == "hurt"


def test_hurting_yourself_into_an_eleventh_die_is_defeat():
    st = new([DECK, DECK], [6, 6, 6, 6, 6, 2, 2, 2, 2, 2])
    st.pool[0] = 10
    play(st, ("hurt",))
    assert GAME.is_over(st)
    assert GAME.result(st)["winner"] == 1


def test_upkeep_returns_facedown_cards_and_their_dice_draws_to_power_and_untaps():
    st, _ = table([[(Z, 2, 1, 1), (G, 3, 0, 0)], [(M, 1, 1, 1)]], [0, 4],
                  decks=[[S, S, S, S], [Z, Z, Z, Z, Z]], round_limit=100)
    assert st.phase == STRATEGY
    assert st.round == 2
    assert st.field[0] == [(Z, 2, 1, 0)]
    assert st.pool[0] == 3
    assert st.hand[0] == [G, S, S]
    assert st.field[1] == [(M, 1, 1, 0)]
    assert len(st.hand[1]) == 4


def test_a_player_with_zero_power_after_upkeep_has_no_turn():
    st, _ = table([[(Z, 5, 1, 1)], [(M, 1, 1, 1)]], [0, 4], decks=[[S], [Z, Z, Z, Z]], round_limit=100)
    assert st.pool[0] == 0
    assert GAME.to_move(st) == (1,)


# Command Phase ------------------------------------------------------------------------------

def test_command_initiative_example():
    """Example: Jack's face-up Zealot and Mercenary have 2 Power, Tina's Mercenary 1: Jack chooses
    which of his 2-Power cards acts, and picks the Mercenary."""
    st, _ = table([[(Z, 2, 1, 0), (M, 2, 1, 0), (G, 1, 0, 0)], [(G, 2, 0, 0), (S, 2, 0, 0), (M, 1, 1, 0)]],
                  [0, 0])
    assert GAME.to_move(st) == (0,)
    actors = {a[1] for a in GAME.legal_actions(st, 0)}
    assert actors == {0, 1}
    play(st, ("pass", 1))
    assert st.field[0][1] == (M, 2, 1, 1)


def test_tapped_and_facedown_cards_do_not_count_for_initiative():
    st, _ = table([[(Z, 5, 1, 1), (G, 4, 0, 0), (M, 1, 1, 0)], [(S, 2, 1, 0)]], [0, 0])
    assert GAME.to_move(st) == (1,)
    assert st.init_power == 2


def test_tied_command_initiative_is_rolled_off_with_the_tied_power():
    st, _ = table([[(Z, 2, 1, 0)], [(S, 2, 1, 0)]], [0, 0], rolls=[3, 3, 1, 1, 6, 2, 2, 2])  # 3-3, 6-2
    assert GAME.to_move(st) == (0,)
    assert st.dice.scripted_left == 0


def test_the_command_phase_is_skipped_when_every_card_is_facedown():
    st, _ = table([[(Z, 2, 0, 0)], [(S, 2, 0, 0)]], [0, 0], decks=[[M], [M]], rolls=[6, 6, 2, 2],
                  round_limit=100)
    assert st.phase == STRATEGY
    assert st.round == 2


def test_pass_taps_the_card_and_does_nothing():
    st, _ = table([[(Z, 2, 1, 0)], [(S, 1, 1, 0)]], [0, 0])
    play(st, ("pass", 0))
    assert st.field[0] == [(Z, 2, 1, 1)]
    assert GAME.to_move(st) == (1,)


def test_engage_example_mercenary_against_a_facedown_guardsman():
    """Example: Jack's Mercenary Taps to engage Tina's facedown Guardsman (1 die): [3, 4] = 6
    against [5] = 7; the Guardsman counter-attacks, [2] = 2 against [2, 5] = 4: nobody is Hit."""
    st, _ = table([[(M, 2, 1, 0)], [(G, 1, 0, 0)]], [0, 0], rolls=[3, 4, 5, 2, 2, 5])
    events = play(st, ("engage", 0, "tap", 1, 0))
    clashes = [e.data for e in events if e.kind == "clash"]
    assert [(c["attack"], c["defense"], c["hit"]) for c in clashes] == [(6, 7, False), (2, 4, False)]
    assert st.field == [[(M, 2, 1, 1)], [(G, 1, 1, 0)]]
    assert GAME.to_move(st) == (1,)  # the revealed Guardsman may act next
    assert st.dice.scripted_left == 0


def test_the_engage_example_is_told_in_the_rules_words():
    """The same Engagement as the log tells it: cards by name and number once face up, each roll as its dice and
    its total."""
    st, _ = table([[(M, 2, 1, 0)], [(G, 1, 0, 0)]], [0, 0], rolls=[3, 4, 5, 2, 2, 5])
    assert [e.text for e in play(st, ("engage", 0, "tap", 1, 0))][:5] == [
        "Jack Taps Mercenary (card 1).",
        "Jack's Mercenary (card 1) engages Tina's facedown card 1.",
        "Tina reveals card 1: Guardsman.",
        "Jack's Mercenary (card 1) attacks Tina's Guardsman (card 1): Attack Roll 3 and 4, a total of 6, against "
        "Defense Roll 5, a total of 7: no Hit.",
        "Tina's Guardsman (card 1) attacks Jack's Mercenary (card 1): Attack Roll 2, a total of 2, against "
        "Defense Roll 2 and 5, a total of 4: no Hit.",
    ]
    st, _ = table([[(Z, 1, 1, 0)], [(M, 3, 1, 1), (S, 1, 1, 1)]], [0, 0], rolls=[5, 2, 3, 4], decks=[[], [L, G]])
    assert [e.text for e in play(st, ("engage", 0, "tap", 1, 0))][2:4] == [
        "Jack's Zealot (card 1) attacks Tina's Mercenary (card 1): Attack Roll 5, a total of 8, against "
        "Defense Roll 2, 3 and 4, a total of 3: Hit.",
        "Tina discards Mercenary (card 1), and Slime from the top of the deck.",
    ]


def test_exerting_by_a_die_returns_it_to_the_pool():
    st, _ = table([[(Z, 3, 1, 0)], [(S, 1, 0, 0)]], [0, 0], rolls=[6, 6, 6, 1])
    play(st, ("engage", 0, "die", 1, 0))
    assert st.pool[0] == 1
    assert st.field[0][0][:2] == (Z, 2)
    assert st.field[1] == []  # 6 + 3 = 9 against 2 + 3 = 5: Hit, discarded


def test_a_card_cannot_pay_its_last_die_to_engage():
    st, _ = table([[(Z, 1, 1, 0)], [(S, 1, 0, 0)]], [0, 0])
    assert ("engage", 0, "die", 1, 0) not in GAME.legal_actions(st, 0)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, ("engage", 0, "die", 1, 0), 0)
    assert err.value.rule == "exert"


def test_a_hit_card_is_discarded_its_dice_return_and_the_top_of_the_deck_is_discarded():
    st, _ = table([[(Z, 1, 1, 0)], [(M, 3, 1, 1), (S, 1, 1, 1)]], [0, 0], rolls=[5, 2, 3, 4],
                  decks=[[], [L, G]])
    play(st, ("engage", 0, "tap", 1, 0))
    assert st.field[1] == [(S, 1, 1, 1)]
    assert st.pool[1] == 3
    assert st.discard[1] == [M, L]
    assert st.deck[1] == [G]


def test_the_discard_cost_is_ignored_with_an_empty_deck():
    st, _ = table([[(Z, 1, 1, 0)], [(M, 1, 1, 1)]], [0, 0], rolls=[6, 2], decks=[[], []])
    play(st, ("engage", 0, "tap", 1, 0))
    assert st.discard[1] == [M]


def test_ties_go_to_the_attacker():
    st, _ = table([[(G, 1, 1, 0)], [(G, 1, 1, 1)]], [0, 0], rolls=[4, 2])  # 4 + 0 against 2 + 2
    play(st, ("engage", 0, "tap", 1, 0))
    assert st.field[1] == []


def test_house_rule_ties_go_to_the_defender():
    st, _ = table([[(G, 1, 1, 0)], [(G, 1, 1, 1)]], [0, 0], rolls=[4, 2, 3, 3],
                  attacker_wins_ties=False)
    play(st, ("engage", 0, "tap", 1, 0))
    assert st.field[1] == [(G, 1, 1, 1)]
    assert st.field[0] == [(G, 1, 1, 1)]  # the counter-attack tied too: no Hit


def test_a_tied_counter_attack_hits_the_initiator():
    st, _ = table([[(G, 1, 1, 0)], [(G, 1, 1, 1)]], [0, 0], rolls=[3, 2, 4, 2])
    play(st, ("engage", 0, "tap", 1, 0))  # 3 < 4; counter 4 against 2 + 2
    assert st.field[0] == []
    assert st.field[1] == [(G, 1, 1, 1)]


def test_engaging_a_player_they_defend_with_their_pool_and_never_counter_attack():
    st, _ = table([[(M, 2, 1, 0)], [(S, 1, 1, 1)]], [0, 3], rolls=[2, 2, 6, 6, 6])
    play(st, ("engage", 0, "tap", 1, -1))  # 2 + 2 = 4 against [6, 6, 6] = 6
    assert st.pool[1] == 3
    assert st.field[0] == [(M, 2, 1, 1)]
    assert st.dice.scripted_left == 0


def test_a_hit_player_gains_a_die_and_the_backlash_exerts_the_attacker():
    st, _ = table([[(Z, 3, 1, 0)], [(S, 1, 1, 1)]], [0, 2], rolls=[5, 1, 2, 3])
    play(st, ("engage", 0, "die", 1, -1))  # 5 + 3 = 8 against 3
    assert st.pool[1] == 3
    assert st.phase == BACKLASH
    assert GAME.legal_actions(st, 0) == [("exert", "tap"), ("exert", "die")]
    play(st, ("exert", "tap"))
    assert st.field[0] == [(Z, 2, 1, 1)]


def test_the_backlash_on_a_tapped_attacker_takes_a_die_even_its_last():
    st, _ = table([[(Z, 1, 1, 0)], [(S, 1, 1, 1)]], [0, 0], rolls=[5], decks=[[M], []])
    play(st, ("engage", 0, "tap", 1, -1))  # 5 + 3 against no dice
    assert st.field[0] == []
    assert st.discard[0] == [Z, M]
    assert st.pool == [1, 1]


def test_an_eleventh_die_defeats_a_player_and_the_last_standing_wins():
    st, _ = table([[(Z, 1, 1, 0)], [(S, 5, 1, 1)]], [0, 5], rolls=[6, 2, 2, 2, 2, 2])
    play(st, ("engage", 0, "tap", 1, -1))
    assert GAME.is_over(st)
    assert GAME.result(st)["winner"] == 0
    assert GAME.result(st)["scores"] == [1.0, 0.0]
    assert GAME.to_move(st) == ()


def test_a_facedown_defender_cannot_be_protected_by_ambush():
    st, _ = table([[(Z, 2, 1, 0)], [(S, 1, 0, 0), (G, 2, 0, 0)]], [0, 0], rolls=[6, 6, 2])
    play(st, ("engage", 0, "tap", 1, 0))
    assert st.phase != AMBUSH
    assert st.field[1] == [(G, 2, 0, 0)]


def test_house_rule_ambush_protects_a_facedown_defender():
    st, _ = table([[(Z, 2, 1, 0)], [(S, 1, 0, 0), (G, 2, 0, 0)]], [0, 0], ambush_protects_facedown=True)
    play(st, ("engage", 0, "tap", 1, 0))
    assert st.phase == AMBUSH
    assert GAME.legal_actions(st, 1) == [("ambush", 1, "tap"), ("ambush", 1, "die"), ("decline",)]


def test_the_ambush_chain_example():
    """Example: Jack's Zealot engages Tina. Tina ambushes with a facedown 2-dice card, paying a die;
    Jack ambushes that with his facedown 1-die card, Tapping it. Jack's Guardsman misses Tina's
    Sentinel, whose counter-attack Hits: the Guardsman and the top of Jack's deck are discarded.
    All face-up untapped cards then have 1 die; Tina wins the roll-off and her Sentinel hides with
    her other facedown card, sharing their dice."""
    st, _ = table([[(Z, 2, 1, 0), (M, 2, 1, 1), (G, 1, 0, 0)], [(S, 2, 0, 0), (L, 2, 0, 0), (M, 1, 1, 0)]],
                  [0, 0], decks=[[Z, S], [G]], rolls=[2, 1, 6, 1, 3, 5, 6, 1])
    assert GAME.to_move(st) == (0,)
    play(st, ("engage", 0, "die", 1, -1))
    assert st.phase == AMBUSH
    assert GAME.to_move(st) == (1,)
    play(st, ("ambush", 0, "die"))
    assert GAME.to_move(st) == (0,)
    assert GAME.legal_actions(st, 0) == [("ambush", 2, "tap"), ("decline",)]
    events = play(st, ("ambush", 2, "tap"))
    clashes = [e.data for e in events if e.kind == "clash"]
    assert [(c["attack"], c["defense"], c["hit"]) for c in clashes] == [(2, 5, False), (5, 4, True)]
    assert st.field[0] == [(Z, 1, 1, 0), (M, 2, 1, 1)]
    assert st.discard[0] == [G, Z]
    assert st.pool[0] == 2
    assert st.field[1][0] == (S, 1, 1, 0)
    assert GAME.to_move(st) == (1,)
    assert st.init_power == 1
    play(st, ("hide", 0, 1, 2, 0))
    assert st.field[1] == [(M, 1, 1, 0), (L, 1, 0, 0), (S, 2, 0, 0)]
    assert GAME.to_move(st) == (0,)  # Zealot and Mercenary tie at 1: Jack wins this roll-off
    jack_sees = GAME.view(st, 0)["players"][1]["field"]
    assert [c["card"] for c in jack_sees] == [M, None, None]
    assert st.dice.scripted_left == 0


def test_a_second_ambush_in_the_chain_is_allowed_when_the_new_defender_is_face_up():
    st, _ = table([[(Z, 2, 1, 0), (G, 2, 0, 0)], [(M, 2, 1, 1), (S, 2, 0, 0)]], [0, 0],
                  rolls=[2, 6, 1, 1, 1, 2])
    play(st, ("engage", 0, "tap", 1, 0))  # Tina's Mercenary is face up: she may ambush
    play(st, ("ambush", 1, "tap"))  # Sentinel engages the Zealot, which is face up: Jack may ambush
    assert GAME.to_move(st) == (0,)
    play(st, ("ambush", 1, "die"))  # Jack's Guardsman engages the facedown Sentinel: no window
    assert st.phase == COMMAND
    assert st.field[0][1] == (G, 1, 1, 0)


def test_declining_to_ambush_resolves_the_engagement():
    st, _ = table([[(Z, 2, 1, 0)], [(M, 1, 1, 0), (S, 1, 0, 0)]], [0, 0], rolls=[6, 6, 1])
    play(st, ("engage", 0, "tap", 1, 0))
    assert st.phase == AMBUSH
    play(st, ("decline",))
    assert st.field[1] == [(S, 1, 0, 0)]


def test_only_the_final_engagement_is_revealed():
    st, _ = table([[(Z, 2, 1, 0), (G, 2, 0, 0)], [(M, 2, 1, 1), (S, 2, 0, 0)]], [0, 0],
                  rolls=[6, 1, 1, 6])
    play(st, ("engage", 0, "tap", 1, 0), ("ambush", 1, "tap"), ("decline",))
    assert st.field[0] == [(G, 2, 0, 0)]  # the Zealot was Hit; the Guardsman did not ambush: hidden
    assert st.field[1][1] == (S, 2, 1, 1)  # the Sentinel fought and is revealed


def test_hide_alone_flips_the_card_facedown():
    st, _ = table([[(S, 2, 1, 0), (Z, 1, 1, 0)], [(M, 1, 1, 1)]], [0, 0])
    play(st, ("hide", 0, -1, 2, 1))
    assert st.field[0] == [(Z, 1, 1, 0), (S, 2, 0, 0)]


def test_hide_shares_dice_and_each_card_keeps_one():
    st, _ = table([[(S, 2, 1, 0), (L, 1, 0, 0)], [(M, 1, 1, 1)]], [0, 0])
    hides = [a for a in GAME.legal_actions(st, 0) if a[0] == "hide"]
    assert hides == [("hide", 0, -1, 2, 1), ("hide", 0, 1, 1, 1), ("hide", 0, 1, 2, 1),
                     ("hide", 0, 1, 1, 0), ("hide", 0, 1, 2, 0)]
    with pytest.raises(RuleError) as err:
        GAME.apply(st, ("hide", 0, 1, 3, 1), 0)
    assert err.value.rule == "hide"


def test_a_tapped_facedown_card_cannot_hide_with_the_hider():
    st, _ = table([[(S, 2, 1, 0), (L, 2, 0, 1)], [(M, 1, 1, 1)]], [0, 0])
    assert [a for a in GAME.legal_actions(st, 0) if a[0] == "hide"] == [("hide", 0, -1, 2, 1)]


def test_the_turtling_slime_survives_and_hides_again():
    """The designer's playtest: a facedown Slime with many dice is revealed when attacked, survives,
    and spends its Initiative to flip facedown again."""
    st, _ = table([[(Z, 2, 1, 0)], [(L, 5, 0, 0)]], [0, 0], rolls=[5, 5, 6, 1, 1, 1, 1, 2, 2, 2, 2, 2, 6, 6])
    play(st, ("engage", 0, "tap", 1, 0))  # 5 + 3 = 8 against 6 + 4 + 3 = 13; counter 2 - 1 against 6 - 2
    assert st.field == [[(Z, 2, 1, 1)], [(L, 5, 1, 0)]]
    assert GAME.to_move(st) == (1,)
    play(st, ("hide", 0, -1, 5, 1))
    assert st.field[1] == [(L, 5, 0, 0)]


def test_the_command_phase_ends_when_no_card_can_act_and_a_new_round_begins():
    st, _ = table([[(Z, 1, 1, 0)], [(S, 1, 1, 1)]], [2, 2], decks=[[M, M, M], [G, G, G]], rolls=[6, 6, 2, 2],
                  round_limit=100)
    play(st, ("pass", 0))
    assert st.phase == STRATEGY
    assert st.round == 2
    assert st.field[0] == [(Z, 1, 1, 0)]


def test_three_players_can_engage_either_opponent_and_a_defeated_player_is_skipped():
    st, _ = table([[(Z, 1, 1, 0)], [(S, 1, 1, 1)], [(M, 1, 1, 1)]], [0, 0, 9], rolls=[6] + [2] * 9,
                  players=("A", "B", "C"), round_limit=100)
    targets = {(a[3], a[4]) for a in GAME.legal_actions(st, 0) if a[0] == "engage"}
    assert targets == {(1, -1), (1, 0), (2, -1), (2, 0)}
    play(st, ("engage", 0, "tap", 2, -1))  # 6 + 3 against nine 2s: C gains an 11th die
    assert st.out == [False, False, True]
    assert not GAME.is_over(st)
    assert st.phase == STRATEGY  # the Zealot was tapped, so the backlash took its last die


def test_the_round_limit_ends_the_game_in_a_draw():
    st, _ = table([[(Z, 1, 1, 0)], [(S, 1, 1, 1)]], [0, 0], round_limit=1)
    play(st, ("pass", 0))
    assert GAME.is_over(st)
    assert GAME.result(st)["winner"] is None
    assert GAME.result(st)["scores"] == [0.5, 0.5]


# Decks and house rules as data -------------------------------------------------------------

def test_decks_are_data_per_seat():
    cards = [["Zealot", 3, -2], ["Imp", 1, 1]]
    st = GAME.new_game({"cards": cards, "decks": [["Imp"] * 4, ["Zealot"] * 6]}, ["A", "B"], seed=3)
    assert sorted(st.hand[0] + st.deck[0]) == [1] * 4
    assert len(st.hand[1] + st.deck[1]) == 6
    assert st.config["cards"] == cards


@pytest.mark.parametrize("config", [
    {"decks": [["Dragon"], ["Zealot"]]},
    {"house_rules": {"flying": True}},
    {"decks": [["Zealot"]]},
    {"deck": []},
    {"house_rules": {"start_dice": 11}},
    {"colour": "red"},
])
def test_bad_configs_are_refused(config):
    with pytest.raises(RuleError) as err:
        GAME.new_game(config, ["A", "B"], seed=1)
    assert err.value.rule == "config"


def test_one_player_is_refused():
    with pytest.raises(RuleError) as err:
        GAME.new_game({}, ["A"], seed=1)
    assert err.value.rule == "players"


def test_house_rules_change_the_starting_dice_and_the_limit():
    st = GAME.new_game({"house_rules": {"start_dice": 3, "max_dice": 4}}, ["A", "B"], seed=2)
    assert st.pool == [3, 3]
    assert st.config["house_rules"]["max_dice"] == 4


def test_the_game_is_over_state_refuses_actions():
    st, _ = table([[(Z, 1, 1, 0)], [(S, 1, 1, 1)]], [0, 0], round_limit=1)
    play(st, ("pass", 0))
    assert st.phase == OVER
    with pytest.raises(RuleError) as err:
        GAME.apply(st, ("pass", 0), 0)
    assert err.value.rule == "over"
