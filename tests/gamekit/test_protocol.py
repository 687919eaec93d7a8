"""The protocol's shared parts: actions read back from JSON, events filtered by who may see them."""

import pytest

from gamekit.errors import RuleError
from gamekit.events import Event, events_for
from gamekit.protocol import as_action


def test_actions_from_json_become_tuples_and_garbage_is_refused():
    assert as_action(["allocate", ["R2"], [], []]) == ("allocate", ("R2",), (), ())
    with pytest.raises(RuleError, match="must be a list"):
        as_action("pass")


def test_events_are_filtered_by_who_may_see_them():
    events = [Event("draw", "You draw the Idol.", see=(0,)), Event("turn", "Seat 1 passes.")]
    assert [e["text"] for e in events_for(events, 0)] == ["You draw the Idol.", "Seat 1 passes."]
    assert [e["text"] for e in events_for(events, 1)] == ["Seat 1 passes."]
    assert [e["text"] for e in events_for(events, None)] == ["Seat 1 passes."]
