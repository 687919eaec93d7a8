"""The battle log and the buttons in the rules' words, exact, with scripted dice: the rules' Example Skirmish told
line by line, who takes the first turn, a discard's aim, a card's change of Role or trait, a negative Add, a Rout
and its rolls, and the labels that used to show a Role without its article or say only 'Decline'."""

from battles.engine import GAME
from gamekit.dice import Dice

from .helpers import SOLDIER_FX, act, battle, config, legal, texts, unit

SPEARMEN = unit(1, "Spearmen", 2, "Aggressor", "Steel", ("Reach",))
SOLDIERS = [unit(1, "Soldier", effects=SOLDIER_FX), unit(2, "Soldier", effects=SOLDIER_FX),
            unit(3, "Shieldwall", 2, "Guardian", traits=("Slow",))]


def test_the_example_skirmish_is_told_in_the_rules_words():
    """army-combat.txt, "Example Skirmish": the Spearmen (Reach, Aggressor) roll 2d6 and keep the best, the Soldier
    rolls one; B discards a second Soldier for +1 to its own, so 7 against 5 only Disables it."""
    st = battle([SPEARMEN], SOLDIERS, dice=[4, 2, 2])
    assert texts(act(st, ("play", 1), ("play", 1))) == [
        "A plays a card face down on Offense.", "(You played Spearmen.)",
        "B plays a card face down on Defense.", "(You played Soldier.)",
        "Revealed: Spearmen on Offense against Soldier on Defense.",
    ]
    assert GAME.describe_action(st, ("react", 2, "defense")) == "Discard Soldier: Add 1 to Soldier on Defense"
    assert texts(act(st, ("react", 2, "defense"))) == [
        "B discards Soldier for Soldier on Defense.",
        "Soldier Adds 1 (Soldier).",
        "Spearmen (Offense, Aggressor) roll 4 and 2, keep 4: 2 + 4 + 1 Reach = 7",
        "Soldier (Defense, Aggressor) roll 2: 2 + 2 + 1 from cards = 5",
        "Spearmen wins the Skirmish.",
        "Spearmen is Exhausted.",
        "Soldier is Disabled.",
    ]


def test_who_takes_the_first_turn_is_said_once():
    st = GAME.new_game(config([unit(1)], [unit(1)]), ["pa", "pb"], dice=Dice.scripted([1]))
    assert [GAME.describe_action(st, a) for a in legal(st)] == ["Take the first turn", "Let B take the first turn"]
    assert texts(act(st, ("first", 0))) == ["A chooses to take the first turn."]
    st = GAME.new_game(config([unit(1)], [unit(1)]), ["pa", "pb"], dice=Dice.scripted([1]))
    assert texts(act(st, ("first", 1))) == ["A chooses B to take the first turn."]


def test_a_discard_that_takes_away_is_a_minus_and_a_change_says_what_changed():
    caltrops = unit(2, "Caltrops", 0, "Equipment", effects=[{"when": "discard", "do": "add", "amount": -1,
                                                             "to": "enemy"}])
    banner = unit(3, "War Banner", 0, "Equipment", effects=[{"when": "discard", "do": "set_role",
                                                             "role": "Aggressor"}])
    wild = unit(4, "Call of the Wild", 0, "Equipment", effects=[{"when": "discard", "do": "grant_trait",
                                                                 "trait": "Reach"}])
    st = battle([unit(1, "Knights", 4, "Guardian"), banner, wild], [unit(1, "Pikemen", 3, "Healer"), caltrops],
                dice=[3, 2, 1])
    act(st, ("play", 1), ("play", 1))
    assert texts(act(st, ("react", 3))) == ["A discards War Banner.", "Knights becomes an Aggressor (War Banner)."]
    assert texts(act(st, ("react", 2))) == ["B discards Caltrops.", "Knights Adds -1 (Caltrops)."]
    events = texts(act(st, ("react", 4)))
    assert events[:3] == ["A discards Call of the Wild.", "Knights gains Reach (Call of the Wild).",
                          "Knights (Offense, Aggressor) roll 3 and 2, keep 3: 4 + 3 + 1 Reach - 1 from cards = 7"]


def test_a_rout_names_the_routed_commander_and_what_each_roll_is_for():
    """Morale 0 is a Rout: the victor rolls a d6 for each of the Routed commander's Disabled or Exhausted units
    and Kills it on a 5+."""
    st = battle([unit(1, "Knights", 4)], [unit(1, "Zombies", 1), unit(2, "Guard", 1)], dice=[3, 1, 5, 5],
                b={"morale": 1})
    act(st, ("play", 1), ("play", 1))  # 4 + 3 against 1 + 5: the Zombies are Disabled
    assert texts(act(st, ("pass",))) == [
        "B Passes on Offense.",
        "B loses 1 Morale (Passing): 0 left.",
        "B is Routed!",
        "A rolls 5 for Zombies (Killed on a 5+).",
        "Zombies is Killed.",
        "The Battle ends: B is Routed. A wins. Kills 1-0, Morale 5-0.",
    ]


def test_labels_give_a_role_its_article_and_say_what_declining_is():
    shifter = {"power": "Shapeshifter"}
    st = battle([unit(1, "Knights", 4, "Guardian")], [unit(1, "Pikemen", 3, "Healer")], a=shifter)
    act(st, ("play", 1), ("play", 1))
    labels = [GAME.describe_action(st, a) for a in legal(st)]
    assert "Shapeshifter: make your unit an Equipment" in labels
    assert "Shapeshifter: make your unit a Savant" in labels
    assert labels[-1] == "Do not react"
