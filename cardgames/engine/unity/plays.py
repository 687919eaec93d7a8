"""Which sets of cards make a legal play, and whether a partial selection can still become one.

A play is picked card by card in id order (strongest first, see `deck`). `*_picks` lists
the cards that may be picked next: those after the selection whose pick can still be
completed into a legal play from the cards left after them in the hand; `*_valid` says
whether the picked set is a legal play now. Hands and selections are ascending lists of card ids.
Both take the selection's `*_shape` when the caller has weighed it already (`legal` weighs it once for both).
"""

from __future__ import annotations

from bisect import bisect_right

from cardgames.engine.unity.deck import (
    COMBINE,
    E_OBJECT,
    HUMAN,
    POINTS,
    POLE,
    R_OBJECT,
    UNITY,
    WILD,
    Deck,
)


def following(hand: list[int], sel: list[int], kind: frozenset[int]) -> list[int]:
    """The cards of `kind` in `hand` after the selection's last card (hands are ascending): a slice and a filter
    run in C, where testing each card in Python cost the engine a tenth of its time."""
    return list(filter(kind.__contains__, hand[bisect_right(hand, sel[-1]):] if sel else hand))


# --- evil: an attack, or evil fighting evil -------------------------------------------------

def evil_shape(d: Deck, cards: list[int]) -> tuple[int, int, int]:
    """(category mask of the evil characters, Asherah Poles, points)."""
    mask = poles = total = 0
    flags, bit, value = d.flags, d.bit, d.value
    for c in cards:
        f = flags[c]
        if not f & E_OBJECT:
            mask |= bit[c]
        elif f & POLE:
            poles += 1
        total += value[c]
    return mask, poles, total


def evil_valid(d: Deck, sel: list[int], beat: int, shape: tuple[int, int, int] | None = None) -> bool:
    """One evil category plus evil objects; each Asherah Pole lets in one more category.
    Against an attack (`beat` >= 0) the points must exceed it."""
    mask, poles, total = shape or evil_shape(d, sel)
    return bool(sel) and mask.bit_count() <= 1 + poles and total > beat


def evil_picks(d: Deck, hand: list[int], sel: list[int], beat: int,
               shape: tuple[int, int, int] | None = None) -> list[int]:
    """The evil cards after the selection that can still complete an evil play beating `beat`
    (-1: an attack, any points). Cards are weighed from the last one back, so what may follow
    a card (poles, objects, points per category) is summed once; the best completion is weighed
    only when all the cards after it could beat `beat` and some category might have to be left out."""
    mask, poles, total = shape or (evil_shape(d, sel) if sel else (0, 0, 0))
    flags, bit, cat, value = d.flags, d.bit, d.cat, d.value
    cards = following(hand, sel, d.evils)
    if total + sum(map(value.__getitem__, cards)) <= beat:
        return []
    out = []
    poles_after = objects_after = rest = 0   # rest: the points of every card after the card
    after: dict[int, int] = {}       # points of the evil characters after the card, by category
    for c in reversed(cards):
        f, v = flags[c], value[c]
        pole = 1 if f & POLE else 0
        m = mask if f & E_OBJECT else mask | bit[c]
        spare = 1 + poles + pole + poles_after - m.bit_count()
        t = total + v
        if spare >= 0 and (t > beat or (t + rest > beat and (
                len(after) <= spare or t + _evil_rest(after, m, objects_after, spare) > beat))):
            out.append(c)
        rest += v
        poles_after += pole
        if f & E_OBJECT:
            objects_after += v
        else:
            after[cat[c]] = after.get(cat[c], 0) + v
    out.reverse()
    return out


def _evil_rest(after: dict[int, int], mask: int, objects: int, spare: int) -> int:
    """The most points the cards after a pick can add: every object, every card of the play's
    categories (`mask`), and the `spare` best other categories."""
    best, others = objects, []
    for k, v in after.items():
        if mask >> k & 1:
            best += v
        else:
            others.append(v)
    if spare and others:
        others.sort(reverse=True)
        best += sum(others[:spare])
    return best


# --- righteous in unity: defeating an attack with points --------------------------------------

def unity_shape(d: Deck, cards: list[int]) -> tuple[int, int, bool, bool]:
    """(points, category mask of the human cards, holds a human card, holds a Unity card)."""
    total = mask = 0
    human = unity = False
    flags, bit, value = d.flags, d.bit, d.value
    for c in cards:
        f = flags[c]
        if f & POINTS:
            total += value[c]
        if f & HUMAN:
            mask |= bit[c]
            human = True
        if f & UNITY:
            unity = True
    return total, mask, human, unity


def unity_valid(d: Deck, sel: list[int], beat: int, shape: tuple[int, int, bool, bool] | None = None) -> bool:
    """Human righteous cards of one category (any categories with a Unity card), plus righteous
    objects, with more points than the attack and no card more than needed."""
    total, mask, human, unity = shape or unity_shape(d, sel)
    return human and total > beat and (mask.bit_count() <= 1 or unity)


def _reach(d: Deck, pool: list[int], room: int) -> bool:
    """Is there a pick from `pool` (descending points) holding a human card that ends beyond
    `room` more points while every earlier pick stays within it? (Without the human card,
    picking every card in order crosses `room` exactly when their sum does.)"""
    full = (1 << (room + 1)) - 1
    with_h, without_h = 0, 1
    for x in pool:
        v = d.value[x]
        window = full >> max(0, room - v + 1) << max(0, room - v + 1)
        human = d.flags[x] & HUMAN
        if with_h & window or (human and without_h & window):
            return True
        if human:
            with_h = (with_h | (with_h << v) | (without_h << v)) & full
        else:
            with_h = (with_h | (with_h << v)) & full
            without_h = (without_h | (without_h << v)) & full
    return False


def unity_picks(d: Deck, hand: list[int], sel: list[int], beat: int,
                shape: tuple[int, int, bool, bool] | None = None) -> list[int]:
    """The righteous cards after the selection that can still complete a play in unity beating
    `beat` with no card more than needed. Points go down as picks go on, so the last pick is
    the smallest: a points card may be picked only while the total does not beat the attack.
    Cards are weighed from the last one back, summing the points that may follow each once."""
    total, mask, human, unity = shape or (unity_shape(d, sel) if sel else (0, 0, False, False))
    flags, bit, value = d.flags, d.bit, d.value
    if total > beat:
        if unity or not human:
            return []
        return following(hand, sel, d.unities)
    pool = following(hand, sel, d.points)
    if total + sum(map(value.__getitem__, pool)) <= beat:
        return []
    unity_left = not d.unities.isdisjoint(hand)
    out = []
    after = objects = 0           # points of the cards after c; of the objects among them
    humans: dict[int, int] = {}   # points of the other cards after c, by category bit
    for i in range(len(pool) - 1, -1, -1):
        c = pool[i]
        f, v = flags[c], value[c]
        t = total + v
        m, h = (mask | bit[c], True) if f & HUMAN else (mask, human)
        if m & (m - 1) and not unity_left:      # a second category needs a Unity card
            ok = False
        elif t > beat:
            ok = h
        elif t + after <= beat:                 # even every card after it falls short
            ok = False
        elif h:                                 # then any card may come last: one category's worth
            ok = (after if unity_left else objects + humans.get(m, 0)) > beat - t
        elif unity_left:
            ok = _reach(d, pool[i + 1:], beat - t)
        else:
            rest = pool[i + 1:]
            ok = any(_reach(d, [x for x in rest if flags[x] & R_OBJECT or bit[x] == k], beat - t)
                     for k in {bit[x] for x in rest if flags[x] & HUMAN})
        if ok:
            out.append(c)
        after += v
        if f & R_OBJECT:
            objects += v
        else:
            humans[bit[c]] = humans.get(bit[c], 0) + v
    out.reverse()
    return out


# --- righteousness: an invitation, or entering into it ---------------------------------------

def right_shape(d: Deck, cards: list[int], chain: int) -> tuple[int, bool, bool]:
    """(category mask of the non-wild cards, holds a combining card, matches the chain)."""
    mask = 0
    comb = match = False
    flags, bit = d.flags, d.bit
    for c in cards:
        f = flags[c]
        if f & COMBINE:
            comb = True
        if f & WILD:
            match = True
        else:
            mask |= bit[c]
            if chain & bit[c]:
                match = True
    return mask, comb, match


def right_valid(d: Deck, sel: list[int], chain: int, shape: tuple[int, bool, bool] | None = None) -> bool:
    """An invitation (`chain` 0): righteous cards of one category (wild cards go with any), or of
    several with a Unity card or the Shofar. An entry: cards of one category already played (or
    wild cards); with Unity or the Shofar any categories, so long as one card matches or is wild."""
    mask, comb, match = shape or right_shape(d, sel, chain)
    if not sel:
        return False
    if chain == 0:
        return comb or mask.bit_count() <= 1
    return match if comb else mask.bit_count() <= 1 and not mask & ~chain


def right_picks(d: Deck, hand: list[int], sel: list[int], chain: int,
                shape: tuple[int, bool, bool] | None = None) -> list[int]:
    """The righteous cards after the selection that can still complete an invitation (`chain` 0)
    or an entry into righteousness."""
    mask, comb, match = shape or (right_shape(d, sel, chain) if sel else (0, False, False))
    cards = following(hand, sel, d.righteous)
    if comb or not d.combining.isdisjoint(cards):
        return _combined_picks(d, cards, mask, match, chain, comb)
    # no combining: one category, of the chain when entering; wild cards go with it
    if mask & (mask - 1) or (chain and mask & ~chain):
        return []
    allowed, joins = mask or chain or -1, d.joins
    return [x for x in cards if joins[x] & allowed]


def _combined_picks(d: Deck, cards: list[int], mask: int, match: bool, chain: int, comb: bool) -> list[int]:
    """`right_picks` when a combining card is picked (`comb`) or among `cards`. Cards are weighed
    from the last one back, so whether a combining, wild or matching card may follow is known."""
    flags, bit = d.flags, d.bit
    out = []
    # a combining card from this one on; a wild card, a matching card after this one
    comb_from = wild_after = match_after = False
    for c in reversed(cards):
        f, b = flags[c], bit[c]
        m = mask if f & WILD else mask | b
        one = not m & (m - 1)              # at most one category
        if f & COMBINE:
            comb_from = True
        if chain == 0:
            ok = one or comb or comb_from
        elif not comb and not f & COMBINE and one and not m & ~chain:
            ok = True
        else:
            ok = (comb or comb_from) and bool(match or f & WILD or chain & b or wild_after or match_after)
        if ok:
            out.append(c)
        if f & WILD:
            wild_after = True
        elif chain & b:
            match_after = True
    out.reverse()
    return out
