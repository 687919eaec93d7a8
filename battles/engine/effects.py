"""Card special text as data: the small vocabulary the unit catalogue's effects are written in.

An effect is a dict with ``when`` (the moment it fires) and ``do`` (what it does).

``"when": "discard"`` -- the owner discards the card from hand in a Skirmish's reaction
window (after the reveal, before the dice; RULINGS). It goes to the Disabled pile
(unless Battlemage or Oathbound say otherwise). Rituals are played this way.

- ``{"do": "add", "amount": N, "to": "own" | "enemy" | "either"}``: the unit on that side
  of the Skirmish Adds N. With ``"either"`` the owner picks the side:
  ``("react", id, "offense" | "defense")`` (the Soldier). A Savant that receives a
  positive add from another card gets +2 more.
- ``{"do": "set_role", "role": R}``: the owner's unit in the Skirmish takes Role R.
- ``{"do": "grant_trait", "trait": T}``: the owner's unit in the Skirmish gains trait T.
- ``{"do": "return", "from": "disabled" | "exhausted" | "either", "max_strength": N}``
  (``max_strength`` optional): one of the owner's cards in that pile returns to hand:
  ``("react", id, target_id)``.
- ``{"do": "morale", "amount": N}``: the owner gains N Morale (it may pass the start value).
- ``{"do": "restore_base"}``: the bonus of the Base the owner defends in this Battle is whole again and
  can be spent again that Day (RULINGS). A Base spent before this Battle is restored from the map.

``"when": "reveal"`` -- fires as the card is revealed in a Skirmish:

- ``{"do": "add", "amount": N, "to": "own" | "enemy", "against": {"role" | "path" | "trait": name}}``
  (``against`` optional: only when the opposing unit has that Role, Path or trait). A card's
  bonus to itself never triggers Savant; to the enemy it does (if positive).

``"when": "skirmish"`` -- a standing property while the card is in a Skirmish:

- ``{"do": "no_damage"}``: neither deals nor receives damage (the Mediating Chaplain): in
  its Skirmish no unit is Disabled or Killed (the loser is Exhausted like the winner), and
  Unopposed it deals no Morale damage.

A card may carry several effects but at most one discard effect that asks for a choice
(``"either"`` or ``"return"``); all its discard effects fire when it is discarded, those
with nothing to act on are skipped.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from gamekit.errors import RuleError

from .state import DISABLED, EXHAUSTED, PATHS, ROLES, TRAITS

CHOICE_NONE, CHOICE_SIDE, CHOICE_TARGET = 0, 1, 2

AGAINST_ROLE, AGAINST_PATH, AGAINST_TRAIT = 0, 1, 2


class CardEffects(NamedTuple):
    """One card's effects compiled to tuples for the hot path.

    discard: ("add", amount, to) | ("set_role", role) | ("grant_trait", bit)
             | ("return", piles, max_strength or -1) | ("morale", amount) | ("restore_base",)
    reveal:  (amount, to, against) with against None or (AGAINST_*, code)
    """

    discard: tuple[tuple, ...]
    reveal: tuple[tuple[int, str, tuple[int, int] | None], ...]
    no_damage: bool
    choice: int


NO_EFFECTS = CardEffects((), (), False, CHOICE_NONE)

_RETURN_PILES = {"disabled": (DISABLED,), "exhausted": (EXHAUSTED,), "either": (DISABLED, EXHAUSTED)}


def _bad(name: str, effect: Any, why: str) -> RuleError:
    return RuleError("card effects", f"{name}: effect {effect!r} {why}; see battles/engine/effects.py "
                                     "for the effects a card may have.")


def _int(name: str, effect: dict, key: str) -> int:
    value = effect.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad(name, effect, f"needs a whole number '{key}'")
    return value


def _against(name: str, effect: dict) -> tuple[int, int] | None:
    against = effect.get("against")
    if against is None:
        return None
    if not isinstance(against, dict) or len(against) != 1:
        raise _bad(name, effect, "has an 'against' that must name one role, path or trait")
    (kind, value), = against.items()
    table = {"role": (AGAINST_ROLE, ROLES), "path": (AGAINST_PATH, PATHS), "trait": (AGAINST_TRAIT, TRAITS)}
    if kind not in table or value not in table[kind][1]:
        raise _bad(name, effect, f"has an unknown 'against' {kind}={value!r}")
    code, names = table[kind]
    index = names.index(value)
    return code, (1 << index) if code == AGAINST_TRAIT else index


def compile_effects(name: str, effects: list[dict[str, Any]] | None) -> CardEffects:
    """Check a card's effect list against the vocabulary and compile it."""
    if not effects:
        return NO_EFFECTS
    discard: list[tuple] = []
    reveal: list[tuple[int, str, tuple[int, int] | None]] = []
    no_damage = False
    choice = CHOICE_NONE
    for effect in effects:
        if not isinstance(effect, dict):
            raise _bad(name, effect, "is not a dict")
        when, do = effect.get("when"), effect.get("do")
        if when == "discard":
            if do == "add":
                to = effect.get("to")
                if to not in ("own", "enemy", "either"):
                    raise _bad(name, effect, "needs 'to' of own, enemy or either")
                discard.append(("add", _int(name, effect, "amount"), to))
                new_choice = CHOICE_SIDE if to == "either" else CHOICE_NONE
            elif do == "set_role":
                if effect.get("role") not in ROLES[:5]:
                    raise _bad(name, effect, "needs a unit 'role'")
                discard.append(("set_role", ROLES.index(effect["role"])))
                new_choice = CHOICE_NONE
            elif do == "grant_trait":
                if effect.get("trait") not in TRAITS:
                    raise _bad(name, effect, "needs a known 'trait'")
                discard.append(("grant_trait", 1 << TRAITS.index(effect["trait"])))
                new_choice = CHOICE_NONE
            elif do == "return":
                if effect.get("from") not in _RETURN_PILES:
                    raise _bad(name, effect, "needs 'from' of disabled, exhausted or either")
                limit = _int(name, effect, "max_strength") if "max_strength" in effect else -1
                discard.append(("return", _RETURN_PILES[effect["from"]], limit))
                new_choice = CHOICE_TARGET
            elif do == "morale":
                discard.append(("morale", _int(name, effect, "amount")))
                new_choice = CHOICE_NONE
            elif do == "restore_base":
                discard.append(("restore_base",))
                new_choice = CHOICE_NONE
            else:
                raise _bad(name, effect, "has an unknown discard 'do'")
            if new_choice != CHOICE_NONE:
                if choice != CHOICE_NONE:
                    raise _bad(name, effect, "is a second discard effect that asks for a choice")
                choice = new_choice
        elif when == "reveal":
            if do != "add" or effect.get("to") not in ("own", "enemy"):
                raise _bad(name, effect, "must be an add to own or enemy")
            reveal.append((_int(name, effect, "amount"), effect["to"], _against(name, effect)))
        elif when == "skirmish":
            if do != "no_damage":
                raise _bad(name, effect, "has an unknown skirmish 'do'")
            no_damage = True
        else:
            raise _bad(name, effect, "has an unknown 'when'")
    return CardEffects(tuple(discard), tuple(reveal), no_damage, choice)


def matches(against: tuple[int, int], role: int, path: int, traits: int) -> bool:
    """Whether an opposing unit with this Role, Path and traits fits an effect's `against`."""
    kind, code = against
    if kind == AGAINST_ROLE:
        return role == code
    if kind == AGAINST_PATH:
        return path == code
    return bool(traits & code)
