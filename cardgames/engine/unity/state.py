"""The state of a Unity game: plain lists of small ints, copied (never deep-copied) by `copy_state`."""

from __future__ import annotations

from typing import Any

from cardgames.engine.unity.deck import RIGHTEOUS, Deck
from gamekit.dice import Dice

FREE, RESPOND, ENTER, CELEBRATE, OVER = range(5)
PHASES = ("free", "attack", "righteousness", "festival", "over")
DOING = ("play a free turn", "answer the evil attack", "enter into righteousness", "celebrate the festival",
         "wait")

HOUSE_RULES = {
    "hand_size": 8,      # the text: each player is dealt 8 cards
    "max_turns": 2000,   # house rule: after this many free turns the game ends with no winner
    "verbose": True,     # readable Event text (off for simulation)
}


class UnityState:
    """Zones: `hands` (ascending card ids), `pile` (the face-down draw pile, top card last),
    `discard` (righteous, evil and festival piles, face up, oldest first) and `attack`
    (the evil cards of the battle on the table). `shown[c]` is 1 while card c sits in a hand
    where every player saw it go (returned by God's Glory, drawn from a face-up pile). `loose` counts the cards
    on top of the pile whose order is not settled yet: 0 in a game, the whole pile in a search's determinized
    world, where each draw picks one of them at random (a shuffle done only as far as it is drawn)."""

    __slots__ = ("actions", "attack", "attacker", "best", "chain", "chain_count", "config", "deck",
                 "defender", "dice", "discard", "drawn", "entered", "fest", "hands", "legal", "loose", "n",
                 "phase", "pile", "players", "queue", "reason", "rules", "scores", "seed",
                 "sel", "shown", "struck", "text", "turn", "turns", "verbose", "winner")

    def __init__(self, config: dict[str, Any], players: list[str], seed: int | None, dice: Dice,
                 deck: Deck) -> None:
        self.config = config
        self.players = players
        self.seed = seed
        self.dice = dice
        self.deck = deck
        self.rules = {**HOUSE_RULES, **{k: config[k] for k in HOUSE_RULES if k in config}}
        self.verbose = bool(self.rules["verbose"])
        self.n = len(players)
        self.actions: list[tuple[int, tuple]] = []
        self.hands: list[list[int]] = [[] for _ in players]
        self.pile: list[int] = []
        self.discard: list[list[int]] = [[], [], []]
        self.attack: list[int] = []
        self.shown = bytearray(deck.ncards)
        self.sel: list[int] = []
        self.queue: list[int] = []
        self.phase = FREE
        self.turn = 0
        self.attacker = self.defender = self.struck = 0   # struck: the seat first attacked;
        #                                                   attacker also hosts a festival
        self.chain = self.chain_count = self.entered = 0
        self.best = (0, 0)                                # (cards, seat) of the biggest entry
        self.drawn = False
        self.fest = -1
        self.turns = 0
        self.winner: int | None = None
        self.reason = ""
        self.legal: tuple[int, list[tuple]] | None = None  # legal actions cached per history length
        self.scores: tuple[int, list[float]] | None = None  # evaluation.scores, cached per history length
        self.loose = 0
        self.text = False  # event text for the action being applied: set by `actions.apply`, never stored


SCALARS = ("phase", "turn", "attacker", "defender", "struck", "chain", "chain_count", "entered",
           "drawn", "fest", "turns", "winner", "reason")


def copy_state(s: UnityState, dice: Dice) -> UnityState:
    """A copy sharing only immutable parts (config, deck tables) with `s`."""
    t = UnityState.__new__(UnityState)
    t.config, t.players, t.seed, t.deck, t.rules, t.n = s.config, s.players, s.seed, s.deck, s.rules, s.n
    t.verbose = s.verbose
    t.dice = dice
    t.actions = s.actions[:]
    t.hands = [h[:] for h in s.hands]
    t.pile = s.pile[:]
    t.discard = [p[:] for p in s.discard]
    t.attack = s.attack[:]
    t.shown = s.shown[:]
    t.sel = s.sel[:]
    t.queue = s.queue[:]
    t.best = s.best
    for name in SCALARS:
        setattr(t, name, getattr(s, name))
    t.legal = t.scores = None
    t.loose = s.loose
    t.text = False
    return t


def chain_entries(s: UnityState) -> list[tuple[int, list[int]]]:
    """(seat, cards) of each play of the chain of righteousness under way, the invitation first. The state
    keeps only the chain's categories and card count, so the plays are read back from the history: the last
    `entered` plays, each with the picks just before it (picks after the last play are a selection still
    being built, and secret). Only cards still face up on the righteous discard pile are listed: a
    reshuffle during the chain takes the others out of sight."""
    out: list[tuple[int, list[int]]] = []
    group: list[int] | None = None
    who = 0
    for seat, action in reversed(s.actions):
        if action[0] == "pick":
            if group is not None:
                group.append(action[1])
            continue
        if group is not None:
            out.append((who, group[::-1]))
            group = None
            if len(out) == s.entered:
                break
        if action[0] == "play":
            group, who = [], seat
    if group is not None:
        out.append((who, group[::-1]))
    on_table = set(s.discard[RIGHTEOUS])
    return [(seat, [c for c in cards if c in on_table]) for seat, cards in reversed(out)]


def dice_dump(dice: Dice) -> dict[str, Any]:
    """The dice as JSON. Every roll draws one random number, so a seeded stream is restored by
    re-rolling its log; scripted dice keep their unused outcomes."""
    script = getattr(dice, "_script", None)
    return {"seed": dice.seed, "log": dice.log, "script": None if script is None else list(script)}


def dice_load(data: dict[str, Any]) -> Dice:
    log = data["log"]
    if data["script"] is not None:
        dice = Dice(data["seed"], script=data["script"])
    else:
        dice = Dice(data["seed"], log=log is not None)
        for _ in log or ():
            dice.roll(2)
    if log is not None:
        dice.log = list(log)
    return dice


def state_dump(s: UnityState) -> dict[str, Any]:
    out = {name: getattr(s, name) for name in SCALARS}
    out.update(config=s.config, players=s.players, seed=s.seed, dice=dice_dump(s.dice),
               actions=[[p, list(a)] for p, a in s.actions], hands=[h[:] for h in s.hands],
               pile=s.pile[:], discard=[p[:] for p in s.discard], attack=s.attack[:],
               shown=[c for c in range(len(s.shown)) if s.shown[c]], sel=s.sel[:],
               queue=s.queue[:], best=list(s.best))
    return out


def state_load(data: dict[str, Any], deck: Deck) -> UnityState:
    s = UnityState(data["config"], list(data["players"]), data["seed"], dice_load(data["dice"]), deck)
    for name in SCALARS:
        setattr(s, name, data[name])
    s.actions = [(int(p), tuple(a)) for p, a in data["actions"]]
    s.hands = [list(h) for h in data["hands"]]
    s.pile = list(data["pile"])
    s.discard = [list(p) for p in data["discard"]]
    s.attack = list(data["attack"])
    for c in data["shown"]:
        s.shown[c] = 1
    s.sel = list(data["sel"])
    s.queue = list(data["queue"])
    s.best = tuple(data["best"])
    return s
