"""Small helpers shared by tests of several apps."""

from rest_framework.test import APIClient


def api_for(user) -> APIClient:
    """An API client acting as `user`."""
    client = APIClient()
    client.force_authenticate(user)
    return client
