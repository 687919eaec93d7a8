"""A finished match's replay page: every step rendered for one seat (or for no seat: game masters and spectators),
each only what the engine's `view` shows that seat, and remembered: a finished match never changes, so its id, its
version and the seat name the HTML. Kept compressed (each step's table repeats its neighbour's): a long match is
tens of kilobytes of cache rather than a megabyte."""

from __future__ import annotations

import json
import zlib

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from campaign.web.numbers import parse_count
from cardgames import selectors
from cardgames.models import Match

REMEMBER_SECONDS = 24 * 3600


def steps_key(*, match: Match, seat: int | None) -> str:
    return f"replay-steps:{match.pk}:{match.version}:{'none' if seat is None else seat}"


def replay_steps_html(*, match: Match, seat: int | None) -> list[SafeString]:
    """The HTML of each step, 0 to the last action, as `seat` saw it."""
    key = steps_key(match=match, seat=seat)
    packed = cache.get(key)
    if packed is None:
        steps = [render_to_string("cardgames/_replay_step.html", {"replay": step, "match": match, "seat": seat})
                 for step in selectors.match_replay(match=match, seat=seat)]
        cache.set(key, zlib.compress(json.dumps(steps).encode()), REMEMBER_SECONDS)
    else:
        steps = json.loads(zlib.decompress(packed))
    return [mark_safe(html) for html in steps]  # noqa: S308 - rendered here by our own templates


def replay_context(*, match: Match, seat: int | None, step: str) -> dict[str, object]:
    """What templates/cardgames/_replay_player.html needs: the step asked for (a query-string value, clamped;
    anything else is 0) shown, every other step for static/js/replay.js."""
    steps = replay_steps_html(match=match, seat=seat)
    at = parse_count(step, default=0, maximum=len(steps) - 1)
    return {"replay_at": at, "replay_total": len(steps) - 1, "replay_shown": steps[at],
            "replay_others": [(i, html) for i, html in enumerate(steps) if i != at]}
