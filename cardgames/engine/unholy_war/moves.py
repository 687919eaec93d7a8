"""The actions a player may take, and applying them.

Strategy Phase: ``("hurt",)``, ``("play", kind, "up"|"down")``, ``("assign", slot)``,
``("bottom", kind)``. Command Phase: ``("pass", slot)``,
``("hide", slot, other, hider_dice, hider_first)`` (``other`` -1: hide alone),
``("engage", slot, "tap"|"die", seat, target)`` (``target`` -1: the player).
Ambush window: ``("ambush", slot, "tap"|"die")``, ``("decline",)``. Backlash: ``("exert", "tap"|"die")``.
"""

from __future__ import annotations

from collections.abc import Callable

from gamekit.errors import RuleError
from gamekit.events import EVERYONE, Event
from gamekit.words import and_list, plural

from . import flow
from .table import AMBUSH, COMMAND, DICE, KIND, OVER, PHASES, STRATEGY, TAPPED, UP, State, card_no, card_ref, target_ref

Ev = list[Event] | None
PAYS = ("tap", "die")


def legal_actions(st: State, seat: int) -> list[tuple]:
    """Every legal action of `seat`, in a stable order (none unless it is their move)."""
    phase = st.phase
    if phase == OVER or seat != st.cur:
        return []
    if phase == STRATEGY:
        return _strategy_actions(st, seat)
    if phase == COMMAND:
        return _command_actions(st, seat)
    if phase == AMBUSH:
        eng = st.eng
        if eng is None:  # the Ambush window is only open during an Engagement
            return []
        skip = eng[3]
        acts: list[tuple] = []
        for i, (_, dice, up, tapped) in enumerate(st.field[seat]):
            if up or i == skip:
                continue
            if not tapped:
                acts.append(("ambush", i, "tap"))
            if dice >= 2:
                acts.append(("ambush", i, "die"))
        acts.append(("decline",))
        return acts
    return [("exert", "tap"), ("exert", "die")]


def _strategy_actions(st: State, seat: int) -> list[tuple]:
    """Return the hand once the pool is empty; else hurt (first thing only), play each kind held
    face up or down, or assign a die to each card."""
    kinds = tuple(sorted(set(st.hand[seat])))
    return list(_SHAPES[_strategy, st.pool[seat] == 0, st.fresh, kinds, len(st.field[seat])])


def _strategy(empty: bool, fresh: bool, kinds: tuple[int, ...], cards: int) -> list[tuple]:
    if empty:
        return [("bottom", k) for k in kinds]
    acts: list[tuple] = [("hurt",)] if fresh else []
    for k in kinds:
        acts.append(("play", k, "up"))
        acts.append(("play", k, "down"))
    return acts + [("assign", i) for i in range(cards)]


CACHE_LIMIT = 100_000
"""Shapes cached before the cache starts afresh (bounds memory)."""


class _Shapes(dict):
    """Action tuples built once per shape, keyed ``(builder, *its arguments)`` (the shapes that recur are few); a
    plain lookup on a hit, the builder on a miss. Kept as tuples, not lists: the garbage collector stops looking
    into a tuple of plain values, and it went through every cached list again and again."""

    def __missing__(self, key: tuple) -> tuple[tuple, ...]:
        if len(self) >= CACHE_LIMIT:
            self.clear()
        built = self[key] = tuple(key[0](*key[1:]))
        return built


_SHAPES = _Shapes()


def _command_actions(st: State, seat: int) -> list[tuple]:
    """The face-up, untapped cards with the Power that has Initiative act: pass, hide (alone or with
    a facedown untapped card, the dice shared each way), or engage (Tap, or a die if two or more)."""
    power = st.init_power
    actors, hideable = [], []
    for i, (_, dice, up, tapped) in enumerate(st.field[seat]):
        if tapped:
            continue
        if not up:
            hideable.append((i, dice))
        elif dice == power:
            actors.append(i)
    sizes = _targets(st, seat)
    acts: list[tuple] = []
    for i in actors:
        acts.append(("pass", i))
        acts.append(("hide", i, -1, power, 1))
        for o, dice in hideable:
            acts += _SHAPES[_hides, i, o, power + dice]
        acts += _SHAPES[_engages, i, power >= 2, sizes]
    return acts


def _targets(st: State, seat: int) -> tuple[int, ...]:
    """How many cards each player may be engaged at: -1 for the mover and for a defeated player (their cards
    cannot be engaged). The mover's own count is left out so that the Engage actions cached for a table come
    up again whatever the mover holds: with four players a table of counts is otherwise new too often."""
    field = st.field
    if True in st.out:
        return tuple(-1 if out or s == seat else len(field[s]) for s, out in enumerate(st.out))
    sizes = list(map(len, field))
    sizes[seat] = -1
    return tuple(sizes)


def _hides(i: int, o: int, total: int) -> list[tuple]:
    return [("hide", i, o, d, 1) for d in range(1, total)] + [("hide", i, o, d, 0) for d in range(1, total)]


def _engages(i: int, by_die: bool, sizes: tuple[int, ...]) -> list[tuple]:
    """Engage each opponent still in the game (-1) or one of their cards, by Tap, then by a die. Put together
    from each opponent's cached row: with four players a whole table's sizes often come up for the first time
    (one Command action in three, early on), one opponent's size almost never does."""
    acts: list[tuple] = []
    for pay in PAYS[:2 if by_die else 1]:
        for other, size in enumerate(sizes):
            if size >= 0:
                acts += _SHAPES[_engage_row, i, pay, other, size]
    return acts


def _engage_row(i: int, pay: str, other: int, size: int) -> list[tuple]:
    """Engage player `other` (-1) or one of their `size` cards."""
    return [("engage", i, pay, other, j) for j in range(-1, size)]


def apply(st: State, action: tuple, player: int | None = None) -> list[Event]:
    """Apply one action of the seat to move; illegal actions raise `RuleError` and change nothing."""
    if st.phase == OVER:
        raise RuleError("over", "The game is over: start a new game to play on.")
    seat = st.cur
    if player is not None and player != seat:
        raise RuleError("turn", f"It is {st.players[seat]}'s move: wait for your turn.")
    known = _CHECKED[st.phase]
    try:
        found = known.get(action)
    except TypeError:  # an unhashable argument: _check refuses it below
        found = None
    handler = found if found is not None else _check(st, action)
    ev: Ev = [] if st.verbose else None
    handler(st, seat, action, ev)
    if found is None:
        known[action] = handler
    st.actions.append((seat, action))
    return ev if ev is not None else []


def _check(st: State, action: tuple) -> Callable[[State, int, tuple, Ev], None]:
    """The handler of an action of the step under way, once it is a tuple of the expected shape; else a
    `RuleError` saying what is wrong."""
    if not isinstance(action, tuple) or not action:
        raise RuleError("action", f"An action is a tuple such as ('pass', 0), not {action!r}.")
    handler = HANDLERS[st.phase].get(action[0]) if type(action[0]) is str else None
    if handler is None:
        raise RuleError("phase", f"{action[0]!r} is not an action of the {PHASES[st.phase]} step: "
                                 f"choose one of {sorted(HANDLERS[st.phase])}.")
    _shape(action, *SHAPES[action[0]])
    return handler


_CHECKED: tuple[dict[tuple, Callable[[State, int, tuple, Ev], None]], ...] = tuple({} for _ in PHASES)
"""For each step, the actions already applied once in it and their handlers: one lookup, instead of the
checks of `_check`, for an action seen before (the actions that recur are few)."""


def _shape(action: tuple, kinds: tuple, usage: str) -> None:
    """Refuse an action whose arguments are not the expected types (int, or one of given values).
    As everywhere in Python, True and False count as 1 and 0."""
    if len(action) == len(kinds) + 1:
        for x, k in zip(action[1:], kinds, strict=True):
            if not isinstance(x, int) if k is int else x not in k:
                break
        else:
            return
    raise RuleError("action", f"Write this action as {usage}.")


# Strategy Phase -----------------------------------------------------------------------------

def _hurt(st: State, seat: int, action: tuple, ev: Ev) -> None:
    """Hurt yourself at the start of your turn: gain a die, shuffle the discard pile into the
    deck and draw up to your new Power."""
    if not st.fresh:
        raise RuleError("hurt", "You may hurt yourself only at the start of your turn: play a card "
                                "or assign a die instead.")
    st.fresh = False
    if flow.injure(st, seat, ev):
        return
    if st.out[seat]:
        flow.strategy_next(st, ev)
        return
    deck = st.deck[seat]
    deck.extend(st.discard[seat])
    st.discard[seat] = []
    st.dice.shuffle(deck)
    if ev is not None:
        ev.append(Event("shuffle", f"{st.players[seat]} shuffles the discard pile into the deck.",
                        EVERYONE, {"seat": seat, "deck": len(deck)}))
    flow.draw(st, seat, ev)
    _after_strategy(st, seat, ev)


def _play(st: State, seat: int, action: tuple, ev: Ev) -> None:
    """Play a card from hand face up or facedown; it takes one die from the pool (a card needs one)."""
    kind = action[1]
    if st.pool[seat] == 0:
        raise RuleError("dice", "A card needs a die and your pool is empty: return your hand to the deck.")
    if kind not in st.hand[seat]:
        raise RuleError("hand", "You do not hold that card: play a card from your hand.")
    st.hand[seat].remove(kind)
    up = 1 if action[2] == "up" else 0
    st.field[seat].append((kind, 1, up, 0))
    st.pool[seat] -= 1
    st.fresh = False
    if ev is not None:
        slot = len(st.field[seat]) - 1
        what = st.names[kind] if up else "a card facedown"
        ev.append(Event("play", f"{st.players[seat]} plays {what} with 1 die.", EVERYONE,
                        {"seat": seat, "slot": slot, "card": kind if up else None}))
        if not up:
            ev.append(Event("played", f"Your facedown {card_no(slot)} is {st.names[kind]}.", (seat,),
                            {"seat": seat, "slot": slot, "card": kind}))
    _after_strategy(st, seat, ev)


def _assign(st: State, seat: int, action: tuple, ev: Ev) -> None:
    """Assign a die from your pool to one of your cards."""
    slot = action[1]
    if st.pool[seat] == 0:
        raise RuleError("dice", "Your pool is empty: return your hand to the bottom of your deck.")
    field = st.field[seat]
    if not 0 <= slot < len(field):
        raise RuleError("assign", f"You have no {card_no(slot)}: assign to one of your {len(field)} cards.")
    kind, dice, up, tapped = field[slot]
    field[slot] = (kind, dice + 1, up, tapped)
    st.pool[seat] -= 1
    st.fresh = False
    if ev is not None:
        named = card_ref(slot, st.names[kind] if up else None)
        ev.append(Event("assign", f"{st.players[seat]} assigns a die to {named}.", EVERYONE,
                        {"seat": seat, "slot": slot, "dice": dice + 1}))
    _after_strategy(st, seat, ev)


def _bottom(st: State, seat: int, action: tuple, ev: Ev) -> None:
    """With the pool empty, the cards left in hand go to the bottom of the deck in the order you choose."""
    if st.pool[seat]:
        raise RuleError("dice", f"You still have {st.pool[seat]} dice in your pool: "
                                "play or assign them first.")
    if action[1] not in st.hand[seat]:
        raise RuleError("hand", "You do not hold that card: return a card from your hand.")
    _to_bottom(st, seat, [action[1]], ev)
    _after_strategy(st, seat, ev)


def _to_bottom(st: State, seat: int, kinds: list[int], ev: Ev) -> None:
    for kind in kinds:
        st.hand[seat].remove(kind)
        st.deck[seat].append(kind)
    if ev is not None:
        ev.append(Event("bottom", f"{st.players[seat]} puts {plural(len(kinds), 'card')} on the bottom of the deck.",
                        EVERYONE, {"seat": seat, "count": len(kinds)}))
        ev.append(Event("bottomed", f"You put {and_list([st.names[k] for k in kinds])} on the bottom.",
                        (seat,), {"seat": seat, "cards": kinds}))


def _after_strategy(st: State, seat: int, ev: Ev) -> None:
    """The turn ends when the pool is empty and the hand returned (one kind left goes back at once)."""
    if st.pool[seat]:
        return
    hand = st.hand[seat]
    if hand and hand.count(hand[0]) == len(hand):
        _to_bottom(st, seat, hand[:], ev)
    if not hand:
        st.acted[seat] = True
        flow.strategy_next(st, ev)


# Command Phase ------------------------------------------------------------------------------

def _actor(st: State, seat: int, slot: int) -> tuple[int, int, int, int]:
    """The card taking the action: face up, untapped, with the Power that has Initiative."""
    field = st.field[seat]
    if 0 <= slot < len(field):
        card = field[slot]
        if card[UP] and not card[TAPPED] and card[DICE] == st.init_power:
            return card
    raise RuleError("initiative", f"Only a face-up, untapped card of yours with Power {st.init_power} "
                                  "has Initiative: act with one of those.")


def _pass(st: State, seat: int, action: tuple, ev: Ev) -> None:
    """Pass: the card Taps and does nothing."""
    slot = action[1]
    kind, dice, up, _ = _actor(st, seat, slot)
    st.field[seat][slot] = (kind, dice, up, 1)
    if ev is not None:
        ev.append(Event("pass", f"{st.players[seat]}'s {st.names[kind]} passes and Taps.", EVERYONE,
                        {"seat": seat, "slot": slot}))
    flow.command_next(st, ev)


def _hide(st: State, seat: int, action: tuple, ev: Ev) -> None:
    """Hide: the card, and up to one facedown untapped card, go back facedown with their dice shared
    between them as you choose (each keeps at least one); they are placed last, in the order you choose."""
    _, slot, other, dice, first = action
    card = _actor(st, seat, slot)
    field = st.field[seat]
    if other == -1:
        if dice != card[DICE] or first != 1:
            raise RuleError("hide", f"Hiding alone, the card keeps its {card[DICE]} dice: "
                                    f"write ('hide', {slot}, -1, {card[DICE]}, 1).")
        pair = [(card[KIND], dice, 0, 0)]
    else:
        if not 0 <= other < len(field) or other == slot or field[other][UP] or field[other][TAPPED]:
            raise RuleError("hide", "The second card must be one of your facedown, untapped cards: "
                                    "choose one, or -1 to hide alone.")
        total = card[DICE] + field[other][DICE]
        if not 1 <= dice < total:
            raise RuleError("hide", f"Share the {total} dice so each card keeps at least one: "
                                    f"give the hider 1 to {total - 1}.")
        pair = [(card[KIND], dice, 0, 0), (field[other][KIND], total - dice, 0, 0)]
        if not first:
            pair.reverse()
    st.field[seat] = [c for i, c in enumerate(field) if i not in (slot, other)] + pair
    if ev is not None:
        start = len(st.field[seat]) - len(pair)
        ev.append(Event("hide", f"{st.players[seat]}'s {st.names[card[KIND]]} hides"
                                + (" with a facedown card." if len(pair) == 2 else "."), EVERYONE,
                        {"seat": seat, "slot": slot, "other": other,
                         "slots": list(range(start, start + len(pair))), "dice": [c[DICE] for c in pair]}))
    flow.command_next(st, ev)


def _engage(st: State, seat: int, action: tuple, ev: Ev) -> None:
    """Engage: Exert the card (Tap, or a die if it keeps one) and attack an opposing card or player."""
    _, slot, pay, target_seat, target = action
    card = _actor(st, seat, slot)
    if pay == "die" and card[DICE] < 2:
        raise RuleError("exert", "Paying its last die would discard the card before it attacks: "
                                 "Tap it instead.")
    if (not 0 <= target_seat < len(st.players) or target_seat == seat or st.out[target_seat]
            or not -1 <= target < len(st.field[target_seat])):
        raise RuleError("engage", "Engage an opponent still in the game (-1) or one of their cards.")
    flow.exert(st, seat, slot, pay, ev)
    if ev is not None:
        aim = st.field[target_seat][target] if target >= 0 else None
        what = target_ref(st.players[target_seat], target, st.names[aim[KIND]] if aim and aim[UP] else None)
        ev.append(Event("engage", f"{st.players[seat]}'s {card_ref(slot, st.names[card[KIND]])} engages {what}.",
                        EVERYONE,
                        {"seat": seat, "slot": slot, "target": [target_seat, target]}))
    st.eng = (seat, slot, target_seat, target)
    flow.open_window(st, ev)


def _ambush(st: State, seat: int, action: tuple, ev: Ev) -> None:
    """Ambush: Exert one of your facedown cards to Engage the attacker; it becomes the Attacker."""
    _, slot, pay = action
    eng = st.eng
    if eng is None:
        raise RuleError("engagement", "No Engagement is under way: engage a card or player first.")
    a_seat, a_slot, _, d_slot = eng
    field = st.field[seat]
    if not 0 <= slot < len(field) or field[slot][UP] or slot == d_slot:
        raise RuleError("ambush", "Only your facedown cards have Ambush (not the Defender): "
                                  "choose one of them.")
    if (pay == "tap" and field[slot][TAPPED]) or (pay == "die" and field[slot][DICE] < 2):
        raise RuleError("exert", "That card cannot pay this way and still attack: a tapped card gives a die, "
                                 "and a card keeps its last die.")
    flow.exert(st, seat, slot, pay, ev)
    if ev is not None:
        ev.append(Event("ambush", f"{st.players[seat]} ambushes with facedown {card_no(slot)}.", EVERYONE,
                        {"seat": seat, "slot": slot, "target": [a_seat, a_slot]}))
    st.eng = (seat, slot, a_seat, a_slot)
    flow.open_window(st, ev)


def _decline(st: State, seat: int, action: tuple, ev: Ev) -> None:
    """No (more) Ambush: the Engagement resolves."""
    flow.resolve(st, ev)


def _exert(st: State, seat: int, action: tuple, ev: Ev) -> None:
    """Backlash: the card that Hit a player is Exerted (Tap, or a die, even its last)."""
    eng = st.eng
    if eng is None:
        raise RuleError("engagement", "No Engagement is under way: engage a card or player first.")
    _, slot, _, _ = eng
    flow.exert(st, seat, slot, action[1], ev)
    st.eng = None
    flow.command_next(st, ev)


SHAPES: dict[str, tuple[tuple, str]] = {
    "hurt": ((), "('hurt',)"),
    "play": ((int, ("up", "down")), "('play', card, 'up' or 'down')"),
    "assign": ((int,), "('assign', slot)"),
    "bottom": ((int,), "('bottom', card)"),
    "pass": ((int,), "('pass', slot)"),
    "hide": ((int, int, int, (0, 1)), "('hide', slot, other or -1, dice for the hider, 1 or 0)"),
    "engage": ((int, PAYS, int, int), "('engage', slot, 'tap' or 'die', seat, card or -1)"),
    "ambush": ((int, PAYS), "('ambush', slot, 'tap' or 'die')"),
    "decline": ((), "('decline',)"),
    "exert": ((PAYS,), "('exert', 'tap' or 'die')"),
}

HANDLERS: tuple[dict[str, Callable[[State, int, tuple, Ev], None]], ...] = (
    {"hurt": _hurt, "play": _play, "assign": _assign, "bottom": _bottom},
    {"pass": _pass, "hide": _hide, "engage": _engage},
    {"ambush": _ambush, "decline": _decline},
    {"exert": _exert},
    {},
)
