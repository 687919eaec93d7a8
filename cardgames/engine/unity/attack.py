"""The evil attack and its answers: in unity, evil fighting evil, David, Trinity, God's Judgement, God's Glory, an
Angel, or drawing one card at a time while no righteous answer is open."""

from __future__ import annotations

from bisect import insort

from cardgames.engine.unity.dealing import draw
from cardgames.engine.unity.deck import EVIL, RIGHTEOUS
from cardgames.engine.unity.sentences import say
from cardgames.engine.unity.state import RESPOND, UnityState
from cardgames.engine.unity.turns import after_play, end_battle, take
from gamekit.events import Event


def attack(s: UnityState, seat: int, cards: list[int], ev: list[Event]) -> None:
    """An evil attack on the next player, who must use their turn to defeat it."""
    take(s, seat, cards)
    s.attack = cards[:]
    s.attacker, s.defender = seat, (seat + 1) % s.n
    s.struck = s.turn = s.defender
    s.phase = RESPOND
    strength = sum(map(s.deck.value.__getitem__, cards))
    say(s, ev, "attack", {"seat": seat, "target": s.defender, "cards": cards, "strength": strength})
    after_play(s, seat, cards, ev)


def defeat_in_unity(s: UnityState, seat: int, cards: list[int], ev: list[Event]) -> None:
    take(s, seat, cards)
    s.discard[RIGHTEOUS] += cards
    say(s, ev, "defeat", {"seat": seat, "cards": cards})
    if not after_play(s, seat, cards, ev):
        end_battle(s, ev, None)


def defeat_with_evil(s: UnityState, seat: int, cards: list[int], ev: list[Event]) -> None:
    """Evil fighting evil: the defender must draw two cards."""
    take(s, seat, cards)
    s.discard[EVIL] += cards
    say(s, ev, "evil_defeat", {"seat": seat, "cards": cards})
    draw(s, seat, 2, ev)
    after_play(s, seat, cards, ev)
    end_battle(s, ev, None)


def david(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """David defeats Goliath and the attacker draws; the rest of the attack still stands."""
    c = action[1]
    d = s.deck
    giant = next(x for x in s.attack if d.name[x] == d.targets[c])
    take(s, seat, [c])
    s.attack.remove(giant)
    s.discard[RIGHTEOUS].append(c)
    s.discard[EVIL].append(giant)
    say(s, ev, "david", {"seat": seat, "cards": [c, giant]})
    draw(s, s.attacker, d.draws[c], ev)
    if not after_play(s, seat, [c], ev) and not s.attack:
        end_battle(s, ev, None)


def trinity(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """Trinity defeats the attack, the attacker draws, and it is still the defender's turn."""
    c = action[1]
    take(s, seat, [c])
    s.discard[RIGHTEOUS].append(c)
    say(s, ev, "trinity", {"seat": seat, "card": c})
    draw(s, s.attacker, s.deck.draws[c], ev)
    if not after_play(s, seat, [c], ev):
        end_battle(s, ev, seat)


def judgement(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """God's Judgement turns the attack back: the attacker must now defeat it."""
    c = action[1]
    take(s, seat, [c])
    s.discard[RIGHTEOUS].append(c)
    s.attacker, s.defender = seat, s.attacker
    s.turn = s.defender
    say(s, ev, "judgement", {"seat": seat, "card": c})
    after_play(s, seat, [c], ev)


def glory(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """God's Glory ends the attack; the evil cards go back into the attacker's hand."""
    c = action[1]
    take(s, seat, [c])
    s.discard[RIGHTEOUS].append(c)
    back, s.attack = s.attack, []
    for x in back:
        insort(s.hands[s.attacker], x)
        s.shown[x] = 1
    say(s, ev, "glory", {"seat": seat, "card": c, "cards": back})
    if not after_play(s, seat, [c], ev):
        end_battle(s, ev, None)


def angel(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """An Angel with any righteous card defeats any attack; it is still the defender's turn."""
    cards = sorted(action[1:])
    take(s, seat, cards)
    s.discard[RIGHTEOUS] += cards
    say(s, ev, "angel", {"seat": seat, "cards": cards})
    if not after_play(s, seat, cards, ev):
        end_battle(s, ev, seat)


def draw_one(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """Unable to defeat the attack with righteousness, the defender draws one card at a time."""
    draw(s, seat, 1, ev)
