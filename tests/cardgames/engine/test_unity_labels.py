"""Unity's button labels (`GAME.describe_action`): every legal action has its own label in the rules' words,
naming its cards; anything else is refused with the sentence `apply` gives. No database."""

from __future__ import annotations

import json
import random

import pytest

from cardgames.engine.unity import GAME
from gamekit.errors import RuleError

from .unity_tables import cid, new


def act(state, *action):
    return GAME.apply(state, action, state.turn)


def pick(state, *names):
    for name in names:
        act(state, "pick", cid(state, state.turn, name))


def labels(state):
    return [GAME.describe_action(state, a) for a in GAME.legal_actions(state, state.turn)]


def random_states(count):
    """`count` states met in random legal play, 2 to 6 players, several seeds."""
    seed = 0
    while True:
        rng = random.Random(seed)
        state = GAME.new_game({"max_turns": 80, "verbose": False}, [f"P{i}" for i in range(2 + seed % 5)], seed=seed)
        while not GAME.is_over(state):
            yield state
            count -= 1
            if not count:
                return
            (seat,) = GAME.to_move(state)
            GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat)
        seed += 1


def test_every_legal_action_of_random_play_has_its_own_label_naming_its_cards():
    kinds = set()
    for state in random_states(600):
        actions = GAME.legal_actions(state, state.turn)
        texts = [GAME.describe_action(state, a) for a in actions]
        assert len(set(texts)) == len(texts), texts
        for action, text in zip(actions, texts, strict=True):
            kinds.add(action[0])
            assert text[:1].isupper(), text
            assert "'" not in text.replace("God's", "").replace("'s hand", ""), f"words, not a repr: {text}"
            for c in action[1:]:
                assert state.deck.name[c] in text
            assert GAME.describe_action(state, json.loads(json.dumps(action))) == text  # JSON lists too
    assert kinds >= {"pick", "play", "festival", "celebrate", "angel", "draw", "decline"}


def test_labels_of_a_free_turn_an_attack_and_its_answers():
    state = new([["Goliath", "Golden Calf", "Idol", "Ruth", "Passover", "Unity"],
                 ["Abraham", "Moses", "Noah", "David", "Trinity", "Michael"]])
    assert labels(state) == ["Pick Goliath (Evil Person, 9 points)", "Pick Ruth (Righteous Person, 4 points)",
                             "Pick Golden Calf (Evil Object, 4 points)", "Pick Idol (Evil Object, 3 points)",
                             "Pick Unity (Unity, 0 points)",
                             "Celebrate Passover: each player discards one Demon card"]
    pick(state, "Goliath")
    assert labels(state) == ["Play your picked card: make an evil attack on Ben (9 points)",
                             "Add Golden Calf (Evil Object, 4 points) to your play",
                             "Add Idol (Evil Object, 3 points) to your play"]
    pick(state, "Golden Calf", "Idol")
    assert labels(state) == ["Play your 3 picked cards: make an evil attack on Ben (16 points)"]
    act(state, "play")
    answers = labels(state)
    assert answers[:3] == ["Answer with David: defeat Goliath, and the attacker draws 3 cards",
                           "Answer with Trinity: the attacker draws 4 cards",
                           "Answer with Michael and Abraham (Righteous Person, 6 points): defeat the attack, and it is "
                           "still your turn"]
    assert answers[-1] == "Pick Abraham (Righteous Person, 6 points)"
    pick(state, "Abraham", "Moses", "Noah")
    assert labels(state) == ["Play your 3 picked cards: defeat the attack (17 points against 16)"]
    assert GAME.describe_action(state, ["play"]) == labels(state)[0]


def test_labels_of_god_s_judgement_glory_evil_against_evil_and_drawing():
    state = new([["Beelzebub", "Abraham"], ["God's Judgement", "God's Glory"], ["Legion", "Ruth"]])
    pick(state, "Beelzebub")
    act(state, "play")
    assert labels(state) == ["Answer with God's Glory: the evil cards go back to Ann's hand",
                             "Answer with God's Judgement: turn the attack back on Ann"]
    state = new([["Legion", "Ruth"], ["Molech", "Greed"]])
    pick(state, "Legion")
    act(state, "play")
    assert labels(state) == ["Pick Molech (Evil God, 7 points)", "Draw a card"]
    pick(state, "Molech")
    assert labels(state)[0] == "Play your picked card: defeat evil with evil (7 points against 6), then draw 2 cards"


def test_labels_of_righteousness_and_festivals():
    state = new([["Abraham", "Moses", "Legion"], ["Baal", "Greed", "Pride"], ["Ruth", "Solomon", "Idol"]])
    pick(state, "Abraham", "Moses")
    assert labels(state) == ["Play your 2 picked cards: make an invitation to enter into righteousness"]
    act(state, "play")
    assert labels(state) == ["Decline: draw 2 cards"]
    state = new([["Abraham", "Legion"], ["Ruth", "Baal"], ["Moses", "Idol"]])
    pick(state, "Abraham")
    act(state, "play")
    assert labels(state) == ["Pick Ruth (Righteous Person, 4 points)", "Decline: draw 1 card"]
    pick(state, "Ruth")
    assert labels(state) == ["Play your picked card: enter into righteousness"]
    state = new([["Passover", "Legion", "Day of Atonement", "Firstfruits"], ["Abaddon", "Moses", "Ruth", "Noah"]])
    assert labels(state)[-3:] == ["Celebrate Day of Atonement: each player discards one evil card",
                                  "Celebrate Firstfruits: each player draws 1 card from the righteous discard pile",
                                  "Celebrate Passover: each player discards one Demon card"]
    act(state, "festival", cid(state, 0, "Passover"))
    assert labels(state) == ["Discard Legion (Demon, 6 points) for Passover"]


def test_copies_offered_apart_are_told_apart():
    """Seat 0 holds the first and third Unity: identical cards, offered twice because a copy between them is
    elsewhere; the label says which."""
    state = new([["Unity", "Unity", "Abraham"], ["Unity", "Legion", "Moses"]])
    assert labels(state) == ["Pick Abraham (Righteous Person, 6 points)", "Pick Unity (Unity, 0 points)",
                             "Pick another Unity (Unity, 0 points)"]


@pytest.mark.parametrize(("action", "rule"), [(("dance",), "action"), (("pick", 999), "hand"), ((), "action"),
                                              ("pick", "action"), (("play",), "play"), (("pick", "Legion"), "hand")])
def test_what_is_not_a_legal_unity_action_is_refused_with_a_sentence(action, rule):
    state = new([["Legion", "Abraham"], ["Moses", "Noah"]])
    with pytest.raises(RuleError) as err:
        GAME.describe_action(state, action)
    assert err.value.rule == rule
    assert err.value.message.endswith(".")


def test_an_action_of_another_phase_gets_the_refusal_apply_gives():
    state = new([["Legion", "Abraham"], ["Moses", "Noah"]])
    for action in (("draw",), ("decline",), ("celebrate", cid(state, 0, "Legion"))):
        with pytest.raises(RuleError) as err:
            GAME.describe_action(state, action)
        with pytest.raises(RuleError) as applied:
            GAME.apply(GAME.clone(state), action, 0)
        assert (err.value.rule, err.value.message) == (applied.value.rule, applied.value.message)
