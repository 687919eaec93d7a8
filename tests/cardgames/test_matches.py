"""Matches: seats, legal moves only, stale pages refused, AI seats, replay, and hidden information."""

import json

import pytest
from django.core.exceptions import ValidationError

from cardgames import selectors, services
from cardgames.models import Match
from cardgames.registry import game_for
from gamekit.replay import replay

pytestmark = pytest.mark.django_db


def first_action(match, seat):
    table = selectors.match_table(match=match, seat=seat)
    return json.loads(table.actions[0][1])


def test_both_seats_choose_secretly_and_only_legal_actions_are_offered(duel):
    table = selectors.match_table(match=duel, seat=0)
    assert table.to_move == [0, 1]
    engine = game_for("command-dice")
    legal = [list(a) for a in engine.legal_actions(engine.load(duel.state), 0)]
    assert [json.loads(a) for _, a in table.actions] == legal
    with pytest.raises(ValidationError, match="choose"):
        services.match_act(match_id=duel.pk, seat=0, action=["choose", 9, 9, 9], user=None)


def test_a_secret_choice_stays_hidden_from_the_other_seat(duel, player):
    action = first_action(duel, 0)
    services.match_act(match_id=duel.pk, seat=0, action=action, user=player)
    duel.refresh_from_db()
    mine = selectors.match_table(match=duel, seat=0).view["chosen"][0]
    theirs = selectors.match_table(match=duel, seat=1).view["chosen"][0]
    spectator = selectors.match_table(match=duel, seat=None).view["chosen"][0]
    assert isinstance(mine, dict)
    assert theirs == spectator == "chosen"
    for seat in (1, None):
        assert all("red" not in line or "chose" not in line
                   for line in selectors.visible_log(match=duel, seat=seat)), "the choice leaked into the log"


def test_stale_version_and_wrong_turn_are_refused(duel, player, rival):
    action = first_action(duel, 0)
    with pytest.raises(ValidationError, match="table moved on"):
        services.match_act(match_id=duel.pk, seat=0, action=action, user=player, expected_version=3)
    services.match_act(match_id=duel.pk, seat=0, action=action, user=player, expected_version=0)
    with pytest.raises(ValidationError, match="not your move"):
        services.match_act(match_id=duel.pk, seat=0, action=action, user=player)
    assert Match.objects.get(pk=duel.pk).version == 1


def test_ai_seat_moves_until_a_person_must_act_and_a_repeat_changes_nothing(versus_ai, player):
    services.match_act(match_id=versus_ai.pk, seat=0, action=first_action(versus_ai, 0), user=player)
    applied = services.match_play_ai(match_id=versus_ai.pk)
    versus_ai.refresh_from_db()
    assert applied >= 1
    before = versus_ai.version
    assert services.match_play_ai(match_id=versus_ai.pk) == 0 or versus_ai.status != "active"
    versus_ai.refresh_from_db()
    assert versus_ai.version == before


def play_out(match, users):
    """Both seats take their first legal action until the match ends."""
    for _ in range(2000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        for seat in selectors.match_table(match=match, seat=0).to_move:
            match.refresh_from_db()
            services.match_act(match_id=match.pk, seat=seat, action=first_action(match, seat), user=users[seat])
    raise AssertionError("the match never ended")


def test_a_finished_match_replays_bit_for_bit_from_its_record(duel, player, rival):
    match = play_out(duel, [player, rival])
    assert match.status == Match.Status.FINISHED
    assert match.result["winner"] in (0, 1)
    engine = game_for(match.game)
    state, _ = replay(engine, selectors.match_record(match=match))
    replayed, stored = engine.dump(state), dict(match.state)
    assert replayed.pop("dice")["log"] == stored.pop("dice")["log"] == match.chance  # scripted dice carry no seed
    assert replayed == stored
    assert selectors.match_replay(match=match, seat=0)[0].table.view["round"] >= 0
    with pytest.raises(ValidationError, match="over"):
        services.match_act(match_id=match.pk, seat=0, action=["pass"], user=player)


def test_unknown_game_and_seat_without_anyone_are_refused(campaign, gm):
    with pytest.raises(ValidationError, match="Unknown game"):
        services.match_create(campaign=campaign, game="chess", actor=gm, seats=[])
    with pytest.raises(ValidationError, match="needs a person or an AI"):
        services.match_create(campaign=campaign, game="command-dice", actor=gm,
                              seats=[services.SeatSpec("nobody"), services.SeatSpec("nobody either")])


def test_cancel_only_while_active(duel, gm):
    services.match_cancel(match=duel, actor=gm)
    with pytest.raises(ValidationError, match="in progress"):
        services.match_cancel(match=duel, actor=gm)
