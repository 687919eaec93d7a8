"""`UnholyWarGame`: the game protocol of `gamekit.protocol` over the Unholy War table."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gamekit.dice import Dice
from gamekit.events import Event
from gamekit.protocol import as_action

from . import flow, moves, words
from .table import DICE, KIND, OVER, PHASES, TAPPED, UP, State, normalize_config


def _dice_load(seed: int | None, log: list[int] | None) -> Dice:
    """The game's seeded stream wound forward past the outcomes already drawn (one draw per roll),
    so a loaded game goes on exactly as the original would. Unlogged dice (clones) start afresh."""
    if log is None:
        return Dice(seed, log=False)
    dice = Dice(seed)
    if seed is not None:
        for _ in log:
            dice.roll(2)
    dice.log = [int(x) for x in log]
    return dice


def _four(values: Sequence[Any]) -> tuple[int, int, int, int]:
    """A field card (kind, dice, up, tapped) or an Engagement (seats and slots) read back from JSON."""
    a, b, c, d = values
    return int(a), int(b), int(c), int(d)


class UnholyWarGame:
    """Unholy War, level 1, for 2 or more players."""

    name = "unholy-war"

    def new_game(self, config: dict[str, Any] | None, players: Sequence[str], seed: int | None = None,
                 dice: Dice | None = None) -> State:
        """Shuffle each deck (seat order), then the first Upkeep and Strategy Initiative."""
        st = State(normalize_config(config, len(players)), players, seed,
                   dice if dice is not None else Dice(seed))
        for deck in st.deck:
            st.dice.shuffle(deck)
        ev: list[Event] | None = [] if st.verbose else None
        flow.start_round(st, ev)
        st.opening_events = ev or []
        return st

    def to_move(self, state: State) -> tuple[int, ...]:
        return () if state.phase == OVER else (state.cur,)

    legal_actions = staticmethod(moves.legal_actions)
    """``legal_actions(state, player)``: the rule function itself, no extra call on the hot path."""

    apply = staticmethod(moves.apply)
    """``apply(state, action, player=None)``: the rule function itself."""

    def describe_action(self, state: State, action: Any) -> str:
        """A button label for one of the mover's legal actions ("Hide your Zealot (card 1)"), cards counted
        from 1; a list read from JSON is accepted, anything not legal now is refused with a `RuleError`."""
        return words.describe(state, action)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def result(self, state: State) -> dict[str, Any]:
        """Winner and scores (1 to the winner; a draw at the round limit shares 1 among those standing)."""
        n = len(state.players)
        scores = [0.0] * n
        if state.phase == OVER:
            standing = [s for s in range(n) if not state.out[s]]
            for s in standing:
                scores[s] = 1.0 / len(standing)
        return {"winner": state.winner, "scores": scores, "rounds": state.round,
                "defeated": list(state.out)}

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """What `player` may see: no other hand, no facedown card of another player, no deck order."""
        seats = []
        for s in range(len(state.players)):
            own = s == player
            seats.append({
                "name": state.players[s],
                "power": state.pool[s],
                "dice": state.total_dice(s),
                "defeated": state.out[s],
                "hand_size": len(state.hand[s]),
                "hand": sorted(state.hand[s]) if own else None,
                "deck_size": len(state.deck[s]),
                "discard": list(state.discard[s]),
                "field": [{"card": c[KIND] if c[UP] or own else None, "dice": c[DICE],
                           "face_up": bool(c[UP]), "tapped": bool(c[TAPPED])} for c in state.field[s]],
            })
        eng = state.eng
        return {
            "game": self.name, "seat": player, "round": state.round, "phase": PHASES[state.phase],
            "to_move": list(self.to_move(state)), "initiative_power": state.init_power,
            "cards": [list(c) for c in state.config["cards"]],
            "house_rules": dict(state.config["house_rules"]), "players": seats,
            "engagement": None if eng is None else {"attacker": list(eng[:2]), "defender": list(eng[2:])},
            "winner": state.winner,
            "legal_actions": [list(a) for a in moves.legal_actions(state, player)]
            if player is not None else [],
        }

    def clone(self, state: State) -> State:
        """A copy with its own unlogged dice; successive clones of one state get different streams."""
        state.forks += 1
        base = state.seed if state.seed is not None else 0
        return state.clone(state.dice.fork(hash((base, len(state.actions), state.forks)) & 0xFFFFFFFF))

    def determinize(self, state: State, player: int, rng: random.Random) -> State:
        """Re-deal what `player` cannot know: each opponent's hand, deck and facedown cards are
        shuffled together and dealt back into the same places; `player`'s own deck order is shuffled."""
        st = state.clone(Dice.drawing_from(rng))
        for s in range(len(st.players)):
            if s == player:
                rng.shuffle(st.deck[s])
                continue
            field = st.field[s]
            down = [i for i, c in enumerate(field) if not c[UP]]
            hidden = st.hand[s] + st.deck[s] + [field[i][KIND] for i in down]
            rng.shuffle(hidden)
            h, d = len(st.hand[s]), len(st.deck[s])
            st.hand[s], st.deck[s] = hidden[:h], hidden[h:h + d]
            for i, kind in zip(down, hidden[h + d:], strict=True):
                field[i] = (kind, *field[i][1:])
        return st

    def dump(self, state: State) -> dict[str, Any]:
        return {
            "game": self.name, "config": state.config, "players": list(state.players), "seed": state.seed,
            "actions": [[p, list(a)] for p, a in state.actions],
            "chance": None if state.dice.log is None else list(state.dice.log),
            "verbose": state.verbose, "pool": list(state.pool), "hand": [list(h) for h in state.hand],
            "deck": [list(d) for d in state.deck], "discard": [list(d) for d in state.discard],
            "field": [[list(c) for c in f] for f in state.field], "out": list(state.out),
            "acted": list(state.acted), "phase": state.phase, "cur": state.cur, "round": state.round,
            "fresh": state.fresh, "init_power": state.init_power,
            "eng": None if state.eng is None else list(state.eng), "winner": state.winner,
        }

    def load(self, data: dict[str, Any]) -> State:
        st = State(data["config"], data["players"], data["seed"], _dice_load(data["seed"], data["chance"]))
        st.actions = [(int(p), as_action(a)) for p, a in data["actions"]]
        st.verbose = bool(data["verbose"])
        st.pool = [int(x) for x in data["pool"]]
        st.hand = [[int(k) for k in h] for h in data["hand"]]
        st.deck = [[int(k) for k in d] for d in data["deck"]]
        st.discard = [[int(k) for k in d] for d in data["discard"]]
        st.field = [[_four(c) for c in f] for f in data["field"]]
        st.out = [bool(x) for x in data["out"]]
        st.acted = [bool(x) for x in data["acted"]]
        st.phase, st.cur, st.round = int(data["phase"]), int(data["cur"]), int(data["round"])
        st.fresh, st.init_power = bool(data["fresh"]), int(data["init_power"])
        st.eng = None if data["eng"] is None else _four(data["eng"])
        st.winner = data["winner"]
        return st

    def heuristic(self, state: State, player: int) -> float:
        """How well `player` stands, in [-1, 1]: 1 won, -1 lost; otherwise dice to spare before the
        11th die against the best opponent's, and dice on cards against theirs."""
        if state.out[player]:
            return -1.0
        if state.phase == OVER:
            return 1.0 if state.winner == player else 0.0
        cap = state.max_dice + 1

        def standing(s: int) -> tuple[int, int]:
            board = sum(c[DICE] for c in state.field[s])
            return cap - state.pool[s] - board, board

        life, board = standing(player)
        rivals = [standing(s) for s in range(len(state.players)) if s != player and not state.out[s]]
        r_life, r_board = max(rivals)
        value = 0.7 * (life - r_life) / cap + 0.3 * (board - r_board) / cap
        return max(-0.99, min(0.99, value))


GAME = UnholyWarGame()
