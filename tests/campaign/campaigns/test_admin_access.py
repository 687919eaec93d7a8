"""The Django admin is for superusers only: a game master does everything from Muster's pages."""

import pytest

from tests.campaign.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_staff_who_are_not_superusers_are_sent_to_the_admin_login(client):
    client.force_login(UserFactory(username="clerk", is_staff=True))
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_a_superuser_opens_the_admin(client):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert client.get("/admin/").status_code == 200
