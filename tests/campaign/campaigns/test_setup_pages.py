"""The pages a GM sets a campaign up with: sign up, create a campaign, invitations and joining, members, Events and
Days, the schedule and the setup checklist; what a player and an outsider get there."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.utils import timezone

from campaign.campaigns import services
from campaign.models import Campaign, Event, Invitation, Membership, Role
from tests.campaign.factories import CommanderFactory, EventRecruitOfferFactory, UnitTypeFactory, UserFactory

pytestmark = pytest.mark.django_db


def _said(response) -> str:
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def _invite(campaign, gm, **kwargs) -> Invitation:
    return services.invitation_create(campaign=campaign, actor=gm, expires_at=timezone.now() + timedelta(days=1),
                                      **kwargs)


# --- signing up and creating a campaign ----------------------------------------------------------------------


def test_sign_up_logs_in_and_home_offers_create_a_campaign(client):
    assert "Sign up" in client.get("/accounts/sign-up/").content.decode()
    response = client.post("/accounts/sign-up/", {"username": "rowan", "password": "lantern-harbour-77"}, follow=True)
    page = response.content.decode()
    assert 'data-testid="username">rowan' in page
    assert 'data-testid="campaign-new-link"' in page


def test_sign_up_refusal_is_shown_on_the_form(client, gm):
    page = client.post("/accounts/sign-up/", {"username": "gm1", "password": "x"}).content.decode()
    assert "is taken" in page
    page = client.post("/accounts/sign-up/", {"username": "rowan", "password": "password"}).content.decode()
    assert "too common" in page
    assert not Membership.objects.filter(user__username="rowan").exists()


def test_login_page_links_to_sign_up(client):
    assert 'href="/accounts/sign-up/"' in client.get("/accounts/login/").content.decode()


def test_create_a_campaign_makes_me_its_gm(client, player):
    client.force_login(player)
    assert client.get("/campaigns/new/").status_code == 200
    response = client.post("/campaigns/new/", {"name": "Northern March", "description": "Snow"})
    campaign = Campaign.objects.get(name="Northern March")
    assert response.url == f"/c/{campaign.slug}/"
    assert Membership.objects.get(campaign=campaign, user=player).role == Role.GM
    assert "Name: This field is required." in _said(client.post("/campaigns/new/", {"name": ""}))


# --- joining through a link ----------------------------------------------------------------------------------


def test_signing_up_through_the_link_lands_in_the_campaign(client, campaign, gm):
    invitation = _invite(campaign, gm)
    page = client.get(f"/join/{invitation.code}/").content.decode()
    assert f"Join {campaign.name}" in page
    assert 'data-testid="sign-up-form"' in page
    response = client.post("/accounts/sign-up/", {"username": "rowan", "password": "lantern-harbour-77",
                                                  "invitation": invitation.code})
    assert response.url == f"/c/{campaign.slug}/"
    assert "you are a player here" in _said(response)
    assert Membership.objects.get(campaign=campaign, user__username="rowan").role == Role.PLAYER


def test_a_signed_in_person_joins_with_the_button_and_again_harmlessly(client, campaign, gm, outsider):
    invitation = _invite(campaign, gm, max_uses=1)
    client.force_login(outsider)
    assert 'data-testid="join-button"' in client.get(f"/join/{invitation.code}/").content.decode()
    assert client.post(f"/join/{invitation.code}/").url == f"/c/{campaign.slug}/"
    again = client.post(f"/join/{invitation.code}/")
    assert again.url == f"/c/{campaign.slug}/"
    assert "already a player" in _said(again)
    assert client.get(f"/join/{invitation.code}/").url == f"/c/{campaign.slug}/"


def test_the_link_says_why_it_no_longer_works(client, campaign, gm, outsider):
    invitation = services.invitation_revoke(invitation=_invite(campaign, gm), actor=gm)
    assert "was withdrawn" in client.get(f"/join/{invitation.code}/").content.decode()
    assert "check that you copied all of it" in client.get("/join/nonsense/").content.decode()
    client.force_login(outsider)
    response = client.post(f"/join/{invitation.code}/")
    assert response.url == "/"
    assert "was withdrawn" in _said(response)
    assert not Membership.objects.filter(campaign=campaign, user=outsider).exists()


def test_joining_anonymously_asks_to_log_in_first(client, campaign, gm):
    invitation = _invite(campaign, gm)
    assert client.post(f"/join/{invitation.code}/").url.startswith("/accounts/login/?next=%2Fjoin%2F")


# --- members and invitations ---------------------------------------------------------------------------------


def test_members_page_gm_manages_player_only_looks(client, campaign, gm, player):
    _invite(campaign, gm)
    client.force_login(gm)
    page = client.get(f"/c/{campaign.slug}/members/").content.decode()
    assert "player1" in page
    assert 'data-testid="invitation-link"' in page
    assert "Change role" in page
    client.force_login(player)
    page = client.get(f"/c/{campaign.slug}/members/").content.decode()
    assert "gm1" in page
    assert "invitation" not in page.lower()
    assert "Change role" not in page


def test_outsider_gets_404_on_every_setup_page(client, campaign, gm, outsider, event):
    member = Membership.objects.get(user=gm)
    client.force_login(outsider)
    for url in ("members/", "events/", f"events/{event.pk}/edit/", "schedule/"):
        assert client.get(f"/c/{campaign.slug}/{url}").status_code == 404
    for url in (f"members/{member.pk}/role/", f"members/{member.pk}/remove/", "invitations/"):
        assert client.post(f"/c/{campaign.slug}/{url}", {"role": "player"}).status_code == 404


def test_a_player_cannot_invite_change_roles_or_remove(client, campaign, gm, player):
    invitation = _invite(campaign, gm)
    gm_membership = Membership.objects.get(user=gm)
    client.force_login(player)
    assert client.post(f"/c/{campaign.slug}/invitations/", {"role": "gm", "days": 3}).status_code == 403
    assert client.post(f"/c/{campaign.slug}/invitations/{invitation.pk}/revoke/").status_code == 403
    assert client.post(f"/c/{campaign.slug}/members/{gm_membership.pk}/role/", {"role": "player"}).status_code == 403
    assert client.post(f"/c/{campaign.slug}/members/{gm_membership.pk}/remove/").status_code == 403
    assert Invitation.objects.count() == 1
    assert Invitation.objects.get().revoked_at is None
    assert Membership.objects.get(user=gm).role == Role.GM


def test_gm_creates_and_revokes_invitations(client, campaign, gm):
    client.force_login(gm)
    response = client.post(f"/c/{campaign.slug}/invitations/", {"role": "gm", "days": 3, "max_uses": 2})
    assert response.url == f"/c/{campaign.slug}/members/#invitations"
    invitation = Invitation.objects.get()
    assert (invitation.role, invitation.max_uses) == (Role.GM, 2)
    assert "Valid for (days)" in _said(client.post(f"/c/{campaign.slug}/invitations/", {"role": "gm", "days": 0}))
    client.post(f"/c/{campaign.slug}/invitations/{invitation.pk}/revoke/")
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    assert 'data-testid="invitation-link"' not in client.get(f"/c/{campaign.slug}/members/").content.decode()


def test_gm_changes_a_role_and_removes_a_member(client, campaign, gm, player):
    member = Membership.objects.get(user=player)
    client.force_login(gm)
    assert "player1 is now a game master" in _said(
        client.post(f"/c/{campaign.slug}/members/{member.pk}/role/", {"role": "gm"}))
    assert "no longer in" in _said(client.post(f"/c/{campaign.slug}/members/{member.pk}/remove/"))
    assert not Membership.objects.filter(user=player).exists()


def test_the_last_gm_can_be_neither_demoted_nor_removed(client, campaign, gm):
    mine = Membership.objects.get(user=gm)
    client.force_login(gm)
    assert "make someone else GM first" in _said(
        client.post(f"/c/{campaign.slug}/members/{mine.pk}/role/", {"role": "player"}))
    assert "make someone else GM first" in _said(client.post(f"/c/{campaign.slug}/members/{mine.pk}/remove/"))
    assert Membership.objects.get(user=gm).role == Role.GM


def test_a_gm_who_leaves_goes_home(client, campaign, gm):
    other = UserFactory(username="gm2")
    Membership.objects.create(campaign=campaign, user=other, role=Role.GM)
    client.force_login(gm)
    assert client.post(f"/c/{campaign.slug}/members/{Membership.objects.get(user=gm).pk}/remove/").url == "/"


# --- Events, Days and the schedule ---------------------------------------------------------------------------


def test_gm_creates_and_edits_an_event_and_sees_the_open_day(client, campaign, gm):
    client.force_login(gm)
    response = client.post(f"/c/{campaign.slug}/events/", {"name": "Harvest Muster", "starts_at": "2030-05-01T10:00",
                                                           "ends_at": "2030-05-03T18:00", "minutes_per_hour": 30})
    assert response.url == f"/c/{campaign.slug}/events/"
    event = Event.objects.get(name="Harvest Muster")
    assert timezone.is_aware(event.starts_at)
    assert event.minutes_per_hour == 30
    assert "Day 1 open now" in client.get(f"/c/{campaign.slug}/events/").content.decode()
    edit = f"/c/{campaign.slug}/events/{event.pk}/edit/"
    assert 'value="2030-05-01T10:00"' in client.get(edit).content.decode()
    assert "pick a later end" in _said(client.post(edit, {"name": "Harvest Muster", "starts_at": "2030-05-01T10:00",
                                                          "ends_at": "2030-04-01T10:00", "minutes_per_hour": 30}))
    client.post(edit, {"name": "Autumn Muster", "starts_at": "2030-05-01T10:00", "ends_at": "2030-05-03T18:00",
                       "minutes_per_hour": 20})
    event.refresh_from_db()
    assert (event.name, event.minutes_per_hour) == ("Autumn Muster", 20)


def test_event_form_refusals(client, campaign, gm):
    client.force_login(gm)
    said = _said(client.post(f"/c/{campaign.slug}/events/", {"name": "X", "starts_at": "soon",
                                                             "ends_at": "", "minutes_per_hour": 0}))
    assert "Starts: Enter a valid date/time." in said
    assert "Ends: This field is required." in said
    said = _said(client.post(f"/c/{campaign.slug}/events/", {"name": "X", "starts_at": "2030-05-02T10:00",
                                                             "ends_at": "2030-05-01T10:00", "minutes_per_hour": 60}))
    assert "pick a later end" in said
    assert not Event.objects.exists()


def test_player_sees_events_but_cannot_create_or_edit(client, campaign, player, event):
    client.force_login(player)
    page = client.get(f"/c/{campaign.slug}/events/").content.decode()
    assert event.name in page
    assert 'data-testid="event-form"' not in page
    assert client.post(f"/c/{campaign.slug}/events/", {"name": "Mine"}).status_code == 403
    assert client.get(f"/c/{campaign.slug}/events/{event.pk}/edit/").status_code == 403
    assert client.get(f"/c/{campaign.slug}/schedule/").status_code == 403


def test_the_schedule_link_opens_for_a_gm_and_lists_the_beat_entries(client, campaign, gm):
    client.force_login(gm)
    page = client.get(f"/c/{campaign.slug}/").content.decode()
    assert f'href="/c/{campaign.slug}/schedule/" data-testid="schedule-link"' in page
    assert "/admin/" not in page
    schedule = client.get(f"/c/{campaign.slug}/schedule/")
    assert schedule.status_code == 200
    assert "Event clock tick" in schedule.content.decode()


# --- the setup checklist -------------------------------------------------------------------------------------


def test_a_new_campaign_shows_the_gm_what_is_missing_and_not_the_player(client, gm, player):
    campaign = Campaign.objects.get(memberships__user=gm)
    client.force_login(gm)
    gaps = client.get(f"/c/{campaign.slug}/").context["checklist"]
    assert [link for _, link in gaps] == [f"/c/{campaign.slug}/map/edit/", f"/c/{campaign.slug}/events/#new-event",
                                          f"/c/{campaign.slug}/commanders/#new-commander",
                                          f"/c/{campaign.slug}/members/#invitations"]
    assert "player1" in gaps[2][0]
    client.force_login(player)
    assert 'data-testid="setup-checklist"' not in client.get(f"/c/{campaign.slug}/").content.decode()


def test_the_checklist_shrinks_as_the_gm_sets_up(client, campaign, gm, player, event):
    client.force_login(gm)
    texts = [text for text, _ in client.get(f"/c/{campaign.slug}/").context["checklist"]]
    assert any("has no recruit list" in text for text in texts)
    EventRecruitOfferFactory(event=event)
    CommanderFactory(campaign=campaign, player=player)
    _invite(campaign, gm)
    texts = [text for text, _ in client.get(f"/c/{campaign.slug}/").context["checklist"]]
    assert texts == ["The map has no picture: upload one."]


def test_the_event_page_shows_its_recruit_list_and_links_to_where_it_is_kept(client, campaign, gm, event):
    EventRecruitOfferFactory(event=event, unit_type=UnitTypeFactory(name="Pikemen"), gm_price=30)
    client.force_login(gm)
    page = client.get(f"/c/{campaign.slug}/events/{event.pk}/edit/").content.decode()
    assert "Pikemen · 30 lunari" in page
    assert f'href="/c/{campaign.slug}/recruiting/?event={event.pk}"' in page
