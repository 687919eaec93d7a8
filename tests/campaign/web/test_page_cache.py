"""Whole pages remembered per session (campaign.web.page_cache): answered without the view while nothing they
show changed, and never to anyone but the session they were drawn for, nor after it signed out, its user's
password changed or its user was deactivated."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaign.economy import ledger
from campaign.notifications import services as notifications

PASSWORD = "pass-word-123"  # tests.campaign.factories.UserFactory's

pytestmark = pytest.mark.django_db


def page_url(commander) -> str:
    return f"/c/{commander.campaign.slug}/commanders/{commander.pk}/"


def drawn(client: Client, url: str) -> bytes:
    """The page drawn and kept: the first request of a session signed in by force_login also gets its CSRF
    cookie, so it is the second that is kept (as after a real sign-in, which sets that cookie)."""
    client.get(url)
    return client.get(url).content


def served_from_memory(client: Client, url: str) -> tuple[bytes, int]:
    """The page's body and the queries answering it took."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return response.content, len(ctx.captured_queries)


def test_an_unchanged_page_is_answered_whole_without_the_view(client, player, mine, day):
    client.force_login(player)
    first = drawn(client, page_url(mine))
    body, queries = served_from_memory(client, page_url(mine))
    assert body == first, "the very same page, its CSRF tokens included"
    assert queries == 1, "the change stamp and the header's unread count, in one read: no session, user or view"
    again = client.get(page_url(mine))
    assert again["X-Frame-Options"] == "DENY"
    assert again["Muster-User"] == str(player.pk)
    assert "Cookie" in again["Vary"]


def test_a_change_in_the_campaign_draws_the_page_again(client, player, gm, mine, day):
    client.force_login(player)
    drawn(client, page_url(mine))
    ledger.ledger_grant(commander=mine, amount=25, reason="Bounty", actor=gm)
    assert 'data-testid="purse-balance">125<' in client.get(page_url(mine)).content.decode()


def test_a_new_notification_redraws_the_header(client, player, mine, day):
    client.force_login(player)
    drawn(client, page_url(mine))
    notifications.notification_send(user_id=player.pk, kind="battle_due", text="A Battle is due.", url="/",
                                    dedupe_key="test", campaign_id=mine.campaign_id)
    _body, queries = served_from_memory(client, page_url(mine))
    assert queries > 2, "the unread count changed: the page was drawn again"


def test_another_session_of_the_same_user_is_never_served_the_first_ones_page(player, mine, day):
    phone, laptop = Client(), Client()
    phone.force_login(player)
    laptop.force_login(player)
    drawn(phone, page_url(mine))
    _body, queries = served_from_memory(laptop, page_url(mine))
    assert queries > 2


def test_a_signed_out_session_is_not_served(client, player, mine, day):
    client.force_login(player)
    drawn(client, page_url(mine))
    cookie = client.cookies["sessionid"].value
    client.post("/accounts/logout/")
    stale = Client()
    stale.cookies["sessionid"] = cookie
    stale.cookies["csrftoken"] = client.cookies["csrftoken"].value
    response = stale.get(page_url(mine))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_a_password_change_signs_the_other_sessions_out_of_remembered_pages(player, mine, day,
                                                                            django_capture_on_commit_callbacks):
    phone, laptop = Client(), Client()
    phone.force_login(player)
    laptop.force_login(player)
    drawn(laptop, page_url(mine))
    assert served_from_memory(laptop, page_url(mine))[1] == 1
    with django_capture_on_commit_callbacks(execute=True):  # the user's state is dropped once the change commits
        player.set_password("a-new-lantern-harbour-88")
        player.save()
    response = laptop.get(page_url(mine))
    assert response.status_code == 302, "the laptop's session holds the old password's hash"


def test_a_deactivated_user_is_not_served(client, player, mine, day, django_capture_on_commit_callbacks):
    client.force_login(player)
    drawn(client, page_url(mine))
    with django_capture_on_commit_callbacks(execute=True):
        player.is_active = False
        player.save()
    assert client.get(page_url(mine)).status_code == 302


def test_a_page_with_a_message_is_neither_kept_nor_answered_from_memory(client, gm, mine, day):
    client.force_login(gm)
    drawn(client, page_url(mine))
    response = client.post(f"/c/{mine.campaign.slug}/economy/grant/",
                           {"grant-commander": mine.pk, "grant-amount": 5, "grant-reason": "Scouting"})
    assert response.status_code == 302
    assert 'class="messages"' in client.get(page_url(mine)).content.decode()
    after = client.get(page_url(mine)).content.decode()
    assert 'class="messages"' not in after, "the message shown once is not shown again from memory"


def test_another_query_string_is_drawn_for_itself(client, gm, mine, day):
    client.force_login(gm)
    drawn(client, page_url(mine))
    _body, queries = served_from_memory(client, page_url(mine) + "?tab=units")
    assert queries > 2


def test_the_login_page_keeps_working_with_sessions_from_the_cache(client, player):
    response = client.post("/accounts/login/", {"username": player.username, "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").status_code == 200


def test_a_browser_without_the_csrf_cookie_gets_a_page_that_sets_it(client, player, mine, day):
    """A kept page's forms carry tokens of the CSRF secret in the cookie it was asked with: without that cookie
    the page is drawn afresh, with its own secret set."""
    client.force_login(player)
    drawn(client, page_url(mine))
    bare = Client()
    bare.cookies["sessionid"] = client.cookies["sessionid"].value
    response = bare.get(page_url(mine))
    assert response.status_code == 200
    assert "csrftoken" in response.cookies


def test_with_the_page_cache_off_every_page_is_drawn(client, player, mine, day, settings):
    settings.PAGE_CACHE = False
    client.force_login(player)
    drawn(client, page_url(mine))
    assert served_from_memory(client, page_url(mine))[1] > 2


def test_the_forms_of_a_page_from_memory_carry_a_token_the_session_accepts(player, mine, day):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    drawn(browser, page_url(mine))
    body, queries = served_from_memory(browser, page_url(mine))
    assert queries == 1
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    answer = browser.post("/accounts/logout/", {"csrfmiddlewaretoken": token})
    assert answer.status_code == 302, "a 403 would mean the remembered page's token was not this browser's"


def test_a_page_drawn_again_after_a_change_reads_its_versions_once(client, player, gm, mine, day):
    """The middleware read the stamp and the unread count, together, to find the kept page stale; the view and
    the header draw with that reading."""
    client.force_login(player)
    drawn(client, page_url(mine))
    ledger.ledger_grant(commander=mine, amount=25, reason="Bounty", actor=gm)
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(page_url(mine)).content.decode()
    assert 'data-testid="purse-balance">125<' in page
    versions = [q["sql"] for q in ctx.captured_queries if "campaign_notification" in q["sql"]
                or "campaign_auditentry" in q["sql"]]
    assert len(versions) == 1
    assert "campaign_hourlog" in versions[0]
    assert "read_at IS NULL" in versions[0]


def test_a_page_drawn_again_after_a_change_reads_no_user(client, player, gm, mine, day):
    """The signed-in user is kept in the shared cache (campaign.web.user_backend) until a change to them commits:
    the password change and deactivation tests above show it dropped."""
    client.force_login(player)
    drawn(client, page_url(mine))
    ledger.ledger_grant(commander=mine, amount=25, reason="Bounty", actor=gm)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(page_url(mine)).status_code == 200
    assert not [q for q in ctx.captured_queries if 'FROM "auth_user" WHERE "auth_user"."id"' in q["sql"]]


def test_htmx_asking_for_a_page_gets_it_drawn(client, player, mine, day):
    """A live page redraws itself through htmx after a change: never from memory (its 204 needs the view)."""
    client.force_login(player)
    drawn(client, page_url(mine))
    with CaptureQueriesContext(connection) as ctx:
        answer = client.get(page_url(mine), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert len(ctx.captured_queries) > 2
