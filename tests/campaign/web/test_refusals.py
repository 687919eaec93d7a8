"""campaign.web.refusals.refusal_shown: a refusal inside the block becomes the page's error message and the view
goes on after it; narrowed to ValidationError, a role refusal goes on to the 403 page; anything else is raised."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.core.exceptions import ValidationError

from campaign.campaigns.permissions import NotAllowed
from campaign.web.refusals import refusal_shown


@pytest.fixture
def request_(rf):
    request = rf.post("/")
    request.session = {}
    request._messages = FallbackStorage(request)
    return request


def _shown(request) -> list[tuple[str, str]]:
    return [(m.level_tag, m.message) for m in get_messages(request)]


def test_a_refusal_stops_the_block_and_is_shown(request_):
    done = []
    for refusal in (ValidationError(["Pick a unit.", "Then pay."]), NotAllowed("Only a game master may.")):
        with refusal_shown(request_):
            raise refusal
        done.append("went on")
    assert done == ["went on", "went on"]
    assert _shown(request_) == [("error", "Pick a unit. Then pay."), ("error", "Only a game master may.")]


def test_narrowed_to_validation_errors_a_role_refusal_goes_on_to_the_403(request_):
    with pytest.raises(NotAllowed), refusal_shown(request_, ValidationError):
        raise NotAllowed("Archived.")
    assert _shown(request_) == []


def test_what_is_no_refusal_is_raised(request_):
    with pytest.raises(KeyError), refusal_shown(request_):
        raise KeyError("bug")
    assert _shown(request_) == []
