"""Command Dice against the shared game protocol: views, copies, storage and replay."""

from __future__ import annotations

import json
import random

from cardgames.engine.command_dice import GAME, QUIET, CommandDiceState
from cardgames.engine.command_dice import game as game_module
from gamekit.dice import Dice
from gamekit.events import events_for
from gamekit.replay import GameRecord, record_of, replay


def played(seed: int, actions: int | None = None, game=GAME) -> tuple[CommandDiceState, list]:
    """A seeded game with random legal actions (the whole game, or its first `actions`)."""
    state = game.new_game({}, ["Ann", "Bob"], seed=seed)
    rng, events = random.Random(seed), []
    while not game.is_over(state) and (actions is None or len(state.actions) < actions):
        for seat in game.to_move(state):
            events.append(game.apply(state, rng.choice(game.legal_actions(state, seat)), seat))
    return state, events


def without_dice(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "dice"}


def test_a_record_replays_bit_for_bit():
    state, events = played(11)
    record = GameRecord.from_dict(json.loads(json.dumps(record_of(GAME, state).as_dict())))
    again, replayed = replay(GAME, record)
    assert without_dice(GAME.dump(again)) == without_dice(GAME.dump(state))
    assert [[e.as_dict() for e in batch] for batch in replayed] == [[e.as_dict() for e in b] for b in events]


def test_a_record_replays_to_any_point():
    state, _ = played(12, actions=40)
    record = record_of(GAME, state)
    middle, _ = replay(GAME, record, upto=20)
    assert len(middle.actions) == 20
    assert GAME.dump(middle)["victories"] == played(12, actions=20)[0].victories


def test_dump_and_load_round_trip_through_json_and_play_on_the_same():
    state, _ = played(13, actions=57)
    data = json.loads(json.dumps(GAME.dump(state)))
    loaded = GAME.load(data)
    assert GAME.dump(loaded) == GAME.dump(state)
    rng_a, rng_b = random.Random(1), random.Random(1)
    for _ in range(30):
        for seat in GAME.to_move(state):
            events_a = GAME.apply(state, rng_a.choice(GAME.legal_actions(state, seat)), seat)
            events_b = GAME.apply(loaded, rng_b.choice(GAME.legal_actions(loaded, seat)), seat)
            assert [e.as_dict() for e in events_a] == [e.as_dict() for e in events_b]
    assert GAME.dump(loaded) == GAME.dump(state)


def test_legal_actions_come_in_a_stable_order():
    state, _ = played(14, actions=33)
    copy = GAME.load(GAME.dump(state))
    for seat in (0, 1):
        assert GAME.legal_actions(state, seat) == GAME.legal_actions(copy, seat)
        assert GAME.legal_actions(state, seat) == GAME.legal_actions(state, seat)


def test_actions_and_views_are_json():
    state, _ = played(15, actions=25)
    for seat in GAME.to_move(state):
        for action in GAME.legal_actions(state, seat):
            assert json.loads(json.dumps(action)) == [list(x) if isinstance(x, tuple) else x for x in action]
    for seat in (0, 1, None):
        json.dumps(GAME.view(state, seat))


def test_a_view_never_shows_the_deck_order_or_the_other_secret_choice():
    state = GAME.new_game({}, ["Ann", "Bob"], seed=16)
    GAME.apply(state, ("choose", 2, 1, 1), 0)
    seen = GAME.view(state, 1)
    assert seen["chosen"] == ["chosen", None]
    assert "deck" not in seen
    text = json.dumps(seen)
    for card in (state.rules.cards[c] for c in state.deck[state.dealt:]):
        assert f'"{card}"' not in text


def test_events_are_tagged_with_who_may_see_them():
    state = GAME.new_game({}, ["Ann", "Bob"], seed=17)
    events = GAME.apply(state, ("choose", 2, 1, 1), 0)
    assert [e["kind"] for e in events_for(events, 0)] == ["choice", "ready"]
    assert [e["kind"] for e in events_for(events, 1)] == ["ready"]
    assert [e["kind"] for e in events_for(events, None)] == ["ready"]


def test_a_determinized_state_looks_the_same_to_its_player():
    state = GAME.new_game({}, ["Ann", "Bob"], seed=18)
    GAME.apply(state, ("choose", 2, 1, 1), 1)
    rng = random.Random(0)
    worlds = [GAME.determinize(state, 0, rng) for _ in range(20)]
    assert all(GAME.view(w, 0) == GAME.view(state, 0) for w in worlds)
    assert all(sorted(w.deck) == sorted(state.deck) for w in worlds)
    assert len({tuple(w.deck) for w in worlds}) > 1
    assert len({w.chosen[1] for w in worlds}) > 1


def test_determinize_draws_depend_only_on_what_the_player_has_seen():
    state = GAME.new_game({}, ["Ann", "Bob"], seed=19)
    GAME.apply(state, ("choose", 2, 1, 1), 1)
    other = GAME.load(GAME.dump(state))
    other.chosen[1] = (1, 0, 0)
    other.deck = other.deck[:3] + other.deck[3:][::-1]
    a, b = GAME.determinize(state, 0, random.Random(5)), GAME.determinize(other, 0, random.Random(5))
    assert a.deck == b.deck
    assert a.chosen == b.chosen


def test_a_clone_is_independent_and_has_its_own_dice():
    state, _ = played(20, actions=30)
    before = GAME.dump(state)
    copy = GAME.clone(state)
    assert copy.dice is not state.dice
    assert copy.dice.log is None
    for _ in range(20):
        for seat in GAME.to_move(copy):
            GAME.apply(copy, GAME.legal_actions(copy, seat)[0], seat)
    assert GAME.dump(state) == before


def test_the_quiet_game_plays_the_same_game_without_event_text():
    loud, events = played(21)
    quiet, quiet_events = played(21, game=QUIET)
    assert GAME.dump(loud) == GAME.dump(quiet)
    assert all(batch == [] for batch in quiet_events)
    assert all(batch for batch in events)


def test_heuristic_is_within_bounds_and_final_at_the_end():
    state, _ = played(22)
    assert GAME.heuristic(state, state.winner) == 1.0
    assert GAME.heuristic(state, 1 - state.winner) == -1.0
    middle, _ = played(22, actions=45)
    assert -1.0 <= GAME.heuristic(middle, 0) <= 1.0


def test_a_game_played_at_a_table_is_a_record_with_the_dice_people_rolled():
    state = GAME.new_game({}, ["Ann", "Bob"], seed=23)
    GAME.apply(state, ("choose", 1, 0, 0), 0)
    GAME.apply(state, ("choose", 0, 0, 1), 1)
    table = GAME.new_game({}, ["Ann", "Bob"], dice=Dice.scripted(state.dice.log))
    GAME.apply(table, ("choose", 1, 0, 0), 0)
    GAME.apply(table, ("choose", 0, 0, 1), 1)
    assert without_dice(GAME.dump(table)) | {"seed": 23} == without_dice(GAME.dump(state))


def test_a_search_copy_with_unlogged_dice_also_resumes_after_load():
    state, _ = played(24, actions=30)
    copy = GAME.clone(state)
    loaded = GAME.load(json.loads(json.dumps(GAME.dump(copy))))
    for _ in range(20):
        for seat in GAME.to_move(copy):
            GAME.apply(copy, GAME.legal_actions(copy, seat)[-1], seat)
            GAME.apply(loaded, GAME.legal_actions(loaded, seat)[-1], seat)
    assert GAME.dump(loaded) == GAME.dump(copy)


def jsonb_order(data):
    """`data` as PostgreSQL's jsonb returns it: every object's keys sorted by length, then by bytes."""
    if isinstance(data, dict):
        return {k: jsonb_order(data[k]) for k in sorted(data, key=lambda k: (len(k), k))}
    if isinstance(data, list):
        return [jsonb_order(v) for v in data]
    return data


def test_a_stored_game_means_the_same_dice_in_a_process_that_loads_it_first(monkeypatch):
    """jsonb hands the dice back as red, blue, white: the colours stay red, white, blue, so a choice
    ("choose", 2, 1, 0) is 2 red and 1 white whether the process first compiled the rules from a new game or from
    a stored one, and the stored game replays (the demo's finished match did not, after a table page was drawn)."""
    state = GAME.new_game({}, ["Ann", "Bob"], seed=7)
    rng = random.Random(7)
    while not GAME.is_over(state):
        for seat in GAME.to_move(state):
            GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat)
    stored, record = jsonb_order(json.loads(json.dumps(GAME.dump(state)))), record_of(GAME, state)
    assert list(stored["config"]["dice"]) == ["red", "blue", "white"]
    monkeypatch.setattr(game_module, "_RULES", {})
    loaded = GAME.load(stored)
    assert loaded.rules.colours == ("red", "white", "blue")
    assert GAME.view(loaded, 0)["pools"] == GAME.view(state, 0)["pools"]
    replayed = replay(GAME, record)[0]
    assert GAME.view(replayed, None) == GAME.view(state, None)
