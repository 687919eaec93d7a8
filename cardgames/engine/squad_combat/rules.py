"""Squad Combat rules: setup, legal actions and applying an action (the hot path).

Actions (all small tuples; cards are set indexes, characters are slots 0-2 of a seat):
``("pass",)``, ``("refresh", slot)``, ``("play", card, slot)`` or ``("play", card, slot,
target_seat, target_slot)`` for actions and attacks, ``("edge", card, slot[, target_seat,
target_slot])``, ``("discard", card)`` (paying a card cost, or at the end of the turn),
``("die", value)`` (the attack or defence die; 0 declines), ``("done",)`` (no more edges,
or no more end-of-turn discards).
"""

from __future__ import annotations

from itertools import repeat
from operator import ge

from gamekit.dice import dice_text
from gamekit.errors import RuleError
from gamekit.events import Event
from gamekit.protocol import Action, as_action
from gamekit.words import and_list, plural

from .cards import (
    AIM_ENEMY,
    AIM_WOUNDED,
    ATTACK,
    ATTACK_MOD,
    DEFENCE_MOD,
    DRAW,
    EDGE,
    ENERGY,
    HEAL,
    KINDS,
    NO_AIM,
    ROLL,
    WHEN_ATTACK,
)
from .state import ACTION, ATTACK_DIE, DEFENCE_DIE, END_DISCARD, MODIFIERS, OVER, PAY, STEPS, State

NO_TARGET = (None,)


def who(st: State, ch: int) -> str:
    return f"{st.players[ch // 3]}'s {st.cs.ch_names[st.chdef[ch]]}"


def can_pay(held: list[int], needs: tuple[int, ...]) -> bool:
    """Whether dice `held` (highest first, as a character always holds them) meet the minimums
    `needs` (highest first): exactly when the i-th highest die meets the i-th highest minimum,
    which is when `pay_dice` finds a payment, without copying the dice."""
    return len(held) >= len(needs) and all(map(ge, held, needs))


def pay_dice(held: list[int], needs: tuple[int, ...]) -> list[int] | None:
    """The dice left (highest first) after paying each minimum, highest minimum first, with the
    smallest die that meets it; None if the dice cannot pay. No other payment leaves better dice."""
    left = held[:]
    for need in needs:
        best = -1
        for i, value in enumerate(left):
            if value < need:
                break
            best = i
        if best < 0:
            return None
        del left[best]
    return left


def seat_alive(st: State, seat: int) -> bool:
    alive = st.alive
    return alive[3 * seat] or alive[3 * seat + 1] or alive[3 * seat + 2]


# --- Checks shared by legal_actions and apply -------------------------------------------------


def problem(st: State, seat: int, c: int, slot: object) -> str | None:
    """The rule that stops character `slot` of `seat` performing card `c` (costs and traits), or None."""
    cs = st.cs
    if type(slot) is not int or not 0 <= slot < 3 or not st.alive[3 * seat + slot]:
        return "character"
    ch = 3 * seat + slot
    d = st.chdef[ch]
    hand = st.hand[seat]
    if c not in hand:
        return "hand"
    if not cs.ch_traits[d] & cs.traits[c]:
        return "traits"
    if cs.ch_energy[d] - st.spent[ch] < cs.energy[c]:
        return "energy cost"
    if not can_pay(st.held[ch], cs.dice[c]):
        return "dice cost"
    if len(hand) - 1 < cs.discards[c]:
        return "card cost"
    return None


def explain(st: State, seat: int, c: int, slot: int, rule: str) -> str:
    """What to do instead, for a rule `problem` or `timing` named."""
    cs = st.cs
    name = cs.names[c]
    if rule == "edge timing":
        side = "attacking" if cs.when[c] == WHEN_ATTACK else "defending"
        return f"{name} is played when {side}: keep it until you are {side}."
    if rule == "action phase":
        return f"{name} is an {KINDS[cs.kind[c]]}: play it in your action phase."
    if rule == "character":
        return f"Choose one of your living characters by slot 0, 1 or 2, not {slot!r}."
    if rule == "hand":
        return f"{name} is not in your hand: play a card you hold."
    ch = 3 * seat + slot
    if rule == "traits":
        return f"{who(st, ch)} shares no trait with {name}: choose a character with one of its traits."
    if rule == "energy cost":
        left = cs.ch_energy[st.chdef[ch]] - st.spent[ch]
        return f"{who(st, ch)} has {left} energy left and {name} costs {cs.energy[c]}: choose another."
    if rule == "dice cost":
        return (f"{who(st, ch)}'s dice {st.held[ch]} cannot pay {name}'s dice cost {list(cs.dice[c])}: "
                "refresh the dice or choose another character.")
    return (f"{name} costs {cs.discards[c]} more card(s) from your hand and you hold "
            f"{len(st.hand[seat]) - 1}: choose another card.")


def targets(st: State, seat: int, c: int) -> list[tuple[int, int]] | tuple[None]:
    """Targets card `c` needs: a living enemy for an attack, a wounded friend for a heal."""
    return aims(st, seat, st.cs.play[c][-1])


def aims(st: State, seat: int, aim: int) -> list[tuple[int, int]] | tuple[None]:
    """The targets of a card aiming at `aim` (``cards.NO_AIM``, ``AIM_ENEMY``, ``AIM_WOUNDED``)."""
    alive = st.alive
    if aim == AIM_ENEMY:
        return [(t, s) for t, s, ch in st.lineup.enemies[seat] if alive[ch]]
    if aim == AIM_WOUNDED:
        return [(seat, s) for s in range(3) if alive[3 * seat + s] and st.wounds[3 * seat + s]]
    return NO_TARGET


IN_ACTION_PHASE = (True, True, False, False)
"""`open_timings` in the action phase: actions, attacks and any-time edges."""


def open_timings(st: State, seat: int) -> tuple[bool, bool, bool, bool]:
    """Which card timings (``cards.IN_PHASE``, ``EDGE_ANY``, ``EDGE_ATTACK``, ``EDGE_DEFENCE``)
    `seat` may play now: actions, attacks and any-time edges in the action phase; in an attack,
    any-time edges and those of the side `seat` is on."""
    if st.step == ACTION:
        return IN_ACTION_PHASE
    return (False, True, seat == st.a_ch // 3, seat == st.d_ch // 3)


def timing(st: State, seat: int, c: int) -> str | None:
    """The rule that stops card `c` being played in this step, or None."""
    when = st.cs.play[c][0]
    if open_timings(st, seat)[when]:
        return None
    return "edge timing" if st.cs.kind[c] == EDGE else "action phase"


# --- legal actions ------------------------------------------------------------------------------


def _plays(st: State, seat: int, open_: tuple[bool, ...], out: list[Action]) -> None:
    """Each card play open to `seat` now (`timing` and `problem` find nothing): a living character
    sharing a trait that can pay the energy and the dice, on each target the card needs."""
    play, able = st.cs.play, st.lineup.able[seat]
    alive, spent, held = st.alive, st.spent, st.held
    hand = st.hand[seat]
    spare = len(hand) - 1
    found: list = [NO_TARGET, None, None]  # targets by aim, worked out once a card needs them
    for c in sorted(set(hand)):
        when, verb, energy, dice, discards, aim = play[c]
        if discards > spare or not open_[when]:
            continue
        for slot, ch, full in able[c]:
            if alive[ch] and full - spent[ch] >= energy and (not dice or can_pay(held[ch], dice)):
                if aim == NO_AIM:
                    out.append((verb, c, slot))
                    continue
                targeted = found[aim]
                if targeted is None:
                    targeted = found[aim] = aims(st, seat, aim)
                for t, s in targeted:
                    out.append((verb, c, slot, t, s))


def legal_actions(st: State, seat: int) -> list[Action]:
    step = st.step
    if step == OVER or seat != st.cur:
        return []
    if step == ACTION:
        out: list[Action] = [("pass",)]
        alive, spent = st.alive, st.spent
        for slot, ch, full, refresh in st.lineup.crews[seat]:
            if alive[ch] and full - spent[ch] >= refresh:
                out.append(("refresh", slot))
        _plays(st, seat, IN_ACTION_PHASE, out)
        return out
    if step == MODIFIERS:
        out = [("done",)]
        _plays(st, seat, open_timings(st, seat), out)
        return out
    if step in (ATTACK_DIE, DEFENCE_DIE):
        ch = st.a_ch if step == ATTACK_DIE else st.d_ch
        return [("die", 0)] + [("die", v) for v in sorted(set(st.held[ch]))]
    if step == PAY:
        return [("discard", c) for c in sorted(set(st.hand[seat]))]
    out = [("done",)]
    if st.eot_count < st.end_discards:
        out += [("discard", c) for c in sorted(set(st.hand[seat]))]
    return out


# --- apply --------------------------------------------------------------------------------------


def apply(st: State, action: Action, player: int | None = None) -> list[Event]:
    """Apply one action of the seat to move; raise `RuleError` (changing nothing) if it is illegal."""
    step = st.step
    if step == OVER:
        raise RuleError("game over", "The game is over: start a new game to play on.")
    seat = st.cur
    if player is not None and player != seat:
        raise RuleError("turn order", f"It is {st.players[seat]}'s turn to act: wait for your turn.")
    if type(action) is not tuple:
        action = as_action(action)
    found = HANDLERS[step].get(action[0]) if action else None
    if found is None:
        raise RuleError(STEPS[step], f"{action!r} cannot be taken now ({STEPS[step]}): choose one of "
                        f"{legal_actions(st, seat)}.")
    handler, lengths = found
    if len(action) not in lengths:
        raise _malformed(action)
    for x in action[1:]:
        if type(x) is not int:
            raise _malformed(action)
    out: list[Event] = []
    handler(st, seat, action, out)
    st.actions.append((seat, action))
    return out


def _malformed(action: Action) -> RuleError:
    return RuleError("action", f"{action!r} is malformed: use one of the actions legal_actions lists.")


def _card(st: State, seat: int, action: Action, out: list[Event]) -> None:
    """Announce a card: check trait, costs and timing, pay energy and dice, then the card cost."""
    cs = st.cs
    c, slot = action[1], action[2]
    if not 0 <= c < len(cs.keys):
        raise RuleError("hand", f"There is no card {c} in this set: play a card you hold.")
    if (cs.kind[c] == EDGE) != (action[0] == "edge"):
        verb = "edge" if cs.kind[c] == EDGE else "play"
        raise RuleError("card kind", f"{cs.names[c]} is an {KINDS[cs.kind[c]]}: use '{verb}' for it.")
    why = timing(st, seat, c) or problem(st, seat, c, slot)
    if why:
        raise RuleError(why, explain(st, seat, c, slot, why))
    aims = targets(st, seat, c)
    aim = tuple(action[3:]) or None
    if aim not in aims:
        hint = "it takes no target" if aims is NO_TARGET else f"choose a target from {aims}"
        if not aims:
            hint = "there is no eligible target"
        raise RuleError("target", f"{cs.names[c]} cannot target {aim}: {hint}.")
    ch = 3 * seat + slot
    st.hand[seat].remove(c)
    st.spent[ch] += cs.energy[c]
    if cs.dice[c]:
        left = pay_dice(st.held[ch], cs.dice[c])
        if left is None:  # `problem` checked `can_pay`, so the dice always pay
            raise RuleError("dice cost", explain(st, seat, c, slot, "dice cost"))
        st.held[ch] = left
    st.p_kind, st.p_seat, st.p_card, st.p_ch = cs.kind[c], seat, c, ch
    st.p_tch = -1 if aim is None else 3 * aim[0] + aim[1]
    on = "" if aim is None or not st.verbose else f" on {who(st, st.p_tch)}"
    out.append(Event("play", f"{who(st, ch)} plays {cs.names[c]}{on}." if st.verbose else "", None,
                     {"card": c, "character": ch, "target": st.p_tch}))
    if cs.discards[c]:
        st.pay_left, st.step = cs.discards[c], PAY
    else:
        _resolve(st, out)


def _discard(st: State, seat: int, action: Action, out: list[Event]) -> None:
    """Pay a card cost, or discard at the end of the turn (up to two)."""
    c = action[1]
    hand = st.hand[seat]
    if c not in hand:
        raise RuleError("hand", f"You hold no card {c}: discard a card from your hand.")
    if st.step == END_DISCARD and st.eot_count >= st.end_discards:
        raise RuleError("end of turn", f"You may discard at most {st.end_discards} cards: say done.")
    hand.remove(c)
    st.discard[seat].append(c)
    out.append(Event("discard", f"{st.players[seat]} discards {st.cs.names[c]}." if st.verbose else "",
                     None, {"seat": seat, "card": c}))
    if st.step == PAY:
        st.pay_left -= 1
        if not st.pay_left:
            _resolve(st, out)
        return
    st.eot_count += 1
    if st.eot_count == st.end_discards:
        _draw_up(st, seat, out)


def _resolve(st: State, out: list[Event]) -> None:
    """Costs paid: an attack goes to its dice; actions and edges take effect and are discarded."""
    kind, seat, c, ch, tch = st.p_kind, st.p_seat, st.p_card, st.p_ch, st.p_tch
    st.p_kind = st.p_seat = st.p_card = st.p_ch = st.p_tch = -1
    if kind == ATTACK:
        st.a_card, st.a_ch, st.d_ch = c, ch, tch
        st.a_die = st.d_die = st.a_mod = st.d_mod = st.dones = 0
        st.step, st.cur = ATTACK_DIE, seat
        return
    _effect(st, seat, c, ch, tch, out)
    st.discard[seat].append(c)
    if kind != EDGE:
        _next_phase(st, st.actor, out)
    elif st.a_card >= 0:  # an edge during an attack passes the initiative to the other side
        st.step, st.dones = MODIFIERS, 0
        st.cur = st.d_ch // 3 if seat == st.a_ch // 3 else st.a_ch // 3
    else:
        st.step, st.cur = ACTION, seat


def _effect(st: State, seat: int, c: int, ch: int, tch: int, out: list[Event]) -> None:
    cs = st.cs
    effect, amount = cs.effect[c], cs.amount[c]
    if effect == DRAW:
        _draw(st, seat, amount, out, False)
    elif effect == HEAL:
        wounds = st.wounds[tch]
        for _ in range(min(amount, len(wounds))):
            owner, card = wounds.pop()
            st.discard[owner].append(card)
            st.dmg[tch] -= cs.damage[card]
    elif effect == ROLL:
        _roll(st, ch, amount, out)
    elif effect == ENERGY:
        st.spent[ch] = max(0, st.spent[ch] - amount)
    elif effect == ATTACK_MOD:
        st.a_mod += amount
    elif effect == DEFENCE_MOD:
        st.d_mod += amount


def _roll(st: State, ch: int, count: int, out: list[Event]) -> None:
    """Roll dice onto a character, then keep no more than its dice pool (the highest)."""
    rolled = list(map(st.dice.roll, repeat(6, count)))
    held = st.held[ch] + rolled
    held.sort(reverse=True)
    del held[st.cs.ch_pool[st.chdef[ch]]:]
    st.held[ch] = held
    text = f"{who(st, ch)} rolls {dice_text(rolled)}; its dice are now {dice_text(held)}." if st.verbose else ""
    out.append(Event("roll", text, None, {"character": ch, "rolled": rolled, "held": held[:]}))


def _refresh(st: State, seat: int, action: Action, out: list[Event]) -> None:
    """Refresh dice: pay the refresh energy, roll the dice pool onto the character, keep the pool."""
    slot = action[1]
    if not 0 <= slot < 3 or not st.alive[3 * seat + slot]:
        raise RuleError("character", f"Choose a living character of yours by slot 0-2, not {slot}.")
    ch = 3 * seat + slot
    cs = st.cs
    d = st.chdef[ch]
    if cs.ch_energy[d] - st.spent[ch] < cs.ch_refresh[d]:
        raise RuleError("dice refresh", f"{who(st, ch)} has {cs.ch_energy[d] - st.spent[ch]} energy left "
                        f"and refreshing costs {cs.ch_refresh[d]}: do something else or pass.")
    st.spent[ch] += cs.ch_refresh[d]
    _roll(st, ch, cs.ch_pool[d], out)
    _next_phase(st, seat, out)


def _pass(st: State, seat: int, action: Action, out: list[Event]) -> None:
    """Pass: no more action phases this turn (edges still allowed)."""
    st.passed[seat] = True
    out.append(Event("pass", f"{st.players[seat]} passes." if st.verbose else "", None, {"seat": seat}))
    _next_phase(st, seat, out)


def _die(st: State, seat: int, action: Action, out: list[Event]) -> None:
    """Spend the attack die, then the defence die; declining is a die of 0."""
    value = action[1]
    attacking = st.step == ATTACK_DIE
    ch = st.a_ch if attacking else st.d_ch
    if value:
        if value not in st.held[ch]:
            raise RuleError("attack die" if attacking else "defence die",
                            f"{who(st, ch)} has no die showing {value}: spend one of {st.held[ch]} "
                            "or 0 to decline.")
        st.held[ch].remove(value)
    if st.verbose:
        die = "attack die" if attacking else "defence die"
        text = (f"{who(st, ch)} spends a {value} as the {die}." if value
                else f"{who(st, ch)} declines the {die} (it counts as 0).")
    out.append(Event("die", text if st.verbose else "", None, {"character": ch, "value": value}))
    if attacking:
        st.a_die, st.step, st.cur = value, DEFENCE_DIE, st.d_ch // 3
    else:
        st.d_die, st.step, st.cur, st.dones = value, MODIFIERS, st.a_ch // 3, 0


def _done(st: State, seat: int, action: Action, out: list[Event]) -> None:
    """No more edges (both sides in a row ends the modifiers), or no more end-of-turn discards."""
    if st.step == END_DISCARD:
        _draw_up(st, seat, out)
        return
    st.dones += 1
    if st.dones >= 2:
        _strike(st, out)
    else:
        st.cur = st.d_ch // 3 if seat == st.a_ch // 3 else st.a_ch // 3


def _strike(st: State, out: list[Event]) -> None:
    """Attack rating (die + hit modifier + edges) >= defence rating (die + edges): a hit."""
    cs = st.cs
    c, a_ch, d_ch = st.a_card, st.a_ch, st.d_ch
    attack = st.a_die + cs.hit[c] + st.a_mod
    defence = st.d_die + st.d_mod
    seat = a_ch // 3
    hit = attack >= defence
    if hit:
        st.wounds[d_ch].append((seat, c))
        st.dmg[d_ch] += cs.damage[c]
    else:
        st.discard[seat].append(c)
    text = (f"{who(st, a_ch)}'s {cs.names[c]} against {who(st, d_ch)}: attack rating {attack} against defence "
            f"rating {defence}, " + (f"a hit for {cs.damage[c]} damage." if hit else "a miss.")) if st.verbose else ""
    out.append(Event("hit" if hit else "miss", text, None,
                     {"card": c, "attack": attack, "defence": defence, "target": d_ch}))
    st.a_card = st.a_ch = st.d_ch = -1
    st.a_die = st.d_die = st.a_mod = st.d_mod = st.dones = 0
    if hit and st.dmg[d_ch] >= cs.ch_life[st.chdef[d_ch]]:
        _kill(st, d_ch, out)
    if st.step != OVER:
        _next_phase(st, st.actor, out)


def _kill(st: State, ch: int, out: list[Event]) -> None:
    """Damage >= life: remove the character; its wound cards go to their owners' discard piles."""
    st.alive[ch] = False
    for owner, card in st.wounds[ch]:
        st.discard[owner].append(card)
    st.wounds[ch] = []
    st.held[ch] = []
    out.append(Event("death", f"{who(st, ch)} dies." if st.verbose else "", None, {"character": ch}))
    seat = ch // 3
    if seat_alive(st, seat):
        return
    st.passed[seat] = True
    standing = [t for t in range(st.n) if seat_alive(st, t)]
    if len(standing) <= 1:
        st.step, st.cur = OVER, -1
        st.winner = winner = standing[0] if standing else None
        out.append(Event("over", f"{st.players[winner]} wins." if st.verbose and winner is not None else "",
                         None, {"winner": winner}))


def _next_phase(st: State, seat: int, out: list[Event]) -> None:
    """The next action phase goes to the next seat in turn order that has not passed."""
    n, passed = st.n, st.passed
    for k in range(1, n + 1):
        t = (seat + k) % n
        if not passed[t]:
            st.step = ACTION
            st.actor = st.cur = t
            return
    _end_turn(st, out)


def _end_turn(st: State, out: list[Event]) -> None:
    """All passed: spent energy is cleared; then each player may discard and draws up."""
    st.spent = [0] * len(st.spent)
    out.append(Event("end of turn", f"Turn {st.turn} ends." if st.verbose else "", None, {"turn": st.turn}))
    if st.turn >= st.max_turns:
        st.step, st.cur, st.winner = OVER, -1, None
        out.append(Event("over", "The turn limit is reached: a draw." if st.verbose else "", None,
                         {"winner": None}))
        return
    st.step = END_DISCARD
    st.cur, st.eot_count = st.first, 0
    if not seat_alive(st, st.first):
        _next_discarder(st, out)


def _draw_up(st: State, seat: int, out: list[Event]) -> None:
    _draw(st, seat, st.hand_size - len(st.hand[seat]), out, st.reshuffle)
    _next_discarder(st, out)


def _next_discarder(st: State, out: list[Event]) -> None:
    n, first = st.n, st.first
    for k in range((st.cur - first) % n + 1, n):
        t = (first + k) % n
        if seat_alive(st, t):
            st.cur, st.eot_count = t, 0
            return
    _new_turn(st, out)


def _new_turn(st: State, out: list[Event]) -> None:
    n = st.n
    st.turn += 1
    if st.rotate:
        st.first = (st.first + 1) % n
    st.passed = [not seat_alive(st, t) for t in range(n)]
    st.first = next(t % n for t in range(st.first, st.first + n) if not st.passed[t % n])
    st.step, st.actor, st.cur = ACTION, st.first, st.first
    out.append(Event("turn", f"Turn {st.turn}: {st.players[st.first]} acts first." if st.verbose else "",
                     None, {"turn": st.turn, "first": st.first}))


def _draw(st: State, seat: int, count: int, out: list[Event], refill: bool) -> None:
    """Draw from the top of the deck. With `refill` an empty deck is the shuffled discard pile."""
    deck, hand = st.deck[seat], st.hand[seat]
    got = []
    for _ in range(count):
        if not deck:
            pile = st.discard[seat]
            if not (refill and pile):
                break
            deck.extend(pile)
            pile.clear()
            st.dice.shuffle(deck)
            out.append(Event("reshuffle", f"{st.players[seat]} shuffles the discard pile into a new deck."
                             if st.verbose else "", None, {"seat": seat}))
        got.append(deck.pop())
    if got:
        hand.extend(got)
        names = st.cs.names
        out.append(Event("drawn", f"You draw {and_list([names[c] for c in got])}." if st.verbose else "",
                         (seat,), {"seat": seat, "cards": got}))
        out.append(Event("draw", f"{st.players[seat]} draws {plural(len(got), 'card')}." if st.verbose else "", None,
                         {"seat": seat, "count": len(got)}))


def setup(st: State) -> None:
    """Shuffle each deck, draw a hand, roll each character's dice left to right, pick a first player."""
    out: list[Event] = []
    for seat in range(st.n):
        st.dice.shuffle(st.deck[seat])
    for seat in range(st.n):
        _draw(st, seat, st.hand_size, out, False)
    roll = st.dice.roll
    for ch, d in enumerate(st.chdef):
        st.held[ch] = sorted(map(roll, repeat(6, st.cs.ch_pool[d])), reverse=True)
    st.first = st.actor = st.cur = st.dice.below(st.n)


STEP_HANDLERS = {
    ACTION: {"pass": _pass, "refresh": _refresh, "play": _card, "edge": _card},
    PAY: {"discard": _discard},
    ATTACK_DIE: {"die": _die},
    DEFENCE_DIE: {"die": _die},
    MODIFIERS: {"edge": _card, "done": _done},
    END_DISCARD: {"discard": _discard, "done": _done},
}
LENGTHS = {"pass": (1,), "done": (1,), "refresh": (2,), "die": (2,), "discard": (2,), "play": (3, 5), "edge": (3, 5)}
"""The parts each action has: its word, then ints (a card play with or without a target)."""
HANDLERS: tuple[dict, ...] = tuple({word: (handler, LENGTHS[word]) for word, handler in
                                    STEP_HANDLERS.get(step, {}).items()} for step in range(len(STEPS)))
"""Indexed by step: each action word's handler and lengths, looked up once per action."""
