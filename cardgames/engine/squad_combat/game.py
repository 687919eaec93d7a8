"""`SquadCombatGame`: the game protocol of `gamekit.protocol` over the Squad Combat rules."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gamekit.dice import Dice
from gamekit.protocol import Action

from . import labels, rules
from .state import MODIFIERS, OVER, STEPS, State, blank, clone, dump, load


class SquadCombatGame:
    """Squad Combat: three characters a side; the last side with characters alive wins."""

    name = "squad-combat"

    def __init__(self, *, text: bool = True) -> None:
        self.text = text  # False: the clones and determinized states it makes carry no event text

    @property
    def quiet(self) -> SquadCombatGame:
        """The same rules whose search copies skip event text (AI players use it)."""
        return self if not self.text else QUIET

    def new_game(self, config: dict[str, Any], players: Sequence[str], seed: int | None = None,
                 dice: Dice | None = None) -> State:
        st = blank(config, players, seed, dice if dice is not None else Dice(seed))
        rules.setup(st)
        return st

    def to_move(self, state: State) -> tuple[int, ...]:
        return () if state.step == OVER else (state.cur,)

    legal_actions = staticmethod(rules.legal_actions)
    """``legal_actions(state, player)``: the rule function itself, no extra call on the hot path."""

    apply = staticmethod(rules.apply)
    """``apply(state, action, player=None)``: the rule function itself."""

    def describe_action(self, state: State, action: Action | list) -> str:
        """A button label for an action of the seat to move, in the rules' words ("Perform Firebolt with
        your Mage on Bob's Knight (1 energy, any die)"); `RuleError` for what is no action of this game."""
        return labels.move(state, action).label

    def is_over(self, state: State) -> bool:
        return state.step == OVER

    def result(self, state: State) -> dict[str, Any]:
        """Winner (None while playing or on a draw at the turn limit) and each side's life left."""
        return {"winner": state.winner, "scores": [_life_left(state, t) for t in range(state.n)],
                "over": state.step == OVER, "turns": state.turn}

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """Everything public (dice are always visible), plus `player`'s own hand and legal actions (`moves`:
        each with its label, the card it uses, who performs it and on whom). `cards` holds the facts of every
        card `player` may see (`labels.card_facts`): the own hand, the discard piles, wounds and the card
        being paid for or attacking; never another hand or a deck. `card_names` is the whole set's names
        (public, and it maps an action's card index to its key: the set's order)."""
        st, cs = state, state.cs
        sides = []
        for seat in range(st.n):
            chars = []
            for slot in range(3):
                ch = 3 * seat + slot
                d = st.chdef[ch]
                chars.append({
                    "slot": slot, "key": cs.ch_keys[d], "name": cs.ch_names[d], "alive": st.alive[ch],
                    "life": cs.ch_life[d], "damage": st.dmg[ch], "energy": cs.ch_energy[d],
                    "spent": st.spent[ch], "dice": st.held[ch][:], "dice_pool": cs.ch_pool[d],
                    "refresh": cs.ch_refresh[d], "called": labels.called(st, ch, player),
                    "traits": [t for i, t in enumerate(cs.trait_names) if cs.ch_traits[d] >> i & 1],
                    "wounds": [{"card": cs.keys[c], "owner": o} for o, c in st.wounds[ch]],
                })
            sides.append({
                "seat": seat, "player": st.players[seat], "characters": chars,
                "hand": [cs.keys[c] for c in sorted(st.hand[seat])] if seat == player else None,
                "hand_size": len(st.hand[seat]), "deck_size": len(st.deck[seat]),
                "discard": [cs.keys[c] for c in st.discard[seat]], "passed": st.passed[seat],
            })
        view: dict[str, Any] = {
            "game": self.name, "seat": player, "turn": st.turn, "max_turns": st.max_turns,
            "first": st.first, "acting": st.actor, "step": STEPS[st.step], "to_move": list(self.to_move(st)),
            "sides": sides, "result": self.result(st),
            "card_names": dict(zip(cs.keys, cs.names, strict=True)),
            "cards": {cs.keys[c]: labels.card_facts(cs, c) for c in sorted(_seen(st, player))},
        }
        if st.p_card >= 0:
            view["paying"] = {"card": cs.keys[st.p_card], "character": st.p_ch, "target": st.p_tch,
                              "cards_left": st.pay_left}
        if st.a_card >= 0:
            view["attack"] = {"card": cs.keys[st.a_card], "attacker": st.a_ch, "defender": st.d_ch,
                              "hit_modifier": cs.hit[st.a_card], "damage": cs.damage[st.a_card],
                              "attack_die": st.a_die, "defence_die": st.d_die, "attack_modifier": st.a_mod,
                              "defence_modifier": st.d_mod, "dice_done": st.step == MODIFIERS}
        if player is not None and player == st.cur and st.step != OVER:
            legal = rules.legal_actions(st, player)
            view["legal_actions"] = [list(a) for a in legal]
            view["moves"] = [{"action": list(a), **labels.move(st, a)._asdict()} for a in legal]
        return view

    def clone(self, state: State, dice: Dice | None = None) -> State:
        copy = clone(state, dice)
        copy.verbose = copy.verbose and self.text
        return copy

    def determinize(self, state: State, player: int, rng: random.Random) -> State:
        """Re-deal what `player` cannot see: each opponent's hand and deck together, and the
        order of `player`'s own deck. Everything played was seen and stays where it is."""
        st = self.clone(state, Dice.drawing_from(rng))
        for seat in range(st.n):
            if seat == player:
                rng.shuffle(st.deck[seat])
                continue
            hidden = st.hand[seat] + st.deck[seat]
            rng.shuffle(hidden)
            size = len(st.hand[seat])
            st.hand[seat], st.deck[seat] = hidden[:size], hidden[size:]
        return st

    def dump(self, state: State) -> dict[str, Any]:
        return dump(state, self.name)

    def load(self, data: dict[str, Any]) -> State:
        return load(data)

    def heuristic(self, state: State, player: int) -> float:
        """Won 1, lost -1, drawn 0; otherwise standing (characters alive, life left, dice, cards)
        against the best-placed opponent, in [-1, 1]."""
        st = state
        if st.step == OVER:
            return 0.0 if st.winner is None else (1.0 if st.winner == player else -1.0)
        mine = _standing(st, player)
        return mine - max(_standing(st, t) for t in range(st.n) if t != player)


def _seen(st: State, player: int | None) -> set[int]:
    """The cards `player` may see: its own hand, every discard pile and wound (face up), and the card
    being paid for or attacking (announced)."""
    seen = set(st.hand[player]) if player is not None else set()
    for pile in st.discard:
        seen.update(pile)
    seen.update(c for wounds in st.wounds for _, c in wounds)
    seen.update(c for c in (st.p_card, st.a_card) if c >= 0)
    return seen


def _life_left(st: State, seat: int) -> int:
    life = st.cs.ch_life
    return sum(life[st.chdef[ch]] - st.dmg[ch] for ch in range(3 * seat, 3 * seat + 3) if st.alive[ch])


def _standing(st: State, seat: int) -> float:
    """0..1: each living character counts 1 plus its share of life left (an attack under way
    counts as its damage times a rough chance to hit); dice held and cards in hand add a little."""
    cs = st.cs
    life, pool = cs.ch_life, cs.ch_pool
    chars = pips = pips_max = 0.0
    for ch in range(3 * seat, 3 * seat + 3):
        if st.alive[ch]:
            full = life[st.chdef[ch]]
            dmg: float = st.dmg[ch]
            if ch == st.d_ch:
                dmg += cs.damage[st.a_card] * _hit_chance(st)
            chars += 1.0 + max(full - dmg, 0.0) / full
            pips += sum(st.held[ch])
            pips_max += 6 * pool[st.chdef[ch]]
    hand = min(len(st.hand[seat]), st.hand_size) / max(st.hand_size, 1)
    return 0.85 * chars / 6.0 + 0.1 * (pips / pips_max if pips_max else 0.0) + 0.05 * hand


def _hit_chance(st: State) -> float:
    """A rough chance that the attack under way hits, from the ratings known so far."""
    if st.step != MODIFIERS:
        return 0.5
    return 0.8 if st.a_die + st.cs.hit[st.a_card] + st.a_mod >= st.d_die + st.d_mod else 0.3


GAME = SquadCombatGame()
QUIET = SquadCombatGame(text=False)
