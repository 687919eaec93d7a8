"""Unity, the shedding card game of shared/rules/unity.txt, as a pure engine (`GAME`).

Config (plain data, all optional): ``deck`` (deck data in the form of data/unity_deck.json,
default that file), ``deck_order`` (card ids top first instead of a shuffle, for tests and
tables; `stacked_order` builds one from card names), and the house rules of
`state.HOUSE_RULES`: ``hand_size`` (8), ``max_turns`` (2000), ``verbose`` (event text on).
``GAME.quiet`` plays the same rules without event text.

Readings of the text (a careful referee's):

- Seats go clockwise 0, 1, ...; "the next player", "your left" is the next seat. The dealer is
  the last seat, so seat 0 plays first. Every action is one seat's.
- Categories: the eight righteous categories of the text plus Angel, which Section 2 lists
  beside them. Human righteous cards are Righteous Person, King, Twelve Tribes and Twelve
  Apostles. Card values, the card list and the festival effects are data
  (``data/unity_deck.json``); the seven festivals are Passover, Unleavened Bread,
  Firstfruits, Weeks, Trumpets, Day of Atonement and Tabernacles.
- A play is built card by card (``pick``) in hand order (highest value first) and then
  played; picks offer only cards that can still complete a legal play, so no selection is a
  dead end. Copies of one card give one action.
- Evil attack: evil cards of one category plus any evil objects (objects alone are an
  attack); each Asherah Pole lets in one more category. Evil Attribute is a category like
  the evil characters.
- In unity: human cards of one category (several categories only with a Unity card), plus
  righteous objects (only with at least one human card); "no more points than necessary"
  means no card could be left out: the total minus its smallest card does not beat the
  attack. Unity cards add no points.
- "Unable to defeat with righteousness" counts every righteous answer: in unity, David
  against Goliath, Trinity, God's Judgement, God's Glory, an Angel with one other righteous
  card. Only then may the defender draw, one card at a time; evil fighting evil is always
  open and costs two cards (drawn after the play).
- David defeats Goliath only; the attacker draws 3; the rest of the attack, if any, is still
  answered by the same defender. God's Judgement swaps attacker and defender (it may be
  turned back again); God's Glory returns the evil cards to the attacker's hand, where every
  player saw them go. Trinity (attacker draws 4) and Angel give the defender a free turn;
  otherwise the free turn after a battle goes to the player after the one first attacked.
- An attack that cannot be defeated when no card is left to draw (pile and discards empty)
  lapses (house rule; the text does not say).
- Righteousness: an invitation is righteous cards of one category (any righteous category,
  including Attribute of God and Unity); Unity and the Shofar combine categories; Unity and
  Angels are wild ("can be used to enter ... with cards of another category": they go with
  cards of any one category and are not a category of their own when combining). An entry
  is cards of one category already played in the chain (wild cards may join or enter
  alone); with Unity or the Shofar it may mix categories, new ones included, so long as one
  card matches or is wild. A player who declines (or cannot enter) draws one card per
  righteous card played so far and must then enter if able (with any matching cards); if
  unable the chain is broken and the next player has the free turn. When every player has
  entered, the player whose entry (or invitation) had the most cards, the later on a tie,
  has it.
- Winning: a play that empties the hand wins if it holds two or more righteous cards or a
  Unity card (invitation, entry, defeat in unity, Angel pair); any other emptying play (an
  attack, evil fighting evil, a single righteous card, a festival card or a festival
  discard) draws two at once. A player whose owed cards could not be drawn draws them at
  the start of their next free turn.
- Festivals: the player of the card celebrates first, then each player in turn; a player
  without the card(s) the festival asks for does not take part; the player of the card then
  has another free turn. Cards drawn from the righteous discard pile come from its bottom
  (the pile turned over) and every player sees them.
- Reshuffle: when the draw pile is empty the three discard piles are shuffled into a new
  pile; cards on the table (the evil attack being answered) stay there.
- Secrets: hands, the pile's order and a play being picked are seen only by their holder;
  the discard piles are face up and shown in full.
- Turn limit (house rule ``max_turns``, default 2000 free turns): the game ends with no
  winner, so every game ends.
"""

from cardgames.engine.unity.deck import stacked_order
from cardgames.engine.unity.game import GAME, UnityGame
from cardgames.engine.unity.state import HOUSE_RULES, UnityState

__all__ = ["GAME", "HOUSE_RULES", "UnityGame", "UnityState", "stacked_order"]
