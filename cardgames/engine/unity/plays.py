"""Which sets of cards make a legal play, and whether a partial selection can still become one.

A play is picked card by card in id order (strongest first, see `deck`). `*_picks` lists
the cards that may be picked next: those after the selection whose pick can still be
completed into a legal play from the cards left after them in the hand; `*_valid` says
whether the picked set is a legal play now. Hands and selections are ascending lists of card ids.
"""

from __future__ import annotations

from cardgames.engine.unity.deck import (
    COMBINE,
    E_OBJECT,
    EVIL,
    HUMAN,
    POINTS,
    POLE,
    R_OBJECT,
    RIGHTEOUS,
    UNITY,
    WILD,
    Deck,
)

# --- evil: an attack, or evil fighting evil -------------------------------------------------

def evil_shape(d: Deck, cards: list[int]) -> tuple[int, int, int]:
    """(category mask of the evil characters, Asherah Poles, points)."""
    mask = poles = total = 0
    for c in cards:
        f = d.flags[c]
        if f & E_OBJECT:
            poles += bool(f & POLE)
        else:
            mask |= 1 << d.cat[c]
        total += d.value[c]
    return mask, poles, total


def evil_valid(d: Deck, sel: list[int], beat: int) -> bool:
    """One evil category plus evil objects; each Asherah Pole lets in one more category.
    Against an attack (`beat` >= 0) the points must exceed it."""
    mask, poles, total = evil_shape(d, sel)
    return bool(sel) and mask.bit_count() <= 1 + poles and total > beat


def evil_picks(d: Deck, hand: list[int], sel: list[int], beat: int) -> list[int]:
    """The evil cards after the selection that can still complete an evil play beating `beat`
    (-1: an attack, any points)."""
    mask, poles, total = evil_shape(d, sel)
    last = sel[-1] if sel else -1
    cards = [x for x in hand if x > last and d.side[x] == EVIL]
    flags, cat, value = d.flags, d.cat, d.value
    if total + sum(map(value.__getitem__, cards)) <= beat:
        return []
    out = []
    poles_after = sum(1 for x in cards if flags[x] & POLE)
    for i, c in enumerate(cards):
        f = flags[c]
        if f & POLE:
            poles_after -= 1
        m = mask if f & E_OBJECT else mask | 1 << cat[c]
        spare = 1 + poles + (1 if f & POLE else 0) + poles_after - m.bit_count()
        if spare < 0:
            continue
        best = total + value[c]
        if best <= beat:
            others: dict[int, int] = {}
            for x in cards[i + 1:]:
                if flags[x] & E_OBJECT or m >> cat[x] & 1:
                    best += value[x]
                else:
                    others[cat[x]] = others.get(cat[x], 0) + value[x]
            best += sum(sorted(others.values(), reverse=True)[:spare])
            if best <= beat:
                continue
        out.append(c)
    return out


# --- righteous in unity: defeating an attack with points --------------------------------------

def unity_shape(d: Deck, cards: list[int]) -> tuple[int, int, bool, bool]:
    """(points, category mask of the human cards, holds a human card, holds a Unity card)."""
    total = mask = 0
    human = unity = False
    for c in cards:
        f = d.flags[c]
        total += d.value[c] if f & POINTS else 0
        if f & HUMAN:
            mask |= 1 << d.cat[c]
            human = True
        unity = unity or bool(f & UNITY)
    return total, mask, human, unity


def unity_valid(d: Deck, sel: list[int], beat: int) -> bool:
    """Human righteous cards of one category (any categories with a Unity card), plus righteous
    objects, with more points than the attack and no card more than needed."""
    total, mask, human, unity = unity_shape(d, sel)
    return human and total > beat and (mask.bit_count() <= 1 or unity)


def _reach(d: Deck, pool: list[int], room: int, need_human: bool) -> bool:
    """Is there a pick from `pool` (descending points) that ends beyond `room` more points while
    every earlier pick stays within it, holding a human card if `need_human`? Without that
    condition, picking every card in order crosses `room` exactly when their sum does."""
    if not need_human:
        return sum(map(d.value.__getitem__, pool)) > room
    full = (1 << (room + 1)) - 1
    with_h, without_h = (0, 1) if need_human else (1, 0)
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


def unity_picks(d: Deck, hand: list[int], sel: list[int], beat: int) -> list[int]:
    """The righteous cards after the selection that can still complete a play in unity beating
    `beat` with no card more than needed. Points go down as picks go on, so the last pick is
    the smallest: a points card may be picked only while the total does not beat the attack."""
    total, mask, human, unity = unity_shape(d, sel)
    last = sel[-1] if sel else -1
    flags, cat, value = d.flags, d.cat, d.value
    if total > beat:
        if unity or not human:
            return []
        return [x for x in hand if x > last and flags[x] & UNITY]
    pool = [x for x in hand if x > last and flags[x] & POINTS]
    if total + sum(map(value.__getitem__, pool)) <= beat:
        return []
    unity_left = any(map(UNITY.__and__, map(flags.__getitem__, hand)))
    out = []
    for i, c in enumerate(pool):
        t = total + value[c]
        m, h = (mask | 1 << cat[c], True) if flags[c] & HUMAN else (mask, human)
        if m.bit_count() > 1 and not unity_left:
            continue
        if t > beat:
            if h:
                out.append(c)
            continue
        rest = pool[i + 1:]
        if unity_left:
            ok = _reach(d, rest, beat - t, not h)
        elif h:
            ok = _reach(d, [x for x in rest if flags[x] & R_OBJECT or m >> cat[x] & 1], beat - t, False)
        else:
            ok = any(_reach(d, [x for x in rest if flags[x] & R_OBJECT or cat[x] == k], beat - t, True)
                     for k in {cat[x] for x in rest if flags[x] & HUMAN})
        if ok:
            out.append(c)
    return out


# --- righteousness: an invitation, or entering into it ---------------------------------------

def right_shape(d: Deck, cards: list[int], chain: int) -> tuple[int, bool, bool]:
    """(category mask of the non-wild cards, holds a combining card, matches the chain)."""
    mask = 0
    comb = match = False
    for c in cards:
        f = d.flags[c]
        comb = comb or bool(f & COMBINE)
        if f & WILD:
            match = True
        else:
            mask |= 1 << d.cat[c]
            match = match or bool(chain >> d.cat[c] & 1)
    return mask, comb, match


def right_valid(d: Deck, sel: list[int], chain: int) -> bool:
    """An invitation (`chain` 0): righteous cards of one category (wild cards go with any), or of
    several with a Unity card or the Shofar. An entry: cards of one category already played (or
    wild cards); with Unity or the Shofar any categories, so long as one card matches or is wild."""
    mask, comb, match = right_shape(d, sel, chain)
    if not sel:
        return False
    if chain == 0:
        return comb or mask.bit_count() <= 1
    return match if comb else mask.bit_count() <= 1 and not mask & ~chain


def right_picks(d: Deck, hand: list[int], sel: list[int], chain: int) -> list[int]:
    """The righteous cards after the selection that can still complete an invitation (`chain` 0)
    or an entry into righteousness."""
    mask, comb, match = right_shape(d, sel, chain)
    last = sel[-1] if sel else -1
    flags, cat = d.flags, d.cat
    cards = [x for x in hand if x > last and d.side[x] == RIGHTEOUS]
    comb_at = wild_at = match_at = -1     # the last combining, wild and matching card of the hand
    for x in cards:
        if flags[x] & COMBINE:
            comb_at = x
        if flags[x] & WILD:
            wild_at = x
        elif chain >> cat[x] & 1:
            match_at = x
    out = []
    for c in cards:
        f = flags[c]
        m = mask if f & WILD else mask | 1 << cat[c]
        if chain == 0:
            ok = m.bit_count() <= 1 or comb or comb_at >= c
        elif not comb and not f & COMBINE and m.bit_count() <= 1 and not m & ~chain:
            ok = True
        else:
            ok = (comb or comb_at >= c) and (match or bool(f & WILD) or bool(chain >> cat[c] & 1)
                                             or wild_at > c or match_at > c)
        if ok:
            out.append(c)
    return out
