"""Squad Combat button labels (`describe_action`), no database: every legal action of random play has its own
label in words, a few scripted states have exact labels, and what is no action of the game is refused."""

from __future__ import annotations

import json
import random

import pytest

from cardgames.engine.squad_combat import GAME
from gamekit.errors import RuleError

from .test_squad_combat import card, play, table

DICE = [[6, 5], [4, 3, 1], [6, 6, 2], [5, 5], [4, 4, 4], [3, 3, 3]]
"""Knight, Mage, Rogue of Ann (seat 0), then of Bob (seat 1)."""


def labels(st) -> list[str]:
    return [GAME.describe_action(st, a) for a in GAME.legal_actions(st, st.cur)]


def random_states(count: int):
    """`count` states of random legal play, two and three players, from the start to the end of games."""
    seed = 0
    while count > 0:
        rng = random.Random(seed)
        st = GAME.new_game({}, ["Ann", "Bob", "Cy"][:2 + seed % 2], seed=seed)
        while count > 0 and not GAME.is_over(st):
            yield st
            count -= 1
            GAME.apply(st, rng.choice(GAME.legal_actions(st, st.cur)), st.cur)
        seed += 1


def test_every_legal_action_of_random_play_has_its_own_label_in_words():
    steps = set()
    for st in random_states(600):
        steps.add(st.step)
        actions = GAME.legal_actions(st, st.cur)
        before = GAME.dump(st)
        found = labels(st)
        assert GAME.dump(st) == before, "describing changes nothing"
        assert len(set(found)) == len(found), f"two actions share a label: {found}"
        for action, label in zip(actions, found, strict=True):
            assert label
            assert label[0].isupper()
            assert "('" not in label  # words, not a tuple's repr
            assert "[" not in label
            assert GAME.describe_action(st, json.loads(json.dumps(action))) == label  # JSON lists too
    assert steps == set(range(6)), "every step of a turn was labelled"


def test_labels_of_an_action_phase_name_cards_characters_and_costs():
    st = table([["firebolt", "backstab", "mend", "parry"], ["dodge"]], DICE)
    found = labels(st)
    assert found[:4] == ["Pass (no more actions this turn)", "Refresh your Knight's dice (cost 2 energy)",
                         "Refresh your Mage's dice (cost 2 energy)", "Refresh your Rogue's dice (cost 1 energy)"]
    assert "Perform Firebolt with your Mage on Bob's Knight (1 energy, any die)" in found
    assert "Perform Backstab with your Rogue on Bob's Rogue (discard 1 card)" in found
    assert len(found) == 4 + 3 + 3  # Mend has no wounded target; Parry waits for a defence
    assert GAME.describe_action(st, ["play", card("firebolt"), 1, 1, 2]) == \
        "Perform Firebolt with your Mage on Bob's Rogue (1 energy, any die)"


def test_labels_through_an_attack_and_the_end_of_the_turn():
    st = table([["firebolt", "backstab", "mend", "parry"], ["dodge"]], DICE)
    play(st, ("play", card("backstab"), 2, 1, 1))
    assert labels(st) == ["Discard Firebolt to pay for Backstab", "Discard Mend to pay for Backstab",
                          "Discard Parry to pay for Backstab"]
    play(st, ("discard", card("parry")))
    assert labels(st) == ["Decline the attack die (counts as 0)", "Spend a 2 from your Rogue as the attack die",
                          "Spend a 6 from your Rogue as the attack die"]
    play(st, ("die", 2))
    assert labels(st) == ["Decline the defence die (counts as 0)", "Spend a 4 from your Mage as the defence die"]
    play(st, ("die", 4), ("done",))
    assert labels(st) == ["No more edges", "Perform Dodge with your Rogue (die 2+)"]  # Bob's words: his Rogue
    play(st, ("done",), ("pass",), ("pass",))
    assert labels(st) == ["Done discarding: draw up to 5 cards", "Discard Firebolt", "Discard Mend"]


def test_an_edge_in_the_action_phase_and_a_heal_on_a_wounded_friend():
    st = table([["second-wind", "mend"], []], DICE)
    st.deck[1].remove(card("sword-strike"))
    st.wounds[0].append((1, card("sword-strike")))
    st.dmg[0] = 2
    assert "Perform Second Wind with your Knight (any die)" in labels(st)
    assert "Perform Mend with your Knight on your Knight (1 energy)" in labels(st)


def test_two_of_one_character_are_told_apart_by_place_and_players_sharing_a_name_by_seat():
    st = GAME.new_game({"squads": [["knight", "knight", "mage"], None]}, ["Ann", "Ann"], seed=2)
    st.cur = st.actor = 0
    assert labels(st)[1:3] == ["Refresh your left Knight's dice (cost 2 energy)",
                               "Refresh your middle Knight's dice (cost 2 energy)"]
    st.hand[0] = [card("sword-strike")]
    st.held[0] = [6, 6]
    assert "Perform Sword Strike with your left Knight on Ann (seat 2)'s Mage (1 energy)" in labels(st)


@pytest.mark.parametrize("action", [
    ("dance",), (), ("pass", 1), ("refresh", 3), ("refresh", "0"), ("play", 99, 0), ("play", -1, 0),
    ("die", 4), ("discard", 0), ("done",), ("play", 0, 0),  # a Sword Strike needs a target
    ("play", 0, 0, 5, 0), ("play", 0, 0, 1, 3), ("edge", 0, 0, 1, 0),  # no seat 5, no slot 3, not an edge
    ("play", 11, 0), [["pass"]], ({"pass": 1},),
])
def test_what_is_no_action_of_the_game_is_refused_with_a_sentence(action):
    st = table([["firebolt"], []], DICE)
    before = GAME.dump(st)
    with pytest.raises(RuleError, match=r"\.$"):
        GAME.describe_action(st, action)
    assert GAME.dump(st) == before


def test_an_action_of_another_step_or_after_the_end_is_refused():
    st = table([["firebolt"], []], DICE)
    play(st, ("play", card("firebolt"), 1, 1, 0))
    with pytest.raises(RuleError, match="not a Squad Combat action in this step"):
        GAME.describe_action(st, ("pass",))
    with pytest.raises(RuleError, match="a die shows 1 to 6"):
        GAME.describe_action(st, ("die", 7))
    with pytest.raises(RuleError):
        GAME.describe_action(st, "pass")
    st.step = 6  # over
    with pytest.raises(RuleError, match="game is over"):
        GAME.describe_action(st, ("pass",))
