"""Starting a match with its real settings: as many seats as the game takes, decks, squads, hand sizes and house
rules chosen at the start (defaults preselected), checked by the engine itself, from the form and the API; the
table page lists the settings; no seat of a many-seat table sees another's hand."""

import re

import pytest
from django.utils.html import escape
from rest_framework.test import APIClient

from cardgames.models import Match
from cardgames.registry import game_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def third(campaign):
    from tests.campaign.factories import MembershipFactory, UserFactory

    return MembershipFactory(campaign=campaign, user=UserFactory(username="third")).user


def start_page(client, campaign, game=None):
    return client.get(f"/c/{campaign.slug}/matches/" + (f"?game={game}" if game else "")).content.decode()


def post_start(client, campaign, game, seats, **settings):
    data = {"game": game, "title": f"A game of {game}"}
    data.update({f"seat_{i}": seat for i, seat in enumerate(seats)})
    data.update({f"setting_{name}": value for name, value in settings.items()})
    return client.post(f"/c/{campaign.slug}/matches/", data)


def state_of(match):
    return game_for(match.game).load(match.state)


def api_start(user, campaign, game, seats, config=None):
    api = APIClient()
    api.force_authenticate(user)
    body = {"campaign": campaign.pk, "game": game, "seats": seats}
    if config is not None:
        body["config"] = config
    return api.post("/api/matches/", body, format="json")


# -- the form ------------------------------------------------------------------------------------------

def test_the_form_offers_the_seats_and_the_settings_of_the_chosen_game_with_the_defaults(client, campaign, gm):
    client.force_login(gm)
    page = start_page(client, campaign, "unity")
    assert [int(n) for n in re.findall(r'data-testid="seat-(\d)"', page)] == [1, 2, 3, 4, 5, 6]
    assert "2 to 6 seats" in page
    assert page.count(">Not used</option>") == 4, "seats 3 to 6 may be left empty"
    assert re.search(r'name="setting_hand_size" value="8"', page)
    assert re.search(r'name="setting_max_turns" value="2000"', page)
    assert "Unity default deck" in page, "the deck is prefilled as JSON"
    duel = start_page(client, campaign)
    assert re.findall(r'data-testid="seat-(\d)"', duel) == ["1", "2"]
    assert "Not used" not in duel
    assert re.search(r'name="setting_victories" value="3"', duel)
    squads = start_page(client, campaign, "squad-combat")
    assert "&quot;knight&quot;" in squads, "the default squad is prefilled"
    assert re.search(r'<option value="yes" selected>Yes</option>', squads), "reshuffle is on by default"


def test_a_three_seat_unity_match_starts_from_the_form_with_a_custom_hand_size(client, campaign, gm, player, rival):
    client.force_login(gm)
    response = post_start(client, campaign, "unity", [f"user:{player.pk}", f"user:{rival.pk}", "ai:random"],
                          hand_size=6)
    assert response.status_code == 302
    match = Match.objects.get(game="unity")
    assert [s.name for s in match.seats.all()] == ["player1", "rival", "AI: random"]
    assert match.config == {"hand_size": 6}
    assert [len(hand) for hand in state_of(match).hands] == [6, 6, 6]


def test_six_seats_start_and_ais_of_one_kind_are_told_apart(client, campaign, gm, player, rival, third):
    client.force_login(gm)
    seats = [f"user:{player.pk}", f"user:{rival.pk}", f"user:{third.pk}", "ai:random", "ai:random", "ai:greedy"]
    assert post_start(client, campaign, "squad-combat", seats).status_code == 302
    match = Match.objects.get(game="squad-combat")
    assert [s.name for s in match.seats.all()] == ["player1", "rival", "third", "AI: random",
                                                   "AI: random (seat 5)", "AI: greedy"]
    assert match.config == {}
    assert state_of(match).n == 6


def test_a_custom_deck_and_house_rule_reach_the_engine(client, campaign, gm, player, rival):
    client.force_login(gm)
    response = post_start(client, campaign, "unholy-war", [f"user:{player.pk}", f"user:{rival.pk}", "ai:greedy"],
                          deck='["Zealot", "Zealot", "Zealot", "Slime"]', house_rules__start_dice=4,
                          house_rules__attacker_wins_ties="no")
    assert response.status_code == 302
    match = Match.objects.get(game="unholy-war")
    assert match.config == {"deck": ["Zealot", "Zealot", "Zealot", "Slime"],
                            "house_rules": {"start_dice": 4, "attacker_wins_ties": False}}
    state = state_of(match)
    assert all(sorted(state.names[k] for k in state.hand[s] + state.deck[s] + [c[0] for c in state.field[s]])
               == ["Slime", "Zealot", "Zealot", "Zealot"] for s in range(3))
    assert state.ties_hit is False


def test_a_bad_deck_is_refused_with_the_engines_words_and_nothing_starts(client, campaign, gm, player, rival):
    client.force_login(gm)
    seats = [f"user:{player.pk}", f"user:{rival.pk}"]
    page = post_start(client, campaign, "unholy-war", seats, deck='["Zealot", "Dragon"]').content.decode()
    assert escape("The decks name unknown cards ['Dragon']: add them to cards.") in page
    page = post_start(client, campaign, "unholy-war", seats, deck='["Zealot",').content.decode()
    assert "This is not JSON data: compare it with the default." in page
    assert escape('["Zealot",') + "</textarea>" in page, "what was typed stays to be corrected"
    page = post_start(client, campaign, "command-dice", seats, min_dice=5).content.decode()
    error = re.search(r'<ul class="errorlist" id="id_setting_min_dice_error">.*?</ul>', page, re.S).group(0)
    assert "min_dice must be at most max_dice: lower min_dice or raise max_dice." in error
    page = post_start(client, campaign, "unity", seats, hand_size=60).content.decode()
    assert "Ensure this value is less than or equal to 30." in page
    assert not Match.objects.exists()


def test_an_unused_seat_takes_no_stake_and_a_person_sits_once(client, campaign, gm, player, rival):
    client.force_login(gm)
    page = client.post(f"/c/{campaign.slug}/matches/", {
        "game": "unity", "seat_0": f"user:{player.pk}", "seat_1": f"user:{rival.pk}", "seat_2": "",
        "stake_2": 10}).content.decode()
    assert "This seat is not used: clear its commander and stake" in page
    page = post_start(client, campaign, "unity", [f"user:{player.pk}", f"user:{player.pk}"]).content.decode()
    assert "This person already has a seat" in page
    assert not Match.objects.exists()


# -- the API ---------------------------------------------------------------------------------------------

def test_the_api_starts_three_and_six_seat_matches_with_settings(campaign, gm, player, rival, third):
    response = api_start(gm, campaign, "unity", [{"user": player.pk}, {"user": rival.pk}, {"ai": "random"}],
                         {"hand_size": 5})
    assert response.status_code == 201, response.json()
    match = Match.objects.get(pk=response.json()["id"])
    assert [s["name"] for s in response.json()["seats"]] == ["player1", "rival", "AI: random"]
    assert [len(hand) for hand in state_of(match).hands] == [5, 5, 5]
    six = [{"user": u.pk} for u in (player, rival, third)] + [{"ai": "greedy"}] * 3
    response = api_start(gm, campaign, "squad-combat", six, {"squad": ["priest", "ranger", "rogue"]})
    assert response.status_code == 201, response.json()
    state = state_of(Match.objects.get(pk=response.json()["id"]))
    assert [state.cs.ch_keys[d] for d in state.chdef] == ["priest", "ranger", "rogue"] * 6


@pytest.mark.parametrize(("game", "count", "says"), [
    ("unity", 7, "Unity takes 2 to 6 seats, not 7: remove seats."),
    ("command-dice", 3, "Command Dice battle takes exactly 2 seats, not 3: remove seats."),
    ("unholy-war", 1, "Unholy War (level 1) takes 2 to 6 seats, not 1: add seats."),
])
def test_the_api_refuses_a_seat_count_the_game_does_not_take(campaign, gm, game, count, says):
    response = api_start(gm, campaign, game, [{"ai": "random"}] * count)
    assert response.status_code == 400
    assert response.json() == {"detail": f"seats: {says}", "seats": [says]}
    assert not Match.objects.exists()


@pytest.mark.parametrize(("config", "field", "says"), [
    ({"deck": ["Dragon"]}, "config", "The decks name unknown cards ['Dragon']: add them to cards."),
    ({"house_rules": {"flying": True}}, "config", "has no setting house_rules.flying"),
    ({"house_rules": {"start_dice": 11}}, "config", "start_dice must be at least 1 and at most max_dice"),
])
def test_the_api_refuses_bad_settings_with_the_engines_words(campaign, gm, player, config, field, says):
    response = api_start(gm, campaign, "unholy-war", [{"user": player.pk}, {"ai": "random"}], config)
    assert response.status_code == 400
    assert says in response.json()[field][0]


def test_the_api_refuses_seats_it_cannot_fill_and_anyone_but_a_gm(campaign, gm, player, rival, outsider):
    says = f"Seat 2: user {outsider.pk} is not a member of this campaign."
    assert api_start(gm, campaign, "unity", [{"user": player.pk}, {"user": outsider.pk}]).json() == {
        "detail": f"seats: {says}", "seats": [says]}
    assert api_start(gm, campaign, "unity", [{"user": player.pk}, {"user": player.pk}]).status_code == 400
    both = api_start(gm, campaign, "unity", [{"user": player.pk, "ai": "random"}, {"ai": "random"}])
    assert both.status_code == 400
    assert "one of the two" in str(both.json())
    assert api_start(gm, campaign, "unity", [{"user": 10**19}, {"ai": "random"}]).status_code == 400
    assert api_start(player, campaign, "unity", [{"user": player.pk}, {"user": rival.pk}]).status_code == 403
    assert api_start(outsider, campaign, "unity", [{"ai": "random"}] * 2).status_code == 404
    assert not Match.objects.exists()


# -- the table page -------------------------------------------------------------------------------------

def test_the_table_page_lists_the_settings_and_marks_the_changed_ones(client, campaign, gm, player, rival):
    client.force_login(gm)
    post_start(client, campaign, "unity", [f"user:{player.pk}", f"user:{rival.pk}"], hand_size=6)
    match = Match.objects.get()
    client.force_login(player)
    page = client.get(f"/c/{campaign.slug}/matches/{match.pk}/").content.decode()
    settings = page[page.index('data-testid="settings"'):]
    changed = re.search(r'data-testid="setting-hand_size" data-changed="yes">.*?</div>', settings, re.S).group(0)
    assert "<strong>6</strong>" in changed
    assert 'data-testid="setting-max_turns">' in settings, "a default is listed, not marked"
    assert "Unity default deck" in settings


def test_no_seat_of_a_three_seat_table_sees_another_hand(client, campaign, gm, player, rival, third):
    from cardgames.services import SeatSpec, match_create

    users = [player, rival, third]
    match = match_create(campaign=campaign, game="unity", actor=gm, seed=3,
                         seats=[SeatSpec(u.username, u) for u in users])
    state = state_of(match)
    hands = [{state.deck.name[c] for c in hand} for hand in state.hands]
    for seat, user in enumerate(users):
        client.force_login(user)
        page = client.get(f"/c/{campaign.slug}/matches/{match.pk}/").content.decode()
        board = page[page.index('data-testid="view"'):page.index('data-testid="log"')]
        for name in hands[seat]:
            assert f'data-card="{escape(name)}"' in board
        for name in set().union(*hands[:seat], *hands[seat + 1:]) - hands[seat]:
            assert escape(name) not in board, f"{name} from another hand leaked to seat {seat}"


def test_the_demo_has_a_three_seat_unity_game_with_a_house_rule():
    from campaign.demo import load_demo
    from cardgames.demo import OPENING_MOVES, load_demo_matches

    campaign, _ = load_demo()
    load_demo_matches(campaign=campaign)
    match = Match.objects.get(campaign=campaign, title="A game of Unity by the campfire")
    assert [s.name for s in match.seats.all()] == ["amira", "bastian", "AI: greedy"]
    assert match.config == {"hand_size": 7}
    assert (match.status, match.version) == (Match.Status.ACTIVE, OPENING_MOVES)
    assert state_of(match).n == 3


@pytest.mark.parametrize("game", ["unholy-war", "squad-combat", "unity"])
def test_a_six_seat_table_lays_out_every_side(client, campaign, gm, player, game):
    from cardgames.models import AIPolicy
    from cardgames.services import SeatSpec, match_create

    seats = [SeatSpec("player1", player)] + [SeatSpec(f"AI {n}", None, AIPolicy.RANDOM) for n in range(2, 7)]
    match = match_create(campaign=campaign, game=game, actor=gm, seed=7, seats=seats)
    client.force_login(player)
    page = client.get(f"/c/{campaign.slug}/matches/{match.pk}/").content.decode()
    for name in ("player1", "AI 2", "AI 6"):
        assert name in page
    side = "player" if game == "unity" else "side"
    assert all(f'data-testid="{side}-{seat}"' in page for seat in range(6))
