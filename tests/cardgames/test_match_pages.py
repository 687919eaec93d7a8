"""Play pages: who may see and do what, polling, and no leak of the other seat's secrets."""

import json
import re

import pytest

from cardgames import selectors
from cardgames.models import Match

pytestmark = pytest.mark.django_db


def url(match, suffix=""):
    return f"/c/{match.campaign.slug}/matches/{match.pk}/{suffix}"


def chosen_shown(page: str, seat: int) -> str:
    """What the Command Dice table shows of a seat's secret choice."""
    return re.search(rf'data-testid="chosen-{seat}">([^<]*)<', page).group(1)


def test_outsider_gets_404_everywhere(client, outsider, duel):
    client.force_login(outsider)
    for suffix in ("", "table/", "replay/"):
        assert client.get(url(duel, suffix)).status_code == 404
    assert client.post(url(duel, "act/"), {"action": "[]", "v": "0"}).status_code == 404


def test_member_without_a_seat_cannot_act(client, gm, duel):
    client.force_login(gm)
    response = client.post(url(duel, "act/"), {"action": json.dumps(["choose", 1, 0, 0]), "v": "0"})
    assert response.status_code == 404
    assert Match.objects.get(pk=duel.pk).version == 0


def test_playing_through_the_page_and_the_other_seat_never_sees_my_choice(client, player, rival, duel):
    client.force_login(player)
    page = client.get(url(duel)).content.decode()
    assert "Your move" in page
    action = json.loads(selectors.match_table(match=duel, seat=0).actions[0][1])
    response = client.post(url(duel, "act/"), {"action": json.dumps(action), "v": "0"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Match.objects.get(pk=duel.pk).version == 1
    client.force_login(rival)
    theirs = client.get(url(duel)).content.decode()
    assert "Your move" in theirs
    assert chosen_shown(theirs, 0) == "chosen"
    client.force_login(player)
    counts = ", ".join(f"{n} {colour}" for n, colour in zip(action[1:], ("red", "white", "blue"), strict=True) if n)
    assert chosen_shown(client.get(url(duel)).content.decode(), 0) == counts


def test_the_table_explains_the_phase_and_the_fist_in_the_rules_words(client, player, gm, duel):
    client.force_login(player)
    page = client.get(url(duel)).content.decode()
    help_for = dict(re.findall(r'data-testid="(phase-help|fist-help)"><summary>[^<]*</summary><p>([^<]*)</p>', page))
    assert help_for["phase-help"].startswith("Both players secretly choose 1 to 4 dice")
    assert '<strong data-testid="phase">Choosing dice in secret</strong>' in page  # not the view's code, 'choose'
    assert help_for["fist-help"].startswith("The dice held in the fist this Turn")
    client.force_login(gm)  # a spectator holds no fist
    assert 'data-testid="fist-help"' not in client.get(url(duel)).content.decode()


def test_polling_returns_204_until_the_table_changes(client, player, duel):
    client.force_login(player)
    assert client.get(url(duel, "table/") + "?v=0").status_code == 204
    assert client.get(url(duel, "table/") + "?v=-1").status_code == 200


def polled_url(page: str) -> str:
    """The poll URL a table page gives htmx: version and poll token included."""
    return re.search(r'hx-get="([^"]*/table/[^"]*)"', page).group(1).replace("&amp;", "&")


def test_an_unchanged_poll_with_its_token_costs_one_query_and_no_session(client, player, duel,
                                                                         django_assert_num_queries):
    client.force_login(player)
    poll = polled_url(client.get(url(duel)).content.decode())
    assert "&t=" in poll
    with django_assert_num_queries(1):  # the session cookie is sent, as a phone does, and never read
        assert client.get(poll).status_code == 204
    client.logout()  # the token alone answers "nothing changed"
    with django_assert_num_queries(1):
        assert client.get(poll).status_code == 204


def test_a_poll_token_earns_nothing_but_204(client, player, duel, versus_ai):
    """A token for another match, a tampered or an expired one, or a changed table: the full view answers,
    with its login and seat checks."""
    client.force_login(player)
    poll = polled_url(client.get(url(duel)).content.decode())
    token = re.search(r"[?&]t=([^&]+)", poll).group(1)
    client.logout()
    elsewhere = f"{url(versus_ai, 'table/')}?v={versus_ai.version}&t={token}"
    assert client.get(elsewhere).status_code == 302  # to the sign-in page, not a 204
    assert client.get(poll.replace(token, token[:-2] + "xx")).status_code == 302
    Match.objects.filter(pk=duel.pk).update(version=5)
    assert client.get(poll).status_code == 302
    client.force_login(player)
    assert client.get(poll).status_code == 200  # the new table, drawn for the player's seat


def test_a_poll_token_expires_after_a_day(client, player, duel, monkeypatch):
    import time

    from campaign.web import poll_tokens

    client.force_login(player)
    poll = polled_url(client.get(url(duel)).content.decode())
    client.logout()
    later = time.time() + poll_tokens.MAX_AGE_SECONDS + 5
    monkeypatch.setattr("django.core.signing.time.time", lambda: later)
    assert client.get(poll).status_code == 302


def test_bad_move_is_explained_not_a_500(client, player, duel):
    client.force_login(player)
    response = client.post(url(duel, "act/"), {"action": "not json", "v": "0"}, follow=True)
    assert "could not be read" in response.content.decode()
    response = client.post(url(duel, "act/"), {"action": json.dumps(["choose", 7, 7, 7]), "v": "0"}, follow=True)
    assert response.status_code == 200
    assert Match.objects.get(pk=duel.pk).version == 0


def test_gm_starts_a_match_and_players_cannot(client, gm, player, rival, campaign):
    client.force_login(player)
    assert client.post(f"/c/{campaign.slug}/matches/", {"game": "command-dice"}).status_code == 403
    client.force_login(gm)
    response = client.post(f"/c/{campaign.slug}/matches/", {
        "game": "command-dice", "title": "Wager at the Gilded Goat",
        "seat_0": f"user:{player.pk}", "seat_1": "ai:greedy"})
    assert response.status_code == 302
    match = Match.objects.get(title="Wager at the Gilded Goat")
    assert [s.name for s in match.seats.all()] == ["player1", "AI: greedy"]


def test_api_table_and_act(player, rival, outsider, duel):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(player)
    table = api.get(f"/api/matches/{duel.pk}/table/").json()
    assert table["seat"] == 0
    assert table["to_move"] == [0, 1]
    move = table["legal_actions"][0]["action"]
    bad = api.post(f"/api/matches/{duel.pk}/act/", {"action": ["choose", 9, 9, 9]}, format="json")
    assert bad.status_code == 400
    assert "action" in bad.json()
    ok = api.post(f"/api/matches/{duel.pk}/act/", {"action": move, "version": 0}, format="json")
    assert ok.status_code == 200
    assert ok.json()["version"] == 1
    api.force_authenticate(rival)
    assert api.get(f"/api/matches/{duel.pk}/table/").json()["view"]["chosen"][0] == "chosen"
    api.force_authenticate(outsider)
    assert api.get(f"/api/matches/{duel.pk}/table/").status_code == 404


def test_a_refused_move_is_said_inside_the_redrawn_table_once(client, player, duel):
    """htmx redraws only the table, so the refusal must be in it, and not linger for the next page."""
    client.force_login(player)
    action = json.loads(selectors.match_table(match=duel, seat=0).actions[0][1])
    stale = client.post(url(duel, "act/"), {"action": json.dumps(action), "v": "5"}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 409  # htmx swaps a 409 (base.html's htmx-config): the stale move's sentence shows
    assert 'data-testid="refused">The table moved on since your page was drawn' in stale.content.decode()
    assert Match.objects.get(pk=duel.pk).version == 0
    assert "The table moved on" not in client.get(url(duel)).content.decode()
    ok = client.post(url(duel, "act/"), {"action": json.dumps(action), "v": "0"}, HTTP_HX_REQUEST="true")
    assert 'data-testid="refused"' not in ok.content.decode()


def test_a_move_on_a_finished_match_says_it_is_over_even_with_an_old_version(client, player, duel):
    Match.objects.filter(pk=duel.pk).update(status=Match.Status.CANCELLED)
    client.force_login(player)
    response = client.post(url(duel, "act/"), {"action": json.dumps(["choose", 1, 0, 0]), "v": "3"},
                           HTTP_HX_REQUEST="true")
    assert "This match is over" in response.content.decode()
