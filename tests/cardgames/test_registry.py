"""The registry: seats each game takes, the settings a match may choose, and the one check of both."""

import pytest

from cardgames import registry
from cardgames.registry import CARD_GAMES, SettingsError, config_from, game_settings, game_start, settings_shown


def names(count):
    return [f"P{i}" for i in range(count)]


@pytest.mark.parametrize(("game", "low", "high"), [("command-dice", 2, 2), ("unholy-war", 2, 6),
                                                    ("squad-combat", 2, 6), ("unity", 2, 6)])
def test_each_game_starts_with_the_seats_it_takes_and_no_others(game, low, high):
    assert registry.SEATS[game] == (low, high)
    for count in (low, high):
        assert game_start(game, {}, names(count), 1) is not None
    for count in (low - 1, high + 1):
        with pytest.raises(SettingsError) as err:
            game_start(game, {}, names(count), 1)
        assert err.value.setting == "seats"
        assert f"not {count}" in err.value.message


def test_command_dice_is_for_exactly_two():
    assert registry.seats_refusal("command-dice", 3) == \
        "Command Dice battle takes exactly 2 seats, not 3: remove seats."


@pytest.mark.parametrize("game", CARD_GAMES)
def test_every_setting_has_a_label_a_help_and_a_default_the_engine_takes(game):
    settings = game_settings(game)
    assert settings
    for setting in settings:
        assert setting.label
        assert setting.help.endswith(".")
        assert setting.kind in ("int", "bool", "json")
    assert config_from(game, {}) == {}
    changed = {s.name: s.default + 1 for s in settings if s.kind == "int"}
    assert game_start(game, config_from(game, changed), names(2), 1) is not None


def test_only_changed_settings_go_into_the_config_grouped_as_the_engine_keeps_them():
    values = {"house_rules.start_dice": 4, "house_rules.max_dice": 10, "deck": ["Zealot"] * 6}
    assert config_from("unholy-war", values) == {"house_rules": {"start_dice": 4}, "deck": ["Zealot"] * 6}


@pytest.mark.parametrize(("game", "config", "says"), [
    ("unity", {"hand_sise": 6}, "Unity has no setting hand_sise"),
    ("unholy-war", {"house_rules": {"flying": True}}, "no setting house_rules.flying"),
    ("unholy-war", {"house_rules": 3}, "house_rules is an object"),
    ("unity", [], "an object of setting names"),
])
def test_a_setting_the_game_does_not_have_is_refused(game, config, says):
    with pytest.raises(SettingsError, match=says):
        game_start(game, config, names(3), 1)


def test_the_engines_own_check_names_the_setting_when_it_can():
    with pytest.raises(SettingsError) as err:
        game_start("unity", {"hand_size": 40}, names(3), 1)
    assert err.value.setting == "hand_size"
    with pytest.raises(SettingsError) as err:
        game_start("unholy-war", {"deck": ["Dragon"]}, names(3), 1)
    assert err.value.setting is None
    assert err.value.message == "The decks name unknown cards ['Dragon']: add them to cards."


def test_the_settings_shown_say_which_were_changed():
    rows = {row.name: row for row in settings_shown("unholy-war", {"house_rules": {"start_dice": 3},
                                                                    "deck": ["Zealot", "Zealot", "Slime"]})}
    assert (rows["house_rules.start_dice"].shown, rows["house_rules.start_dice"].changed) == ("3", True)
    assert (rows["house_rules.max_dice"].shown, rows["house_rules.max_dice"].changed) == ("10", False)
    assert rows["deck"].shown == "2 Zealot, 1 Slime"
    assert rows["house_rules.attacker_wins_ties"].shown == "yes"
    shown = {row.name: row.shown for row in settings_shown("unity", {})}
    assert shown == {"deck": "Unity default deck", "hand_size": "8", "max_turns": "2000"}


def test_decks_and_squads_are_shown_by_the_names_on_their_cards_not_their_keys():
    shown = {row.name: row.shown for row in settings_shown("squad-combat", {"squad": ["rogue", "rogue", "mage"],
                                                                            "deck": {"mend": 2, "battle-cry": 1}})}
    assert (shown["squad"], shown["deck"]) == ("Rogue, Rogue, Mage", "2 Mend, 1 Battle Cry")
    shown = {row.name: row.shown for row in settings_shown("command-dice", {"battle_deck": ["1H", "10S", "QD"]})}
    assert shown["battle_deck"] == "1♥, 10♠, Q♦"
    assert shown["side_deck"].startswith("7♥, 8♥, ")


@pytest.mark.parametrize(("game", "config", "setting", "says"), [
    ("unity", {"hand_size": "6"}, "hand_size", "Hand size (hand_size) is a whole number from 1 to 30, not '6'."),
    ("unity", {"max_turns": 10**9}, "max_turns", "from 1 to 10000"),
    ("unholy-war", {"house_rules": {"attacker_wins_ties": "no"}}, "house_rules.attacker_wins_ties",
     "Ties hit (house_rules.attacker_wins_ties) is true or false, not 'no'."),
    ("command-dice", {"max_dice": True}, "max_dice", "from 1 to 6"),
])
def test_numbers_and_yes_no_settings_are_of_their_kind_and_within_bounds(game, config, setting, says):
    with pytest.raises(SettingsError) as err:
        game_start(game, config, names(2), 1)
    assert err.value.setting == setting
    assert says in err.value.message
