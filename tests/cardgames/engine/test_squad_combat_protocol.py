"""Squad Combat against the game protocol: replay, dump/load, views, clone, determinize, and
property tests over random legal play (hypothesis; profile "ci" or "dev" via HYPOTHESIS_PROFILE)."""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from cardgames.engine.squad_combat import GAME
from cardgames.engine.squad_combat.cards import default_set
from gamekit.dice import Dice
from gamekit.errors import RuleError
from gamekit.events import events_for
from gamekit.replay import GameRecord, record_of, replay

settings.register_profile("ci", max_examples=1000, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
PROFILE = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

CS = default_set()
NAMES = ["Ann", "Bob", "Cy"]
LIMIT = 20_000


def random_game(seed, players=2, config=None, steps=None):
    """A random legal game; returns the state and every action's events."""
    rng = random.Random(seed)
    state = GAME.new_game(config or {}, NAMES[:players], seed=seed)
    events = []
    for _ in range(LIMIT if steps is None else steps):
        if GAME.is_over(state):
            break
        seat = GAME.to_move(state)[0]
        events.append(GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat))
    return state, events


def owned(state, seat):
    """Every card `seat` owns, wherever it is: deck, hand, discard pile, under a character, in play."""
    cards = Counter(state.deck[seat] + state.hand[seat] + state.discard[seat])
    cards.update(c for wounds in state.wounds for o, c in wounds if o == seat)
    if state.p_seat == seat:
        cards[state.p_card] += 1
    if state.a_card >= 0 and state.a_ch // 3 == seat:
        cards[state.a_card] += 1
    return cards


def check_invariants(state):
    deck = Counter(CS.deck)
    for seat in range(state.n):
        assert owned(state, seat) == deck
    for ch in range(3 * state.n):
        pool = CS.ch_pool[state.chdef[ch]]
        if state.alive[ch]:
            assert state.dmg[ch] == sum(CS.damage[c] for _, c in state.wounds[ch])
            assert state.dmg[ch] < CS.ch_life[state.chdef[ch]]
            assert len(state.held[ch]) <= pool
            assert all(1 <= v <= 6 for v in state.held[ch])
            assert 0 <= state.spent[ch] <= CS.ch_energy[state.chdef[ch]]
        else:
            assert state.wounds[ch] == []
            assert state.held[ch] == []


# --- Records, dump and load ---------------------------------------------------------------------


def test_replay_reproduces_the_same_dump_and_events():
    state, events = random_game(11)
    record = GameRecord.from_dict(json.loads(json.dumps(record_of(GAME, state).as_dict())))
    again, replayed = replay(GAME, record)
    assert GAME.dump(again) == GAME.dump(state)
    assert [[e.as_dict() for e in es] for es in replayed] == [[e.as_dict() for e in es] for es in events]


def test_dump_load_round_trip_and_a_seeded_game_continues_the_same():
    state, _ = random_game(5, steps=60)
    data = json.loads(json.dumps(GAME.dump(state)))
    loaded = GAME.load(data)
    assert GAME.dump(loaded) == GAME.dump(state)
    rng = random.Random(2)
    for _ in range(200):
        if GAME.is_over(state):
            break
        seat = GAME.to_move(state)[0]
        action = rng.choice(GAME.legal_actions(state, seat))
        assert [e.as_dict() for e in GAME.apply(state, action, seat)] == \
            [e.as_dict() for e in GAME.apply(loaded, list(action), seat)]
    assert GAME.dump(loaded) == GAME.dump(state)


def test_verbose_off_keeps_everything_but_the_text():
    on, on_events = random_game(8)
    off, off_events = random_game(8, config={"verbose": False})
    assert off.actions == on.actions
    assert off.dice.log == on.dice.log
    for a, b in zip(on_events, off_events, strict=True):
        assert [(e.kind, e.see, e.data) for e in a] == [(e.kind, e.see, e.data) for e in b]
        assert all(e.text == "" for e in b)
        assert all(e.text for e in a)


def test_the_quiet_game_makes_copies_without_text():
    state, _ = random_game(8, steps=20)
    assert GAME.quiet.clone(state).verbose is False
    assert GAME.quiet.determinize(state, 0, random.Random(1)).verbose is False
    assert GAME.clone(state).verbose is True


def test_a_table_game_is_the_same_record_with_the_dice_people_rolled():
    state, _ = random_game(3, steps=80)
    again = GAME.new_game({}, NAMES[:2], dice=Dice.scripted(state.dice.log))
    for seat, action in state.actions:
        GAME.apply(again, action, seat)
    assert GAME.dump(again)["hand"] == GAME.dump(state)["hand"]


# --- Views, clone, determinize, heuristic -------------------------------------------------------


def test_views_hide_hands_and_deck_order():
    state, _ = random_game(4, steps=30)
    mine, theirs, spectator = GAME.view(state, 0), GAME.view(state, 1), GAME.view(state, None)
    assert mine["sides"][0]["hand"] == [CS.keys[c] for c in sorted(state.hand[0])]
    assert theirs["sides"][0]["hand"] is None
    assert spectator["sides"][1]["hand"] is None
    assert "deck" not in json.dumps(spectator).replace("deck_size", "")
    json.dumps(mine)


def test_private_events_go_only_to_their_seat():
    state = GAME.new_game({}, NAMES[:2], seed=9)
    events = []
    while state.turn == 1:
        seat = GAME.to_move(state)[0]
        action = ("pass",) if state.step == 0 else GAME.legal_actions(state, seat)[-1]  # discard, discard
        events += GAME.apply(state, action, seat)
    drawn = [e for e in events if e.kind == "drawn"]
    assert drawn
    assert all(len(e.see) == 1 for e in drawn)
    for e in drawn:
        other = 1 - e.see[0]
        assert e.as_dict() not in events_for(events, other)
        assert e.as_dict() not in events_for(events, None)


def test_clone_is_independent_and_has_its_own_dice():
    state, _ = random_game(6, steps=40)
    before = GAME.dump(state)
    copy = GAME.clone(state)
    assert copy.dice.log is None
    rng = random.Random(1)
    while not GAME.is_over(copy):
        seat = GAME.to_move(copy)[0]
        GAME.apply(copy, rng.choice(GAME.legal_actions(copy, seat)), seat)
    assert GAME.dump(state) == before


def test_determinize_redeals_only_what_the_seat_has_not_seen():
    state, _ = random_game(12, steps=50)
    hidden = GAME.determinize(state, 0, random.Random(4))
    assert hidden.hand[0] == state.hand[0]
    assert Counter(hidden.deck[0]) == Counter(state.deck[0])
    assert Counter(hidden.hand[1] + hidden.deck[1]) == Counter(state.hand[1] + state.deck[1])
    assert len(hidden.hand[1]) == len(state.hand[1])
    assert hidden.discard == state.discard
    assert hidden.wounds == state.wounds
    assert hidden.held == state.held
    assert GAME.view(hidden, 0) == GAME.view(state, 0)


def test_heuristic_is_in_range_and_prefers_the_side_ahead():
    state, _ = random_game(2, steps=100)
    for seat in range(2):
        assert -1.0 <= GAME.heuristic(state, seat) <= 1.0
    fresh = GAME.new_game({}, NAMES[:2], seed=1)
    fresh.alive[3], fresh.held[3] = False, []
    assert GAME.heuristic(fresh, 0) > 0 > GAME.heuristic(fresh, 1)


def test_legal_actions_are_json_and_stable_and_apply_accepts_json_lists():
    state, _ = random_game(7, steps=25)
    seat = GAME.to_move(state)[0]
    actions = GAME.legal_actions(state, seat)
    assert actions == GAME.legal_actions(GAME.clone(state), seat)
    assert [tuple(a) for a in json.loads(json.dumps(actions))] == actions
    assert GAME.legal_actions(state, 1 - seat) == []
    GAME.apply(state, list(actions[-1]), seat)


def test_three_players_play_to_the_end():
    state, _ = random_game(21, players=3)
    assert GAME.is_over(state)
    check_invariants(state)


# --- Properties over random legal play ----------------------------------------------------------


CANDIDATES = ([("pass",), ("done",), ("play", 0, 0), ("play", 99, 0)]
              + [("die", v) for v in range(8)] + [("refresh", s) for s in range(4)]
              + [("discard", c) for c in range(len(CS.keys))]
              + [(verb, c, s, t, u) for verb in ("play", "edge") for c in range(len(CS.keys))
                 for s in range(3) for t in range(2) for u in range(3)]
              + [("edge", c, s) for c in range(len(CS.keys)) for s in range(3)])


@PROFILE
@given(seed=st_.integers(0, 2**32), players=st_.sampled_from([2, 2, 3]),
       choices=st_.lists(st_.integers(0, 2**16), max_size=300))
def test_random_legal_play_keeps_the_invariants_and_ends(seed, players, choices):
    state = GAME.new_game({}, NAMES[:players], seed=seed)
    rng = random.Random(seed)
    for step in range(LIMIT):
        check_invariants(state)
        if GAME.is_over(state):
            break
        seat = GAME.to_move(state)[0]
        legal = GAME.legal_actions(state, seat)
        assert legal
        if step % 7 == 0:
            for viewer in range(players):
                hidden = GAME.determinize(state, viewer, rng)
                assert GAME.view(hidden, viewer) == GAME.view(state, viewer)
                assert GAME.view(hidden, None) == GAME.view(state, None)
            bogus = CANDIDATES[rng.randrange(len(CANDIDATES))]
            if bogus not in legal:
                before = GAME.dump(state)
                with pytest.raises(RuleError, match=r"\.$"):
                    GAME.apply(state, bogus, seat)
                assert GAME.dump(state) == before
        pick = choices[step] if step < len(choices) else 0
        GAME.apply(state, legal[pick % len(legal)], seat)
    assert GAME.is_over(state)
    assert GAME.result(state)["winner"] in (None, *range(players))
