"""Unity as a `gamekit.protocol.Game`: free turns, evil attacks and their answers, righteousness, festivals.

Actions (JSON-able tuples of small ints and strings):

- ``("pick", c)``: add card c to the play being built (cards go in hand order, see `deck`);
  ``("play",)`` plays the picked cards: an evil attack or an invitation on a free turn, a
  defeat of the attack (in unity, or evil fighting evil), or an entry into righteousness.
- ``("festival", c)``: celebrate a festival; ``("celebrate", c)``: the card you discard for it.
- ``("david", c)``, ``("trinity", c)``, ``("judgement", c)``, ``("glory", c)``,
  ``("angel", a, c)``: the special answers to an evil attack.
- ``("draw",)``: draw one card while you cannot defeat an attack with righteous cards.
- ``("decline",)``: do not enter into righteousness; draw one card per righteous card played.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from cardgames.engine.unity import evaluation, labels, plays
from cardgames.engine.unity.deck import (
    ANGEL,
    ANSWERS,
    DAVID,
    EVIL,
    FESTIVAL,
    GLORY,
    JUDGEMENT,
    RIGHTEOUS,
    TRINITY,
    UNITY,
    Deck,
    deck_for,
)
from cardgames.engine.unity.refusals import refusal
from cardgames.engine.unity.state import (
    CELEBRATE,
    DOING,
    ENTER,
    FREE,
    OVER,
    PHASES,
    RESPOND,
    UnityState,
    chain_entries,
    copy_state,
    state_dump,
    state_load,
)
from gamekit.dice import Dice
from gamekit.errors import RuleError
from gamekit.events import Event

SPECIAL = (("david", DAVID), ("trinity", TRINITY), ("judgement", JUDGEMENT), ("glory", GLORY))
PILES = ("righteous", "evil", "festival")


def _firsts(d: Deck, cards: list[int]) -> list[int]:
    """Cards of `cards` (ascending) skipping second copies: identical cards give one action."""
    if d.seconds.isdisjoint(cards):
        return cards
    twin = d.twin
    return [c for i, c in enumerate(cards) if not (twin[c] and i and cards[i - 1] == c - 1)]


class UnityGame:
    """The Unity rules; every method takes or returns plain data (see `gamekit.protocol.Game`). `quiet` is the
    same game without event text, for search and simulation."""

    name = "unity"

    def __init__(self, *, text: bool = True) -> None:
        self.text = text
        self.quiet = self if not text else UnityGame(text=False)
        self._handlers = {name[4:]: getattr(self, name) for name in dir(self) if name.startswith("_do_")}

    # --- setting up ------------------------------------------------------------------------

    def new_game(self, config: dict[str, Any], players: Sequence[str], seed: int | None = None,
                 dice: Dice | None = None) -> UnityState:
        """Shuffle, deal `hand_size` cards to each player; the player left of the dealer (seat 0)
        goes first."""
        if not 2 <= len(players) <= 6:
            raise RuleError("players", f"Unity is played by 2 to 6 players, not {len(players)}: "
                                       "add or remove players.")
        config = dict(config or {})
        deck = deck_for(config)
        if seed is None and dice is None:
            seed = random.SystemRandom().randrange(1 << 32)
        s = UnityState(config, list(players), seed, dice or Dice(seed), deck)
        order = config.get("deck_order")
        if order is None:
            s.pile = list(range(deck.ncards))
            s.dice.shuffle(s.pile)
        elif sorted(order) != list(range(deck.ncards)):
            raise RuleError("deck_order", f"A fixed deck order lists every card id 0..{deck.ncards - 1} "
                                          "once, top card first.")
        else:
            s.pile = list(reversed(order))
        size = s.rules["hand_size"]
        if not isinstance(s.rules["max_turns"], int) or s.rules["max_turns"] < 1:
            raise RuleError("max_turns", "The turn limit is a whole number of free turns, at least 1.")
        if not isinstance(size, int) or size < 1 or size * s.n > deck.ncards:
            raise RuleError("hand_size", f"Deal each of the {s.n} players at least 1 card and no more than "
                                         f"the {deck.ncards} cards of the deck allow.")
        for _ in range(size):
            for hand in s.hands:
                hand.append(s.pile.pop())
        for hand in s.hands:
            hand.sort()
        s.turns = 1
        return s

    def to_move(self, state: UnityState) -> tuple[int, ...]:
        return () if state.phase == OVER else (state.turn,)

    def is_over(self, state: UnityState) -> bool:
        return state.phase == OVER

    def result(self, state: UnityState) -> dict[str, Any]:
        w = state.winner
        scores = [0.0] * state.n if w is None else [1.0 if s == w else -1.0 for s in range(state.n)]
        return {"winner": w, "scores": scores, "reason": state.reason,
                "cards_left": [len(h) for h in state.hands]}

    # --- legal actions -----------------------------------------------------------------------

    def legal_actions(self, state: UnityState, player: int) -> list[tuple]:
        if state.phase == OVER or player != state.turn:
            return []
        key = len(state.actions)
        if state.legal is None or state.legal[0] != key:
            state.legal = (key, self._legal(state))
        return list(state.legal[1])

    def describe_action(self, state: UnityState, action: Any) -> str:
        """A button label for one of the mover's legal actions, naming its cards (see `labels`); any other
        action raises the RuleError `apply` would."""
        return labels.describe(state, action, self.legal_actions(state, state.turn))

    def _legal(self, s: UnityState) -> list[tuple]:
        d, hand, sel, phase = s.deck, s.hands[s.turn], s.sel, s.phase
        if sel:
            return self._more(s, hand, sel)
        if phase == FREE:
            return list(map(d.free.__getitem__, _firsts(d, hand)))
        if phase == ENTER:
            acts: list[tuple] = list(map(d.pick.__getitem__, _firsts(d, plays.right_picks(d, hand, sel, s.chain))))
            if not s.drawn:
                acts.append(("decline",))
            return acts
        if phase == CELEBRATE:
            cats = d.festival_asks(s.fest)
            return [("celebrate", c) for c in _firsts(d, [c for c in hand if d.cat[c] in cats])]
        return self._defences(s, hand)

    def _defences(self, s: UnityState, hand: list[int]) -> list[tuple]:
        """The answers to an evil attack: special cards, a first pick in unity or of evil, or a draw
        while no righteous answer is open."""
        d = s.deck
        beat = sum(map(d.value.__getitem__, s.attack))
        acts = self._answers(s, hand)
        righteous = bool(acts)
        good = plays.unity_picks(d, hand, [], beat)
        picks = plays.evil_picks(d, hand, [], beat)
        if good:
            picks = sorted(good + picks)
        acts += map(d.pick.__getitem__, _firsts(d, picks))
        if not righteous and not good and (s.pile or any(s.discard)):
            acts.append(("draw",))
        return acts

    def _answers(self, s: UnityState, hand: list[int]) -> list[tuple]:
        """David, Trinity, God's Judgement, God's Glory and Angel answers open to the defender."""
        d = s.deck
        if d.answers.isdisjoint(hand):
            return []
        flags = d.flags
        acts: list[tuple] = []
        for c in _firsts(d, [c for c in hand if flags[c] & ANSWERS]):
            f = flags[c]
            for kind, flag in SPECIAL:
                if f & flag and (flag != DAVID or any(d.name[x] == d.targets[c] for x in s.attack)):
                    acts.append((kind, c))
            if f & ANGEL:
                acts += [("angel", c, x) for x in _firsts(d, [x for x in hand if x != c])
                         if d.side[x] == RIGHTEOUS]
        return acts

    def _more(self, s: UnityState, hand: list[int], sel: list[int]) -> list[tuple]:
        """Go on with a selection: play it if it is complete, or pick one more card."""
        d, phase = s.deck, s.phase
        if d.side[sel[0]] == EVIL:
            beat = sum(map(d.value.__getitem__, s.attack)) if phase == RESPOND else -1
            valid, picks = plays.evil_valid(d, sel, beat), plays.evil_picks(d, hand, sel, beat)
        elif phase == RESPOND:
            beat = sum(map(d.value.__getitem__, s.attack))
            valid, picks = plays.unity_valid(d, sel, beat), plays.unity_picks(d, hand, sel, beat)
        else:
            chain = s.chain if phase == ENTER else 0
            valid, picks = plays.right_valid(d, sel, chain), plays.right_picks(d, hand, sel, chain)
        acts: list[tuple] = [("play",)] if valid else []
        acts += map(d.pick.__getitem__, _firsts(d, picks))
        return acts

    # --- applying an action ------------------------------------------------------------------

    def apply(self, state: UnityState, action: tuple, player: int | None = None) -> list[Event]:
        if state.phase == OVER:
            raise RuleError("over", "The game is over: start a new game to play again.")
        seat = state.turn
        if player is not None and player != seat:
            raise RuleError("turn", f"It is {state.players[seat]}'s turn to {DOING[state.phase]}: "
                                    "wait for them.")
        if type(action) is not tuple:
            if not isinstance(action, list):
                raise RuleError("action", f"{action!r} is not an action: send a list such as ['play'].")
            action = tuple(action)
        key = len(state.actions)
        if state.legal is None or state.legal[0] != key:
            state.legal = (key, self._legal(state))
        if action not in state.legal[1]:
            raise refusal(state, action)
        state.actions.append((seat, action))
        ev: list[Event] = []
        self._handlers[action[0]](state, seat, action, ev)
        self._settle(state, ev)
        return ev

    def _settle(self, s: UnityState, ev: list[Event]) -> None:
        """Move on past seats that have nothing to do, then cache the next legal actions."""
        while s.phase != OVER:
            if s.phase == CELEBRATE:
                cats = s.deck.festival_asks(s.fest)
                while s.queue and not any(s.deck.cat[c] in cats for c in s.hands[s.queue[0]]):
                    s.queue.pop(0)
                if not s.queue:
                    self._free_turn(s, s.attacker, ev)
                    continue
                s.turn = s.queue[0]
            acts = self._legal(s)
            if acts:
                s.legal = (len(s.actions), acts)
                return
            if s.phase == RESPOND:
                self._say(s, ev, "lapse", lambda: "No card is left to draw and the attack cannot be "
                                                  "defeated: it lapses (house rule).")
                self._end_battle(s, ev, None)
            elif s.phase == ENTER:
                self._say(s, ev, "broken", lambda: f"{s.players[s.turn]} cannot enter into "
                                                   "righteousness: the chain is broken.", seat=s.turn)
                self._free_turn(s, (s.turn + 1) % s.n, ev)
            else:
                self._free_turn(s, (s.turn + 1) % s.n, ev)

    # the free turn

    def _do_pick(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        s.sel.append(action[1])
        self._say(s, ev, "pick", lambda: f"{s.players[seat]} picks {s.deck.name[action[1]]}.",
                  see=(seat,), seat=seat, card=action[1])

    def _do_play(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        cards, s.sel = s.sel, []
        evil = s.deck.side[cards[0]] == EVIL
        if s.phase == FREE:
            (self._attack if evil else self._invite)(s, seat, cards, ev)
        elif s.phase == RESPOND:
            (self._defeat_with_evil if evil else self._defeat_in_unity)(s, seat, cards, ev)
        else:
            self._enter(s, seat, cards, ev)

    def _attack(self, s: UnityState, seat: int, cards: list[int], ev: list[Event]) -> None:
        """An evil attack on the next player, who must use their turn to defeat it."""
        self._take(s, seat, cards)
        s.attack = cards[:]
        s.attacker, s.defender = seat, (seat + 1) % s.n
        s.struck = s.turn = s.defender
        s.phase = RESPOND
        strength = sum(map(s.deck.value.__getitem__, cards))
        self._say(s, ev, "attack", lambda: f"{s.players[seat]} attacks {s.players[s.defender]} with "
                                           f"{self._names(s, cards)} ({strength} points).",
                  seat=seat, target=s.defender, cards=cards, strength=strength)
        self._after_play(s, seat, cards, ev)

    def _invite(self, s: UnityState, seat: int, cards: list[int], ev: list[Event]) -> None:
        """An invitation to enter into righteousness; the next player answers."""
        self._take(s, seat, cards)
        s.discard[RIGHTEOUS] += cards
        s.chain = self._cats(s, cards)
        s.chain_count, s.entered, s.best = len(cards), 1, (len(cards), seat)
        s.phase, s.turn, s.drawn = ENTER, (seat + 1) % s.n, False
        self._say(s, ev, "invite", lambda: f"{s.players[seat]} invites all to enter into righteousness "
                                           f"with {self._names(s, cards)}.", seat=seat, cards=cards)
        self._after_play(s, seat, cards, ev)

    def _do_festival(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        """Every player celebrates in turn from the player of the card, who then plays again."""
        c = action[1]
        d = s.deck
        self._take(s, seat, [c])
        s.discard[FESTIVAL].append(c)
        self._say(s, ev, "festival", lambda: f"{s.players[seat]} celebrates {d.name[c]}.", seat=seat, card=c)
        self._after_play(s, seat, [c], ev)
        kind, _, count = d.festival[c]
        order = [(seat + k) % s.n for k in range(s.n)]
        if kind == "discard":
            s.phase, s.fest, s.attacker, s.queue = CELEBRATE, c, seat, order
            return
        pile = s.discard[RIGHTEOUS]
        for who in order:
            got = pile[:count]
            del pile[:count]
            for x in got:
                insort(s.hands[who], x)
                s.shown[x] = 1
            if got:
                self._say(s, ev, "festival_draw", partial(self._festival_draw_text, s, who, got), seat=who, cards=got)
        self._free_turn(s, seat, ev)

    def _festival_draw_text(self, s: UnityState, who: int, got: list[int]) -> str:
        return f"{s.players[who]} draws {self._names(s, got)} from the righteous discard pile."

    def _do_celebrate(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        c = action[1]
        self._take(s, seat, [c])
        s.discard[s.deck.side[c]].append(c)
        s.queue.pop(0)
        self._say(s, ev, "celebrate", lambda: f"{s.players[seat]} discards {s.deck.name[c]} for the "
                                              "festival.", seat=seat, card=c)
        self._after_play(s, seat, [c], ev, can_win=False)

    # answering an evil attack

    def _defeat_in_unity(self, s: UnityState, seat: int, cards: list[int], ev: list[Event]) -> None:
        self._take(s, seat, cards)
        s.discard[RIGHTEOUS] += cards
        self._say(s, ev, "defeat", lambda: f"{s.players[seat]} defeats the attack in unity with "
                                           f"{self._names(s, cards)}.", seat=seat, cards=cards)
        if not self._after_play(s, seat, cards, ev):
            self._end_battle(s, ev, None)

    def _defeat_with_evil(self, s: UnityState, seat: int, cards: list[int], ev: list[Event]) -> None:
        """Evil fighting evil: the defender must draw two cards."""
        self._take(s, seat, cards)
        s.discard[EVIL] += cards
        self._say(s, ev, "evil_defeat", lambda: f"{s.players[seat]} defeats evil with evil "
                                                f"({self._names(s, cards)}): the penalty is two cards.",
                  seat=seat, cards=cards)
        self._draw(s, seat, 2, ev)
        self._after_play(s, seat, cards, ev)
        self._end_battle(s, ev, None)

    def _do_david(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        """David defeats Goliath and the attacker draws; the rest of the attack still stands."""
        c = action[1]
        d = s.deck
        giant = next(x for x in s.attack if d.name[x] == d.targets[c])
        self._take(s, seat, [c])
        s.attack.remove(giant)
        s.discard[RIGHTEOUS].append(c)
        s.discard[EVIL].append(giant)
        self._say(s, ev, "david", lambda: f"{d.name[c]} defeats {d.name[giant]}; {s.players[s.attacker]} "
                                          f"draws {d.draws[c]}.", seat=seat, cards=[c, giant])
        self._draw(s, s.attacker, d.draws[c], ev)
        if not self._after_play(s, seat, [c], ev) and not s.attack:
            self._end_battle(s, ev, None)

    def _do_trinity(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        """Trinity defeats the attack, the attacker draws, and it is still the defender's turn."""
        c = action[1]
        self._take(s, seat, [c])
        s.discard[RIGHTEOUS].append(c)
        self._say(s, ev, "trinity", lambda: f"{s.players[seat]} defeats the attack with the Trinity; "
                                            f"{s.players[s.attacker]} draws {s.deck.draws[c]}.", seat=seat,
                  card=c)
        self._draw(s, s.attacker, s.deck.draws[c], ev)
        if not self._after_play(s, seat, [c], ev):
            self._end_battle(s, ev, seat)

    def _do_judgement(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        """God's Judgement turns the attack back: the attacker must now defeat it."""
        c = action[1]
        self._take(s, seat, [c])
        s.discard[RIGHTEOUS].append(c)
        s.attacker, s.defender = seat, s.attacker
        s.turn = s.defender
        self._say(s, ev, "judgement", lambda: f"God's Judgement turns the attack back on "
                                              f"{s.players[s.defender]}.", seat=seat, card=c)
        self._after_play(s, seat, [c], ev)

    def _do_glory(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        """God's Glory ends the attack; the evil cards go back into the attacker's hand."""
        c = action[1]
        self._take(s, seat, [c])
        s.discard[RIGHTEOUS].append(c)
        back, s.attack = s.attack, []
        for x in back:
            insort(s.hands[s.attacker], x)
            s.shown[x] = 1
        self._say(s, ev, "glory", lambda: f"God's Glory ends the attack; {self._names(s, back)} go back "
                                          f"to {s.players[s.attacker]}.", seat=seat, card=c, cards=back)
        if not self._after_play(s, seat, [c], ev):
            self._end_battle(s, ev, None)

    def _do_angel(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        """An Angel with any righteous card defeats any attack; it is still the defender's turn."""
        cards = sorted(action[1:])
        self._take(s, seat, cards)
        s.discard[RIGHTEOUS] += cards
        self._say(s, ev, "angel", lambda: f"{s.players[seat]} defeats the attack with "
                                          f"{self._names(s, cards)}.", seat=seat, cards=cards)
        if not self._after_play(s, seat, cards, ev):
            self._end_battle(s, ev, seat)

    def _do_draw(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        """Unable to defeat the attack with righteousness, the defender draws one card at a time."""
        self._draw(s, seat, 1, ev)

    def _end_battle(self, s: UnityState, ev: list[Event], free: int | None) -> None:
        """The battle used the attacked player's turn: the next player has the free turn, unless
        the card that defeated the attack gave its player one."""
        s.discard[EVIL] += s.attack
        s.attack = []
        self._free_turn(s, (s.struck + 1) % s.n if free is None else free, ev)

    # righteousness

    def _enter(self, s: UnityState, seat: int, cards: list[int], ev: list[Event]) -> None:
        """Entering adds the cards' categories to the chain; when everyone has entered, the player
        who entered with the most cards (the later one on a tie) has the free turn."""
        self._take(s, seat, cards)
        s.discard[RIGHTEOUS] += cards
        s.chain |= self._cats(s, cards)
        s.chain_count += len(cards)
        s.entered += 1
        if len(cards) >= s.best[0]:
            s.best = (len(cards), seat)
        self._say(s, ev, "enter", lambda: f"{s.players[seat]} enters into righteousness with "
                                          f"{self._names(s, cards)}.", seat=seat, cards=cards)
        if self._after_play(s, seat, cards, ev):
            return
        if s.entered == s.n:
            self._free_turn(s, s.best[1], ev)
        else:
            s.turn, s.drawn = (seat + 1) % s.n, False

    def _do_decline(self, s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
        """Not entering costs one card per righteous card played so far; a matching card may then
        be played, otherwise the chain is broken and the next player has the free turn."""
        self._say(s, ev, "decline", lambda: f"{s.players[seat]} does not enter into righteousness: one card "
                                            "per righteous card played.", seat=seat)
        self._draw(s, seat, s.chain_count, ev)
        s.drawn = True

    # shared steps

    def _free_turn(self, s: UnityState, seat: int, ev: list[Event]) -> None:
        """A new free turn; a player left with no cards draws the two still owed."""
        s.phase, s.turn, s.sel = FREE, seat, []
        s.turns += 1
        if s.turns > s.rules["max_turns"]:
            s.phase, s.reason = OVER, "turn limit"
            self._say(s, ev, "limit", lambda: "The turn limit is reached: the game ends with no winner.")
            return
        if not s.hands[seat]:
            self._draw(s, seat, 2, ev)

    def _after_play(self, s: UnityState, seat: int, cards: list[int], ev: list[Event], *,
                    can_win: bool = True) -> bool:
        """Out of cards: the player wins if the last play was two or more righteous cards or a Unity
        card; otherwise they draw two at once."""
        if s.hands[seat]:
            return False
        d = s.deck
        righteous = sum(1 for c in cards if d.side[c] == RIGHTEOUS)
        if can_win and (righteous >= 2 or any(d.flags[c] & UNITY for c in cards)):
            s.phase, s.winner, s.reason, s.sel = OVER, seat, "won", []
            self._say(s, ev, "win", lambda: f"{s.players[seat]} has played every card and wins!", seat=seat)
            return True
        self._draw(s, seat, 2, ev)
        return False

    def _take(self, s: UnityState, seat: int, cards: list[int]) -> None:
        hand = s.hands[seat]
        for c in cards:
            hand.remove(c)
            s.shown[c] = 0

    def _draw(self, s: UnityState, seat: int, count: int, ev: list[Event]) -> None:
        """Draw from the pile; an empty pile is refilled by reshuffling the three discard piles."""
        hand, got = s.hands[seat], []
        for _ in range(count):
            if not s.pile:
                s.pile = s.discard[0] + s.discard[1] + s.discard[2]
                if not s.pile:
                    break
                s.discard = [[], [], []]
                s.dice.shuffle(s.pile)
                self._say(s, ev, "reshuffle", lambda: "The discard piles are reshuffled into a new deck.",
                          count=len(s.pile))
            if s.loose:  # a determinized pile: the top card is any of the loose ones
                pile = s.pile
                j = len(pile) - 1 - s.dice.below(s.loose)
                pile[j], pile[-1] = pile[-1], pile[j]
                s.loose -= 1
            c = s.pile.pop()
            insort(hand, c)
            got.append(c)
        if got:
            self._say(s, ev, "drew", lambda: f"{s.players[seat]} draws {self._names(s, got)}.",
                      see=(seat,), seat=seat, cards=got)
            self._say(s, ev, "draws", lambda: f"{s.players[seat]} draws {len(got)}.", seat=seat,
                      count=len(got))

    def _cats(self, s: UnityState, cards: list[int]) -> int:
        mask = 0
        for c in cards:
            mask |= 1 << s.deck.cat[c]
        return mask

    def _names(self, s: UnityState, cards: list[int]) -> str:
        return ", ".join(s.deck.name[c] for c in cards)

    def _say(self, s: UnityState, ev: list[Event], kind: str, text: Callable[[], str],
             see: tuple[int, ...] | None = None, **data: Any) -> None:
        ev.append(Event(kind, text() if self.text and s.verbose else "", see, data))

    # --- views, copies, storage, search -----------------------------------------------------

    def view(self, state: UnityState, player: int | None) -> dict[str, Any]:
        """What `player` may see: their own hand and selection, hand sizes, the face-up piles, the
        table, and cards every player saw go into a hand; never other hands or the deck order.
        Every card shown carries what is printed on it (`Deck.card`), so a client can draw it."""
        s, d = state, state.deck
        out: dict[str, Any] = {
            "game": self.name, "seat": player, "players": list(s.players), "phase": PHASES[s.phase],
            "turn": None if s.phase == OVER else s.turn, "turns": s.turns,
            "hand_counts": [len(h) for h in s.hands], "draw_pile": len(s.pile),
            "discards": {PILES[i]: [d.card(c) for c in s.discard[i]] for i in range(3)},
            "shown": [[d.card(c) for c in h if s.shown[c]] for h in s.hands],
            "winner": s.winner, "reason": s.reason,
        }
        if player is not None:
            out["hand"] = [d.card(c) for c in s.hands[player]]
            out["selection"] = s.sel[:] if player == s.turn else []
            out["picked"] = [d.card(c) for c in out["selection"]]
        if s.phase == RESPOND:
            out["attack"] = {"cards": [d.card(c) for c in s.attack], "attacker": s.attacker,
                             "defender": s.defender, "strength": sum(d.value[c] for c in s.attack)}
        elif s.phase == ENTER:
            out["chain"] = {"categories": [d.categories[i] for i in range(len(d.categories))
                                           if s.chain >> i & 1],
                            "played": s.chain_count, "entered": s.entered, "drawn": s.drawn,
                            "leader": s.best[1], "leader_cards": s.best[0],
                            "entries": [{"seat": seat, "cards": [d.card(c) for c in cards]}
                                        for seat, cards in chain_entries(s)]}
        elif s.phase == CELEBRATE:
            # the card may have been reshuffled into the pile since: show what it says, not which card
            asks = [d.categories[i] for i in sorted(d.festival_asks(s.fest))]
            out["festival"] = {"name": d.name[s.fest], "asks_for": asks, "host": s.attacker,
                               "waiting": s.queue[:], "text": d.text[s.fest]}
        return out

    def clone(self, state: UnityState) -> UnityState:
        log = state.dice.log
        seed = hash((state.seed or 0, len(state.actions), len(log) if log is not None else -1)) & (1 << 62) - 1
        return copy_state(state, state.dice.fork(seed))

    def determinize(self, state: UnityState, player: int, rng: random.Random) -> UnityState:
        """Re-deal every card `player` has not seen (other hands, except cards every player saw go
        there, and the draw pile) at random; hand sizes and all public zones stay. Only the cards dealt
        to other hands are drawn now; the pile's order is left loose and settled one draw at a time
        (`UnityState.loose`), so nothing the search never draws is shuffled."""
        t = copy_state(state, Dice.drawing_from(rng))
        shown, hands = t.shown, t.hands
        hidden = t.pile  # the unseen cards; the last `left` of them are not dealt yet
        for seat, h in enumerate(hands):
            if seat != player:
                hidden.extend(c for c in h if not shown[c])
        left, random_ = len(hidden), rng.random
        for seat, h in enumerate(hands):
            if seat == player:
                continue
            keep = [c for c in h if shown[c]]
            for _ in range(len(h) - len(keep)):  # a partial Fisher-Yates: each card from those left
                j = int(random_() * left)
                left -= 1
                hidden[j], hidden[left] = hidden[left], hidden[j]
                keep.append(hidden[left])
            keep.sort()
            hands[seat] = keep
        del hidden[left:]
        t.loose = left
        if t.turn != player:
            t.sel = []
        return t

    def dump(self, state: UnityState) -> dict[str, Any]:
        return state_dump(state)

    def load(self, data: dict[str, Any]) -> UnityState:
        return state_load(data, deck_for(data["config"]))

    def heuristic(self, state: UnityState, player: int) -> float:
        """1 for a win, -1 for a loss; otherwise the fitted estimate of `evaluation`, within (-0.9, 0.9)."""
        return evaluation.estimate(state, player)


GAME = UnityGame()
