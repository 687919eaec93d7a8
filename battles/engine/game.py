"""`BattleGame`: the Army Combat battle behind the shared game protocol (gamekit.protocol)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gamekit.dice import Dice
from gamekit.errors import RuleError

from . import actions, legal, views, words
from .heuristic import heuristic
from .roster import build_roster, roster_for
from .state import (
    FIRST,
    HAND,
    OVER,
    PLAY_DEFENSE,
    PLAYED,
    BattleState,
    emit,
    fresh_seed,
    load_fields,
)


class BattleGame:
    """An Army Combat battle between two commanders (seats 0 and 1)."""

    name = "army-combat"
    search_settings = {"exploration": 0.7, "rollout_depth": 12, "rollout_to_turn": True}
    """The search player's settings that beat the greedy player most often (benchmarks/bench_battle_ai.py):
    a Skirmish takes several decisions to resolve, so each new leaf is played on at random up to this
    commander's next decision (at most 12 actions) before the heuristic scores it."""

    def new_game(self, config: dict[str, Any], players: Sequence[str], seed: int | None = None,
                 dice: Dice | None = None) -> BattleState:
        """Both commanders take every card of their armies into hand; a random commander (a
        chance roll) chooses who takes the first turn."""
        roster = roster_for(config)
        if len(players) != 2:
            raise RuleError("battle config", "A Battle has exactly two players, one per commander.")
        if dice is None:
            if seed is None:
                seed = fresh_seed()
            dice = Dice(seed)
        st = object.__new__(BattleState)
        st.config, st.players, st.seed, st.actions, st.dice = config, list(players), seed, [], dice
        st.verbose = bool(config.get("verbose", True))
        st.log, st.roster, st.end_reason, st.legal_cache, st.clones = [], roster, None, None, 0
        st.powers_used = [{}, {}]
        st.where = [HAND] * roster.n
        st.morale = list(roster.start_morale)
        st.base = list(roster.start_base)
        st.influence = list(roster.start_influence)
        st.evoker_left = [3 if "Evoker" in p else 0 for p in roster.powers]
        st.illusionist_left = [2 if "Illusionist" in p else 0 for p in roster.powers]
        st.cleric_used = [1 if "Cleric" in used else 0 for used in roster.used_today]
        st.card = [-1, -1]
        st.role_now = [-1, -1]
        st.base_spent, st.kills, st.traits_now, st.add_card, st.add_card_n = [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]
        st.add_power, st.power_this_skirmish, st.once_used = [0, 0], [0, 0], [0, 0]
        st.rituals_battle, st.rituals_phase, st.battlemage_done = [0, 0], [0, 0], [0, 0]
        st.pending, st.queue, st.mender_shown = [], [], []
        st.phase, st.declines, st.pass_streak = 1, 0, 0
        st.last_defender = st.routed = st.winner = -1
        st.chooser = dice.below(2)
        st.step, st.actor, st.attacker = FIRST, st.chooser, st.chooser
        st.out = st.log
        if st.verbose:
            emit(st, "start", f"The Battle begins: {roster.names[0]} (Morale {st.morale[0] + st.base[0]}) "
                              f"against {roster.names[1]} (Morale {st.morale[1] + st.base[1]}). "
                              f"{roster.names[st.chooser]} chooses who takes the first turn.")
        st.out = None
        return st

    def to_move(self, state: BattleState) -> tuple[int, ...]:
        return () if state.step == OVER else (state.actor,)

    legal_actions = staticmethod(legal.legal_actions)
    """``legal_actions(state, player)``: bound straight to the rules (no wrapper call on the hot path)."""

    apply = staticmethod(actions.apply)
    """``apply(state, action, player=None) -> list[Event]``: bound straight to the rules."""

    def describe_action(self, state: BattleState, action: tuple) -> str:
        """A button label for one of the mover's legal actions ("Play Spearmen (Str 2) on Offense")."""
        return words.describe(state, action)

    def is_over(self, state: BattleState) -> bool:
        return state.step == OVER

    def result(self, state: BattleState) -> dict[str, Any]:
        return views.result(state)

    def view(self, state: BattleState, player: int | None) -> dict[str, Any]:
        return views.view(state, player)

    def clone(self, state: BattleState) -> BattleState:
        return state.clone()

    def determinize(self, state: BattleState, player: int, rng: random.Random) -> BattleState:
        """The only hidden card is an opponent's face-down Offense card (hands are the army less
        the piles on the table): swap it with a random playable card from their hand."""
        c = state.clone(Dice.drawing_from(rng))
        r = c.roster
        if c.step == PLAY_DEFENSE and c.attacker != player:
            u = c.card[0]
            seat = r.owner[u]
            options = [v for v in range(r.lo[seat], r.hi[seat]) if c.where[v] == HAND and r.strength[v] >= 0]
            options.append(u)
            v = rng.choice(options)
            if v != u:
                c.where[u], c.where[v] = HAND, PLAYED
                c.card[0] = v
                c.role_now[0] = r.role[v]
                c.traits_now[0] = r.traits[v] | (c.traits_now[0] & ~r.traits[u])
        return c

    def dump(self, state: BattleState) -> dict[str, Any]:
        return state.dump()

    def load(self, data: dict[str, Any]) -> BattleState:
        st = object.__new__(BattleState)
        st.config, st.players = data["config"], list(data["players"])
        st.roster = build_roster(st.config)
        load_fields(st, data)
        return st

    def heuristic(self, state: BattleState, player: int) -> float:
        return heuristic(state, player)


GAME = BattleGame()
