"""Unholy War's words, each explained from unholy-war-level-1.txt (and RULINGS.md where it settles a gap): its
phases, every action a player can take, and the words on its table."""

from __future__ import annotations

from gamekit.glossary import Term

TEXT = "unholy-war-level-1.txt"

TERMS: tuple[Term, ...] = (
    Term("Strategy Phase", "phase", "Players return their facedown cards to hand, draw up to their Power and Untap "
         "their cards. Then, in order of Initiative, each plays cards face up or facedown and assigns every die of "
         "their pool to their cards.", TEXT, ("phase:strategy",)),
    Term("Command Phase", "phase", "The face-up, Untapped card with the highest Power has Initiative and takes one "
         "Action: Hide, Engage or Pass. Initiative is checked again after each Action, until no card can act.", TEXT,
         ("phase:command",)),
    Term("Ambush window", "phase", "You or one of your cards is Engaged: you may Exert one of your facedown cards to "
         "Ambush the attacker, or let the Engagement resolve. Facedown cards are revealed once no one Ambushes any "
         "more.", TEXT, ("phase:ambush",)),
    Term("Backlash", "phase", "A Player who is Hit adds a die to their pool for good, and the backlash Exerts the "
         "card engaged with that player.", TEXT, ("phase:backlash",)),
    Term("End of the game", "phase", "A Player who would gain an 11th die is defeated; the game ends when one Player "
         "is left standing.", TEXT, ("phase:over",)),
    Term("Hurt yourself", "action", "At the start of your Strategy turn you may hurt yourself, gaining a die, to "
         "shuffle your discard pile into your deck and draw until you hold as many cards as your new Power.", TEXT,
         ("action:hurt",)),
    Term("Play a card", "action", "Play a Command Card from your hand face up or facedown. A card must have at "
         "least 1 die assigned to it or it is discarded at once.", TEXT, ("action:play",)),
    Term("Assign dice", "action", "Move a die from your pool onto one of your cards: the dice on a card are its "
         "Power. You must end your turn with no dice in your pool.", TEXT, ("action:assign",)),
    Term("Bottom of the deck", "action", "Cards still in your hand when you end your Strategy turn go back to the "
         "bottom of your deck, in any order.", TEXT, ("action:bottom",)),
    Term("Pass", "action", "The third standard Action: the card with Initiative Taps and does nothing.", "RULINGS.md",
         ("action:pass",)),
    Term("Hide", "action", "The card with Initiative returns to your hand with up to one facedown, Untapped card "
         "you control; you play them facedown again and share their dice between them as you choose.", TEXT,
         ("action:hide",)),
    Term("Engage", "action", "The card with Initiative is Exerted and attacks a card or a player: its Attack Roll "
         "against their Defense Roll. Unless the Defense Roll is higher the Defender is Hit; a Defender that "
         "survives makes its own counterattack.", TEXT, ("action:engage",)),
    Term("Ambush", "action", "When you or a card you control is Engaged, Exert one of your facedown cards to Engage "
         "the original attacker: your card becomes the new Initiator and theirs the Defender. An Ambush can itself "
         "be Ambushed.", TEXT, ("action:ambush",)),
    Term("No Ambush", "action", "Let the Engagement resolve: facedown cards are revealed and the attack and defense "
         "dice are rolled.", TEXT, ("action:decline",)),
    Term("Exert", "action", "A card pays for an effort by Tapping (turning sideways: it cannot act until the next "
         "round) or by removing one of its dice, which returns to its Player's pool. A card whose last die is "
         "removed is discarded.", TEXT, ("action:exert",)),
    Term("Facedown card", "power", "Every facedown Command Card has the Ambush trait, and is not revealed until the "
         "attack and defense dice are about to roll. Facedown and Tapped cards are ignored for Initiative.", TEXT,
         ("term:facedown",)),
    Term("Command Card", "term", "A card in play, with bonuses or penalties to its Attack (ATK) and Defense (DEF) "
         "Rolls. Whenever you discard a Command Card you also discard the top card of your deck.", TEXT,
         ("term:card",)),
    Term("Power", "term", "The number of dice assigned to a card or a player. A Player's Power is the dice in their "
         "pool, and in the Strategy Phase they draw until they hold as many cards as their Power.", TEXT,
         ("term:power",)),
    Term("Roll", "term", "Roll all of your Power, keep the highest result and add +1 for each 1 rolled: [1, 1, 3, 4, "
         "4] makes 6.", TEXT),
    Term("Initiative", "term", "What acts first: the highest Power of the Players (Strategy Phase) or of the "
         "face-up, Untapped cards (Command Phase). A tie is settled by rolling.", TEXT, ("term:initiative",)),
    Term("Tapped", "term", "A card turned sideways to pay for an Exertion. It cannot act until the start of the next "
         "round, when it is Untapped.", TEXT, ("term:tapped",)),
    Term("Hit", "term", "Unless the Defense Roll is higher than the Attack Roll, the Defender is Hit: a card is "
         "discarded, a Player adds a die to their pool. Ties go to the attacker.", TEXT),
    Term("Defeated", "term", "A Player who would gain an 11th die within their control is defeated.", TEXT,
         ("term:dice",)),
)
