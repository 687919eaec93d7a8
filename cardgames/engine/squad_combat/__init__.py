"""Squad Combat: the pure engine (shared/rules/squad-combat.txt, as RULINGS.md reads it).

Each player controls three characters (Life, Energy, dice pool, dice refresh cost, traits)
and a deck of action, attack and edge cards. The last side with characters alive wins.
The card set is data (`cards.py`, default in ``cardgames/engine/data/squad_combat_default.json``);
the rules are in `rules.py`, the state in `state.py`, the game protocol in `game.py`, and
the words (a card's public facts, characters named for a viewer, button labels) in `labels.py`.

Config (all optional): ``set`` (a whole card-set dict), ``squad`` (three character keys, for every
seat) or ``squads`` (one per seat), ``deck`` (``{card key: count}`` or a list of keys, for every
seat) or ``decks`` (one per seat), ``verbose`` (readable event text, default on) and the house
rules, with their defaults:

- ``hand_size`` 5: the opening hand and the end-of-turn draw.
- ``end_discards`` 2: cards a player may discard at the end of the turn.
- ``max_turns`` 40: after this many turns the game ends as a draw (scores are life left).
- ``reshuffle`` True: at the end-of-turn draw an empty deck is refilled from the shuffled
  discard pile.
- ``rotate_first_player`` False: the first player stays the same every turn.

Readings where the text is silent or loose (a careful referee's; RULINGS.md decides the rest):

- Declining to spend the attack or defence die counts as a die of 0; ties hit (RULINGS).
- Two or more players (up to six); turn order is seat order from the first player, drawn
  at random at setup. Any other side's character is an enemy.
- Setup order of chance: each deck is shuffled (seat order), hands drawn, then every
  character's dice are rolled seat by seat, left to right, then the first player is drawn.
- An action phase is one action: play an action or attack card, or refresh a character's
  dice (the action printed on every character card), or pass. A passed player gets no more
  action phases this turn; when every player has passed the turn ends.
- Edges: ``when`` is ``any`` (during your own action phase without using it, or in an attack
  you are part of), ``attack`` (only the attacking side, during the modifier step) or
  ``defence`` (only the defending side). The modifier step (rule step 4) starts with the
  attacker; each edge hands the initiative to the other side and two ``done`` in a row end
  it. So a player who has passed can still play edges when attacked.
- Every card is performed by one of your living characters that shares a trait with it and
  can pay it, including edges; an edge's own effect (draw, energy, dice) is that character's.
- Costs are paid on announcement: energy, then dice, then the card cost by choosing cards to
  discard one at a time. The card being played does not count toward its own card cost.
- A dice cost is paid automatically, each minimum (highest first) with the smallest die that
  meets it; no other payment leaves the character better dice, so it is no real choice.
- Refreshing (and any effect that rolls dice) keeps the highest dice up to the dice pool, for
  the same reason. The refresh cost is at least 1 energy, so every turn ends.
- A hit puts the attack card under the defender as a wound; damage is the sum of those cards.
  When damage reaches life the character is removed and the wound cards go to their owners'
  discard piles. Healing removes the most recent wound card to its owner's discard pile.
- The text does not say what happens when a deck runs out: a draw during a turn from an empty
  deck draws nothing; the end-of-turn draw reshuffles the discard pile (house rule).
- End of turn: spent energy is cleared; then, from the first player in turn order, each
  player discards up to two cards (one ``discard`` at a time, then ``done``) and draws up to
  the hand size.
"""

from .game import GAME, SquadCombatGame

__all__ = ["GAME", "SquadCombatGame"]
