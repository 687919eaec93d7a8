"""Rules help at every table (#17 item 4), over seeded random games of each engine: in every phase the layout
says "What now?" in the phase's glossary words, explains each kind of move on offer (a commander power's move
by that power), and explains the powers in play. No database: the layouts render a TableView built straight
from the engine, as the board tests do."""

from __future__ import annotations

import html
import json
import random
import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from cardgames import rules_help
from cardgames.engine.unity.deck import stacked_order
from cardgames.registry import ENGINES, game_for
from cardgames.selectors import TableView, action_label
from cardgames.templatetags.tables import game_layout
from gamekit.glossary import action_key
from tests.gamekit.test_replay_hashes import battle_config

STEPS = 40
"""Moves played in each game; the layouts are rendered at every one."""


def table_for(game: str, engine, state, seat: int | None, config: dict) -> TableView:
    to_move = list(engine.to_move(state))
    actions = [(action_label(engine, state, a), json.dumps(a)) for a in engine.legal_actions(state, seat)] \
        if seat in to_move else []
    match = SimpleNamespace(game=game, config=config, pk=1, version=0, campaign=SimpleNamespace(slug="border-wars"))
    return TableView(match=match, seat=seat, view=engine.view(state, seat),
                     actions=actions, log=[], to_move=to_move, over=engine.is_over(state))


def layout(table: TableView) -> str:
    return render_to_string(game_layout(table.match.game)[0],
                            {"table": table, "match": table.match, "seats": [], "seat": table.seat})


def help_area(page: str, key: str) -> str:
    """The text of one help block ("phase", "moves", "words"): "" when the page has none."""
    found = re.search(rf'<details class="help[^"]*" id="help-{key}"[^>]*>(.*?)</details>', page, re.S)
    return html.unescape(found.group(1)) if found else ""


def games(game: str):
    """(engine, state, config) for a few seeded games; Army Combat's with different commander powers."""
    engine = game_for(game)
    for seed in (1, 2, 3):
        config = battle_config(seed, True) if game == "army-combat" else {}
        yield engine, engine.new_game(config, ["amira", "bastian"], seed=seed), config


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_phase_says_what_now_and_every_move_on_offer_is_explained(game):
    for engine, state, config in games(game):
        rng = random.Random(1)
        for _ in range(STEPS):
            if engine.is_over(state):
                break
            seat = engine.to_move(state)[0]
            table = table_for(game, engine, state, seat, config)
            page = layout(table)
            phase = rules_help.phase_term(game, table.view)
            assert phase is not None, f"{game}: no term for the phase of {table.view}"
            assert phase.text in help_area(page, "phase")
            assert 'data-testid="phase-help"><summary>What now?</summary>' in page
            moves = help_area(page, "moves")
            for _, action in table.actions:
                term = rules_help.terms_by_key(game)[action_key(json.loads(action))]
                assert f"<dt>{term.word}</dt><dd>{term.text}</dd>" in moves, f"{game}: {action} is not explained"
            watching = layout(table_for(game, engine, state, None, config))
            assert phase.text in help_area(watching, "phase"), "a spectator is told the phase too"
            assert help_area(watching, "moves") == "", "a spectator has no moves to explain"
            engine.apply(state, rng.choice(engine.legal_actions(state, seat)), seat)


def test_a_battle_explains_both_commanders_powers_and_the_roles_and_traits_on_its_cards():
    engine = game_for("army-combat")
    config = battle_config(4, True)
    state = engine.new_game(config, ["amira", "bastian"], seed=4)
    table = table_for("army-combat", engine, state, 0, config)
    words = help_area(layout(table), "words")
    for commander in table.view["commanders"]:
        for power in commander["powers"]:
            assert f"<dt>{power}</dt>" in words
    for card in table.view["hand"]:
        assert f"<dt>{card['role']}</dt>" in words
        for trait in card["traits"]:
            assert rules_help.terms_by_key("army-combat")[f"trait:{trait}"].word in words
    assert "<dt>Morale</dt>" in words


def test_a_unity_table_explains_the_powers_and_categories_of_the_cards_in_my_hand():
    engine = game_for("unity")
    mine = ["David", "Shofar", "God's Glory", "Asherah Pole", "Beelzebub"]
    config = {"deck_order": stacked_order([mine, ["Abraham", "Moses", "Elijah", "Noah", "Esther"]])}
    state = engine.new_game(config, ["amira", "bastian"], seed=7)
    table = table_for("unity", engine, state, 0, config)
    assert {card["name"] for card in table.view["hand"]} >= set(mine)
    words = help_area(layout(table), "words")
    for word in ("David", "Shofar", "God's Glory", "Asherah Pole", "Human righteous cards", "Righteous Object",
                 "Attribute of God", "Evil Object", "Evil cards"):
        assert f"<dt>{word}</dt>" in words
    assert "<dt>Trinity</dt>" not in words, "only what is on the table is explained"
