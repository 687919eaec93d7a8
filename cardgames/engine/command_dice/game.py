"""Command Dice battle: the engine behind the shared `Game` protocol (gamekit.protocol).

A Turn: three cards are dealt; both players secretly choose 1 to 4 dice (a joint
move: `to_move` names both seats until each has chosen); the choices are revealed;
the player holding fewer dice (on equal dice, the side of the colour of the first card
dealt) rolls and allocates, then the other. Dice on a defeated card are spent for the
Round; all others return. A Round ends when both players spend their last dice in the
same Turn, after the one final Turn a player with dice gets when the other starts a
Turn with none, or when the Battle Deck is empty. First to three Victories wins.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from operator import sub
from typing import Any

from cardgames.engine.command_dice.rules import Rules, full_config
from cardgames.engine.command_dice.words import action_words, card_label, dice_words
from gamekit.dice import Dice
from gamekit.errors import RuleError
from gamekit.events import Event
from gamekit.protocol import Action, as_action

CHOOSE, ALLOCATE, OVER = 0, 1, 2
PHASES = ("choose", "allocate", "over")
_BOTH, _FIRST, _SECOND, _NOBODY = (0, 1), (0,), (1,), ()
_RULES: dict[str, Rules] = {}


def rules_for(config: dict[str, Any]) -> Rules:
    """One compiled `Rules` per distinct config, so its caches serve every game played by it."""
    key = json.dumps(config, sort_keys=True)
    rules = _RULES.get(key)
    if rules is None:
        rules = _RULES[key] = Rules(config)
    return rules


class CommandDiceState:
    """A game in progress: small ints and tuples; lists only where a clone must copy them.

    Cards are indices into ``rules.cards`` (``-1``: no card there); dice are ``Rules`` die ints.
    ``red`` is the seat playing Red. ``chosen[s]`` is seat s's secret choice (dice per colour).
    ``forks`` counts the clones taken, so each clone's dice get their own seed.
    """

    __slots__ = ("actions", "chosen", "config", "dealt", "deck", "dice", "final", "forks", "options",
                 "order", "phase", "players", "pools", "red", "roll", "round", "rounds", "rules", "seed", "step",
                 "table", "turn", "values", "victories", "winner", "won")

    config: dict[str, Any]
    players: list[str]
    seed: int | None
    actions: list[tuple[int, Action]]
    dice: Dice
    rules: Rules
    red: int
    victories: list[int]
    rounds: tuple[int | None, ...]
    round: int
    turn: int
    deck: list[int]
    dealt: int
    table: tuple[int, ...]
    values: tuple[int, ...]
    pools: list[tuple[int, ...]]
    chosen: list[tuple[int, ...] | None]
    phase: int
    order: tuple[int, ...]
    step: int
    roll: tuple[int, ...]
    options: dict[Action, tuple[tuple[int, ...], tuple[int, ...]]]
    won: list[tuple[int, ...]]
    final: bool
    winner: int | None
    forks: int


class CommandDiceGame:
    """The Command Dice battle. ``verbose=False`` skips building events (for simulation and search)."""

    name = "command-dice"

    def __init__(self, *, verbose: bool = True) -> None:
        self.verbose = verbose

    @property
    def quiet(self) -> CommandDiceGame:
        """The same game without event text: players and the simulator use it for speed."""
        return QUIET

    # -- setting up ---------------------------------------------------------------------------

    def new_game(self, config: dict[str, Any] | None, players: Sequence[str], seed: int | None = None,
                 dice: Dice | None = None) -> CommandDiceState:
        """Deal a side card to the second seat (its colour is their side; the dealer, seat 0, is
        the other colour), then start Round 1."""
        if len(players) != 2:
            raise RuleError("players", f"Command Dice is for exactly two players, not {len(players)}.")
        config = full_config(config)
        state = CommandDiceState()
        state.config = config
        state.players = list(players)
        state.seed = seed
        state.actions = []
        state.dice = dice if dice is not None else Dice(seed)
        state.rules = rules = rules_for(config)
        state.red = 1 if rules.side_red[state.dice.below(len(rules.side_red))] else 0
        state.victories = [0, 0]
        state.rounds = ()
        state.round = 0
        state.chosen = [None, None]
        state.phase = CHOOSE
        state.winner = None
        state.forks = 0
        self._start_round(state, None)
        return state

    def _start_round(self, state: CommandDiceState, ev: list[Event] | None) -> None:
        """Shuffle all the cards into a new Battle Deck; both players take up all their dice."""
        rules = state.rules
        state.round += 1
        deck = list(range(len(rules.cards)))
        state.dice.shuffle(deck)
        state.deck = deck
        state.dealt = 0
        state.pools = [rules.full_pool, rules.full_pool]
        state.won = [(), ()]
        state.final = False
        state.turn = 0
        if ev is not None:
            ev.append(Event("round", f"Round {state.round}: the Battle Deck is shuffled and both players "
                                     "take up all their dice.", data={"round": state.round}))
        self._start_turn(state, ev)

    def _start_turn(self, state: CommandDiceState, ev: list[Event] | None) -> None:
        rules = state.rules
        k = rules.cards_per_turn
        cards = state.deck[state.dealt:state.dealt + k]
        state.dealt += len(cards)
        state.table = table = (*cards, *([-1] * (k - len(cards))))
        state.values = rules.values_of(table)
        state.turn += 1
        state.phase = CHOOSE
        state.chosen = [None, None]
        state.order = ()
        state.step = 0
        state.roll = ()
        state.options = {}
        if ev is not None:
            names = ", ".join(card_label(rules.cards[c]) for c in cards)
            first = "Red" if rules.red_card[table[0]] else "Black"
            ev.append(Event("deal", f"Turn {state.turn}: {names} are dealt. The first card is "
                                    f"{first.lower()}, so {first} leads if both hold as many dice.",
                            data={"turn": state.turn, "cards": [rules.cards[c] for c in cards]}))

    # -- whose move, what is legal --------------------------------------------------------------

    def to_move(self, state: CommandDiceState) -> tuple[int, ...]:
        """Both seats while choosing (each until it has chosen; a seat with no dice sits the Turn out)."""
        phase = state.phase
        if phase == ALLOCATE:
            return (state.order[state.step],)
        if phase == OVER:
            return _NOBODY
        chosen, pools = state.chosen, state.pools
        a = chosen[0] is None and any(pools[0])
        b = chosen[1] is None and any(pools[1])
        if a:
            return _BOTH if b else _FIRST
        return _SECOND if b else _NOBODY

    def legal_actions(self, state: CommandDiceState, player: int) -> list[Action]:
        """Choices fewest dice first; allocations in a fixed order of the sorted roll."""
        if player not in _BOTH or not _moves(state, player):
            return []
        if state.phase == CHOOSE:
            return list(state.rules.choices(state.pools[player])[0])
        return list(state.options)

    def describe_action(self, state: CommandDiceState, action: Any) -> str:
        """A button label for a legal action of a seat to move: 'Roll 2 red, 1 white' or 'Take 3♥ with red 1 + white 2'.
        A list read from JSON is accepted; anything no seat may do now is refused with a `RuleError`."""
        act = as_action(action)
        rules = state.rules
        try:
            if state.phase == CHOOSE:
                legal = any(act in rules.choices(state.pools[s])[1] for s in self.to_move(state))
            else:
                legal = state.phase == ALLOCATE and act in state.options
        except TypeError:  # an unhashable part: no action has one
            legal = False
        if not legal:
            raise RuleError("action", f"{list(act)!r} is not an action a player may take now: "
                                      "choose one of the listed actions.")
        return action_words(act, rules.colours, [rules.cards[c] if c >= 0 else None for c in state.table])

    # -- playing ------------------------------------------------------------------------------

    def apply(self, state: CommandDiceState, action: Action, player: int | None = None) -> list[Event]:
        if player is None:
            movers = self.to_move(state)
            if len(movers) != 1:
                raise RuleError("turn", "Both players choose at once: say which seat this choice is for."
                                if movers else "The game is over: start a new one.")
            player = movers[0]
        elif player not in _BOTH or not _moves(state, player):
            raise RuleError("turn", "The game is over: start a new one." if state.phase == OVER else
                            f"It is not {state.players[player]}'s move: wait for "
                            f"{' and '.join(state.players[s] for s in self.to_move(state))}.")
        ev: list[Event] | None = [] if self.verbose else None
        if state.phase == CHOOSE:
            self._choose(state, player, action, ev)
        else:
            self._allocate(state, player, action, ev)
        return ev if ev is not None else []

    def _who(self, state: CommandDiceState, seat: int) -> str:
        return f"{state.players[seat]} ({'Red' if seat == state.red else 'Black'})"

    def _choose(self, state: CommandDiceState, player: int, action: Action, ev: list[Event] | None) -> None:
        """Secretly choose 1 to 4 dice from the pool; revealed once both players have chosen."""
        rules = state.rules
        pool = state.pools[player]
        try:
            legal = action in rules.choices(pool)[1]
        except TypeError:
            legal = False
        if not legal:
            raise RuleError("choose", f"Choose {rules.min_dice} to {rules.max_dice} dice from your pool "
                                      f"as ['choose', {', '.join(rules.colours)}]: "
                                      f"you have {rules.pool_text(pool)}.")
        state.chosen[player] = action[1:]
        state.actions.append((player, action))
        if ev is not None:
            ev.append(Event("choice", f"You hold {rules.pool_text(action[1:])} in your fist.", (player,),
                            {"dice": list(action[1:])}))
            ev.append(Event("ready", f"{self._who(state, player)} has chosen their dice."))
        if not _moves(state, 1 - player):
            self._reveal(state, ev)

    def _reveal(self, state: CommandDiceState, ev: list[Event] | None) -> None:
        """Fewer dice has the initiative; on equal dice, the side of the first card's colour."""
        chosen = state.chosen
        if chosen[0] is None or chosen[1] is None:
            first = 0 if chosen[1] is None else 1
            state.order = (first,)
            reason = "plays the final Turn alone"
        else:
            n0, n1 = sum(chosen[0]), sum(chosen[1])
            if n0 != n1:
                first = 0 if n0 < n1 else 1
                reason = "holds fewer dice and goes first"
            else:
                red_first = state.rules.red_card[state.table[0]]
                first = state.red if red_first else 1 - state.red
                reason = f"goes first: equal dice, and the first card is {'red' if red_first else 'black'}"
            state.order = (first, 1 - first)
        state.step = 0
        if ev is not None:
            shown = "; ".join(f"{self._who(state, s)} shows {state.rules.pool_text(c)}"
                              for s, c in enumerate(chosen) if c is not None)
            ev.append(Event("reveal", f"One, two, three... Fight! {shown}.",
                            data={"chosen": [list(c) if c is not None else None for c in chosen]}))
            ev.append(Event("initiative", f"{self._who(state, first)} {reason}.", data={"first": first}))
        self._roll(state, ev)

    def _roll(self, state: CommandDiceState, ev: list[Event] | None) -> None:
        """The player whose go it is rolls the dice they chose (one d6 each, read as swords)."""
        seat = state.order[state.step]
        roll_die = state.dice.roll
        dice = []
        for n, (sides, shown) in zip(state.chosen[seat], state.rules.die_faces, strict=True):  # type: ignore[arg-type]
            for _ in range(n):
                dice.append(shown[roll_die(sides) - 1])
        dice.sort()
        state.roll = tuple(dice)
        state.options = state.rules.allocations(state.roll, state.values)
        state.phase = ALLOCATE
        if ev is not None:
            names = [state.rules.die_name[d] for d in dice]
            swords = sum(state.rules.die_swords[d] for d in dice)
            ev.append(Event("roll", f"{self._who(state, seat)} rolls {dice_words(names, state.rules.colours)}: "
                                    f"{_count(swords, 'sword')}.",
                            data={"seat": seat, "dice": names}))

    def _allocate(self, state: CommandDiceState, player: int, action: Action, ev: list[Event] | None) -> None:
        """Defeat cards with whole dice; dice on a defeated card are spent for the Round, others return."""
        rules, options = state.rules, state.options
        try:
            found = options.get(action)
        except TypeError:
            found = None
        if found is None:
            raise allocation_error(rules, state.roll, state.values, action, options)
        spent, defeated = found
        if defeated:
            pool = state.pools[player]
            state.pools[player] = tuple(map(sub, pool, spent))
            table = list(state.table)
            won = state.won[player]
            for position in defeated:
                won += (table[position],)
                table[position] = -1
            state.won[player] = won
            state.table = tuple(table)
            state.values = rules.values_of(table)
        state.actions.append((player, action))
        if ev is not None:
            self._allocation_events(state, player, action, defeated, ev)
        state.step += 1
        if state.step < len(state.order):
            self._roll(state, ev)
        else:
            self._end_turn(state, ev)

    def _allocation_events(self, state: CommandDiceState, player: int, action: Action,
                           defeated: tuple[int, ...], ev: list[Event]) -> None:
        rules, who = state.rules, self._who(state, player)
        won = state.won[player]
        for i, position in enumerate(defeated):
            card = rules.cards[won[len(won) - len(defeated) + i]]
            ev.append(Event("defeat", f"{who} defeats the {card_label(card)} with "
                                      f"{dice_words(action[1 + position], rules.colours)}.",
                            data={"seat": player, "card": card, "dice": list(action[1 + position])}))
        used = sum(len(action[1 + p]) for p in defeated)
        back = len(state.roll) - used
        text = (f"{who} spends {_count(used, 'die')} for the Round; {back} back to the pool." if defeated
                else f"{who} cannot defeat a card; {_count(back, 'die')} back to the pool.")
        ev.append(Event("dice", text, data={"seat": player, "pool": list(state.pools[player])}))

    def _end_turn(self, state: CommandDiceState, ev: list[Event] | None) -> None:
        """Clear the table; end the Round or deal the next Turn."""
        state.roll = ()
        if state.final:
            self._end_round(state, "the final Turn is over", ev)
        elif state.dealt >= len(state.rules.cards):
            self._end_round(state, "the Battle Deck is empty", ev)
        else:
            empty0, empty1 = not any(state.pools[0]), not any(state.pools[1])
            if empty0 and empty1:
                self._end_round(state, "both players used their last dice at the same time", ev)
                return
            if empty0 or empty1:
                state.final = True
                if ev is not None:
                    out, on = (0, 1) if empty0 else (1, 0)
                    ev.append(Event("final", f"{self._who(state, out)} has no dice left: "
                                             f"{self._who(state, on)} plays one final Turn."))
            self._start_turn(state, ev)

    def _end_round(self, state: CommandDiceState, reason: str, ev: list[Event] | None) -> None:
        """Higher total of defeated cards wins the Round; then fewer cards; else a draw."""
        value = state.rules.value
        scores = [sum(value[c] for c in won) for won in state.won]
        counts = [len(won) for won in state.won]
        if scores[0] != scores[1]:
            winner: int | None = 0 if scores[0] > scores[1] else 1
        elif counts[0] != counts[1]:
            winner = 0 if counts[0] < counts[1] else 1
        else:
            winner = None
        state.rounds += (winner,)
        if winner is not None:
            state.victories[winner] += 1
        if ev is not None:
            outcome = (f"{self._who(state, winner)} claims a Victory" if winner is not None
                       else "The Round is a draw")
            ev.append(Event("round-end", f"Round {state.round} ends: {reason}. "
                                         f"{self._who(state, 0)} scores {scores[0]} with {counts[0]} cards, "
                                         f"{self._who(state, 1)} {scores[1]} with {counts[1]}. {outcome} "
                                         f"({state.victories[0]}-{state.victories[1]}).",
                            data={"scores": scores, "cards": counts, "winner": winner}))
        if winner is not None and state.victories[winner] >= state.rules.victories:
            state.phase = OVER
            state.winner = winner
            state.table = tuple(-1 for _ in state.table)
            state.values = tuple(0 for _ in state.table)
            if ev is not None:
                ev.append(Event("game-over", f"{self._who(state, winner)} wins the battle "
                                             f"{state.victories[winner]}-{state.victories[1 - winner]}.",
                                data={"winner": winner}))
        else:
            self._start_round(state, ev)

    # -- outcome ------------------------------------------------------------------------------

    def is_over(self, state: CommandDiceState) -> bool:
        return state.phase == OVER

    def result(self, state: CommandDiceState) -> dict[str, Any]:
        return {"winner": state.winner, "scores": list(state.victories), "rounds": list(state.rounds)}

    def heuristic(self, state: CommandDiceState, player: int) -> float:
        """Victories ahead, plus the Round in hand squashed to at most one Victory, over Victories needed.

        The Round in hand counts cards won, dice left at their average swords, and the best
        allocation of a roll waiting to be allocated; fewer cards breaks ties.
        """
        if state.phase == OVER:
            return 1.0 if state.winner == player else -1.0
        other = 1 - player
        lead = state.victories[player] - state.victories[other]
        edge = _round_worth(state, player) - _round_worth(state, other)
        return max(-1.0, min(1.0, (lead + math.tanh(edge / 4.0)) / state.rules.victories))

    # -- copies, views and storage -------------------------------------------------------------

    def clone(self, state: CommandDiceState) -> CommandDiceState:
        """A copy with its own unlogged dice stream, seeded from the state so runs repeat."""
        state.forks += 1
        seed = hash((state.dice.seed or 0, state.seed or 0, len(state.actions), state.forks)) & 0xFFFFFFFFFFFF
        return _copy(state, state.dice.fork(seed))

    def determinize(self, state: CommandDiceState, player: int, rng: random.Random) -> CommandDiceState:
        """What `player` cannot know drawn at random: the unseen cards' order and, before the
        reveal, the other player's secret choice. Draws depend only on what `player` has seen."""
        copy = _copy(state, Dice.drawing_from(rng))
        if state.dealt < len(state.deck):
            unseen = sorted(state.deck[state.dealt:])
            rng.shuffle(unseen)
            copy.deck = state.deck[:state.dealt] + unseen
        other = 1 - player
        if state.phase == CHOOSE and state.chosen[other] is not None:
            copy.chosen[other] = rng.choice(state.rules.choices(state.pools[other])[0])[1:]
        return copy

    def view(self, state: CommandDiceState, player: int | None) -> dict[str, Any]:
        """Everything public and `player`'s own secret choice; never the deck order or the other's choice."""
        rules = state.rules
        hidden = state.phase == CHOOSE

        def shown(seat: int) -> Any:
            chosen = state.chosen[seat]
            if chosen is None:
                return None
            if hidden and seat != player:
                return "chosen"
            return dict(zip(rules.colours, chosen, strict=True))

        roller = state.order[state.step] if state.phase == ALLOCATE else None
        return {
            "game": self.name, "you": player, "players": list(state.players),
            "sides": {"red": state.red, "black": 1 - state.red},
            "phase": PHASES[state.phase], "to_move": list(self.to_move(state)),
            "round": state.round, "turn": state.turn, "victories": list(state.victories),
            "rounds": list(state.rounds), "deck_left": len(state.deck) - state.dealt,
            "table": [rules.cards[c] if c >= 0 else None for c in state.table],
            "pools": [dict(zip(rules.colours, p, strict=True)) for p in state.pools],
            "chosen": [shown(0), shown(1)], "roller": roller,
            "roll": [rules.die_name[d] for d in state.roll],
            "won": [[rules.cards[c] for c in won] for won in state.won],
            "scores": [sum(rules.value[c] for c in won) for won in state.won],
            "final_turn": state.final, "winner": state.winner,
        }

    def dump(self, state: CommandDiceState) -> dict[str, Any]:
        rules = state.rules
        return {
            "game": self.name, "config": state.config, "players": list(state.players), "seed": state.seed,
            "actions": [[p, _jsonable(a)] for p, a in state.actions],
            "dice": state.dice.dump(),
            "red": state.red, "victories": list(state.victories), "rounds": list(state.rounds),
            "round": state.round, "turn": state.turn, "deck": [rules.cards[c] for c in state.deck],
            "dealt": state.dealt, "table": [rules.cards[c] if c >= 0 else None for c in state.table],
            "pools": [list(p) for p in state.pools],
            "chosen": [list(c) if c is not None else None for c in state.chosen],
            "phase": PHASES[state.phase], "order": list(state.order), "step": state.step,
            "roll": [rules.die_name[d] for d in state.roll],
            "won": [[rules.cards[c] for c in won] for won in state.won],
            "final": state.final, "winner": state.winner,
        }

    def load(self, data: dict[str, Any]) -> CommandDiceState:
        """A dumped state; its dice resume where the dump left them (``Dice.load``)."""
        state = CommandDiceState()
        state.config = full_config(data["config"])
        state.rules = rules = rules_for(state.config)
        card = {name: i for i, name in reversed(list(enumerate(rules.cards)))}
        die = {name: d for d, name in rules.die_name.items()}
        state.players = list(data["players"])
        state.seed = data["seed"]
        state.actions = [(int(p), as_action(a)) for p, a in data["actions"]]
        state.dice = Dice.load(data["dice"])
        state.red = data["red"]
        state.victories = list(data["victories"])
        state.rounds = tuple(data["rounds"])
        state.round, state.turn, state.dealt = data["round"], data["turn"], data["dealt"]
        state.deck = [card[c] for c in data["deck"]]
        state.table = tuple(card[c] if c is not None else -1 for c in data["table"])
        state.values = rules.values_of(state.table)
        state.pools = [tuple(p) for p in data["pools"]]
        state.chosen = [tuple(c) if c is not None else None for c in data["chosen"]]
        state.phase = PHASES.index(data["phase"])
        state.order = tuple(data["order"])
        state.step = data["step"]
        state.roll = tuple(die[d] for d in data["roll"])
        state.options = rules.allocations(state.roll, state.values) if state.phase == ALLOCATE else {}
        state.won = [tuple(card[c] for c in won) for won in data["won"]]
        state.final, state.winner, state.forks = data["final"], data["winner"], 0
        return state


def _moves(state: CommandDiceState, seat: int) -> bool:
    """Whether `seat` (0 or 1) is among `to_move`'s seats, without building them."""
    phase = state.phase
    if phase == CHOOSE:
        return state.chosen[seat] is None and any(state.pools[seat])
    return phase == ALLOCATE and state.order[state.step] == seat


def _copy(state: CommandDiceState, dice: Dice) -> CommandDiceState:
    """Copy the mutable lists; share the immutable tuples, the deck (replaced, never changed) and rules."""
    c = CommandDiceState()
    c.config, c.players, c.seed, c.rules = state.config, state.players, state.seed, state.rules
    c.actions = state.actions[:]
    c.dice = dice
    c.red, c.victories, c.rounds = state.red, state.victories[:], state.rounds
    c.round, c.turn = state.round, state.turn
    c.deck, c.dealt, c.table, c.values = state.deck, state.dealt, state.table, state.values
    c.pools, c.chosen, c.won = state.pools[:], state.chosen[:], state.won[:]
    c.phase, c.step, c.roll, c.final, c.winner, c.forks = (state.phase, state.step, state.roll, state.final,
                                                          state.winner, 0)
    c.order, c.options = state.order, state.options
    return c


def _round_worth(state: CommandDiceState, seat: int) -> float:
    """Points won this Round, plus dice left at their average swords, plus the best use of a waiting roll."""
    rules = state.rules
    worth = sum(rules.value[c] for c in state.won[seat]) - 0.01 * len(state.won[seat])
    worth += sum(n * m for n, m in zip(state.pools[seat], rules.mean_swords, strict=True))
    if state.phase == ALLOCATE and state.order[state.step] == seat:
        mean, values = rules.mean_swords, state.values
        worth += max(sum(values[p] for p in defeated) - sum(n * m for n, m in zip(spent, mean, strict=True))
                     for spent, defeated in state.options.values())
    return worth


def _count(n: int, noun: str) -> str:
    plural = "dice" if noun == "die" else f"{noun}s"
    return f"{n} {noun if n == 1 else plural}"


def _jsonable(action: Action) -> list[Any]:
    return [list(x) if isinstance(x, tuple) else x for x in action]


def allocation_error(rules: Rules, roll: tuple[int, ...], values: tuple[int, ...], action: Any,
                     options: dict[Action, Any]) -> RuleError:
    """Name the allocation rule an illegal action breaks, and say what to do instead."""
    k = len(values)
    if not (isinstance(action, tuple) and len(action) == k + 1 and action[0] == "allocate"
            and all(isinstance(g, tuple) for g in action[1:])):
        return RuleError("allocate", f"Allocate as ['allocate', dice on card 1, ..., dice on card {k}], "
                                     "e.g. ['allocate', ['R2'], [], []].")
    rolled = [rules.die_name[d] for d in roll]
    for name in {n for g in action[1:] for n in g}:
        used = sum(g.count(name) for g in action[1:])
        if used > rolled.count(name):
            return RuleError("whole-dice", f"You rolled {rolled.count(name)} {name}, but placed it {used} "
                                           "times: each die goes whole to one card, never split.")
    for position, group in enumerate(action[1:]):
        if not group:
            continue
        if not values[position]:
            return RuleError("no-card", f"There is no card in place {position + 1} any more: "
                                        "place dice only on cards still on the table.")
        swords = sorted(int(n[1:]) for n in group)
        if sum(swords) < values[position]:
            return RuleError("defeat", f"{sum(swords)} swords cannot defeat a {values[position]}: "
                                       "give a card dice reaching its number, or none.")
        if sum(swords) - swords[0] >= values[position]:
            return RuleError("over-allocation", f"The card needs {values[position]} swords; drop a die "
                                                "you do not need: no more swords than required unless "
                                                "the dice force it.")
    for position, group in enumerate(action[1:]):
        if group and sum(int(n[1:]) for n in group) > values[position]:
            return RuleError("over-allocation", f"Your dice can make exactly {values[position]} for the card "
                                                f"in place {position + 1}: place those, not more swords "
                                                "than required.")
    if not any(action[1:]):
        return RuleError("must-defeat", "You can defeat a card, so you must: "
                                        "allocate dice to at least one card.")
    return RuleError("allocate", "That allocation is not possible with this roll.")


GAME = CommandDiceGame()
QUIET = CommandDiceGame(verbose=False)
