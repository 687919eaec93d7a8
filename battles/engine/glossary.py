"""The Army Combat battle's words, each explained from army-combat.txt (and RULINGS.md where it settles a gap): the
steps of a battle, every action a commander can take, the twenty commander powers, the unit Roles and traits,
and the words of the rules a commander meets at the table (Morale, Fair Escape, retinue...)."""

from __future__ import annotations

from gamekit.glossary import Term

TEXT = "army-combat.txt"
RULINGS = "RULINGS.md"

STEPS: tuple[Term, ...] = (
    Term("Choosing the first turn", "phase", "Both commanders take the cards of every unit in the Battle into their "
         "hands. One commander, chosen at random, decides who takes the first turn.", TEXT, ("phase:choose_first",)),
    Term("Before the Battle: Mender", "phase", "A commander with the Mender power may ask the opponent to reveal 2 "
         "random cards from their hand, then may spend 1 Morale to Disable one of them.", TEXT,
         ("phase:mender", "phase:mender_pick")),
    Term("Offense", "phase", "The active commander begins a Skirmish by playing a card from hand face down: it is on "
         "Offense. A commander who could play but Passes loses 1 Morale and their turn ends.", TEXT,
         ("phase:offense",)),
    Term("Defense", "phase", "The other commander answers with a card face down on Defense. One who could but does "
         "not leaves the attacker Unopposed, free to strike their Morale instead of fighting a Skirmish.", TEXT,
         ("phase:defense",)),
    Term("Reactions before the dice", "phase", "Both cards are revealed. Cards may be discarded to trigger their "
         "powers and Rituals played, the attacker first, then the defender, in turn until both decline in a row; "
         "then each side rolls a d6 and adds it to its unit's Strength.", RULINGS, ("phase:reaction",)),
    Term("A unit would be Killed", "phase", "The winner's total beat the loser's by 3 or more, so the loser is "
         "Killed. Its commander may spend 1 Influence (a player character) or 3 Morale (a non-player commander) to "
         "have it Disabled instead.", TEXT, ("phase:save",)),
    Term("Healers after the Skirmish", "phase", "After any Skirmish a commander may spend a Morale and discard a "
         "Healer from hand to return one card from their Disabled or Exhausted pile to their hand.", TEXT,
         ("phase:heal",)),
    Term("Second Phase: Necromancer", "phase", "At the start of the second Phase, a Necromancer may return 1 card "
         "from their Disabled pile to their hand.", TEXT, ("phase:necromancer",)),
    Term("End of the Battle", "phase", "If neither commander was Routed, the winner Killed more enemy units; then "
         "the higher Morale wins; then a roll-off. Exhausted and Disabled units return to their commanders "
         "afterwards.", TEXT, ("phase:over",)),
)

ACTIONS: tuple[Term, ...] = (
    Term("Take the first turn", "action", "The commander chosen at random picks who takes the first turn: that "
         "commander is on Offense first.", TEXT, ("action:first",)),
    Term("Play a card", "action", "Play a unit from your hand face down, on Offense or on Defense. Units without a "
         "Strength value cannot be played on Offense or Defense.", TEXT, ("action:play",)),
    Term("Pass", "action", "Not playing a card on Offense or Defense when you could. On Offense it costs 1 Morale "
         "and ends your turn; on Defense the attacker is Unopposed; two Passes in a row end the Battle.", TEXT,
         ("action:pass",)),
    Term("Discard to trigger", "action", "Some cards may be discarded to trigger a power, such as a bonus to a "
         "unit's Strength in the Skirmish, and Rituals are played the same way. Discarded cards go to the Disabled "
         "pile unless they say otherwise.", TEXT, ("action:react",)),
    Term("Decline", "action", "Use nothing now: in the reaction window the dice are rolled once both commanders "
         "decline in a row; before the Battle or at the second Phase, a power goes unused.", RULINGS,
         ("action:decline",)),
    Term("Disable a revealed card", "action", "Mender: spend 1 Morale to Disable one of the two cards the opponent "
         "revealed from their hand.", TEXT, ("action:disable",)),
    Term("Save a unit", "action", "Spend 1 Influence (a player character) or 3 Morale (a non-player commander) so a "
         "unit that would be Killed is Disabled instead, or let it be Killed.", TEXT,
         ("action:save", "action:accept_kill")),
    Term("Heal", "action", "Spend 1 Morale and discard a Healer from hand to return a card from your Disabled or "
         "Exhausted pile to hand: not another Healer, nor a unit with more than twice the Healer's Strength. Or "
         "heal no one.", TEXT, ("action:heal", "action:skip_heal")),
)

POWERS: tuple[Term, ...] = (
    Term("Tactician", "power", "At the start of each Battle, you may choose any single Guardian or Path of Steel "
         "commander power and use it for that Battle.", TEXT, ("power:Tactician",)),
    Term("Battlemage", "power", "Any card you discard to the Disabled pile is placed in the Exhausted pile instead on "
         "a 5+ on a d6. This may succeed only once per Phase.", TEXT, ("power:Battlemage",)),
    Term("Oathbound", "power", "Each Battle, designate one unit. If it is Killed it is only Disabled; if it is "
         "Disabled (not by this power), it is only Exhausted.", TEXT, ("power:Oathbound",)),
    Term("Shapeshifter", "power", "Once per Battle, you may change the Role of any one card as you reveal it in a "
         "Skirmish or discard it.", TEXT, ("power:Shapeshifter",)),
    Term("Adept", "power", "You may change the Role of any card you play to Guardian. Guardian units you play Add "
         "1.", TEXT, ("power:Adept",)),
    Term("Chirurgeon", "power", "You gain an Alchemy Lab Equipment unit for free. If it would be Killed, place it in "
         "the Disabled pile.", TEXT, ("power:Chirurgeon",)),
    Term("Necromancer", "power", "At the start of the second Phase, you may return 1 card from your Disabled pile to "
         "your hand. Undead units you play Add 1.", TEXT, ("power:Necromancer",)),
    Term("Cleric", "power", "Once per Day, you may return 1 Killed card to your hand by spending a Morale.", TEXT,
         ("power:Cleric",)),
    Term("Animist", "power", "You may play 2 Rituals each Phase. Healers you play Add 1.", TEXT, ("power:Animist",)),
    Term("Mender", "power", "Before the Battle, you may ask your opponent to reveal 2 random cards from their hand. "
         "You may spend 1 Morale to Disable one of them.", TEXT, ("power:Mender",)),
    Term("Master of Arms", "power", "You may change the Role of any card you play to Aggressor. Aggressor units you "
         "play Add 1.", TEXT, ("power:Master of Arms",)),
    Term("Evoker", "power", "Three times per Battle, you may Add 2 to any unit in a Skirmish, no more than once per "
         "Skirmish.", TEXT, ("power:Evoker",)),
    Term("Dervish", "power", "Units under your command Add 1 against units on a specific Path or Role, chosen once "
         "each Day.", TEXT, ("power:Dervish",)),
    Term("Scout", "power", "All cards you play on Offense gain the Ranged trait. If they already had the Ranged "
         "trait, they Add 1.", TEXT, ("power:Scout",)),
    Term("Psionicist", "power", "Once per Battle, with at least 2 cards in hand, you may shuffle your hand: your next "
         "card is drawn at random, but Adds 3.", TEXT, ("power:Psionicist",)),
    Term("Rogue", "power", "When you Kill an enemy unit, gain a Morale on a 4+.", TEXT, ("power:Rogue",)),
    Term("Illusionist", "power", "Twice per Battle, you may roll a d6 and have either unit in a Skirmish Add the "
         "result, no more than once per Skirmish.", TEXT, ("power:Illusionist",)),
    Term("Chaplain", "power", "You gain the Mediating Chaplain unit, which neither deals nor receives damage in "
         "Skirmishes.", TEXT, ("power:Chaplain",)),
    Term("Shaman", "power", "Elemental and Savant units you play Add 1.", TEXT, ("power:Shaman",)),
    Term("Etherealist", "power", "Once per Battle, you may exchange any unit in your hand with a unit you have played "
         "in a Skirmish, as long as the unit from your hand could legally be played into that Skirmish.", TEXT,
         ("power:Etherealist",)),
)

ROLES: tuple[Term, ...] = (
    Term("Aggressor", "role", "Rolls 2d6 and takes the best when played on Offense, unless the defending unit is a "
         "Guardian.", TEXT, ("role:Aggressor",)),
    Term("Guardian", "role", "Rolls 2d6 and takes the best when played on Defense, unless the attacking unit is an "
         "Aggressor.", TEXT, ("role:Guardian",)),
    Term("Healer", "role", "After any Skirmish, spend a Morale and discard a Healer from hand to return one card from "
         "your Disabled or Exhausted pile to hand: not another Healer, nor a unit with more than twice its "
         "Strength.", TEXT, ("role:Healer",)),
    Term("Savant", "role", "Whenever another card gives it a bonus to Strength, it receives an additional +2. "
         "Commander powers that Add never trigger this.", TEXT, ("role:Savant",)),
    Term("Equipment", "role", "Can usually be discarded for a bonus of some kind. Equipment rolls no d6 on Offense or "
         "Defense, and Equipment with Strength 0 is Killed in any Skirmish.", TEXT, ("role:Equipment",)),
    Term("Ritual", "role", "Not a unit. A commander may play two Rituals each Battle, one per Phase, and only if "
         "their army holds at least two units of the Ritual's Path.", TEXT, ("role:Ritual",)),
)

TRAITS: tuple[Term, ...] = (
    Term("Reach", "trait", "A unit with Reach receives +1 to Strength in a Skirmish if its opponent has neither "
         "Reach nor Ranged.", TEXT, ("trait:Reach",)),
    Term("Ranged", "trait", "A unit with Ranged denies an opponent's Reach its +1. A Scout's cards gain Ranged on "
         "Offense.", TEXT, ("trait:Ranged",)),
    Term("Slow", "trait", "An army that contains a unit marked Slow moves 1 inch less per Move on the map.", TEXT,
         ("trait:Slow",)),
    Term("Fast", "trait", "An army of which half or more of the units are Fast travels an additional inch per "
         "Move.", TEXT, ("trait:Fast",)),
    Term("Fly or Burrow", "trait", "An army of which half or more of the units Fly or Burrow ignores difficult "
         "terrain.", TEXT,
         ("trait:Fly", "trait:Burrow")),
    Term("Undead", "trait", "Units with the Undead special ability cost no Upkeep. A Necromancer's Undead units Add "
         "1.", TEXT, ("trait:Undead",)),
    Term("Elemental", "trait", "A Shaman's Elemental units Add 1.", TEXT, ("trait:Elemental",)),
)

WORDS: tuple[Term, ...] = (
    Term("Battle", "term", "An engagement between two armies. It ends after two Phases, or when both commanders "
         "could play cards but instead Pass.", TEXT),
    Term("Phase", "term", "Half of a Battle. It ends when both commanders are unable to play; in the second Phase "
         "all Exhausted cards return to hand and play begins with the last commander to play on Defense.", TEXT),
    Term("Skirmish", "term", "A small part of a Battle: one unit on Offense against one on Defense. Each rolls a d6 "
         "and adds its Strength; the higher total wins, and ties go to the higher base Strength.", TEXT,
         ("term:skirmish",)),
    Term("Strength", "term", "A card's raw combat power. A d6 roll is added to it in a Skirmish, and cards or "
         "commander powers may add to or subtract from it.", TEXT),
    Term("Adds", "term", "When a card or power says a unit Adds X, the unit applies a bonus of X to its Strength.",
         TEXT),
    Term("Morale", "term", "A commander's ability to lead, starting at 4 + half their level (rounded down), plus a "
         "defended Base's bonus. A commander reduced to 0 Morale is Routed.", TEXT, ("term:morale",)),
    Term("Routed", "term", "A commander at 0 Morale loses the Battle at once. The victor rolls a d6 for each of "
         "their units in the Disabled or Exhausted piles: on a 5+ it is Killed.", TEXT),
    Term("Unopposed", "term", "A unit the defender did not answer rolls and adds modifiers as in a Skirmish, and "
         "deals 1 Morale damage for every 4 whole points of its total.", TEXT),
    Term("Unable", "term", "Having no card with a Strength to play. Being unable to play costs no Morale.", TEXT),
    Term("Exhausted", "term", "A unit that wins a Skirmish goes to the Exhausted pile. Exhausted cards come back to "
         "hand in the second Phase.", TEXT, ("term:exhausted",)),
    Term("Disabled", "term", "A unit defeated but not Killed is Disabled: out for the Battle, it recovers "
         "afterwards. Discarded cards go to the Disabled pile too.", TEXT, ("term:disabled",)),
    Term("Killed", "term", "A unit beaten by 3 or more is Killed and removed from play for good, unless its "
         "commander spends 1 Influence (a player character) or 3 Morale (a non-player commander) to have it "
         "Disabled instead.", TEXT, ("term:killed",)),
    Term("Base", "term", "A battlefield feature that grants extra Morale to the defending commander. Base Morale is "
         "lost first, and is then used up for the Day.", TEXT, ("term:base",)),
    Term("Influence", "term", "What a player character spends to save a unit that would be Killed, or to invoke "
         "Fair Escape.", TEXT, ("term:influence",)),
    Term("Fair Escape", "term", "A player character may spend 1 Influence for a Fair Escape; a unit of their "
         "retinue may take -2 Strength instead, and is Killed at 0 or less.", RULINGS),
    Term("Retinue", "term", "A unit whose recruitment, training and Upkeep one character paid in full. It Adds 1 "
         "when that character commands it, and may take -2 Strength for that character's Fair Escape.", TEXT,
         ("term:retinue",)),
    Term("Path", "term", "Most units have a Path (Steel, Magic, Faith, Nature or Mind): an affinity for a style of "
         "combat. Some cards affect units on particular Paths, and a Ritual needs two units on its Path.", TEXT,
         ("path:Steel", "path:Magic", "path:Faith", "path:Nature", "path:Mind")),
    Term("Commander power", "term", "Commanders of certain classes receive a power from a grid of Roles and Paths. "
         "Commander powers that Add to a unit's Strength never trigger the Savant power.", TEXT),
)

TERMS: tuple[Term, ...] = (*STEPS, *ACTIONS, *POWERS, *ROLES, *TRAITS, *WORDS)
