"""The economy's pure rules, with the rules' own numbers (no database)."""

import pytest

from campaign.economy.rules import (
    COMMANDER_POWERS,
    TACTICIAN_CHOICES,
    EconomyRefusal,
    UpkeepUnit,
    morale_purchase_price,
    recruit_price,
    starting_morale,
    training_max_weapon_cards,
    training_price,
    upkeep_bill,
)


@pytest.mark.parametrize(("level", "morale"), [(0, 4), (1, 4), (2, 5), (3, 5), (4, 6), (8, 8), (9, 8)])
def test_starting_morale_is_four_plus_half_the_level_rounded_down(level, morale):
    assert starting_morale(level) == morale


def test_the_twenty_powers_and_the_tacticians_choices():
    assert len(COMMANDER_POWERS) == 20
    assert len(set(COMMANDER_POWERS)) == 20
    assert set(TACTICIAN_CHOICES) == {"Battlemage", "Oathbound", "Shapeshifter", "Adept", "Chirurgeon",
                                      "Master of Arms", "Rogue"}


@pytest.mark.parametrize(("strength", "price"), [(1, 10), (2, 30), (3, 60), (4, 100), (5, 150)])
def test_recruit_table(strength, price):
    assert recruit_price(strength) == price


@pytest.mark.parametrize(("strength", "price"), [(1, 8), (2, 24), (3, 48), (4, 80), (5, 120)])
def test_recruit_table_after_the_quest(strength, price):
    assert recruit_price(strength, after_quest=True) == price


@pytest.mark.parametrize("strength", [0, 6, 9, None])
def test_other_strengths_need_a_gm_price(strength):
    with pytest.raises(EconomyRefusal, match="ask a game master to price"):
        recruit_price(strength)
    assert recruit_price(strength, gm_price=75) == 75


@pytest.mark.parametrize(("current", "new", "price"),
                         [(1, 2, 20), (2, 3, 30), (3, 4, 40), (4, 5, 50), (5, 6, 60), (6, 7, 70), (7, 8, 80)])
def test_training_table(current, new, price):
    quote = training_price(current_strength=current, trainings_done=0)
    assert (quote.new_strength, quote.base, quote.to_pay) == (new, price, price)


def test_weapon_cards_take_five_off_each_for_at_most_half():
    quote = training_price(current_strength=3, trainings_done=1, weapon_cards=2)
    assert (quote.base, quote.weapon_offset, quote.to_pay) == (40, 10, 30)
    assert training_max_weapon_cards(4) == 4  # half of 40 is 20: four cards
    full = training_price(current_strength=3, trainings_done=0, weapon_cards=4)
    assert full.to_pay == 20
    with pytest.raises(EconomyRefusal, match="destroy at most 4, not 5"):
        training_price(current_strength=3, trainings_done=0, weapon_cards=5)
    assert training_max_weapon_cards(1) == 1  # 10 lunari: one card pays half
    assert training_price(current_strength=0, trainings_done=0, weapon_cards=1).to_pay == 5


def test_training_is_refused_after_three_and_for_units_without_strength():
    with pytest.raises(EconomyRefusal, match="trained 3 times"):
        training_price(current_strength=5, trainings_done=3)
    with pytest.raises(EconomyRefusal, match="no Strength"):
        training_price(current_strength=None, trainings_done=0)


def test_upkeep_is_five_per_strength_with_strength_zero_counting_one():
    bill = upkeep_bill([UpkeepUnit(1, 3), UpkeepUnit(2, 0), UpkeepUnit(3, 2)])
    assert bill.gross == 5 * (3 + 1 + 2) == 30
    assert [line.counted_strength for line in bill.lines] == [3, 1, 2]
    assert bill.total == 30


def test_undead_dash_and_killed_units_cost_nothing():
    bill = upkeep_bill([UpkeepUnit(1, 2, ("Undead", "Slow")), UpkeepUnit(2, None), UpkeepUnit(3, 4, killed=True),
                        UpkeepUnit(4, 1)])
    assert bill.gross == 5
    assert {line.unit_id: line.note for line in bill.lines} == {1: "Undead", 2: "no Strength", 3: "killed", 4: ""}


def test_a_unit_in_two_led_armies_is_paid_once():
    assert upkeep_bill([UpkeepUnit(1, 3), UpkeepUnit(1, 3)]).gross == 15


def test_each_morale_point_lowers_upkeep_by_five_never_below_zero():
    units = [UpkeepUnit(1, 3), UpkeepUnit(2, 4)]  # 35 lunari
    assert upkeep_bill(units, morale_spent=2).total == 25
    bill = upkeep_bill(units, morale_spent=7)
    assert (bill.morale_offset, bill.total) == (35, 0)
    with pytest.raises(EconomyRefusal, match="needs at most 7"):
        upkeep_bill(units, morale_spent=8)


def test_morale_purchase():
    assert morale_purchase_price(current=3, start=6, points=3, bought_today=False, in_battle=False) == 15
    with pytest.raises(EconomyRefusal, match="buy at most 3"):
        morale_purchase_price(current=3, start=6, points=4, bought_today=False, in_battle=False)
    with pytest.raises(EconomyRefusal, match="once per Day"):
        morale_purchase_price(current=3, start=6, points=1, bought_today=True, in_battle=False)
    with pytest.raises(EconomyRefusal, match="during a Battle"):
        morale_purchase_price(current=3, start=6, points=1, bought_today=False, in_battle=True)
    with pytest.raises(EconomyRefusal, match="already at its starting value"):
        morale_purchase_price(current=6, start=6, points=1, bought_today=False, in_battle=False)
