"""The twenty commander powers (RULINGS: the 4 x 5 grid) and their limits."""

import pytest

from battles.engine import GAME
from battles.engine.legal import ritual_allowed
from battles.engine.powers import GRID, POWERS
from battles.engine.state import STEPS
from gamekit.errors import RuleError

from .helpers import SOLDIER_FX, act, battle, legal, pile, texts, unit

X = unit(1, "X", 2, "Healer")
Y = unit(1, "Y", 2, "Healer")
R = unit(9, "Reserve", 1, "Healer")


def test_the_grid_has_twenty_powers():
    assert len(POWERS) == 20 == len(set(POWERS))
    assert GRID["Guardian"][0] == "Tactician"
    assert GRID["Savant"][4] == "Etherealist"


def test_tactician_copies_a_guardian_row_or_steel_column_power():
    st = battle([X], [Y, R], dice=[2, 5, 3], a={"power": "Tactician", "tactician": "Master of Arms"})
    assert ("play", 1, "Aggressor") in legal(st)
    events = texts(act(st, ("play", 1, "Aggressor"), ("play", 1)))
    assert "X (Offense, Aggressor) roll 2 and 5, keep 5: 2 + 5 + 1 Master of Arms = 8" in events
    with pytest.raises(RuleError) as err:
        battle([X], [Y], a={"power": "Tactician", "tactician": "Evoker"})
    assert err.value.rule == "Tactician"


def test_battlemage_discard_is_exhausted_on_five_plus_once_per_phase():
    s1, s2 = unit(2, "S1", effects=SOLDIER_FX), unit(3, "S2", effects=SOLDIER_FX)
    st = battle([X, s1, s2], [Y, R], dice=[5, 3, 3], a={"power": "Battlemage"})
    act(st, ("play", 1), ("play", 1), ("react", 2, "offense"), ("react", 3, "offense"))
    assert pile(st, 0, 2) == "exhausted"
    assert pile(st, 0, 3) == "disabled"  # no second roll this Phase
    st = battle([X, s1, s2], [Y, R], dice=[4, 6, 3, 3], a={"power": "Battlemage"})
    act(st, ("play", 1), ("play", 1), ("react", 2, "offense"), ("react", 3, "offense"))
    assert pile(st, 0, 2) == "disabled"
    assert pile(st, 0, 3) == "exhausted"


def test_oathbound_unit_killed_is_disabled_and_disabled_is_exhausted():
    st = battle([X, R], [Y, R], dice=[1, 6], a={"power": "Oathbound", "oathbound": 1})
    act(st, ("play", 1), ("play", 1))
    assert pile(st, 0, 1) == "disabled"
    assert STEPS[st.step] != "save"
    st = battle([X, R], [Y, R], dice=[2, 3], a={"power": "Oathbound", "oathbound": 1})
    act(st, ("play", 1), ("play", 1))
    assert pile(st, 0, 1) == "exhausted"


def test_shapeshifter_changes_a_role_once_per_battle():
    st = battle([X, R], [unit(1, "Y", 2, "Aggressor"), R], dice=[3, 1, 6], b={"power": "Shapeshifter"})
    act(st, ("play", 1), ("play", 1))
    assert ("power", "Shapeshifter", "Guardian") in legal(st)
    events = texts(act(st, ("power", "Shapeshifter", "Guardian")))
    assert "Y (Defense, Guardian) roll 1 and 6, keep 6: 2 + 6 = 8" in events
    assert GAME.result(st)["powers_used"][1] == {"Shapeshifter": 1}


def test_adept_may_play_as_guardian_and_guardians_add_one():
    st = battle([X, R], [Y, R], dice=[3, 3], a={"power": "Adept"})
    assert ("play", 1, "Guardian") in legal(st)
    assert ("play", 1, "Aggressor") not in legal(st)
    events = texts(act(st, ("play", 1, "Guardian"), ("play", 1)))
    assert "X (Offense, Guardian) roll 3: 2 + 3 + 1 Adept = 6" in events


def test_chirurgeon_gets_an_alchemy_lab_that_is_disabled_instead_of_killed():
    st = battle([X], [Y, R], dice=[2], a={"power": "Chirurgeon"})
    assert ("play", -1) in legal(st)
    act(st, ("play", -1), ("play", 1))
    assert pile(st, 0, -1) == "disabled"
    assert GAME.result(st)["powers_used"][0] == {"Chirurgeon": 1}


def test_necromancer_returns_a_disabled_card_in_phase_two_and_undead_add_one():
    zombie = unit(1, "Zombie", 2, "Healer", traits=("Undead",))
    st = battle([zombie], [Y, unit(2, "W", 2, "Healer")], dice=[1, 4, 1], a={"power": "Necromancer"})
    events = texts(act(st, ("play", 1), ("play", 1)))
    assert "Zombie (Offense, Healer) roll 1: 2 + 1 + 1 Necromancer = 4" in events
    act(st, ("play", 2))  # A is Unable: Unopposed; then both Unable: Phase 2
    assert st.phase == 2
    assert STEPS[st.step] == "necromancer"
    assert st.actor == 0
    assert legal(st) == [("power", "Necromancer", 1), ("decline",)]
    act(st, ("power", "Necromancer", 1))
    assert pile(st, 0, 1) == "hand"


def test_cleric_returns_a_killed_card_once_per_day_for_a_morale():
    st = battle([X, R], [Y, R], dice=[1, 6], a={"power": "Cleric"})
    act(st, ("play", 1), ("play", 1), ("accept_kill",))
    assert STEPS[st.step] == "heal"
    assert ("power", "Cleric", 1) in legal(st)
    act(st, ("power", "Cleric", 1))
    assert pile(st, 0, 1) == "hand"
    assert st.morale[0] == 4
    assert st.kills == [0, 0]
    assert GAME.result(st)["day_powers_used"] == [["Cleric"], []]
    st = battle([X, R], [Y, R], dice=[1, 6], a={"power": "Cleric", "used_today": ["Cleric"]})
    act(st, ("play", 1), ("play", 1), ("accept_kill",))
    assert STEPS[st.step] != "heal"


def test_animist_plays_two_rituals_per_phase_and_healers_add_one():
    rite = [{"when": "discard", "do": "add", "amount": 2, "to": "own"}]
    rites = [unit(7, "Rite", None, "Ritual", effects=rite), unit(8, "Rite", None, "Ritual", effects=rite)]
    st = battle([X, unit(2, role="Healer"), *rites], [Y, R], dice=[3, 3], a={"power": "Animist"})
    act(st, ("play", 1), ("play", 1), ("react", 7))
    events = texts(act(st, ("react", 8)))
    assert "X (Offense, Healer) roll 3: 2 + 3 + 4 from cards + 1 Animist = 10" in events
    assert st.rituals_battle[0] == 2


def test_animist_plays_up_to_four_rituals_in_a_battle_others_two():
    """RULINGS.md: Rituals at most two per Battle and one per Phase; an Animist two each Phase, up to four."""
    rite = [{"when": "discard", "do": "add", "amount": 2, "to": "own"}]
    rites = [unit(7, "Rite", None, "Ritual", effects=rite), unit(8, "Rite", None, "Ritual", effects=rite)]
    for power, cap in (("Animist", 4), ("Cleric", 2)):
        st = battle([X, unit(2, role="Healer"), *rites], [Y, R], dice=[3, 3], a={"power": power})
        act(st, ("play", 1), ("play", 1))
        rite_card = st.roster.index[0][7]
        st.rituals_battle[0] = cap - 1
        assert ritual_allowed(st, 0, rite_card)
        st.rituals_battle[0] = cap
        assert not ritual_allowed(st, 0, rite_card)


def test_mender_reveals_two_random_cards_and_may_disable_one_for_a_morale():
    b_units = [Y, unit(2, "W"), unit(3, "V")]
    st = battle([X], b_units, dice=[1, 1], a={"power": "Mender"})
    assert STEPS[st.step] == "mender"
    assert st.actor == 0
    events = act(st, ("power", "Mender"))
    assert events[0].see == (0, 1)
    assert "Y and W" in events[0].text
    assert legal(st) == [("disable", 1), ("disable", 2), ("decline",)]
    act(st, ("disable", 2))
    assert pile(st, 1, 2) == "disabled"
    assert st.morale[0] == 4
    assert STEPS[st.step] == "offense"
    assert st.actor == 0


def test_master_of_arms_may_play_as_aggressor_and_aggressors_add_one():
    st = battle([X, R], [Y, R], dice=[2, 5, 3], a={"power": "Master of Arms"})
    events = texts(act(st, ("play", 1, "Aggressor"), ("play", 1)))
    assert "X (Offense, Aggressor) roll 2 and 5, keep 5: 2 + 5 + 1 Master of Arms = 8" in events


def test_evoker_adds_two_three_times_per_battle_once_per_skirmish():
    st = battle([X, R], [Y, R], dice=[3, 3], a={"power": "Evoker"})
    act(st, ("play", 1), ("play", 1))
    assert legal(st) == [("power", "Evoker", "offense"), ("power", "Evoker", "defense"), ("decline",)]
    events = texts(act(st, ("power", "Evoker", "offense")))
    assert "X (Offense, Healer) roll 3: 2 + 3 + 2 from powers = 7" in events  # once per Skirmish: resolved
    assert st.evoker_left[0] == 2


def test_dervish_adds_one_against_the_chosen_path_or_role():
    st = battle(
        [X, R], [unit(1, "Y", 2, "Healer", "Faith"), R], dice=[3, 3], a={"power": "Dervish", "dervish": "Faith"}
    )
    assert "X (Offense, Healer) roll 3: 2 + 3 + 1 Dervish = 6" in texts(act(st, ("play", 1), ("play", 1)))
    with pytest.raises(RuleError) as err:
        battle([X], [Y], a={"power": "Dervish"})
    assert err.value.rule == "Dervish"


def test_scout_offense_gains_ranged_or_adds_one_if_already_ranged():
    pikes = unit(1, "Pikes", 2, "Healer", traits=("Reach",))
    st = battle([X, R], [pikes, R], dice=[3, 3, 4, 2], a={"power": "Scout"})
    events = texts(act(st, ("play", 1), ("play", 1)))
    assert "Pikes (Defense, Healer) roll 3: 2 + 3 = 5" in events  # no Reach bonus against Ranged
    archers = unit(1, "Archers", 2, "Healer", traits=("Ranged",))
    st = battle([archers, R], [Y, R], dice=[3, 3], a={"power": "Scout"})
    assert "Archers (Offense, Healer) roll 3: 2 + 3 + 1 Scout = 6" in texts(act(st, ("play", 1), ("play", 1)))


def test_psionicist_plays_a_random_card_adding_three_once_per_battle():
    st = battle([X, unit(2, "Z", 1, "Healer")], [Y, R], dice=[2, 3, 3], a={"power": "Psionicist"})
    assert ("power", "Psionicist") in legal(st)
    act(st, ("power", "Psionicist"))
    assert pile(st, 0, 2) == "played"
    events = texts(act(st, ("play", 1)))
    assert "Z (Offense, Healer) roll 3: 1 + 3 + 3 from powers = 7" in events
    st = battle([X], [Y], a={"power": "Psionicist"})
    assert ("power", "Psionicist") not in legal(st)  # at least 2 cards in hand


def test_rogue_gains_a_morale_on_four_plus_when_killing():
    st = battle([X, R], [Y, R], dice=[6, 1, 4], a={"power": "Rogue"})
    act(st, ("play", 1), ("play", 1), ("accept_kill",))
    assert st.morale[0] == 6
    assert GAME.result(st)["powers_used"][0] == {"Rogue": 1}


def test_illusionist_rolls_a_die_for_either_unit_twice_per_battle():
    st = battle([X, R], [Y, R], dice=[4, 3, 3], b={"power": "Illusionist"})
    act(st, ("play", 1), ("play", 1))
    events = texts(act(st, ("power", "Illusionist", "defense")))
    assert "Y (Defense, Healer) roll 3: 2 + 3 + 4 from powers = 9" in events
    assert st.illusionist_left[1] == 1


def test_chaplain_gets_the_mediating_chaplain():
    st = battle([X], [Y], a={"power": "Chaplain"})
    u = st.roster.index[0][-2]
    assert st.roster.name[u] == "Mediating Chaplain"
    assert st.roster.fx[u].no_damage


def test_shaman_elemental_and_savant_units_add_one():
    fire = unit(1, "Fire", 2, "Healer", traits=("Elemental",))
    st = battle([fire, R], [Y, R], dice=[3, 3], a={"power": "Shaman"})
    assert "Fire (Offense, Healer) roll 3: 2 + 3 + 1 Shaman = 6" in texts(act(st, ("play", 1), ("play", 1)))


def test_etherealist_swaps_a_card_in_hand_with_the_one_in_the_skirmish():
    st = battle([X, unit(2, "Z", 4, "Healer")], [Y, R], dice=[3, 3], a={"power": "Etherealist"})
    act(st, ("play", 1), ("play", 1))
    assert ("power", "Etherealist", 2) in legal(st)
    events = texts(act(st, ("power", "Etherealist", 2)))
    assert "Z (Offense, Healer) roll 3: 4 + 3 = 7" in events
    assert pile(st, 0, 1) == "hand"


def test_unknown_power_is_refused():
    with pytest.raises(RuleError) as err:
        battle([X], [Y], a={"power": "Dragonlord"})
    assert err.value.rule == "commander powers"
