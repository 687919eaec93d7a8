"""The whole API fuzzed from its own OpenAPI schema (schemathesis), as a player and as a game master, against
the demo campaign: no request may answer 5xx, and every answer the schema documents must match it (body and
content type). Operations on one object are fuzzed twice: with generated ids (mostly 404s) and with the id of
a real demo object, so the detail answers are checked too. Bounded: FUZZ_EXAMPLES cases per operation, role
and pass, derandomized so a failure repeats."""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


def _summary(report: str) -> str:
    """The finding's code and sentence, and where in the schema it broke, from schemathesis' long report."""
    lines = [line.strip() for line in report.splitlines() if line.strip()]
    keep = [line for line in lines if line.startswith(("- ST", "Schema at", "curl "))]
    first = next((line for line in lines[lines.index(keep[0]) + 1:] if keep and not line.startswith("[")), "")
    return " | ".join([*keep[:1], first, *keep[1:]])


def _real_ids() -> dict[str, int]:
    """The first demo object behind each API resource (`/api/<resource>/{id}/...`)."""
    from django.apps import apps

    models = {"campaigns": "campaign.Campaign", "events": "campaign.Event", "days": "campaign.Day",
              "memberships": "campaign.Membership", "commanders": "campaign.Commander", "units": "campaign.Unit",
              "unit-types": "campaign.UnitType", "funding-requests": "campaign.FundingRequest",
              "arrears": "campaign.UpkeepArrears", "upkeep-days": "campaign.Day", "matches": "cardgames.Match",
              "battles": "battles.Battle", "maps": "campaign.TacticalMap", "terrain-regions": "campaign.TerrainRegion",
              "locations": "campaign.Location", "armies": "campaign.Army", "move-orders": "campaign.MoveOrder",
              "reveals": "campaign.Reveal", "event-clocks": "campaign.Event", "due-battles": "campaign.DueBattle",
              "items": "campaign.Item", "bases": "campaign.Base", "recruit-offers": "campaign.EventRecruitOffer",
              "reversals": "campaign.Reversible"}
    ids = {}
    for resource, label in models.items():
        first = apps.get_model(label).objects.order_by("pk").values_list("pk", flat=True).first()
        if first is not None:
            ids[resource] = first
    return ids


def _tokens() -> dict[str, str]:
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    return {name: Token.objects.get_or_create(user=User.objects.get(username=name))[0].key
            for name in ("amira", "gm")}


def test_no_fuzzed_request_answers_5xx_or_drifts_from_the_schema(settings_fuzz):
    from campaign.demo import load_demo
    from config.wsgi import application

    load_demo()
    tokens, real_ids = _tokens(), _real_ids()
    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
    failures: list[str] = []
    sent = 0

    def fuzz(operation, who: str, token: str, real_id: int | None = None):
        @given(case=operation.as_strategy())
        @settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def run(case):
            nonlocal sent
            sent += 1
            if real_id is not None:
                case.path_parameters = {**case.path_parameters, "id": str(real_id)}
            response = case.call(headers={"Authorization": f"Token {token}"})
            try:
                case.validate_response(response, checks=CHECKS)
            except FailureGroup as exc:
                failures.append(f"{who} {operation.label} -> {response.status_code}: {_summary(str(exc))}")

        run()

    operations = [result.ok() for result in schema.get_all_operations()]
    for operation in operations:
        resource = operation.path.removeprefix("/api/").split("/")[0]
        for who, token in tokens.items():
            fuzz(operation, who, token)
            if "{id}" in operation.path and resource in real_ids:
                fuzz(operation, who, token, real_ids[resource])
    print(f"fuzzed {len(operations)} operations with {sent} requests, {len(failures)} failures")
    assert failures == [], "\n".join(failures[:40])


@pytest.fixture
def settings_fuzz(settings):
    """The raw WSGI app closes the database connection after each request; the test's transaction needs it open,
    so the signal handler is disconnected for the test, as Django's own test client does."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    settings.ALLOWED_HOSTS = ["*"]
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield settings
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
