"""The Squad Combat state: plain lists of small ints, copied (never deep-copied) by `clone`.

Characters are numbered ``seat * 3 + slot`` (slot 0 is the leftmost). Cards are card-set
indexes; a wound is ``(owner seat, card)`` so a dead character's attack cards go back to
their owners' discard piles.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamekit.dice import Dice
from gamekit.errors import RuleError
from gamekit.protocol import Action

from .cards import SQUAD, CardSet, Lineup, card_set

ACTION, PAY, ATTACK_DIE, DEFENCE_DIE, MODIFIERS, END_DISCARD, OVER = range(7)
STEPS = ("action", "pay", "attack die", "defence die", "modifiers", "end of turn", "over")

HOUSE_RULES: dict[str, Any] = {
    "hand_size": 5,
    "end_discards": 2,
    "max_turns": 40,
    "reshuffle": True,
    "rotate_first_player": False,
}
"""House-rule settings and their defaults (see the package docstring for what each means)."""


def house(config: dict[str, Any], name: str) -> Any:
    value = config.get(name, HOUSE_RULES[name])
    if type(value) is not type(HOUSE_RULES[name]) or (isinstance(value, int) and value < 0):
        raise RuleError("house rules", f"{name} must be like {HOUSE_RULES[name]!r}, not {value!r}.")
    return value


class State:
    """One game in progress. `cur` is the seat to move; `actor` holds the current action phase."""

    __slots__ = (
        "a_card", "a_ch", "a_die", "a_mod", "actions", "actor", "alive", "chdef", "config", "cs", "cur",
        "d_ch", "d_die", "d_mod", "deck", "dice", "discard", "dmg", "dones", "end_discards", "eot_count",
        "first", "forks", "hand", "hand_size", "held", "lineup", "max_turns", "n", "p_card", "p_ch", "p_kind",
        "p_seat", "p_tch", "passed", "pay_left", "players", "reshuffle", "rotate", "seed",
        "spent", "step", "turn", "verbose", "winner", "wounds",
    )

    config: dict[str, Any]
    players: list[str]
    seed: int | None
    dice: Dice
    cs: CardSet
    n: int
    """Seats, 2 to 6."""
    chdef: tuple[int, ...]
    """Per character: its index in the card set's characters."""
    lineup: Lineup
    verbose: bool
    # House rules (`HOUSE_RULES`)
    hand_size: int
    end_discards: int
    max_turns: int
    reshuffle: bool
    rotate: bool
    # Zones: per seat (hand, deck, discard) or per character (wounds, held); cards are set indexes
    hand: list[list[int]]
    deck: list[list[int]]
    discard: list[list[int]]
    wounds: list[list[tuple[int, int]]]
    """Per character: (owner seat, card) of each wound card under it, oldest first."""
    held: list[list[int]]
    """Per character: its dice, highest first."""
    dmg: list[int]
    alive: list[bool]
    spent: list[int]
    """Per character: energy spent this turn."""
    passed: list[bool]
    actions: list[tuple[int, Action]]
    # Where the turn is
    turn: int
    first: int
    cur: int
    actor: int
    step: int
    # A card being paid for (kind, seat, card, character, target; -1 when none) and cards still to pay
    p_kind: int
    p_seat: int
    p_card: int
    p_ch: int
    p_tch: int
    pay_left: int
    # An attack under way (card and characters -1 when none), its dice, modifiers and edge passes
    a_card: int
    a_ch: int
    d_ch: int
    a_die: int
    d_die: int
    a_mod: int
    d_mod: int
    dones: int
    eot_count: int
    winner: int | None
    forks: int


def blank(config: dict[str, Any], players: Sequence[str], seed: int | None, dice: Dice) -> State:
    """A state with the config read and every zone empty."""
    st = State()
    st.config, st.players, st.seed, st.dice = config, list(players), seed, dice
    st.n = n = len(st.players)
    if not 2 <= n <= 6:
        raise RuleError("players", f"Squad Combat is for 2 to 6 players, not {n}: seat 2 to 6 players.")
    st.cs = cs = card_set(config)
    st.verbose = bool(config.get("verbose", True))
    st.hand_size = house(config, "hand_size")
    st.end_discards = house(config, "end_discards")
    st.max_turns = house(config, "max_turns")
    st.reshuffle = house(config, "reshuffle")
    st.rotate = house(config, "rotate_first_player")
    squads = config.get("squads") or [config.get("squad")] * n
    if len(squads) != n:
        raise RuleError("squads", f"Give one squad per player ({n}), or none for the set's default.")
    chdef: list[int] = []
    for squad in squads:
        if squad is not None and not isinstance(squad, list):
            raise RuleError("squads", 'A squad is a list of three character keys, like ["knight", "mage", "rogue"].')
        chosen = cs.squad if squad is None else tuple(cs.character(k) for k in squad)
        if len(chosen) != SQUAD:
            raise RuleError("squads", "Each player controls 3 characters: name exactly three.")
        chdef.extend(chosen)
    st.chdef = tuple(chdef)
    st.lineup = cs.lineup(st.chdef)
    decks = config.get("decks") or [config.get("deck")] * n
    if len(decks) != n:
        raise RuleError("decks", f"Give one deck per player ({n}), or none for the set's default.")
    st.deck = [list(cs.deck if d is None else cs.deck_of(d)) for d in decks]
    st.hand = [[] for _ in range(n)]
    st.discard = [[] for _ in range(n)]
    chars = SQUAD * n
    st.wounds = [[] for _ in range(chars)]
    st.dmg = [0] * chars
    st.alive = [True] * chars
    st.spent = [0] * chars
    st.held = [[] for _ in range(chars)]
    st.actions = []
    st.turn, st.first, st.cur, st.actor, st.step = 1, 0, 0, 0, ACTION
    st.passed = [False] * n
    st.p_kind = st.p_seat = st.p_card = st.p_ch = st.p_tch = -1
    st.pay_left = 0
    st.a_card = st.a_ch = st.d_ch = -1
    st.a_die = st.d_die = st.a_mod = st.d_mod = st.dones = 0
    st.eot_count = 0
    st.winner = None
    st.forks = 0
    return st


def clone(st: State, dice: Dice | None = None) -> State:
    """A copy sharing only immutable parts, with `dice` or else a fresh unlogged stream of its own."""
    c = State()
    c.config, c.players, c.seed, c.cs, c.n, c.chdef = st.config, st.players, st.seed, st.cs, st.n, st.chdef
    c.lineup = st.lineup
    c.verbose, c.hand_size, c.end_discards = st.verbose, st.hand_size, st.end_discards
    c.max_turns, c.reshuffle, c.rotate = st.max_turns, st.reshuffle, st.rotate
    if dice is None:
        st.forks += 1
        dice = st.dice.fork(((st.seed or 0) * 1_000_003 + len(st.actions)) * 1_009 + st.forks)
    c.dice = dice
    c.forks = 0
    c.actions = st.actions[:]
    c.hand = [h[:] for h in st.hand]
    c.deck = [d[:] for d in st.deck]
    c.discard = [d[:] for d in st.discard]
    c.wounds = [w[:] for w in st.wounds]
    c.held = [h[:] for h in st.held]
    c.dmg, c.alive, c.spent, c.passed = st.dmg[:], st.alive[:], st.spent[:], st.passed[:]
    c.turn, c.first, c.cur, c.actor, c.step = st.turn, st.first, st.cur, st.actor, st.step
    c.p_kind, c.p_seat, c.p_card, c.p_ch, c.p_tch = st.p_kind, st.p_seat, st.p_card, st.p_ch, st.p_tch
    c.pay_left, c.a_card, c.a_ch, c.d_ch = st.pay_left, st.a_card, st.a_ch, st.d_ch
    c.a_die, c.d_die, c.a_mod, c.d_mod, c.dones = st.a_die, st.d_die, st.a_mod, st.d_mod, st.dones
    c.eot_count, c.winner = st.eot_count, st.winner
    return c


SCALARS = ("turn", "first", "cur", "actor", "step", "p_kind", "p_seat", "p_card", "p_ch", "p_tch",
           "pay_left", "a_card", "a_ch", "d_ch", "a_die", "d_die", "a_mod", "d_mod", "dones", "eot_count",
           "winner", "verbose")
NESTED = ("hand", "deck", "discard", "held")
FLAT = ("dmg", "alive", "spent", "passed")


def dump(st: State, name: str) -> dict[str, Any]:
    """Everything, as JSON-able data; the dice as seed and outcomes drawn so far."""
    data: dict[str, Any] = {"game": name, "config": st.config, "players": list(st.players), "seed": st.seed,
                            "actions": [[p, list(a)] for p, a in st.actions],
                            "chance": list(st.dice.log) if st.dice.log is not None else None}
    for key in SCALARS:
        data[key] = getattr(st, key)
    for key in NESTED:
        data[key] = [x[:] for x in getattr(st, key)]
    for key in FLAT:
        data[key] = getattr(st, key)[:]
    data["wounds"] = [[list(w) for w in ws] for ws in st.wounds]
    return data


def load(data: dict[str, Any]) -> State:
    """The state `dump` wrote. A seeded dice stream resumes where it stopped."""
    chance = data.get("chance")
    dice = Dice(data.get("seed"), log=chance is not None)
    if chance is not None:
        for _ in chance:
            dice.roll(1)  # advance the seeded stream by one outcome each
        dice.log = [int(c) for c in chance]
    st = blank(data["config"], data["players"], data.get("seed"), dice)
    st.actions = [(int(p), tuple(a)) for p, a in data["actions"]]
    for key in SCALARS:
        setattr(st, key, data[key])
    for key in NESTED:
        setattr(st, key, [[int(v) for v in x] for x in data[key]])
    for key in FLAT:
        setattr(st, key, list(data[key]))
    st.wounds = [[(int(o), int(c)) for o, c in ws] for ws in data["wounds"]]
    return st
