"""Squad Combat's log in the words of rules/squad-combat.txt, exact, with scripted dice: an attack's steps (the
attack die, the defense die, the ratings and the hit), a declined die, and a dice refresh."""

from __future__ import annotations

from .test_squad_combat import card, play, table


def texts(events):
    return [e.text for e in events]


def test_an_attack_is_told_step_by_step():
    """Steps 3 to 5 of an attack: each side spends a die, modifiers make the ratings, equal or more hits."""
    st = table([["sword-strike"], []], [[5, 4], [], [], [5, 3]])
    assert texts(play(st, ("play", card("sword-strike"), 0, 1, 0), ("die", 4), ("die", 5), ("done",),
                      ("done",))) == [
        "Ann's Knight plays Sword Strike on Bob's Knight.",
        "Ann's Knight spends a 4 as the attack die.",
        "Bob's Knight spends a 5 as the defence die.",
        "Ann's Knight's Sword Strike against Bob's Knight: attack rating 5 against defence rating 5, a hit for 2 "
        "damage.",
    ]


def test_a_declined_die_counts_as_zero_and_a_miss_says_so():
    st = table([["sword-strike"], []], [[5, 4], [], [], [5, 3]])
    assert texts(play(st, ("play", card("sword-strike"), 0, 1, 0), ("die", 0), ("die", 5), ("done",),
                      ("done",)))[1:] == [
        "Ann's Knight declines the attack die (it counts as 0).",
        "Bob's Knight spends a 5 as the defence die.",
        "Ann's Knight's Sword Strike against Bob's Knight: attack rating 1 against defence rating 5, a miss.",
    ]


def test_a_refresh_says_what_was_rolled_and_what_the_character_keeps():
    """The Rogue's pool is 3: it rolls 6, 1 and 2 onto 4, 4 and 4 and keeps the highest three."""
    st = table([[], []], [[1], [], [4, 4, 4]], script=[6, 5, 6, 1, 2])
    assert texts(play(st, ("refresh", 0), ("pass",), ("refresh", 2))) == [
        "Ann's Knight rolls 6 and 5; its dice are now 6 and 5.",
        "Bob passes.",
        "Ann's Rogue rolls 6, 1 and 2; its dice are now 6, 4 and 4.",
    ]
