"""Unholy War, level 1: the pure engine (rules/unholy-war-level-1.txt, with RULINGS.md).

`GAME` implements the shared game protocol (gamekit.protocol) under the name ``"unholy-war"``. Modules:
`table` (config, decks and house rules as data; the state), `flow` (Upkeep, Initiative,
Engagements, discards, defeat), `moves` (legal actions and applying them), `words` (button labels),
`game` (the protocol). Every text a person reads counts cards in play from 1 ("card 1"); actions and
event data keep the 0-based slot.

Readings where the text is silent or loose (house rules are marked, with their default):

- A player's Power is the dice in their pool; the dice they control are the pool plus the
  dice on their cards. Gaining a die beyond ``max_dice`` (house rule, 10) defeats them.
- A roll keeps the highest die and adds 1 for every 1 rolled, so a single 1 counts 2; no dice
  roll 0. Roll-offs re-roll among those still tied, each rolling the tied Power, seats in order;
  after 100 tied roll-offs the lowest seat wins.
- Playing a card puts one die from the pool on it (a card needs a die); further dice go on
  one at a time with ``assign``, to any card you control. The turn ends by itself once the pool
  is empty and the hand has gone to the bottom of the deck, one chosen card at a time (a hand
  of one kind goes at once). A player with 0 Power has no turn and keeps their hand.
- Hurting yourself is allowed once, as the first thing in your turn, even when it defeats you;
  the whole discard pile is shuffled into the deck.
- Hide: the hider and the other card are taken off and placed last on your side facedown,
  in the order you choose, with their dice shared as you choose (each keeps at least one).
- Exerting to Engage or Ambush by removing a die needs a second die: a card that pays its last
  die is discarded and cannot attack. A forced Exert (backlash on a tapped card) takes a die,
  even the last. The backlash on an untapped card is its controller's choice of Tap or die.
- Ambush is open when the Defender is a player or a face-up card; a facedown Defender cannot be
  protected (the author's later note; house rule ``ambush_protects_facedown``, False). Each Ambush
  reopens the window for the other side under the same test. Only the Attacker and Defender of
  the final Engagement are revealed; other ambushers stay facedown.
- Every roll pair follows "unless the Defense Roll was higher, the Defender is Hit", so a tied
  counter-attack Hits the original attacker (house rule ``attacker_wins_ties``, True).
- The discard cost (house rule ``discard_cost``, 1 card) applies however a card leaves play
  for the discard pile; the cards it discards from the deck carry no further cost.
- A defeated player's cards stay where they are but take no further part. The game is a draw
  after ``round_limit`` rounds (house rule, 100) so that every game ends.
- Views hide every facedown card of another player, even one seen face up before it hid;
  `determinize` re-deals from what is public now (face-up cards, discard piles, zone sizes).
"""

from .game import GAME, UnholyWarGame
from .table import DEFAULT_CARDS, DEFAULT_DECK, DEFAULT_HOUSE_RULES, State

__all__ = ["DEFAULT_CARDS", "DEFAULT_DECK", "DEFAULT_HOUSE_RULES", "GAME", "State", "UnholyWarGame"]
