"""Armies that meet during an hour, not only where they stand when it ends (army-combat.txt: "when an army
reaches ... an enemy army, a Battle is due"). Each army's hour is a timeline of straight, steady stretches
(routing.timed_walk; an army that does not move stands still); two enemy armies meet at the first moment
they come within contact distance: moving against moving, moving against standing, several at once. Both
stop there, so the hour's Battle check finds them together. Pure: no database.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Callable, Mapping
from itertools import combinations, pairwise

from campaign.map.rules import Point

Timeline = tuple[tuple[float, Point], ...]
"""(time in hours, position) at every turn; the army stands at the last position after its last time."""

CLOSE = 1e-6
"""How far inside the contact distance a meeting is placed, so that the stopped armies count as in contact."""


def position_at(timeline: Timeline, t: float) -> Point:
    """Where the army is at time `t` (before the first point: the first; after the last: the last)."""
    if t <= timeline[0][0]:
        return timeline[0][1]
    for (t0, p0), (t1, p1) in pairwise(timeline):
        if t <= t1:
            f = 0.0 if t1 - t0 <= 0 else (t - t0) / (t1 - t0)
            return (p0[0] + f * (p1[0] - p0[0]), p0[1] + f * (p1[1] - p0[1]))
    return timeline[-1][1]


def truncated(timeline: Timeline, t: float) -> Timeline:
    """The timeline of an army that stops at time `t`."""
    kept = tuple(point for point in timeline if point[0] < t)
    return (*kept, (t, position_at(timeline, t)))


def first_contact(a: Timeline, b: Timeline, contact: float, *, until: float = 1.0) -> float | None:
    """The first time in [0, until] at which the two armies are within `contact` inches, or None. Between two
    of their turns both move in straight lines, so their distance is the root of a quadratic."""
    reach = max(contact - CLOSE, 0.0)
    times = sorted({0.0, until, *(t for t, _ in a if t < until), *(t for t, _ in b if t < until)})
    for t0, t1 in pairwise(times):
        a0, a1, b0, b1 = position_at(a, t0), position_at(a, t1), position_at(b, t0), position_at(b, t1)
        dx, dy = b0[0] - a0[0], b0[1] - a0[1]
        if dx * dx + dy * dy <= reach * reach:
            return t0
        span = t1 - t0
        if span <= 0:
            continue
        wx, wy = ((b1[0] - a1[0]) - dx) / span, ((b1[1] - a1[1]) - dy) / span
        qa, qb, qc = wx * wx + wy * wy, 2 * (dx * wx + dy * wy), dx * dx + dy * dy - reach * reach
        disc = qb * qb - 4 * qa * qc
        if qa <= 0 or disc < 0:
            continue
        s = (-qb - math.sqrt(disc)) / (2 * qa)
        if 0 <= s <= span:
            return t0 + s
    return None


def _candidates(timelines: Mapping[int, Timeline], moving: set[int], contact: float) -> set[tuple]:
    """Pairs whose hours' boxes (grown by the contact distance) share a grid cell, at least one of them moving."""
    size = max(contact * 2, 3.0)
    cells: dict[tuple[int, int], list[int]] = defaultdict(list)
    for key in sorted(timelines):
        xs = [p[0] for _, p in timelines[key]]
        ys = [p[1] for _, p in timelines[key]]
        for i in range(int((min(xs) - contact) // size), int((max(xs) + contact) // size) + 1):
            for j in range(int((min(ys) - contact) // size), int((max(ys) + contact) // size) + 1):
                cells[(i, j)].append(key)
    return {(a, b) for members in cells.values() for a, b in combinations(members, 2) if a in moving or b in moving}


def meetings(timelines: Mapping[int, Timeline], *, moving: set[int], contact: float,
             may_meet: Callable[[int, int], bool]) -> dict[int, float]:
    """When each army that meets an enemy stops: {army: time in hours}. Armies not named walk their whole
    timeline. `may_meet(a, b)` says whether two armies fight when they meet (enemies not in their cooldown).
    Meetings are taken in order of time; when an army stops, every enemy near its road is checked again
    against where it now stands (one coming up behind meets it there)."""
    partners: dict[int, set[int]] = defaultdict(set)
    for a, b in _candidates(timelines, moving, contact):
        if may_meet(a, b):
            partners[a].add(b)
            partners[b].add(a)
    stops: dict[int, float] = {}
    queue: list[tuple[float, int, int, int]] = []  # (time, army, army, how many had stopped when worked out)

    def schedule(a: int, b: int) -> None:
        cut = [truncated(timelines[k], stops[k]) if k in stops else timelines[k] for k in (a, b)]
        t = first_contact(cut[0], cut[1], contact)
        if t is not None:
            heapq.heappush(queue, (t, min(a, b), max(a, b), (a in stops) + (b in stops)))

    for a in sorted(partners):
        for b in sorted(partners[a]):
            if a < b:
                schedule(a, b)
    while queue:
        t, a, b, stopped = heapq.heappop(queue)
        if (a in stops) + (b in stops) != stopped:
            continue  # one of them has stopped since: its stop scheduled this pair again from where it stands
        for k in (a, b):
            if k in moving and k not in stops:
                stops[k] = t
                for other in sorted(partners[k]):
                    schedule(k, other)
    return {k: t for k, t in stops.items() if k in moving}
