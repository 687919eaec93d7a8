"""The default unit catalogue (campaign/catalogue/data/unit_catalogue.json) and the effect vocabulary."""

import json
from pathlib import Path

import pytest

from battles.engine.effects import compile_effects
from battles.engine.powers import ALCHEMY_LAB, MEDIATING_CHAPLAIN
from battles.engine.state import PATHS, ROLES, TRAITS
from gamekit.errors import RuleError

PATH = Path(__file__).resolve().parents[3] / "campaign/catalogue/data/unit_catalogue.json"
CATALOGUE = json.loads(PATH.read_text())
BY_NAME = {u["name"]: u for u in CATALOGUE}
KEYS = {"name", "strength", "role", "path", "traits", "text", "effects", "quest", "trains_to", "third_training"}
GAINS = {"third_training_traits", "third_training_effects"}  # optional: what the engine plays after the third


def test_catalogue_shape():
    assert len(CATALOGUE) >= 30
    assert len(BY_NAME) == len(CATALOGUE)
    for u in CATALOGUE:
        assert KEYS <= set(u) <= KEYS | GAINS, u["name"]
        assert set(u.get("third_training_traits", [])) <= set(TRAITS)
        compile_effects(u["name"], u.get("third_training_effects", []))
        assert u["strength"] is None or (isinstance(u["strength"], int) and u["strength"] >= 0)
        assert u["role"] in ROLES
        assert u["path"] is None or u["path"] in PATHS
        assert set(u["traits"]) <= set(TRAITS)
        assert isinstance(u["quest"], bool)
        assert u["text"]
        assert u["trains_to"] is None or u["trains_to"] in BY_NAME
        compile_effects(u["name"], u["effects"])


def test_every_role_path_and_trait_occurs():
    assert {u["role"] for u in CATALOGUE} == set(ROLES)
    assert {u["path"] for u in CATALOGUE} >= set(PATHS)
    assert {t for u in CATALOGUE for t in u["traits"]} == set(TRAITS)


def test_units_named_in_the_rules():
    assert BY_NAME["Spearmen"]["role"] == "Aggressor"
    assert "Reach" in BY_NAME["Spearmen"]["traits"]
    assert BY_NAME["Soldier"]["effects"] == [{"when": "discard", "do": "add", "amount": 1, "to": "either"}]
    assert BY_NAME["Alchemy Lab"]["role"] == "Equipment"
    assert BY_NAME["Mediating Chaplain"]["effects"] == [{"when": "skirmish", "do": "no_damage"}]


@pytest.mark.parametrize("granted", [ALCHEMY_LAB, MEDIATING_CHAPLAIN])
def test_units_granted_by_powers_match_the_catalogue(granted):
    entry = BY_NAME[granted["name"]]
    assert {k: entry[k] for k in granted} == granted


@pytest.mark.parametrize(
    "effect",
    [
        {"when": "discard", "do": "add", "amount": 1},
        {"when": "discard", "do": "fly"},
        {"when": "reveal", "do": "add", "amount": 1, "to": "own", "against": {"colour": "red"}},
        {"when": "never"},
        {"when": "discard", "do": "return", "from": "killed"},
    ],
)
def test_bad_effects_are_refused(effect):
    with pytest.raises(RuleError) as err:
        compile_effects("Bad", [effect])
    assert err.value.rule == "card effects"


def test_only_one_choice_per_card():
    with pytest.raises(RuleError):
        compile_effects(
            "Two",
            [
                {"when": "discard", "do": "add", "amount": 1, "to": "either"},
                {"when": "discard", "do": "return", "from": "disabled"},
            ],
        )
