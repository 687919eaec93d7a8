"""Skirmish rules: dice by Role, Equipment, Savant, Reach and Ranged, ties, Kills and saves."""

import pytest

from battles.engine.state import STEPS
from gamekit.errors import RuleError

from .helpers import SOLDIER_FX, act, battle, legal, pile, texts, unit

RESERVE = unit(9, "Reserve", 1, "Healer")  # keeps the loser's commander Able after the Skirmish


def test_aggressor_on_offense_keeps_the_best_of_two_dice():
    st = battle([unit(1, role="Aggressor")], [unit(1, role="Healer"), RESERVE], dice=[1, 6, 2])
    events = texts(act(st, ("play", 1), ("play", 1)))
    assert "Soldier (Offense, Aggressor) roll 1 and 6, keep 6: 2 + 6 = 8" in events


def test_guardian_on_defense_keeps_the_best_of_two_dice():
    st = battle([unit(1, role="Healer")], [unit(1, role="Guardian"), RESERVE], dice=[3, 1, 5])
    events = texts(act(st, ("play", 1), ("play", 1)))
    assert "Soldier (Defense, Guardian) roll 1 and 5, keep 5: 2 + 5 = 7" in events


def test_aggressor_and_guardian_negate_each_other():
    st = battle([unit(1, role="Aggressor")], [unit(1, role="Guardian"), RESERVE], dice=[3, 4])
    events = texts(act(st, ("play", 1), ("play", 1)))
    assert "Soldier (Offense, Aggressor) roll 3: 2 + 3 = 5" in events
    assert "Soldier (Defense, Guardian) roll 4: 2 + 4 = 6" in events


def test_equipment_rolls_no_die():
    st = battle([unit(1, "Siege Ram", 3, "Equipment")], [unit(1, role="Healer"), RESERVE], dice=[2])
    events = texts(act(st, ("play", 1), ("play", 1)))
    assert "Siege Ram (Offense, Equipment) roll no die: 3 = 3" in events
    assert pile(st, 0, 1) == "disabled"  # 3 against 4


def test_strength_zero_equipment_is_killed_in_any_skirmish():
    st = battle([unit(1, "Lab", 0, "Equipment")], [unit(1, "Weak", 0, "Healer"), RESERVE], dice=[1])
    act(st, ("play", 1), ("play", 1), ("accept_kill",))
    assert pile(st, 0, 1) == "killed"
    assert pile(st, 1, 1) == "exhausted"


def test_savant_gets_two_more_for_each_card_add_but_not_for_powers():
    savant = unit(1, "Mages", 1, "Savant", "Magic")
    st = battle(
        [savant, unit(2, effects=SOLDIER_FX)], [unit(1, role="Healer"), RESERVE], dice=[3, 3], a={"power": "Evoker"}
    )
    act(st, ("play", 1), ("play", 1), ("react", 2, "offense"))
    events = texts(act(st, ("power", "Evoker", "offense")))  # then no one has anything left: resolved
    assert "Mages (Offense, Savant) roll 3: 1 + 3 + 1 from cards + 2 Savant + 2 from powers = 9" in events


def test_reach_adds_one_unless_the_opponent_has_reach_or_ranged():
    spear = unit(1, "Spearmen", 2, "Healer", traits=("Reach",))
    st = battle([spear], [unit(1, "Archers", 2, "Healer", traits=("Ranged",)), RESERVE], dice=[3, 2])
    events = texts(act(st, ("play", 1), ("play", 1)))
    assert "Spearmen (Offense, Healer) roll 3: 2 + 3 = 5" in events
    st = battle([spear], [unit(1, "Pikes", 2, "Healer", traits=("Reach",)), RESERVE], dice=[3, 2])
    events = texts(act(st, ("play", 1), ("play", 1)))
    assert "Spearmen (Offense, Healer) roll 3: 2 + 3 = 5" in events
    assert "Pikes (Defense, Healer) roll 2: 2 + 2 = 4" in events


def test_retinue_adds_one():
    st = battle([unit(1, "Guard", 2, "Healer", retinue=True)], [unit(1, role="Healer"), RESERVE], dice=[3, 2])
    assert "Guard (Offense, Healer) roll 3: 2 + 3 + 1 retinue = 6" in texts(act(st, ("play", 1), ("play", 1)))


def test_tie_goes_to_higher_base_strength():
    st = battle([unit(1, "Big", 3, "Healer")], [unit(1, "Small", 2, "Healer"), RESERVE], dice=[2, 3])
    act(st, ("play", 1), ("play", 1))
    assert pile(st, 0, 1) == "exhausted"
    assert pile(st, 1, 1) == "disabled"


def test_tie_with_equal_base_strength_rerolls_both_dice():
    st = battle([unit(1, "X", 2, "Healer")], [unit(1, "Y", 2, "Healer"), RESERVE], dice=[4, 4, 3, 5])
    events = texts(act(st, ("play", 1), ("play", 1)))
    assert "A tie with equal base Strength: both re-roll." in events
    assert pile(st, 1, 1) == "exhausted"
    assert pile(st, 0, 1) == "disabled"


def test_after_the_reroll_limit_the_attacker_wins():
    st = battle(
        [unit(1, "X", 2, "Healer")], [unit(1, "Y", 2, "Healer"), RESERVE], dice=[4] * 8, house_rules={"reroll_limit": 3}
    )
    events = texts(act(st, ("play", 1), ("play", 1)))
    assert "Still tied with no re-rolls left: the attacker wins." in events
    assert pile(st, 0, 1) == "exhausted"


def test_margin_of_two_disables_and_three_kills():
    st = battle([unit(1, "X", 4, "Healer")], [unit(1, "Y", 2, "Healer"), RESERVE], dice=[3, 5])
    act(st, ("play", 1), ("play", 1))
    assert pile(st, 1, 1) == "disabled"
    st = battle([unit(1, "X", 4, "Healer")], [unit(1, "Y", 2, "Healer"), RESERVE], dice=[3, 2])
    act(st, ("play", 1), ("play", 1))
    assert STEPS[st.step] == "save"
    assert st.actor == 1


def test_player_character_saves_with_influence():
    st = battle(
        [unit(1, "X", 5, "Healer")],
        [unit(1, "Y", 1, "Healer"), RESERVE],
        dice=[3, 1],
        b={"is_player_character": True, "influence": 2},
    )
    act(st, ("play", 1), ("play", 1))
    assert legal(st) == [("save", "influence"), ("accept_kill",)]
    act(st, ("save", "influence"))
    assert pile(st, 1, 1) == "disabled"
    assert st.influence[1] == 1
    assert st.kills == [0, 0]


def test_non_player_commander_saves_with_three_morale():
    st = battle([unit(1, "X", 5, "Healer")], [unit(1, "Y", 1, "Healer"), RESERVE], dice=[3, 1])
    act(st, ("play", 1), ("play", 1), ("save", "morale"))
    assert pile(st, 1, 1) == "disabled"
    assert st.morale[1] == 2


def test_no_save_offered_without_the_means():
    st = battle(
        [unit(1, "X", 5, "Healer")],
        [unit(1, "Y", 1, "Healer"), RESERVE],
        dice=[3, 1],
        b={"is_player_character": True, "influence": 0},
    )
    act(st, ("play", 1), ("play", 1))
    assert pile(st, 1, 1) == "killed"


def test_units_without_strength_cannot_be_played():
    st = battle([unit(1, "Banner", None, "Equipment"), unit(2)], [unit(1)])
    assert ("play", 1) not in legal(st)
    with pytest.raises(RuleError) as err:
        act(st, ("play", 1))
    assert err.value.rule == "Strength"
    assert "cannot be played on Offense or Defense" in err.value.message


def test_mediating_chaplain_neither_deals_nor_receives_damage():
    chaplain = unit(1, "Mediating Chaplain", 2, "Savant", "Faith", effects=[{"when": "skirmish", "do": "no_damage"}])
    st = battle([chaplain], [unit(1, "Y", 6, "Healer"), RESERVE], dice=[1, 6])
    act(st, ("play", 1), ("play", 1))
    assert pile(st, 0, 1) == "exhausted"
    assert pile(st, 1, 1) == "exhausted"
    st = battle([chaplain], [RESERVE], dice=[6])
    act(st, ("play", 1), ("pass",))
    assert st.morale[1] == 5  # Unopposed it deals no Morale damage


def test_discard_effects_set_role_grant_trait_return_and_morale():
    banner = unit(2, "Banner", None, "Equipment", effects=[{"when": "discard", "do": "set_role", "role": "Aggressor"}])
    wild = unit(3, "Wild", None, "Equipment", effects=[{"when": "discard", "do": "grant_trait", "trait": "Reach"}])
    druid = unit(4, "Druid", None, "Equipment", effects=[{"when": "discard", "do": "morale", "amount": 2}])
    st = battle([unit(1, "X", 2, "Healer"), banner, wild, druid], [unit(1, "Y", 2, "Healer"), RESERVE], dice=[1, 6, 2])
    act(st, ("play", 1), ("play", 1), ("react", 2), ("react", 3))
    events = texts(act(st, ("react", 4)))  # A's last card: the window closes and dice roll
    assert st.morale[0] == 7
    assert "X (Offense, Aggressor) roll 1 and 6, keep 6: 2 + 6 + 1 Reach = 9" in events


def test_return_effect_brings_a_card_back_from_a_pile():
    lab = unit(2, "Lab", 0, "Equipment", effects=[{"when": "discard", "do": "return", "from": "exhausted"}])
    st = battle(
        [unit(1, "X", 5, "Healer"), lab, unit(3, "Z", 1, "Healer")],
        [unit(1, "Y", 1, "Healer"), unit(2, "W", 1, "Healer"), RESERVE],
        dice=[6, 1, 5, 3],
    )
    act(st, ("play", 1), ("play", 1), ("accept_kill",))
    assert pile(st, 0, 1) == "exhausted"
    act(st, ("play", 2), ("play", 3))  # B attacks with W, A defends with Z
    assert st.actor == 0
    assert legal(st) == [("react", 2, 1), ("decline",)]
    act(st, ("react", 2, 1))
    assert pile(st, 0, 1) == "hand"
    assert pile(st, 0, 2) == "disabled"
