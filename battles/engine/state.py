"""The moving parts of one Army Combat battle, as small ints in flat lists.

Units are numbered 0..n-1 over both armies (seat 0's units first); the `Roster` holds
what never changes during a battle, `BattleState` what does. Cloning copies lists, never
deep-copies; the JSON dump is the same fields plus the dice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from gamekit.dice import Dice
from gamekit.events import Event

if TYPE_CHECKING:
    from .roster import Roster

ROLES = ("Aggressor", "Guardian", "Healer", "Savant", "Equipment", "Ritual")
AGGRESSOR, GUARDIAN, HEALER, SAVANT, EQUIPMENT, RITUAL = range(6)
PATHS = ("Steel", "Magic", "Faith", "Nature", "Mind")
TRAITS = ("Reach", "Ranged", "Slow", "Fast", "Fly", "Burrow", "Undead", "Elemental")
REACH, RANGED, SLOW, FAST, FLY, BURROW, UNDEAD, ELEMENTAL = (1 << i for i in range(8))

HAND, PLAYED, EXHAUSTED, DISABLED, KILLED = range(5)
PILES = ("hand", "played", "exhausted", "disabled", "killed")

OFFENSE, DEFENSE = 0, 1
SIDES = ("offense", "defense")
SIDE_TITLES = ("Offense", "Defense")

# Steps: whose decision the battle waits for.
FIRST, MENDER, MENDER_PICK, PLAY_OFFENSE, PLAY_DEFENSE, REACT, SAVE, HEAL, NECRO, OVER = range(10)
STEPS = ("choose_first", "mender", "mender_pick", "offense", "defense", "reaction", "save", "heal",
         "necromancer", "over")

ONCE_PSIONICIST, ONCE_SHAPESHIFTER, ONCE_ETHEREALIST = 1, 2, 4
"""Bits of `once_used`: the once-per-Battle powers already spent."""

LIST_FIELDS = ("where", "morale", "base", "base_spent", "influence", "kills", "card", "role_now",
               "traits_now", "add_card", "add_card_n", "add_power", "power_this_skirmish",
               "evoker_left", "illusionist_left", "once_used", "rituals_battle", "rituals_phase",
               "battlemage_done", "cleric_used", "pending", "queue", "mender_shown")
INT_FIELDS = ("step", "actor", "attacker", "phase", "chooser", "declines", "pass_streak",
              "last_defender", "routed", "winner")


class BattleState:
    """One battle in progress. `roster` is shared between clones; everything else is copied."""

    __slots__ = ("config", "players", "seed", "actions", "dice", "verbose", "log", "out", "roster",
                 "end_reason", "powers_used", "legal_cache", "clones", *LIST_FIELDS, *INT_FIELDS)

    config: dict[str, Any]
    players: list[str]
    seed: int | None
    actions: list[tuple[int, tuple]]
    dice: Dice
    verbose: bool
    log: list[Event]
    out: list[Event] | None
    roster: Roster
    end_reason: str | None
    powers_used: list[dict[str, int]]
    legal_cache: tuple[int, Sequence[tuple]] | None
    clones: int
    # LIST_FIELDS: per card (where) or per seat (the rest), or the queues of cards and seats waiting
    where: list[int]
    morale: list[int]
    base: list[int]
    base_spent: list[int]
    influence: list[int]
    kills: list[int]
    card: list[int]
    role_now: list[int]
    traits_now: list[int]
    add_card: list[int]
    add_card_n: list[int]
    add_power: list[int]
    power_this_skirmish: list[int]
    evoker_left: list[int]
    illusionist_left: list[int]
    once_used: list[int]
    rituals_battle: list[int]
    rituals_phase: list[int]
    battlemage_done: list[int]
    cleric_used: list[int]
    pending: list[int]
    queue: list[int]
    mender_shown: list[int]
    # INT_FIELDS
    step: int
    actor: int
    attacker: int
    phase: int
    chooser: int
    declines: int
    pass_streak: int
    last_defender: int
    routed: int
    winner: int

    def clone(self, dice: Dice | None = None) -> BattleState:
        """A copy with `dice`, or its own dice stream (unlogged), and no event log growth shared."""
        c = object.__new__(BattleState)
        c.config, c.players, c.seed, c.roster = self.config, self.players, self.seed, self.roster
        c.verbose, c.end_reason, c.legal_cache, c.out = self.verbose, self.end_reason, None, None
        c.actions = list(self.actions)
        c.log = list(self.log)
        c.powers_used = [dict(d) for d in self.powers_used]
        for f in LIST_FIELDS:
            setattr(c, f, list(getattr(self, f)))
        for f in INT_FIELDS:
            setattr(c, f, getattr(self, f))
        c.clones = 0
        if dice is None:
            self.clones += 1
            dice = self.dice.fork(((self.seed or 0) * 1_000_003 + len(self.actions) * 7919 + self.clones)
                                  & 0xFFFFFFFF)
        c.dice = dice
        return c

    def dump(self) -> dict[str, Any]:
        data: dict[str, Any] = {f: list(getattr(self, f)) for f in LIST_FIELDS}
        data.update({f: getattr(self, f) for f in INT_FIELDS})
        data.update(config=self.config, players=list(self.players), seed=self.seed, verbose=self.verbose,
                    actions=[[s, list(a)] for s, a in self.actions], end_reason=self.end_reason,
                    powers_used=[dict(d) for d in self.powers_used],
                    log=[e.as_dict() for e in self.log], dice=self.dice.dump())
        return data


def load_fields(state: BattleState, data: dict[str, Any]) -> None:
    """Fill `state` from `BattleState.dump` output (roster, config and players already set)."""
    for f in LIST_FIELDS:
        setattr(state, f, list(data[f]))
    for f in INT_FIELDS:
        setattr(state, f, data[f])
    state.seed = data["seed"]
    state.verbose = data["verbose"]
    state.actions = [(int(s), tuple(a)) for s, a in data["actions"]]
    state.end_reason = data["end_reason"]
    state.powers_used = [dict(d) for d in data["powers_used"]]
    state.log = [Event(e["kind"], e["text"], tuple(e["see"]) if e["see"] else None, e["data"])
                 for e in data["log"]]
    state.dice = Dice.load(data["dice"])
    state.legal_cache = None
    state.out = None
    state.clones = 0


def fresh_seed() -> int:
    """A seed for a game started without one, so its dice can still be dumped and stored."""
    return random.SystemRandom().randrange(1 << 32)


def emit(state: BattleState, kind: str, text: str, see: tuple[int, ...] | None = None) -> None:
    """Add an event to the current action's events (call only when `state.verbose`)."""
    cast(list[Event], state.out).append(Event(kind, text, see))


def note_power(state: BattleState, seat: int, power: str) -> None:
    """Count a use of a commander power, for the result and the limits the campaign tracks."""
    used = state.powers_used[seat]
    used[power] = used.get(power, 0) + 1
