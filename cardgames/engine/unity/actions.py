"""Applying one action: `apply` (made by `applier`) checks it against the legal actions, hands it to its rule,
then moves on past seats with nothing to do (`settle`).

Actions (JSON-able tuples of small ints and strings):

- ``("pick", c)``: add card c to the play being built (cards go in hand order, see `deck`);
  ``("play",)`` plays the picked cards: an evil attack or an invitation on a free turn, a
  defeat of the attack (in unity, or evil fighting evil), or an entry into righteousness.
- ``("festival", c)``: celebrate a festival; ``("celebrate", c)``: the card you discard for it.
- ``("david", c)``, ``("trinity", c)``, ``("judgement", c)``, ``("glory", c)``,
  ``("angel", a, c)``: the special answers to an evil attack.
- ``("draw",)``: draw one card while you cannot defeat an attack with righteous cards.
- ``("decline",)``: do not enter into righteousness; draw one card per righteous card played.

The rules are in `attack`, `righteousness` and `festivals`, the refusals in `refusals`.
"""

from __future__ import annotations

from collections.abc import Callable

from cardgames.engine.unity import attack, festivals, righteousness
from cardgames.engine.unity.deck import EVIL
from cardgames.engine.unity.legal import actions_now
from cardgames.engine.unity.refusals import refusal
from cardgames.engine.unity.sentences import say
from cardgames.engine.unity.state import CELEBRATE, DOING, ENTER, FREE, OVER, RESPOND, UnityState
from cardgames.engine.unity.turns import end_battle, free_turn
from gamekit.errors import RuleError
from gamekit.events import Event


def applier(text: bool) -> Callable[..., list[Event]]:
    """``apply(state, action, player=None) -> list[Event]`` for a game with event text (built when the config's
    ``verbose`` is on) or without it (`text=False`, the quiet game). A closure, so the flag costs no call."""

    def apply(state: UnityState, action: tuple, player: int | None = None) -> list[Event]:
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
            state.legal = (key, actions_now(state))
        if action not in state.legal[1]:
            raise refusal(state, action)
        state.actions.append((seat, action))
        state.text = text and state.verbose
        ev: list[Event] = []
        HANDLERS[action[0]](state, seat, action, ev)
        settle(state, ev)
        return ev

    return apply


def settle(s: UnityState, ev: list[Event]) -> None:
    """Move on past seats that have nothing to do, then cache the next legal actions."""
    while s.phase != OVER:
        if s.phase == CELEBRATE:
            cats = s.deck.festival_asks(s.fest)
            while s.queue and not any(s.deck.cat[c] in cats for c in s.hands[s.queue[0]]):
                s.queue.pop(0)
            if not s.queue:
                free_turn(s, s.attacker, ev)
                continue
            s.turn = s.queue[0]
        acts = actions_now(s)
        if acts:
            s.legal = (len(s.actions), acts)
            return
        if s.phase == RESPOND:
            say(s, ev, "lapse", {})
            end_battle(s, ev, None)
        elif s.phase == ENTER:
            say(s, ev, "broken", {"seat": s.turn})
            free_turn(s, (s.turn + 1) % s.n, ev)
        else:
            free_turn(s, (s.turn + 1) % s.n, ev)


def _pick(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    s.sel.append(action[1])
    say(s, ev, "pick", {"seat": seat, "card": action[1]}, see=(seat,))


def _play(s: UnityState, seat: int, action: tuple, ev: list[Event]) -> None:
    """Play the picked cards: what the play is depends on the phase and the side of its first card."""
    cards, s.sel = s.sel, []
    evil = s.deck.side[cards[0]] == EVIL
    if s.phase == FREE:
        (attack.attack if evil else righteousness.invite)(s, seat, cards, ev)
    elif s.phase == RESPOND:
        (attack.defeat_with_evil if evil else attack.defeat_in_unity)(s, seat, cards, ev)
    else:
        righteousness.enter(s, seat, cards, ev)


HANDLERS = {
    "pick": _pick, "play": _play, "festival": festivals.festival, "celebrate": festivals.celebrate,
    "david": attack.david, "trinity": attack.trinity, "judgement": attack.judgement, "glory": attack.glory,
    "angel": attack.angel, "draw": attack.draw_one, "decline": righteousness.decline,
}
"""The rule each kind of action goes to."""
