"""How a round moves on: Upkeep, Initiative, Engagements, discards, injuries and defeat.

`ev` is the list of events being built, or ``None`` when readable events are switched off.
"""

from __future__ import annotations

from gamekit.dice import dice_text
from gamekit.errors import RuleError
from gamekit.events import EVERYONE, Event
from gamekit.words import and_list, plural

from .table import (
    AMBUSH,
    BACKLASH,
    COMMAND,
    DICE,
    KIND,
    OVER,
    ROLL_OFF_LIMIT,
    STRATEGY,
    TAPPED,
    UP,
    State,
    card_no,
    card_ref,
    target_ref,
)


def result(faces: list[int]) -> int:
    """A roll's result: the highest die, +1 for each 1 rolled (no dice: 0). Not ``max(faces, default=0)``: the
    keyword makes that call several times dearer, and most actions roll."""
    return (max(faces) if faces else 0) + faces.count(1)


def draw(st: State, seat: int, ev: list[Event] | None) -> None:
    """Draw until the hand holds as many cards as the player's Power, or the deck runs out."""
    hand, deck = st.hand[seat], st.deck[seat]
    drawn = []
    while len(hand) < st.pool[seat] and deck:
        drawn.append(deck.pop(0))
        hand.append(drawn[-1])
    if ev is not None and drawn:
        name = st.players[seat]
        ev.append(Event("draw", f"{name} draws {plural(len(drawn), 'card')}.", EVERYONE,
                        {"seat": seat, "count": len(drawn)}))
        ev.append(Event("drew", f"{name} draws {and_list([st.names[k] for k in drawn])}.", (seat,),
                        {"seat": seat, "cards": drawn}))


def start_round(st: State, ev: list[Event] | None) -> None:
    """Upkeep for every player, then the Strategy Phase begins."""
    st.round += 1
    for seat in range(len(st.players)):
        if not st.out[seat]:
            upkeep(st, seat, ev)
    st.acted = [False] * len(st.players)
    strategy_next(st, ev)


def upkeep(st: State, seat: int, ev: list[Event] | None) -> None:
    """Facedown cards go back to hand with their dice to the pool; draw up to Power; untap."""
    keep, hand, back = [], st.hand[seat], 0
    for kind, dice, up, _ in st.field[seat]:
        if up:
            keep.append((kind, dice, 1, 0))
        else:
            hand.append(kind)
            st.pool[seat] += dice
            back += 1
    st.field[seat] = keep
    if ev is not None:
        ev.append(Event("upkeep", f"Round {st.round}: {st.players[seat]} takes back "
                                  f"{plural(back, 'facedown card')} and has Power {st.pool[seat]}.", EVERYONE,
                        {"seat": seat, "returned": back, "power": st.pool[seat]}))
    draw(st, seat, ev)


def roll_off(st: State, seats: list[int], power: int, ev: list[Event] | None) -> int:
    """Tied players roll `power` dice each, in seat order, until one is highest. A round's dice are drawn in one
    handful and dealt out in seat order (the same draws): with four players about one action in five ends in a
    roll-off."""
    for _ in range(ROLL_OFF_LIMIT):
        top, tied, start = -1, [], 0
        handful = st.dice.rolls(6, power * len(seats))
        for seat in seats:
            faces = handful[start:start + power]
            start += power
            r = result(faces)
            if ev is not None:
                ev.append(Event("roll_off", f"{st.players[seat]} rolls {dice_text(faces)}: a result of {r}.", EVERYONE,
                                {"seat": seat, "faces": faces, "result": r}))
            if r > top:
                top, tied = r, [seat]
            elif r == top:
                tied.append(seat)
        seats = tied
        if len(seats) == 1:
            break
    return seats[0]


def strategy_next(st: State, ev: list[Event] | None) -> None:
    """Initiative in the Strategy Phase: the highest Power among players yet to act (0 Power: no turn)."""
    best, tied = 0, []
    for seat, power in enumerate(st.pool):
        if st.out[seat] or st.acted[seat] or power < best or power == 0:
            continue
        if power > best:
            best, tied = power, [seat]
        else:
            tied.append(seat)
    if not tied:
        command_next(st, ev)
        return
    seat = tied[0] if len(tied) == 1 else roll_off(st, tied, best, ev)
    st.phase, st.cur, st.fresh = STRATEGY, seat, True
    if ev is not None:
        ev.append(Event("initiative", f"{st.players[seat]} has Initiative in the Strategy Phase.",
                        EVERYONE, {"seat": seat, "power": best, "phase": "strategy"}))


def command_next(st: State, ev: list[Event] | None) -> None:
    """Initiative in the Command Phase: the highest Power of a face-up, untapped card."""
    best, tied, out = 0, [], st.out
    for seat, field in enumerate(st.field):
        if out[seat]:
            continue
        top = 0
        for _, dice, up, tapped in field:
            if up and not tapped and dice > top:
                top = dice
        if top == 0 or top < best:
            continue
        if top > best:
            best, tied = top, [seat]
        else:
            tied.append(seat)
    if not tied:
        end_round(st, ev)
        return
    seat = tied[0] if len(tied) == 1 else roll_off(st, tied, best, ev)
    st.phase, st.cur, st.init_power = COMMAND, seat, best
    if ev is not None:
        ev.append(Event("initiative", f"{st.players[seat]} has Initiative in the Command Phase "
                                      f"with a card of Power {best}.", EVERYONE,
                        {"seat": seat, "power": best, "phase": "command"}))


def end_round(st: State, ev: list[Event] | None) -> None:
    """No card can act: the next round begins, unless the round limit is reached (a draw)."""
    if st.round >= st.round_limit:
        st.phase, st.winner = OVER, None
        if ev is not None:
            ev.append(Event("over", f"The round limit ({st.round_limit}) is reached: the game is a draw.",
                            EVERYONE, {"winner": None}))
        return
    start_round(st, ev)


def discard_card(st: State, seat: int, slot: int, ev: list[Event] | None) -> None:
    """A discarded card's dice go back to its player, and the top card(s) of their deck are discarded too."""
    card = st.field[seat].pop(slot)
    st.pool[seat] += card[DICE]
    pile, deck = st.discard[seat], st.deck[seat]
    pile.append(card[KIND])
    cost = [deck.pop(0) for _ in range(min(st.discard_cost, len(deck)))]
    pile.extend(cost)
    if ev is not None:
        ev.append(Event("discard", f"{st.players[seat]} discards {card_ref(slot, st.names[card[KIND]])}"
                                   + (f", and {and_list([st.names[k] for k in cost])} from the top of the deck."
                                      if cost else "."), EVERYONE,
                        {"seat": seat, "slot": slot, "card": card[KIND], "cost": cost}))


def exert(st: State, seat: int, slot: int, pay: str, ev: list[Event] | None) -> None:
    """Exert: Tap the card, or take one of its dice back to the pool (its last die discards it)."""
    kind, dice, up, tapped = st.field[seat][slot]
    if pay == "tap":
        st.field[seat][slot] = (kind, dice, up, 1)
    else:
        st.field[seat][slot] = (kind, dice - 1, up, tapped)
        st.pool[seat] += 1
    if ev is not None:
        what = "Taps" if pay == "tap" else "takes a die from"
        ev.append(Event("exert", f"{st.players[seat]} {what} {card_ref(slot, st.names[kind] if up else None)}.",
                        EVERYONE,
                        {"seat": seat, "slot": slot, "pay": pay}))
    if dice == 1 and pay == "die":
        discard_card(st, seat, slot, ev)


def can_ambush(st: State, seat: int, skip: int) -> bool:
    """Whether `seat` holds a facedown card (not `skip`) that can pay to Exert and still Engage."""
    for i, (_, dice, up, tapped) in enumerate(st.field[seat]):
        if not up and (not tapped or dice >= 2) and i != skip:
            return True
    return False


def open_window(st: State, ev: list[Event] | None) -> None:
    """After an Engagement is announced, the engaged player may Ambush if the Defender is a player
    or a face-up card (or any card, by house rule); otherwise the Engagement resolves."""
    eng = st.eng
    if eng is None:
        raise RuleError("engagement", "No Engagement is under way: engage a card or player first.")
    _, _, d_seat, d_slot = eng
    open_ = d_slot < 0 or st.field[d_seat][d_slot][UP] or st.protect_facedown
    if open_ and can_ambush(st, d_seat, d_slot):
        st.phase, st.cur = AMBUSH, d_seat
    else:
        resolve(st, ev)


def reveal(st: State, seat: int, slot: int, ev: list[Event] | None) -> None:
    kind, dice, up, tapped = st.field[seat][slot]
    if not up:
        st.field[seat][slot] = (kind, dice, 1, tapped)
        if ev is not None:
            ev.append(Event("reveal", f"{st.players[seat]} reveals {card_no(slot)}: {st.names[kind]}.",
                            EVERYONE, {"seat": seat, "slot": slot, "card": kind}))


def clash(st: State, a_seat: int, a_slot: int, d_seat: int, d_slot: int, ev: list[Event] | None) -> bool:
    """One Attack Roll against one Defense Roll; True when the Defender is Hit. Both are drawn in one handful,
    the Attacker's dice first (the same draws as two rolls, one call fewer)."""
    att = st.field[a_seat][a_slot]
    a_dice = att[DICE]
    if d_slot < 0:
        faces = st.dice.rolls(6, a_dice + st.pool[d_seat])
        d_faces = faces[a_dice:]
        d_total = result(d_faces)
    else:
        dfd = st.field[d_seat][d_slot]
        faces = st.dice.rolls(6, a_dice + dfd[DICE])
        d_faces = faces[a_dice:]
        d_total = result(d_faces) + st.defn[dfd[KIND]]
    a_faces = faces[:a_dice]
    a_total = result(a_faces) + st.atk[att[KIND]]
    hit = a_total >= d_total if st.ties_hit else a_total > d_total
    if ev is not None:
        target = target_ref(st.players[d_seat], d_slot, None if d_slot < 0 else st.names[dfd[KIND]])
        ev.append(Event("clash", f"{st.players[a_seat]}'s {card_ref(a_slot, st.names[att[KIND]])} attacks {target}: "
                                 f"Attack Roll {dice_text(a_faces)}, a total of {a_total}, against Defense Roll "
                                 f"{dice_text(d_faces)}, a total of {d_total}: "
                                 + ("Hit." if hit else "no Hit."), EVERYONE,
                        {"attacker": [a_seat, a_slot], "defender": [d_seat, d_slot], "attack": a_total,
                         "defense": d_total, "attack_faces": a_faces, "defense_faces": d_faces,
                         "hit": hit}))
    return hit


def resolve(st: State, ev: list[Event] | None) -> None:
    """The Engagement: reveal, Attack against Defense; a surviving card Defender counter-attacks."""
    eng = st.eng
    if eng is None:
        raise RuleError("engagement", "No Engagement is under way: engage a card or player first.")
    a_seat, a_slot, d_seat, d_slot = eng
    reveal(st, a_seat, a_slot, ev)
    if d_slot >= 0:
        reveal(st, d_seat, d_slot, ev)
    if clash(st, a_seat, a_slot, d_seat, d_slot, ev):
        if d_slot >= 0:
            discard_card(st, d_seat, d_slot, ev)
        elif not injure(st, d_seat, ev):
            backlash(st, ev)
            return
    elif d_slot >= 0 and clash(st, d_seat, d_slot, a_seat, a_slot, ev):
        discard_card(st, a_seat, a_slot, ev)
    st.eng = None
    if st.phase != OVER:
        command_next(st, ev)


def backlash(st: State, ev: list[Event] | None) -> None:
    """A Hit player's backlash Exerts the card engaged with them: a tapped card must give a die."""
    eng = st.eng
    if eng is None:
        raise RuleError("engagement", "No Engagement is under way: engage a card or player first.")
    a_seat, a_slot, _, _ = eng
    if st.field[a_seat][a_slot][TAPPED]:
        exert(st, a_seat, a_slot, "die", ev)
        st.eng = None
        command_next(st, ev)
    else:
        st.phase, st.cur = BACKLASH, a_seat


def injure(st: State, seat: int, ev: list[Event] | None) -> bool:
    """A hurt player gains a die; an 11th die (over max_dice) defeats them. True if the game ended."""
    st.pool[seat] += 1
    total = st.total_dice(seat)
    defeated = total > st.max_dice
    if ev is not None:
        ev.append(Event("injury", f"{st.players[seat]} is hurt and now controls {total} dice"
                                  + (": defeated." if defeated else "."), EVERYONE,
                        {"seat": seat, "dice": total, "defeated": defeated}))
    if not defeated:
        return False
    st.out[seat] = True
    alive = [s for s, out in enumerate(st.out) if not out]
    if len(alive) > 1:
        return False
    st.phase, st.winner, st.eng = OVER, alive[0], None
    if ev is not None:
        ev.append(Event("over", f"{st.players[alive[0]]} is the last player standing and wins.",
                        EVERYONE, {"winner": alive[0]}))
    return True
