"""The fixed part of a battle, read once from the config: both armies' cards and commanders.

Config (plain data, JSON-able)::

    {"commanders": [commander_0, commander_1],
     "house_rules": {"reroll_limit": 100},          # optional, RULINGS defaults
     "verbose": True}                                # optional: False switches event text off

    commander = {"name": "Ayla", "level": 6,         # or "morale": 7 (starting Morale)
                 "influence": 2, "is_player_character": True,
                 "power": "Evoker" | None, "tactician": None,   # Tactician's pick
                 "base_morale": 0,                   # a defended Base's bonus, spent first
                 "dervish": None,                    # Dervish: a Path or Role name, chosen for the Day
                 "oathbound": None,                  # Oathbound: the designated unit's id
                 "used_today": [],                   # per-Day powers already used ("Cleric")
                 "units": [unit, ...]}

    unit = {"id": 7, "name": "Spearmen", "strength": 2, "role": "Aggressor", "path": "Steel",
            "traits": ["Reach"], "effects": [...], "retinue": False,
            "text": "Reach."}                        # optional: the card's special text, shown to people
"""

from __future__ import annotations

from typing import Any

from gamekit.errors import RuleError

from .effects import CHOICE_SIDE, CardEffects, compile_effects
from .powers import PER_DAY, commander_powers, granted_units
from .state import AGGRESSOR, GUARDIAN, HEALER, PATHS, RITUAL, ROLES, TRAITS

DEFAULT_HOUSE_RULES = {"reroll_limit": 100}


class Roster:
    """Both armies' cards (index 0..n-1, seat 0's first) and the commanders' fixed data."""

    __slots__ = (
        "dervish",
        "fx",
        "healers",
        "heals",
        "hi",
        "index",
        "lab",
        "lo",
        "n",
        "name",
        "names",
        "oathbound",
        "owner",
        "path",
        "pc",
        "playable",
        "plays",
        "powers",
        "psionicist",
        "reactors",
        "reroll_limit",
        "retinue",
        "role",
        "seat_plays",
        "start_base",
        "start_influence",
        "start_morale",
        "strength",
        "text",
        "traits",
        "uid",
        "used_today",
        "window",
        "window_powers",
    )

    # per card, 0..n-1 (seat 0's first); -1 for no Strength, Role or Path
    n: int
    owner: tuple[int, ...]
    uid: tuple[int, ...]
    name: tuple[str, ...]
    strength: tuple[int, ...]
    role: tuple[int, ...]
    path: tuple[int, ...]
    traits: tuple[int, ...]
    retinue: tuple[int, ...]
    fx: tuple[CardEffects, ...]
    text: tuple[str, ...]
    plays: tuple[tuple[tuple, ...], ...]
    # per seat
    lo: list[int]
    hi: list[int]
    index: list[dict[int, int]]
    powers: list[frozenset[str]]
    pc: list[bool]
    names: list[str]
    dervish: list[tuple[int, int] | None]
    oathbound: list[int]
    lab: list[int]
    reactors: list[tuple[tuple, ...]]
    healers: list[tuple[int, ...]]
    window: list[bool]
    window_powers: list[bool]
    psionicist: list[bool]
    heals: list[bool]
    start_morale: list[int]
    start_base: list[int]
    start_influence: list[int]
    used_today: list[list[str]]
    seat_plays: tuple[tuple[tuple[tuple, ...], ...], ...]
    playable: tuple[tuple[int, ...], ...]
    reroll_limit: int

    def unit_dict(self, u: int) -> dict[str, Any]:
        """A card as a person sees it."""
        return {"id": self.uid[u], "name": self.name[u],
                "strength": None if self.strength[u] < 0 else self.strength[u],
                "role": None if self.role[u] < 0 else ROLES[self.role[u]],
                "path": None if self.path[u] < 0 else PATHS[self.path[u]],
                "traits": [t for i, t in enumerate(TRAITS) if self.traits[u] >> i & 1],
                "retinue": bool(self.retinue[u]), "text": self.text[u]}

    def find(self, seat: int, unit_id: Any) -> int:
        """The card index of `seat`'s unit `unit_id`, or -1."""
        return self.index[seat].get(unit_id, -1) if isinstance(unit_id, int) else -1


def _err(seat: int, what: str) -> RuleError:
    return RuleError("battle config", f"Commander {seat}: {what}.")


def _name_code(seat: int, unit: dict, key: str, names: tuple[str, ...]) -> int:
    value = unit.get(key)
    if value is None:
        return -1
    if value not in names:
        raise _err(seat, f"unit {unit.get('name')!r} has unknown {key} {value!r} (use one of {', '.join(names)})")
    return names.index(value)


def starting_morale(commander: dict[str, Any]) -> int:
    """Starting Morale: 4 + floor(level / 2), unless the config gives it outright."""
    if commander.get("morale") is not None:
        return int(commander["morale"])
    return 4 + int(commander.get("level", 0)) // 2


_CACHE: dict[int, tuple[dict[str, Any], Roster]] = {}
_CACHE_SIZE = 64


def roster_for(config: dict[str, Any]) -> Roster:
    """The roster of a config, built once per config object: a simulation starting thousands of
    battles from one config pays for the checks once. A config must not be changed after a
    battle starts from it (it is also the battle's stored record)."""
    hit = _CACHE.get(id(config))
    if hit is not None and hit[0] is config:
        return hit[1]
    roster = build_roster(config)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[id(config)] = (config, roster)
    return roster


def build_roster(config: dict[str, Any]) -> Roster:
    """Check the config and number the cards."""
    commanders = config.get("commanders")
    if not isinstance(commanders, list | tuple) or len(commanders) != 2:
        raise RuleError("battle config", "A Battle needs 'commanders': a list of exactly two commanders.")
    house = {**DEFAULT_HOUSE_RULES, **(config.get("house_rules") or {})}
    r = Roster()
    r.reroll_limit = int(house["reroll_limit"])
    fields: dict[str, list] = {k: [] for k in ("owner", "uid", "name", "strength", "role", "path", "traits",
                                                "retinue", "fx", "text")}
    r.lo, r.hi, r.index, r.powers, r.pc, r.names = [], [], [], [], [], []
    r.dervish, r.oathbound, r.lab, r.reactors, r.healers = [], [], [], [], []
    r.window, r.window_powers, r.psionicist, r.heals = [], [], [], []
    r.start_morale, r.start_base, r.start_influence, r.used_today = [], [], [], []
    for seat, c in enumerate(commanders):
        powers = commander_powers(seat, c)
        units = list(c.get("units") or [])
        units += granted_units(powers, units)
        r.lo.append(len(fields["uid"]))
        index: dict[int, int] = {}
        for unit in units:
            uid = unit.get("id")
            if not isinstance(uid, int) or isinstance(uid, bool) or uid in index:
                raise _err(seat, f"every unit needs a distinct whole-number 'id' ({unit.get('name')!r} has {uid!r})")
            strength = unit.get("strength")
            if strength is not None and (not isinstance(strength, int) or strength < 0):
                raise _err(seat, f"unit {unit.get('name')!r} needs a Strength of 0 or more, or None for '-'")
            traits = 0
            for t in unit.get("traits") or ():
                if t not in TRAITS:
                    raise _err(seat, f"unit {unit.get('name')!r} has unknown trait {t!r}")
                traits |= 1 << TRAITS.index(t)
            u = len(fields["uid"])
            index[uid] = u
            fields["owner"].append(seat)
            fields["uid"].append(uid)
            fields["name"].append(str(unit.get("name", f"Unit {uid}")))
            fields["strength"].append(-1 if strength is None else strength)
            fields["role"].append(_name_code(seat, unit, "role", ROLES))
            fields["path"].append(_name_code(seat, unit, "path", PATHS))
            fields["traits"].append(traits)
            fields["retinue"].append(1 if unit.get("retinue") else 0)
            fields["fx"].append(compile_effects(fields["name"][-1], unit.get("effects")))
            fields["text"].append(str(unit.get("text") or ""))
        r.hi.append(len(fields["uid"]))
        r.index.append(index)
        r.powers.append(powers)
        r.pc.append(bool(c.get("is_player_character", False)))
        r.names.append(str(c.get("name") or f"Commander {'AB'[seat]}"))
        dervish = c.get("dervish")
        if "Dervish" in powers:
            if dervish in PATHS:
                r.dervish.append((1, PATHS.index(dervish)))
            elif dervish in ROLES:
                r.dervish.append((0, ROLES.index(dervish)))
            else:
                raise RuleError("Dervish", f"Commander {seat}: a Dervish chooses a Path or Role each Day; "
                                           "set 'dervish' to one.")
        else:
            r.dervish.append(None)
        oath = c.get("oathbound")
        if "Oathbound" in powers and oath is not None:
            if oath not in index:
                raise RuleError("Oathbound", f"Commander {seat}: 'oathbound' must be the id of one of "
                                             "your units in this Battle.")
            r.oathbound.append(index[oath])
        else:
            r.oathbound.append(-1)
        r.lab.append(next((i for i in index.values() if "Chirurgeon" in powers
                           and fields["name"][i] == "Alchemy Lab"), -1))
        used = [p for p in c.get("used_today") or () if p in PER_DAY]
        r.used_today.append(used)
        r.start_morale.append(starting_morale(c))
        r.start_base.append(int(c.get("base_morale") or 0))
        r.start_influence.append(int(c.get("influence") or 0))
    for key, values in fields.items():
        setattr(r, key, tuple(values))
    r.n = len(r.uid)
    for seat in (0, 1):
        span = range(r.lo[seat], r.hi[seat])
        r.reactors.append(tuple(_reactor(r, u) for u in span if r.fx[u].discard))
        r.healers.append(tuple(u for u in span if r.role[u] == HEALER and r.strength[u] >= 0))
        r.window_powers.append(bool(r.powers[seat] & WINDOW_POWERS))
        r.window.append(bool(r.reactors[seat]) or r.window_powers[seat])
        r.psionicist.append("Psionicist" in r.powers[seat])
        r.heals.append(bool(r.healers[seat]) or bool(r.powers[seat] & HEAL_POWERS))
    r.plays = tuple(_play_tuples(r, u) for u in range(r.n))
    r.seat_plays = tuple(r.plays[r.lo[seat]:r.hi[seat]] for seat in (0, 1))
    r.playable = tuple(tuple(u for u in range(r.lo[seat], r.hi[seat]) if r.strength[u] >= 0) for seat in (0, 1))
    return r


WINDOW_POWERS = frozenset({"Evoker", "Illusionist", "Shapeshifter", "Etherealist"})
"""Powers used in the reaction window."""
HEAL_POWERS = frozenset({"Shapeshifter", "Cleric"})
"""Powers that can act after a Skirmish without a Healer card (a unit made a Healer; the Cleric)."""


def _play_tuples(r: Roster, u: int) -> tuple[tuple, ...]:
    """The play actions of card `u` (with the Role changes its commander's powers allow)."""
    if r.strength[u] < 0:
        return ()
    powers = r.powers[r.owner[u]]
    acts: list[tuple] = [("play", r.uid[u])]
    if "Adept" in powers and r.role[u] != GUARDIAN:
        acts.append(("play", r.uid[u], "Guardian"))
    if "Master of Arms" in powers and r.role[u] != AGGRESSOR:
        acts.append(("play", r.uid[u], "Aggressor"))
    return tuple(acts)


def _reactor(r: Roster, u: int) -> tuple[int, bool, int, bool, bool, bool, bool, tuple[tuple, ...]]:
    """A card with a discard effect, as the reaction window reads it: (card, is a Ritual, choice, always
    usable, needs own unit in the Skirmish, needs the enemy unit, restores a spent Base bonus, its actions)."""
    fx = r.fx[u]
    kinds = [(e[0], e[2] if e[0] == "add" else None) for e in fx.discard]
    always = any(k == "morale" for k, _ in kinds)
    restores = any(k == "restore_base" for k, _ in kinds)
    enemy = any(k == "add" and to == "enemy" for k, to in kinds)
    mine = any(k not in ("morale", "return", "restore_base") and not (k == "add" and to == "enemy")
               for k, to in kinds)
    acts = ((("react", r.uid[u], "offense"), ("react", r.uid[u], "defense")) if fx.choice == CHOICE_SIDE
            else (("react", r.uid[u]),))
    return u, r.role[u] == RITUAL, fx.choice, always, mine, enemy, restores, acts
