"""The API's router: detail routes take only ids that fit the database (`campaign.web.numbers`)."""

from __future__ import annotations

from rest_framework.routers import DefaultRouter

from campaign.web.numbers import ID_PATTERN


class IdRouter(DefaultRouter):
    """Every detail route takes an id (`campaign.web.numbers`): a malformed or oversized one is a 404."""

    def get_lookup_regex(self, viewset, lookup_prefix: str = "") -> str:
        lookup_url_kwarg = getattr(viewset, "lookup_url_kwarg", None) or getattr(viewset, "lookup_field", "pk")
        value = getattr(viewset, "lookup_value_regex", ID_PATTERN)
        return f"(?P<{lookup_prefix}{lookup_url_kwarg}>{value})"
