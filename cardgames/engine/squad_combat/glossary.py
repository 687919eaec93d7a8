"""Squad Combat's words, each explained from squad-combat.txt (and RULINGS.md where it settles a gap): the steps
of a turn, every action a player can take, the kinds of card and what cards do, and the words on a character."""

from __future__ import annotations

from gamekit.glossary import Term

TEXT = "squad-combat.txt"

TERMS: tuple[Term, ...] = (
    Term("Action phase", "phase", "Players take action phases in turn order: play an action card from hand, use an "
         "action printed on a card in play, or pass. The order repeats until every player has passed, which ends "
         "the turn.", TEXT, ("phase:action",)),
    Term("Paying a card cost", "phase", "The card being played has a card cost: its player discards cards from their "
         "hand to pay it, of any type or trait.", TEXT, ("phase:pay",)),
    Term("Attack die", "phase", "The attacker may choose and spend a die from the attacking character. Declining "
         "counts as a die of 0.", TEXT, ("phase:attack die",)),
    Term("Defence die", "phase", "Then the defender may spend a die from the defending character. Declining counts "
         "as a die of 0.", TEXT, ("phase:defence die",)),
    Term("Edges", "phase", "Before the attack resolves, players may play edges that add to the attack or defence "
         "rating (each die plus its modifiers). If the attack rating is equal to or greater than the defence rating, "
         "the attack hits and wounds the defender.", TEXT, ("phase:modifiers",)),
    Term("End of turn", "phase", "Spent focus is removed from the characters in play. Each player may then discard "
         "up to two cards from their hand, then draws up to their hand size (5 by default).", TEXT,
         ("phase:end of turn",)),
    Term("End of the game", "phase", "The last player with characters alive wins.", TEXT, ("phase:over",)),
    Term("Pass", "action", "Pass instead of taking an action: you receive no more actions this turn, but may still "
         "play edges. When all players have passed, the turn ends.", TEXT, ("action:pass",)),
    Term("Refresh dice", "action", "As an action, pay a character's dice refresh cost in energy to roll as many dice "
         "as its dice pool and add them to the character. Then remove dice until it holds no more than its dice "
         "pool.", TEXT, ("action:refresh",)),
    Term("Perform a card", "action", "Play an action or attack card with a character who shares a trait with it and "
         "can pay its costs: pay, then resolve the card. Afterwards it is discarded, unless an attack hits.", TEXT,
         ("action:play",)),
    Term("Play an edge", "action", "Edges can be played any time the card itself says, by a character who shares a "
         "trait with it and can pay its costs. After taking effect, an edge is discarded.", TEXT, ("action:edge",)),
    Term("Spend a die", "action", "Spend one die from your character as the attack or defence die; declining counts "
         "as a die of 0.", "RULINGS.md", ("action:die",)),
    Term("Done", "action", "Stop: play no more edges on this attack, or stop discarding at the end of the turn and "
         "draw up to your hand size.", TEXT, ("action:done",)),
    Term("Discard", "action", "Discard a card from your hand: to pay a card cost (any card will do), or at the end "
         "of the turn, up to two, before drawing up.", TEXT, ("action:discard",)),
    Term("Action card", "power", "A card a character uses to perform an effect. A character must match one of its "
         "traits and pay its cost.", TEXT, ("power:action",)),
    Term("Attack card", "power", "An action that attacks an enemy character, with a hit modifier (how easy it is to "
         "hit) and damage (how much of the target's Life it takes). A missed attack is discarded.", TEXT,
         ("power:attack",)),
    Term("Edge", "power", "A card played any time the card itself says (any time if it has no restriction), then "
         "discarded. Edges have the same stats as actions.", TEXT, ("power:edge",)),
    Term("Attack bonus", "power", "The card adds to the attack rating: the attack die plus the attack modifiers.",
         TEXT, ("effect:attack",)),
    Term("Defence bonus", "power", "The card adds to the defence rating: the defence die plus the defence "
         "modifiers.", TEXT, ("effect:defence",)),
    Term("Draw", "power", "The card draws cards from your deck into your hand.", TEXT, ("effect:draw",)),
    Term("Heal", "power", "The card removes wounds (attacks that hit, placed under the character) from a character "
         "you control, giving back the Life they took.", TEXT, ("effect:heal",)),
    Term("Roll a die", "power", "The card rolls dice onto the character; it then keeps no more dice than its dice "
         "pool, as when refreshing.", TEXT, ("effect:roll",)),
    Term("Recover energy", "power", "The card removes spent energy tokens from the character, so it can pay energy "
         "costs again.", TEXT, ("effect:energy",)),
    Term("Life", "term", "The damage a character can take. A character whose wounds reach its Life is removed from "
         "the game.", TEXT, ("term:life",)),
    Term("Energy", "term", "A resource characters spend to perform actions. Paying an energy cost places spent "
         "energy tokens on the character; it needs enough unspent energy to pay.", TEXT, ("term:energy",)),
    Term("Dice pool", "term", "The dice a character starts the game with and receives each time it refreshes; also "
         "the most dice it may hold. Dice keep their rolled values until spent.", TEXT, ("term:dice",)),
    Term("Dice refresh", "term", "The energy it costs to refresh a character's dice.", TEXT, ("term:refresh",)),
    Term("Traits", "term", "Skills a character is proficient with. A character may play a card only if it shares at "
         "least one trait with the card.", TEXT, ("term:traits",)),
    Term("Costs", "term", "Energy costs <X> need that much unspent energy; dice costs [X] need a die of at least X "
         "from the character; card costs C mean discarding cards. A cost may combine several types.", TEXT,
         ("term:costs",)),
    Term("Wound", "term", "An attack that hits is placed under the defending character with its damage showing; "
         "the damage counts against the character's Life.", TEXT, ("term:wounds",)),
)
