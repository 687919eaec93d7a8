"""Unity's words, each explained from unity.txt: its phases, every action a player can take, the special cards'
powers and the categories of cards."""

from __future__ import annotations

from gamekit.glossary import Term

TEXT = "unity.txt"

HUMAN = ("Righteous Person", "Righteous King", "Twelve Tribes", "Twelve Apostles")
EVIL = ("Demon", "Evil God", "Evil Person", "Evil King", "Evil Attribute")

TERMS: tuple[Term, ...] = (
    Term("Free turn", "phase", "On a Free Turn a player does one of three things: makes an evil attack on the next "
         "player with evil cards, makes an invitation to enter into righteousness with righteous cards, or "
         "celebrates a festival.", TEXT, ("phase:free",)),
    Term("Evil attack", "phase", "The attacked player must use their turn to defeat the attack: with righteous "
         "cards of one category worth more, with a special card, or with evil worth more (then they draw two). If "
         "they can do none of these, they draw until they can.", TEXT, ("phase:attack",)),
    Term("Entering into righteousness", "phase", "Each next player may enter in with cards of a category already "
         "played, or must draw as many cards as righteous cards played so far. The chain ends when a player cannot "
         "play even after drawing, or when everyone has entered in.", TEXT, ("phase:righteousness",)),
    Term("Festival", "phase", "Each player in turn, starting with the one who played the festival card, does what "
         "it says; a player without the proper cards does not take part. Afterwards it is still the turn of the "
         "player who played it.", TEXT, ("phase:festival", "category:Festival")),
    Term("End of the game", "phase", "A player wins by playing all their cards, the final play being two or more "
         "righteous cards together or a single Unity card. A player who runs out of cards without winning draws "
         "two.", TEXT, ("phase:over",)),
    Term("Pick a card", "action", "Choose the cards of your play one at a time, then play them together. Cards "
         "played together must be of one category, unless a card such as Unity, Shofar or Asherah Pole lets you "
         "combine categories.", TEXT, ("action:pick",)),
    Term("Play your picked cards", "action", "Play the cards you picked: on a free turn, evil cards attack the next "
         "player and righteous cards invite everyone into righteousness; against an attack they defeat it; in a "
         "chain they enter into righteousness.", TEXT, ("action:play",)),
    Term("Celebrate a festival", "action", "Play a festival card: each player celebrates it in turn, starting with "
         "you, and it is still your turn afterwards.", TEXT, ("action:festival",)),
    Term("Celebrate", "action", "Do what the festival card says, such as discarding a card of the kind it names.",
         TEXT, ("action:celebrate",)),
    Term("Draw a card", "action", "You cannot defeat the evil attack with righteous cards: draw from the deck, one "
         "card at a time, until you can. While drawing you may also choose to defeat the attack with evil.", TEXT,
         ("action:draw",)),
    Term("Decline", "action", "Do not enter into righteousness: draw as many cards as righteous cards have already "
         "been played. If you draw a card of the right category, you may still enter in.", TEXT,
         ("action:decline",)),
    Term("David", "power", "Defeats the Goliath evil card at once and the attacker draws three cards. Any other evil "
         "card in the attack must still be defeated separately.", TEXT, ("action:david", "power:david")),
    Term("Trinity", "power", "Defeats the attack automatically and the attacker must draw four cards. After "
         "defeating the attack it is still your turn.", TEXT, ("action:trinity", "power:trinity",
                                                               "category:Trinity")),
    Term("God's Judgement", "power", "An Attribute of God card that reverses the evil attack back against the "
         "attacker.", TEXT, ("action:judgement", "power:judgement")),
    Term("God's Glory", "power", "An Attribute of God card that ends the attack by sending the evil cards back into "
         "the attacker's hand.", TEXT, ("action:glory", "power:glory")),
    Term("Angel", "power", "Played with any righteous card, defeats any evil attack; after defeating the attack it "
         "is still your turn. It can enter into righteousness with cards of another category.", TEXT,
         ("action:angel", "power:angel", "category:Angel")),
    Term("Unity card", "power", "Lets you combine righteous cards of different categories, against an attack or to "
         "enter into righteousness. A single Unity card can be your winning final play.", TEXT,
         ("power:unity", "category:Unity")),
    Term("Shofar", "power", "A righteous object card that lets you combine categories when you make an invitation to "
         "enter into righteousness.", TEXT, ("power:shofar",)),
    Term("Asherah Pole", "power", "Lets an evil attack bring in two different categories of evil cards. Played by "
         "itself it is an attack of 0 points, which must still be defeated with at least one righteous card.", TEXT,
         ("power:pole",)),
    Term("Human righteous cards", "term", "Righteous Person, Righteous King, Twelve Tribes and Twelve Apostles "
         "cards. Cards of one category played together against an evil attack add their points: playing in "
         "unity.", TEXT, tuple(f"category:{c}" for c in HUMAN)),
    Term("Righteous Object", "term", "An object such as the Sandals of Peace, played on any righteous character to "
         "add its points to your total.", TEXT, ("category:Righteous Object",)),
    Term("Attribute of God", "term", "Cards that either reverse the evil back against the attacker (God's "
         "Judgement) or end the attack by sending the evil cards back to the attacker's hand (God's Glory).", TEXT,
         ("category:Attribute of God",)),
    Term("Evil cards", "term", "Demon, Evil God, Evil Person, Evil King and Evil Attribute cards. Only evil cards of "
         "one category attack together; the attack's strength is the sum of their points.", TEXT,
         tuple(f"category:{c}" for c in EVIL)),
    Term("Evil Object", "term", "An object such as the Idol, played on any evil character to add its points to the "
         "attack; it may also attack by itself.", TEXT, ("category:Evil Object",)),
    Term("Defeat evil with evil", "term", "Evil cards worth more than the attack, of one category, defeat it too. "
         "The player who does so must draw two cards.", TEXT),
    Term("Not more than needed", "term", "You cannot play more righteous points than are needed to defeat the "
         "attack; a player able to defeat it with righteous cards must do so and may not draw.", TEXT),
)
