"""Every engine's glossary is complete and well made (#17 item 4): each phase the engine can be in, each kind of
action its legal_actions offers and each power it names has a term, read from the engine itself: its own
lists of phases, actions and powers, and the phases and actions met in seeded random games (every commander
power in turn for Army Combat). A new phase, action or power without a term fails here, and so does a term
for one the engine no longer has. Each term is one to three sentences from a rules text."""

from __future__ import annotations

import random
import re
from importlib import import_module

import pytest

from battles.engine import state as battle_state
from battles.engine.actions import _HANDLERS as BATTLE_ACTIONS
from battles.engine.powers import POWERS
from cardgames.engine.command_dice.game import PHASES as COMMAND_DICE_PHASES
from cardgames.engine.squad_combat import cards as squad_cards
from cardgames.engine.squad_combat.rules import LENGTHS as SQUAD_ACTIONS
from cardgames.engine.squad_combat.state import STEPS as SQUAD_STEPS
from cardgames.engine.unholy_war.moves import SHAPES as UNHOLY_WAR_ACTIONS
from cardgames.engine.unholy_war.table import PHASES as UNHOLY_WAR_PHASES
from cardgames.engine.unity.deck import POWER_FLAGS, default_data
from cardgames.engine.unity.refusals import KINDS as UNITY_ACTIONS
from cardgames.engine.unity.state import PHASES as UNITY_PHASES
from cardgames.registry import ENGINES, game_for
from gamekit.glossary import KINDS, SOURCES, Term, action_key, by_key
from tests.gamekit.test_replay_hashes import battle_config


def keys(namespace: str, names) -> set[str]:
    return {f"{namespace}:{name}" for name in names}


DECLARED = {
    "army-combat": keys("phase", battle_state.STEPS) | keys("power", POWERS) | keys("role", battle_state.ROLES)
    | keys("trait", battle_state.TRAITS) | keys("path", battle_state.PATHS)
    | keys("action", set(BATTLE_ACTIONS) - {"power"}),  # a power's action is explained by that power
    "command-dice": keys("phase", COMMAND_DICE_PHASES) | keys("action", ("choose", "allocate")),
    "unholy-war": keys("phase", UNHOLY_WAR_PHASES) | keys("action", UNHOLY_WAR_ACTIONS),
    "squad-combat": keys("phase", SQUAD_STEPS) | keys("action", SQUAD_ACTIONS) | keys("power", squad_cards.KINDS)
    | keys("effect", (e for e in squad_cards.EFFECTS if e != "none")),
    "unity": keys("phase", UNITY_PHASES) | keys("action", UNITY_ACTIONS) | keys("power", POWER_FLAGS)
    | keys("category", default_data()["categories"]),
}
"""What each engine names: its phases (steps), its actions, its powers and the like, from its own lists."""

ENGINE_NAMESPACES = ("phase", "action", "power", "role", "trait", "path", "effect", "category")
"""Key namespaces of the engines' own names (``term:`` keys are the words a table shows, named by the web layer)."""

SEATS = {"army-combat": (2,), "command-dice": (2,), "unholy-war": (2, 3), "squad-combat": (2, 3), "unity": (2, 3)}
GAMES = {"army-combat": 20, "command-dice": 10, "unholy-war": 10, "squad-combat": 4, "unity": 10}
"""Seeded games per seat count: Army Combat's twenty give every commander power a turn."""


def terms(game: str) -> tuple[Term, ...]:
    return import_module(f"{ENGINES[game][0]}.glossary").TERMS


def played(game: str) -> set[str]:
    """The phases and action keys met in seeded random games (Army Combat: a different pair of commander powers
    each game, so every power's steps and actions come up)."""
    engine = game_for(game)
    found: set[str] = set()
    for seats in SEATS[game]:
        for seed in range(GAMES[game]):
            config = battle_config(seed, False) if game == "army-combat" else {}
            state = engine.new_game(config, [f"p{i}" for i in range(seats)], seed=seed)
            rng = random.Random(seed)
            while True:
                view = engine.view(state, 0)
                found.add(f"phase:{view['step'] if 'step' in view else view['phase']}")
                if engine.is_over(state):
                    break
                for seat in engine.to_move(state):
                    actions = engine.legal_actions(state, seat)
                    found |= {action_key(a) for a in actions}
                    engine.apply(state, rng.choice(actions), seat)
    return found


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_phase_action_and_power_the_engine_names_or_plays_has_a_term(game):
    explained = by_key(terms(game))
    seen = played(game)
    assert seen - DECLARED[game] == set(), "the engine plays names its own lists lack: add them to DECLARED"
    assert sorted((DECLARED[game] | seen) - set(explained)) == []


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_no_term_explains_what_the_engine_does_not_have(game):
    engine_keys = {key for key in by_key(terms(game)) if key.split(":")[0] in ENGINE_NAMESPACES}
    assert sorted(engine_keys - DECLARED[game]) == []


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_each_term_is_short_named_once_and_sourced(game):
    slugs = [term.slug for term in terms(game)]
    assert len(slugs) == len(set(slugs)), "two terms of one game share an anchor"
    for term in terms(game):
        sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z\[<])", term.text.strip())
        assert 1 <= len(sentences) <= 3, f"{term.word}: 1 to 3 sentences"
        assert len(term.text) <= 320, f"{term.word}: short sentences"
        assert term.text.endswith("."), f"{term.word}: a sentence ends with a full stop"
        assert term.source in SOURCES, term.word
        assert term.kind in KINDS, term.word
        assert term.slug, term.word


def test_a_name_two_terms_claim_is_refused():
    twice = (Term("Pass", "action", "Pass.", "unity.txt", ("action:pass",)),
             Term("Decline", "action", "Decline.", "unity.txt", ("action:pass",)))
    with pytest.raises(ValueError, match="'action:pass' is explained by both 'Pass' and 'Decline'"):
        by_key(twice)


def test_an_action_is_explained_by_its_word_or_by_the_power_it_uses():
    assert action_key(("engage", 0, "tap", 1, -1)) == "action:engage"
    assert action_key(("power", "Evoker", "offense")) == "power:Evoker"
    assert action_key(("pass",)) == "action:pass"
    assert Term("Master of Arms", "power", "Adds.", "army-combat.txt").slug == "master-of-arms"
