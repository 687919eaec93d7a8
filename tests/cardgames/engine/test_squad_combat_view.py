"""What a Squad Combat view carries about cards, no database: the public facts of every card the seat may see
(its own hand, discard piles, wounds, the card being paid for or attacking), each move in words, characters
named for the viewer; and, over random play (hypothesis), never a card of another hand or of a deck."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import given
from hypothesis import strategies as st_

from cardgames.engine.squad_combat import GAME
from cardgames.engine.squad_combat.cards import default_set

from .test_squad_combat import card, play, table
from .test_squad_combat_protocol import PROFILE

CS = default_set()
DICE = [[6, 5], [4, 3, 1], [6, 6, 2], [5, 5], [4, 4, 4], [3, 3, 3]]


def wound(st, ch, owner, key):
    st.deck[owner].remove(card(key))
    st.wounds[ch].append((owner, card(key)))
    st.dmg[ch] += CS.damage[card(key)]


def scripted():
    """Ann holds Firebolt and Parry, Bob holds Dodge; Bob's Sword Strike wounds Ann's Knight; Study is in
    Bob's discard pile."""
    st = table([["firebolt", "parry"], ["dodge"]], DICE)
    wound(st, 0, 1, "sword-strike")
    st.deck[1].remove(card("study"))
    st.discard[1].append(card("study"))
    return st


def test_a_seat_sees_the_facts_of_its_hand_and_of_every_card_face_up():
    st = scripted()
    assert set(GAME.view(st, 0)["cards"]) == {"firebolt", "parry", "sword-strike", "study"}
    assert set(GAME.view(st, 1)["cards"]) == {"dodge", "sword-strike", "study"}
    assert set(GAME.view(st, None)["cards"]) == {"sword-strike", "study"}
    play(st, ("play", card("firebolt"), 1, 1, 0))  # announced: now public
    assert set(GAME.view(st, 1)["cards"]) == {"dodge", "sword-strike", "study", "firebolt"}
    assert GAME.view(st, None)["attack"]["card"] == "firebolt"


def test_the_card_being_paid_for_is_public():
    st = table([["backstab", "mend"], []], DICE)
    play(st, ("play", card("backstab"), 2, 1, 0))
    assert set(GAME.view(st, 1)["cards"]) == {"backstab"}
    assert GAME.view(st, 1)["paying"]["card"] == "backstab"


def test_card_facts_are_enough_to_draw_the_card():
    cards = GAME.view(scripted(), 0)["cards"]
    assert cards["parry"] == {
        "key": "parry", "name": "Parry", "kind": "edge", "when": "defence", "traits": ["might"],
        "cost": {"energy": 1, "dice": [], "cards": 0}, "costs": ["1 energy"], "hit": None, "damage": None,
        "effect": "defence", "amount": 2, "text": "+2 to the defence rating.",
    }
    assert cards["firebolt"] == {
        "key": "firebolt", "name": "Firebolt", "kind": "attack", "when": None, "traits": ["arcane"],
        "cost": {"energy": 1, "dice": [1], "cards": 0}, "costs": ["1 energy", "any die"], "hit": 2, "damage": 2,
        "effect": None, "amount": None, "text": "+2 to hit, 2 damage.",
    }
    assert cards["study"]["costs"] == ["any die", "discard 1 card"]
    assert cards["study"]["text"] == "Draw 2 cards."  # the set's '[1]C: draw 2 cards.' without its cost note
    json.dumps(cards)


def test_a_set_that_prints_no_text_gets_the_effect_in_words():
    raw = copy.deepcopy(CS.raw)
    for c in raw["cards"]:
        c.pop("text", None)
    raw["cards"][card("scout")]["cost"] = {}
    st = GAME.new_game({"set": raw}, ["Ann", "Bob"], seed=1)
    st.hand[0] = [card(k) for k in ("lightning", "mend", "focus", "scout", "second-wind", "aim")]
    cards = GAME.view(st, 0)["cards"]
    assert {k: f["text"] for k, f in cards.items()} == {
        "lightning": "+1 to hit, 4 damage.", "mend": "Remove the last wound from a character you control.",
        "focus": "Roll a die onto this character, then keep no more dice than its dice pool.",
        "scout": "Draw 1 card.", "second-wind": "Remove 2 spent energy from this character.",
        "aim": "+2 to the attack rating."}
    assert cards["scout"]["costs"] == ["free"]
    assert cards["lightning"]["costs"] == ["die 4+", "die 2+"]


def test_the_seat_to_move_gets_each_move_in_words_and_the_others_none():
    st = scripted()
    view = GAME.view(st, 0)
    legal = GAME.legal_actions(st, 0)
    assert [m["action"] for m in view["moves"]] == view["legal_actions"] == [list(a) for a in legal]
    assert [m["label"] for m in view["moves"]] == [GAME.describe_action(st, a) for a in legal]
    fire = next(m for m in view["moves"] if m["card"] == "firebolt")
    assert fire == {"action": ["play", card("firebolt"), 1, 1, 0], "card": "firebolt", "by": "your Mage",
                    "on": "Bob's Knight",
                    "label": "Perform Firebolt with your Mage on Bob's Knight (1 energy, any die)"}
    assert "moves" not in GAME.view(st, 1)
    assert "moves" not in GAME.view(st, None)


def test_characters_are_named_for_the_viewer():
    st = scripted()
    called = [[c["called"] for side in GAME.view(st, seat)["sides"] for c in side["characters"]]
              for seat in (0, None)]
    assert called[0][:4] == ["your Knight", "your Mage", "your Rogue", "Bob's Knight"]
    assert called[1][:4] == ["Ann's Knight", "Ann's Mage", "Ann's Rogue", "Bob's Knight"]


# --- Never a hidden card, over random play ------------------------------------------------------


def face_up(state, seat):
    """The cards `seat` may see: its own hand, every discard pile and wound, the card paid for or attacking."""
    seen = set(state.hand[seat]) if seat is not None else set()
    seen.update(c for pile in state.discard for c in pile)
    seen.update(c for wounds in state.wounds for _, c in wounds)
    seen.update(c for c in (state.p_card, state.a_card) if c >= 0)
    return seen


def strings(data) -> list[str]:
    """Every string in a view (keys and values), leaving out `card_names` (the whole set, public)."""
    if isinstance(data, dict):
        return [s for k, v in data.items() if k != "card_names" for s in [k, *strings(v)]]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return [data] if isinstance(data, str) else []


def check_view(state, seat, rng):
    view = GAME.view(state, seat)
    seen = face_up(state, seat)
    assert set(view["cards"]) == {CS.keys[c] for c in seen}
    named = [k for side in view["sides"] for k in (side["hand"] or []) + side["discard"]]
    named += [w["card"] for side in view["sides"] for c in side["characters"] for w in c["wounds"]]
    named += [view[part]["card"] for part in ("attack", "paying") if part in view]
    named += [m["card"] for m in view.get("moves", ()) if m["card"]]
    assert set(named) <= set(view["cards"]), "every card the view names, it describes"
    hidden = {c for zone in state.hand + state.deck for c in zone}
    texts = strings(view)
    words, text = set(texts), "\n".join(texts)
    for c in hidden - seen:
        assert CS.keys[c] not in words, f"{CS.keys[c]} is hidden from seat {seat}"
        assert CS.names[c] not in text, f"{CS.names[c]} is hidden from seat {seat}"
    if seat is not None:
        assert GAME.view(GAME.determinize(state, seat, rng), seat) == view


@PROFILE
@given(seed=st_.integers(0, 2**32), players=st_.sampled_from([2, 2, 3]),
       choices=st_.lists(st_.integers(0, 2**16), max_size=300))
def test_no_view_shows_another_hand_or_a_deck(seed, players, choices):
    state = GAME.new_game({}, ["Ann", "Bob", "Cy"][:players], seed=seed)
    rng = random.Random(seed)
    for step in range(2_000):
        if GAME.is_over(state):
            break
        if step % 4 == 0:  # one viewer at a time (a seat or a spectator) keeps each example quick
            check_view(state, rng.choice([*range(players), None]), rng)
        legal = GAME.legal_actions(state, state.cur)
        GAME.apply(state, legal[(choices[step] if step < len(choices) else rng.randrange(99)) % len(legal)],
                   state.cur)
    for seat in [*range(players), None]:
        check_view(state, seat, rng)
