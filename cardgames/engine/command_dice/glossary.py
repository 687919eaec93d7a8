"""Command Dice's words, each explained from command-dice-battle.txt (and RULINGS.md for the dice faces): its
phases, its two actions and the words on its table. The table's "What now?" and "What is the fist?" read
their text from here. Its phases are named as the table names them (words.PHASE_TITLES)."""

from __future__ import annotations

from cardgames.engine.command_dice.words import PHASE_TITLES
from gamekit.glossary import Term

TEXT = "command-dice-battle.txt"

FIST = Term("Fist", "term", "The dice held in the fist this Turn: chosen in secret from the pool, revealed when both "
            "sides have chosen, then rolled. Dice that defeat a card are spent for the Round; the others go back to "
            "the pool.", TEXT)
"""What 'Your fist' on the table means."""

TERMS: tuple[Term, ...] = (
    Term(PHASE_TITLES["choose"], "phase", "Both players secretly choose 1 to 4 dice from their pool and hold them "
         "in their fist; the dice are revealed together. Whoever holds fewer dice goes first (the colour of the "
         "first card decides a tie).", TEXT, ("phase:choose",)),
    Term(PHASE_TITLES["allocate"], "phase", "The player to move rolls the dice from their fist and must defeat at "
         "least one card if they can: a card needs as many swords as its number, and one die's swords are never split "
         "between cards.", TEXT, ("phase:allocate",)),
    Term(PHASE_TITLES["over"], "phase", "The battle is over: the side with more Victories won.", TEXT,
         ("phase:over",)),
    Term("Choose your dice", "action", "Choose which dice go into your fist for this Turn, 1 to 4 from what is "
         "left of your pool. Holding fewer dice than the other player gives you the initiative.", TEXT,
         ("action:choose",)),
    Term("Defeat cards", "action", "Place your rolled dice on the cards to defeat them: enough swords to match each "
         "card's number, never more than the dice force, and a die's swords are not split. If you can defeat at "
         "least one card you must.", TEXT, ("action:allocate",)),
    FIST,
    Term("Command Dice", "term", "Each player has a set of 4 red, 3 white and 2 blue dice, whose faces show swords: "
         "red 0, 0, 1, 1, 1, 2; white 0, 1, 1, 1, 2, 2; blue 1, 1, 1, 2, 2, 3.", "RULINGS.md"),
    Term("Pool", "term", "The dice a player may still choose this Round. Every player starts each Round with all "
         "their dice in their pool.", TEXT),
    Term("Battle Deck", "term", "The 24 cards marked 1 to 6, shuffled face down between the players. Each Turn "
         "three cards are dealt face up from it; a card's number is the swords needed to defeat it.", TEXT),
    Term("Red or Black", "term", "One card dealt at the start decides which player is RED and which BLACK. When "
         "both hold as many dice, the colour of the card next to the Battle Deck says who goes first.", TEXT),
    Term("Initiative", "term", "The player holding the fewest dice has the initiative this Turn and rolls first; "
         "then the second player rolls and does the same.", TEXT),
    Term("Turn", "term", "Three cards are dealt, both players choose and reveal their dice, and each in turn rolls "
         "and defeats cards. Cards left over are cleared away and three fresh cards are dealt.", TEXT),
    Term("Round", "term", "A Round ends when both players use their last dice at once, after one final Turn when "
         "one player starts a Turn with no dice, or when the Battle Deck is empty. The highest total of defeated "
         "cards wins the Round; on a tie, the fewer cards, else a draw.", TEXT),
    Term("Victory", "term", "Winning a Round claims a Victory; the first player to three Victories wins the "
         "game.", TEXT),
)
