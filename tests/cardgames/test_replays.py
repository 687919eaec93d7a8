"""Every step of every stored game renders for every viewer, once, on one page: each card game played to the end
by AI seats, then its replay page opened as each seat and as a game master. A seat's replay never shows another
seat's hidden hand at any step."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils.html import escape

from cardgames import services
from cardgames.models import Match
from cardgames.registry import ENGINES, game_for
from cardgames.selectors import match_record
from cardgames.services import SeatSpec
from gamekit.replay import replay_states

pytestmark = pytest.mark.django_db
CARD_GAMES = [name for name in ENGINES if name != "army-combat"]
STEP = re.compile(r'<div data-replay-stage data-step="(\d+)">|<template data-replay-step="(\d+)">')


def steps_on(page: str) -> dict[int, str]:
    """Each step's fragment on a replay page (the one shown and those in templates), by step; a step twice fails."""
    fragments: dict[int, str] = {}
    for mark in STEP.finditer(page):
        step = int(mark.group(1) or mark.group(2))
        assert step not in fragments, f"step {step} is on the page twice"
        if mark.group(1):  # the stage: up to the templates or the script, less the stage's own end
            rest = page[mark.end():]
            shown = rest[:min(rest.find(m) % len(rest) for m in ("<template data-replay-step", "<script src"))]
            fragments[step] = shown.rstrip().removesuffix("</div>")
        else:
            fragments[step] = page[mark.end():page.index("</template>", mark.end())]
    return fragments


def hand_on(fragment: str) -> list[str]:
    """The names of the cards in the viewer's hand on one step's fragment."""
    hand = fragment.split('data-testid="hand">', 1)[1].split("</ul>", 1)[0]
    return [unescape(name) for name in re.findall(r'data-card="([^"]+)"', hand)]


def finished(campaign, gm, player, rival, game: str, seed: int) -> Match:
    match = services.match_create(campaign=campaign, game=game, actor=gm, seed=seed, seats=[
        SeatSpec(name="Amira", user=player, ai="random"), SeatSpec(name="Bastian", user=rival, ai="random")])
    while services.match_play_ai(match_id=match.pk):
        pass
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    match.seats.update(ai="")  # the AI chose the moves; the seats are the players' own, as if they had played
    return match


@pytest.mark.parametrize("game", CARD_GAMES)
def test_the_replay_page_holds_every_step_once_for_each_seat_and_a_game_master(client, campaign, gm, player, rival,
                                                                               game):
    match = finished(campaign, gm, player, rival, game, seed=2)
    url = reverse("match-replay", args=[campaign.slug, match.pk])
    for viewer in (player, rival, gm):
        client.force_login(viewer)
        page = client.get(url, {"step": 1}).content.decode()
        fragments = steps_on(page)
        assert sorted(fragments) == list(range(match.version + 1)), viewer.username
        assert '<div data-replay-stage data-step="1">' in page
        for step in (0, match.version):
            assert f"Step {step} of {match.version}" in fragments[step]
            alone = steps_on(client.get(url, {"step": step}).content.decode())
            assert alone[step] == fragments[step], "the fallback ?step=N shows the same step as the player"


def test_a_players_replay_never_shows_the_other_players_hidden_hand(client, campaign, gm, player, rival):
    match = finished(campaign, gm, player, rival, "unity", seed=2)
    engine = game_for(match.game)
    url = reverse("match-replay", args=[campaign.slug, match.pk])
    pages = {}
    for seat, viewer in ((0, player), (1, rival), (None, gm)):
        client.force_login(viewer)
        pages[seat] = steps_on(client.get(url).content.decode())
    hidden_checked = 0
    for step, state in enumerate(replay_states(engine, match_record(match=match))):
        over = engine.is_over(state)
        for seat in (0, 1, None):
            fragment, seen = pages[seat][step], json.dumps(engine.view(state, seat))
            own = {state.deck.name[c] for c in state.hands[seat]} if seat is not None else set()
            if seat is not None and not over:
                assert hand_on(fragment) == [state.deck.name[c] for c in state.hands[seat]], (seat, step)
            for other in {0, 1} - {seat}:
                hidden = {state.deck.name[c] for c in state.hands[other]} - own
                hidden = {name for name in hidden if json.dumps(name) not in seen}
                hidden_checked += len(hidden)
                for name in hidden:
                    assert f'data-card="{escape(name)}"' not in fragment, (seat, step, name)
    assert hidden_checked > 100, "the match never had hidden cards to check"


def test_a_game_master_watching_a_seat_sees_that_seats_hand_and_a_spectator_none(client, campaign, gm, player,
                                                                                  rival):
    match = finished(campaign, gm, player, rival, "unity", seed=2)
    engine = game_for(match.game)
    url = reverse("match-replay", args=[campaign.slug, match.pk])
    client.force_login(gm)
    watching = steps_on(client.get(url, {"seat": 1}).content.decode())
    spectating = steps_on(client.get(url).content.decode())
    state = next(replay_states(engine, match_record(match=match)))
    assert hand_on(watching[0]) == [state.deck.name[c] for c in state.hands[1]]
    assert 'data-testid="hand"' not in "".join(spectating.values())


def test_each_seats_steps_are_rendered_once_and_remembered(client, campaign, gm, player, rival, monkeypatch):
    from cardgames import selectors

    match = finished(campaign, gm, player, rival, "command-dice", seed=2)
    url = reverse("match-replay", args=[campaign.slug, match.pk])
    rebuilt: list[int | None] = []
    real = selectors.match_replay
    monkeypatch.setattr(selectors, "match_replay", lambda **kw: rebuilt.append(kw["seat"]) or real(**kw))
    pages = []
    for viewer in (player, player, gm, gm):
        client.force_login(viewer)
        pages.append(client.get(url, {"step": 3}).content.decode())
    assert rebuilt == [0, None]
    assert steps_on(pages[0]) == steps_on(pages[1])
    assert steps_on(pages[2]) == steps_on(pages[3])


def test_the_replay_travels_gzipped_to_a_phone_that_accepts_it(client, campaign, gm, player, rival):
    import gzip

    match = finished(campaign, gm, player, rival, "unity", seed=2)
    client.force_login(player)
    url = reverse("match-replay", args=[campaign.slug, match.pk])
    plain = client.get(url).content
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert len(packed.content) * 5 < len(plain), (len(packed.content), len(plain))
    assert steps_on(gzip.decompress(packed.content).decode()) == steps_on(plain.decode())
