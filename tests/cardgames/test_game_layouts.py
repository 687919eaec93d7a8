"""The game layouts of Unholy War, Squad Combat and Unity: each seat sees its own hand as cards and every move
it may make as a button, the other hand only as a count; the GM watching sees the public table and no hand.
A game with no layout of its own keeps the generic table."""

import html
import json
import re

import pytest
from django.template.loader import render_to_string
from django.utils.html import escape

from cardgames import selectors, services, views
from cardgames.registry import game_for
from cardgames.services import SeatSpec
from cardgames.templatetags.tables import GENERIC_LAYOUT, game_layout

pytestmark = pytest.mark.django_db

HAND_NAMES = {
    "unholy-war": lambda state, seat: [state.names[k] for k in state.hand[seat]],
    "squad-combat": lambda state, seat: [state.cs.names[c] for c in state.hand[seat]],
    "unity": lambda state, seat: [state.deck.name[c] for c in state.hands[seat]],
}
"""The card names in a seat's hand, read from the engine's state (the pages never read it)."""


def start(game, campaign, gm, player, rival):
    return services.match_create(campaign=campaign, game=game, actor=gm, seed=3,
                                 seats=[SeatSpec("player1", player), SeatSpec("rival", rival)])


@pytest.fixture(params=sorted(HAND_NAMES))
def match(request, campaign, gm, player, rival):
    return start(request.param, campaign, gm, player, rival)


def hand(match, seat: int) -> list[str]:
    return HAND_NAMES[match.game](game_for(match.game).load(match.state), seat)


def board_of(client, user, match) -> str:
    """The game layout of the match page as `user` sees it (the stakes, turn line and log left out)."""
    client.force_login(user)
    page = client.get(f"/c/{match.campaign.slug}/matches/{match.pk}/").content.decode()
    return page[page.index('data-testid="view"'):page.index('data-testid="log"')]


def seats(match, player, rival):
    """(the seat to move and its user), (the waiting seat and its user)."""
    moving = selectors.match_table(match=match, seat=None).to_move[0]
    users = [player, rival]
    return (moving, users[moving]), (1 - moving, users[1 - moving])


def shown_hand_count(board: str, seat: int) -> int:
    return int(re.search(rf'data-testid="hand-count-{seat}">(\d+)', board).group(1))


def test_the_seat_to_move_sees_its_hand_and_all_its_moves_and_only_a_count_of_the_other_hand(
        client, match, player, rival):
    (seat, user), (other, _) = seats(match, player, rival)
    mine, theirs = hand(match, seat), hand(match, other)
    board = board_of(client, user, match)
    assert 'data-testid="hand"' in board
    assert "{#" not in board, "a multi-line {# #} comment reached the page: use {% comment %}"
    assert "{%" not in board
    for name in mine:
        assert f'data-card="{escape(name)}"' in board
    for name in set(theirs) - set(mine):
        assert escape(name) not in board, f"{name} from the other hand leaked"
    assert shown_hand_count(board, other) == len(theirs)
    assert 'data-testid="actions"' in board
    legal = selectors.match_table(match=match, seat=seat).actions
    assert board.count('data-action="') == len(legal), "every legal move is one button"
    spoken = [html.unescape(aria or text.strip()) for aria, text in re.findall(
        r'<button[^>]*data-action="[^"]*"(?: aria-label="([^"]*)")?[^>]*>([^<]*)</button>', board)]
    assert sorted(spoken) == sorted(label for label, _ in legal), "a short on-card label reads out the engine's label"


def test_the_waiting_seat_sees_its_hand_and_no_moves(client, match, player, rival):
    (seat, _), (other, user) = seats(match, player, rival)
    board = board_of(client, user, match)
    for name in hand(match, other):
        assert f'data-card="{escape(name)}"' in board
    for name in set(hand(match, seat)) - set(hand(match, other)):
        assert escape(name) not in board
    assert 'data-action="' not in board
    assert shown_hand_count(board, seat) == len(hand(match, seat))


def test_the_gm_watching_sees_the_table_but_no_hand(client, match, gm):
    board = board_of(client, gm, match)
    assert 'data-testid="hand"' not in board
    assert 'data-action="' not in board
    for name in hand(match, 0) + hand(match, 1):
        assert escape(name) not in board
    assert [shown_hand_count(board, seat) for seat in (0, 1)] == [len(hand(match, 0)), len(hand(match, 1))]


def test_an_unholy_war_card_played_face_down_is_a_back_to_the_other_seat(client, campaign, gm, player, rival):
    match = start("unholy-war", campaign, gm, player, rival)
    (seat, user), (_, other_user) = seats(match, player, rival)
    down = next(json.loads(a) for _, a in selectors.match_table(match=match, seat=seat).actions
                if json.loads(a)[:1] == ["play"] and json.loads(a)[2] == "down")
    services.match_act(match_id=match.pk, seat=seat, action=down, user=user)
    match.refresh_from_db()
    name = game_for("unholy-war").load(match.state).names[down[1]]
    field = f'data-testid="field-{seat}"'
    mine, theirs = board_of(client, user, match), board_of(client, other_user, match)
    assert f'data-card="{name}"' in mine.split(field)[1].split("</ul>")[0]
    their_field = theirs.split(field)[1].split("</ul>")[0]
    assert 'data-testid="face-down"' in their_field
    assert name not in their_field


def test_the_layout_is_chosen_by_game_and_a_game_without_one_keeps_the_generic_table(campaign, gm, player, rival):
    match = start("squad-combat", campaign, gm, player, rival)
    assert game_layout("unholy-war") == ["cardgames/games/unholy_war.html", GENERIC_LAYOUT]
    context = views._table_context(match, 0, False)
    match.game = "a-game-with-no-layout"
    page = render_to_string("cardgames/_table.html", context)
    assert '<table data-testid="view">' in page
    assert page.count('data-action="') == len(context["table"].actions)


def test_the_replay_lays_out_each_step_as_the_seat_saw_it(client, match, gm, player, rival):
    """The replay page uses the game's layout, rebuilt from the record: the seat's hand at that step as cards,
    the other hand only as a count, and no buttons."""
    from gamekit.replay import replay

    users = [player, rival]
    for _ in range(6):
        seat = selectors.match_table(match=match, seat=None).to_move[0]
        action = json.loads(selectors.match_table(match=match, seat=seat).actions[0][1])
        match = services.match_act(match_id=match.pk, seat=seat, action=action, user=users[seat])
    match = services.match_cancel(match=match, actor=gm)
    state, _ = replay(game_for(match.game), selectors.match_record(match=match), upto=3)
    mine, theirs = HAND_NAMES[match.game](state, 0), HAND_NAMES[match.game](state, 1)
    client.force_login(player)
    page = client.get(f"/c/{match.campaign.slug}/matches/{match.pk}/replay/?step=3").content.decode()
    assert "Step 3 of 6" in page
    shown = page[page.index("<div data-replay-stage"):page.index("<template data-replay-step")]  # step 3 alone
    board = shown[shown.index('data-testid="view"'):]
    for name in mine:
        assert f'data-card="{escape(name)}"' in board
    for name in set(theirs) - set(mine):
        assert escape(name) not in board, f"{name} from the other hand leaked into the replay"
    assert shown_hand_count(board, 1) == len(theirs)
    assert 'data-action="' not in board
