"""Unity's log in the words of shared/rules/unity.txt, exact, on stacked decks: the text's chain of
righteousness told line by line, David against Goliath, God's Glory, evil fighting evil and a festival."""

from __future__ import annotations

from .test_unity_rules import act, cid, play
from .unity_tables import new


def public(events):
    return [e.text for e in events if e.see is None]


def test_the_chain_of_righteousness_of_the_rules_example_is_told_as_it_happens():
    """"Player 1 plays two Righteous Kings. ... Player 3 ... must draw four cards ... Player 4 ... now must draw
    five cards!" Each draw is counted in cards; only the drawer sees which."""
    state = new([["Solomon", "Hezekiah", "Abraham"], ["Josiah", "Jehoshaphat", "Moses"],
                 ["Noah", "Esther", "Daniel"], ["Ruth", "Deborah", "Peter"]],
                top=["Jotham", "Judah", "Levi", "Reuben", "Asa", "Benjamin", "Issachar", "Zebulun", "Simeon"])
    events = [*play(state, "Solomon", "Hezekiah"), *play(state, "Josiah", "Jehoshaphat"), *act(state, "decline"),
              *play(state, "Jotham"), *act(state, "decline"), *play(state, "Asa")]
    assert public(events) == [
        "Ann invites all to enter into righteousness with Solomon and Hezekiah.",
        "Ben enters into righteousness with Josiah and Jehoshaphat.",
        "Cat does not enter into righteousness: one card per righteous card played.",
        "Cat draws 4 cards.",
        "Cat enters into righteousness with Jotham.",
        "Dan does not enter into righteousness: one card per righteous card played.",
        "Dan draws 5 cards.",
        "Dan enters into righteousness with Asa.",
    ]
    assert [e.text for e in events if e.see == (2,)] == ["Cat draws Jotham, Judah, Levi and Reuben.",
                                                          "Cat picks Jotham."]


def test_david_glory_and_evil_fighting_evil_say_what_each_costs():
    state = new([["Goliath", "Abraham", "Moses"], ["David", "Ruth", "Greed"]])
    assert public(play(state, "Goliath") + act(state, "david", cid(state, 1, "David"))) == [
        "Ann attacks Ben with Goliath (9 points).", "David defeats Goliath: Ann must draw 3 cards.",
        "Ann draws 3 cards."]
    state = new([["Legion", "Abaddon", "Moses"], ["God's Glory", "Ruth", "Greed"], ["Noah", "Esther", "Daniel"]])
    assert public(play(state, "Legion", "Abaddon") + act(state, "glory", cid(state, 1, "God's Glory"))) == [
        "Ann attacks Ben with Legion and Abaddon (11 points).",
        "God's Glory ends the attack: Legion and Abaddon go back to Ann's hand."]
    state = new([["Unclean Spirit", "Abraham", "Moses"], ["Elijah", "Molech", "Greed"]])
    assert public(play(state, "Unclean Spirit") + play(state, "Molech")) == [
        "Ann attacks Ben with Unclean Spirit (3 points).",
        "Ben defeats evil with evil (Molech): the penalty is two cards.", "Ben draws 2 cards."]


def test_a_festival_discard_names_the_festival():
    state = new([["Passover", "Legion", "Abraham"], ["Abaddon", "Moses", "Ruth"]])
    events = [*act(state, "festival", cid(state, 0, "Passover")), *act(state, "celebrate", cid(state, 0, "Legion")),
              *act(state, "celebrate", cid(state, 1, "Abaddon"))]
    assert public(events) == ["Ann celebrates Passover.", "Ann discards Legion for Passover.",
                              "Ben discards Abaddon for Passover."]
