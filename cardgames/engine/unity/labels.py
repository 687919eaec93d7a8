"""Unity in words, those of shared/rules/unity.txt: button labels for the actions, naming the cards, and the
terms the log is told in (cards listed by name, counted as cards, a card with its category and points).

``GAME.describe_action(state, action)`` labels one of the mover's legal actions ("Pick David (Righteous
Person, 4 points)", "Answer with Trinity: the attacker draws 4 cards", "Decline: draw 4 cards"); any other
action raises the RuleError `apply` would. The web layout shows these labels as they are. The log's sentences
(`sentences`) are told with these words.
"""

from __future__ import annotations

from typing import Any

from cardgames.engine.unity import plays
from cardgames.engine.unity.deck import EVIL, RIGHTEOUS, Deck
from cardgames.engine.unity.refusals import refusal
from cardgames.engine.unity.state import FREE, RESPOND, UnityState
from gamekit.protocol import as_action
from gamekit.words import and_list, plural


def describe(s: UnityState, action: Any, legal: list[tuple]) -> str:
    """The label of `action` (a tuple or its JSON list), which must be one of `legal`, the mover's actions."""
    action = as_action(action)
    if action not in legal:
        raise refusal(s, action)
    action = legal[legal.index(action)]  # the engine's own form: ints, not 3.0 or True
    d, kind = s.deck, action[0]
    if kind == "play":
        return _play(s, d)
    if kind == "draw":
        return "Draw a card"
    if kind == "decline":
        return f"Decline: draw {card_count(s.chain_count)}"
    c = action[1]
    if kind == "pick":
        return f"Add {_mine(s, c)} to your play" if s.sel else f"Pick {_mine(s, c)}"
    if kind == "festival":
        return f"Celebrate {_mine(s, c, face=False)}: {_festival(d, c)}"
    if kind == "celebrate":
        return f"Discard {_mine(s, c)} for {d.name[s.fest]}"
    if kind == "angel":
        return (f"Answer with {_mine(s, c, face=False)} and {_mine(s, action[2])}: defeat the attack, "
                "and it is still your turn")
    answer = f"Answer with {_mine(s, c, face=False)}"
    attacker = s.players[s.attacker]
    if kind == "david":
        return f"{answer}: defeat {d.targets[c]}, and the attacker draws {card_count(d.draws[c])}"
    if kind == "trinity":
        return f"{answer}: the attacker draws {card_count(d.draws[c])}"
    if kind == "judgement":
        return f"{answer}: turn the attack back on {attacker}"
    return f"{answer}: the evil cards go back to {attacker}'s hand"  # glory


def card(d: Deck, c: int) -> str:
    """A card as a label names it: its name, category and points."""
    return f"{d.name[c]} ({d.categories[d.cat[c]]}, {d.value[c]} {'point' if d.value[c] == 1 else 'points'})"


def card_list(d: Deck, cards: list[int]) -> str:
    """Cards by name, as a sentence lists them: 'Moses', 'Moses and Ruth', 'Moses, Ruth and Esther'."""
    return and_list([d.name[c] for c in cards])


def _mine(s: UnityState, c: int, *, face: bool = True) -> str:
    """A card of the mover's hand; "another Unity" when a copy before it is in the hand too (then both
    may be offered: copies give one action only when no copy between them is missing)."""
    d = s.deck
    name = card(d, c) if face else d.name[c]
    if d.twin[c] and any(x < c and d.name[x] == d.name[c] for x in s.hands[s.turn]):
        return f"another {name}"
    return name


def card_count(n: int) -> str:
    """'1 card', '3 cards'."""
    return plural(n, "card")


def _play(s: UnityState, d: Deck) -> str:
    """Playing the picked cards: what the play is depends on the phase and the side of the cards."""
    n = len(s.sel)
    head = f"Play your {n} picked cards" if n > 1 else "Play your picked card"
    evil = d.side[s.sel[0]] == EVIL
    if s.phase == FREE and evil:
        total = plays.evil_shape(d, s.sel)[2]
        return f"{head}: make an evil attack on {s.players[(s.turn + 1) % s.n]} ({total} points)"
    if s.phase == FREE:
        return f"{head}: make an invitation to enter into righteousness"
    if s.phase == RESPOND:
        beat = sum(d.value[c] for c in s.attack)
        if evil:
            return (f"{head}: defeat evil with evil ({plays.evil_shape(d, s.sel)[2]} points against {beat}), "
                    "then draw 2 cards")
        return f"{head}: defeat the attack ({plays.unity_shape(d, s.sel)[0]} points against {beat})"
    return f"{head}: enter into righteousness"


def _festival(d: Deck, c: int) -> str:
    """What each player does for festival card `c`, from its deck data."""
    festival = d.festival[c]
    if festival is None:  # a festival card whose deck data gives no effect: what is written on it
        return d.text[c] or "no effect written down"
    each, cats, count = festival
    if each != "discard":
        return f"each player draws {card_count(count)} from the righteous discard pile"
    for side, word in ((RIGHTEOUS, "righteous"), (EVIL, "evil")):
        if cats == {d.cat[x] for x in range(d.ncards) if d.side[x] == side}:
            return f"each player discards one {word} card"
    return f"each player discards one {' or '.join(d.categories[k] for k in sorted(cats))} card"
