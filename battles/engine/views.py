"""What a commander may see and the result the campaign writes back (the words for actions are in `words`).

A commander sees their own hand, the opponent's hand only as a count, every pile (piles are
on the table), and a face-down card only once both are revealed (or if it is their own).
"""

from __future__ import annotations

from typing import Any

from gamekit.events import events_for

from .legal import legal_actions
from .outcome import morale_of
from .state import (
    DEFENSE,
    DISABLED,
    EXHAUSTED,
    HAND,
    KILLED,
    OFFENSE,
    OVER,
    PLAY_DEFENSE,
    PLAY_OFFENSE,
    ROLES,
    SIDES,
    STEPS,
    BattleState,
)


def _pile(st: BattleState, seat: int, pile: int) -> list[dict[str, Any]]:
    r = st.roster
    return [r.unit_dict(u) for u in range(r.lo[seat], r.hi[seat]) if st.where[u] == pile]


def _revealed(st: BattleState) -> bool:
    """Both Skirmish cards are revealed once Defense is played (or passed); before, face down."""
    return st.step not in (PLAY_OFFENSE, PLAY_DEFENSE)


def view(st: BattleState, seat: int | None) -> dict[str, Any]:
    """What `seat` may see (``None``: a spectator, public information only)."""
    r = st.roster
    skirmish: dict[str, Any] = {}
    for side in (OFFENSE, DEFENSE):
        u = st.card[side]
        if u < 0 or st.step in (PLAY_OFFENSE, OVER):  # no Skirmish under way
            skirmish[SIDES[side]] = None
        elif _revealed(st) or r.owner[u] == seat:
            role = st.role_now[side]
            skirmish[SIDES[side]] = {**r.unit_dict(u), "role_now": ROLES[role] if role >= 0 else None}
        else:
            skirmish[SIDES[side]] = {"face_down": True}
    commanders = []
    for s in (0, 1):
        commanders.append({
            "name": r.names[s], "player": st.players[s] if s < len(st.players) else None,
            "powers": sorted(r.powers[s]), "morale": morale_of(st, s), "base_morale": st.base[s],
            "influence": st.influence[s], "kills": st.kills[s],
            "hand_count": sum(1 for u in range(r.lo[s], r.hi[s]) if st.where[u] == HAND),
            "exhausted": _pile(st, s, EXHAUSTED), "disabled": _pile(st, s, DISABLED),
            "killed": _pile(st, s, KILLED)})
    data: dict[str, Any] = {
        "game": "army-combat", "seat": seat, "phase": st.phase, "step": STEPS[st.step],
        "to_move": [] if st.step == OVER else [st.actor], "attacker": st.attacker,
        "commanders": commanders, "skirmish": skirmish,
        "hand": _pile(st, seat, HAND) if seat is not None else None,
        "legal_actions": [list(a) for a in legal_actions(st, seat)] if seat is not None else [],
        "events": events_for(st.log, seat), "over": st.step == OVER,
        "result": result(st) if st.step == OVER else None,
    }
    if seat is not None and st.mender_shown and "Mender" in r.powers[seat]:
        data["mender_revealed"] = [r.unit_dict(u) for u in st.mender_shown]
    return data


def result(st: BattleState) -> dict[str, Any]:
    """The outcome for the campaign: winner, kills, Morale, which cards ended where (by id),
    Base Morale spent (gone for the Day), Influence left, and the powers used (per-Day ones
    included, so the campaign can mark them used)."""
    r = st.roster
    over = st.step == OVER
    return {
        "winner": st.winner if over else None, "over": over, "reason": st.end_reason,
        "routed": st.routed if st.routed >= 0 else None,
        "scores": list(st.kills), "kills": list(st.kills),
        "morale": [morale_of(st, s) for s in (0, 1)],
        "base_morale_spent": list(st.base_spent),
        "influence": list(st.influence),
        "killed": [[r.uid[u] for u in range(r.lo[s], r.hi[s]) if st.where[u] == KILLED] for s in (0, 1)],
        "disabled": [[r.uid[u] for u in range(r.lo[s], r.hi[s]) if st.where[u] == DISABLED] for s in (0, 1)],
        "exhausted": [[r.uid[u] for u in range(r.lo[s], r.hi[s]) if st.where[u] == EXHAUSTED]
                      for s in (0, 1)],
        "powers_used": [dict(d) for d in st.powers_used],
        "day_powers_used": [sorted({*r.used_today[s], *(["Cleric"] if st.cleric_used[s] else [])})
                            for s in (0, 1)],
    }
