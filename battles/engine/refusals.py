"""Why an action is refused: `explain` names the rule an illegal action breaks and says what to do instead."""

from __future__ import annotations

from collections.abc import Sequence

from gamekit.errors import RuleError

from .legal import ritual_allowed
from .outcome import (
    can_save,
    morale_of,
)
from .state import (
    HAND,
    HEAL,
    PILES,
    PLAY_DEFENSE,
    PLAY_OFFENSE,
    REACT,
    RITUAL,
    SAVE,
    STEPS,
    BattleState,
)


def explain(st: BattleState, seat: int, action: tuple, legal: Sequence[tuple]) -> RuleError:
    """A RuleError naming the rule an illegal action breaks and saying what to do instead."""
    r = st.roster
    kind = action[0] if action else None
    step = st.step
    options = ", ".join(str(a) for a in legal)
    unit_id = action[1] if len(action) > 1 else None
    u = r.find(seat, unit_id) if kind in ("play", "react", "heal") else -1
    if kind in ("play", "react", "heal") and u < 0:
        return RuleError("Units", f"You have no card with id {unit_id!r} in this Battle: choose one of "
                                  f"your own cards ({options}).")
    if kind == "play":
        if step not in (PLAY_OFFENSE, PLAY_DEFENSE):
            return RuleError("Skirmish", f"Cards are played on Offense or Defense only; now it is the "
                                         f"{STEPS[step]} step: choose one of {options}.")
        if st.where[u] != HAND:
            return RuleError("Skirmish", f"{r.name[u]} is in your {PILES[st.where[u]]} pile, not your hand: "
                                         "play a card from your hand, or Pass.")
        if r.strength[u] < 0:
            return RuleError("Strength", f"{r.name[u]} has no Strength, and units without a Strength value "
                                         "cannot be played on Offense or Defense: choose another card or Pass.")
        return RuleError("Roles", "Only an Adept may play a card as a Guardian and only a Master of Arms "
                                  "as an Aggressor: play it with its own Role.")
    if kind == "react":
        if step != REACT:
            return RuleError("Discard", "Cards are discarded for their powers in the reaction window, after "
                                        f"both cards are revealed; now: {options}.")
        if st.where[u] != HAND:
            return RuleError("Discard", f"{r.name[u]} is not in your hand: only cards in hand can be discarded.")
        if not r.fx[u].discard:
            return RuleError("Discard", f"{r.name[u]} has no power triggered by discarding it: "
                                        f"choose one of {options}.")
        if r.role[u] == RITUAL and not ritual_allowed(st, seat, u):
            return RuleError("Rituals", "A commander may play two Rituals per Battle and one per Phase (an "
                                        "Animist four and two), with at least two units of the Ritual's Path in "
                                        "the army: decline, or play another card.")
        return RuleError("Discard", f"{r.name[u]} cannot be used that way now: choose one of {options}.")
    if kind == "heal":
        if step != HEAL:
            return RuleError("Healer", f"Healers are used after a Skirmish; now: {options}.")
        if morale_of(st, seat) < 1:
            return RuleError("Healer", "Using a Healer costs 1 Morale and you have none to spend: skip healing.")
        return RuleError("Healer", "A Healer must be a Healer card in your hand, and may return one card "
                                   "from your Disabled or Exhausted pile that is not a Healer and has at most "
                                   f"twice its Strength: choose one of {options}.")
    if kind == "save":
        need = "1 Influence (a player character)" if r.pc[seat] else "3 Morale (a non-player commander)"
        if step == SAVE and not can_save(st, seat):
            return RuleError("Killing a Unit", f"Saving a unit costs {need}, which you do not have: accept the Kill.")
        return RuleError("Killing a Unit", f"Saving a unit from being Killed costs {need} and is chosen when one "
                                           f"of your units would be Killed; now: {options}.")
    if kind == "power" and len(action) > 1 and action[1] not in r.powers[seat]:
        return RuleError("Commander powers", f"You do not have the {action[1]} power: choose one of {options}.")
    if kind == "power" and len(action) > 1:
        return RuleError(str(action[1]), f"{action[1]} cannot be used that way now (its limits may be spent): "
                                         f"choose one of {options}.")
    return RuleError(STEPS[step], f"{action!r} is not an action for the {STEPS[step]} step: "
                                  f"choose one of {options}.")
