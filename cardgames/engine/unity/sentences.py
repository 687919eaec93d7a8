"""The sentences of a Unity game's log, one per kind of event, and `say`, which adds an event to an action's events.

A sentence is built from the event's data and the state at the moment the event happens, and only when the action
is applied with event text on: the quiet game (search, simulation) still returns every event, with empty text, and
builds no sentence. The sentences are functions of (state, data) rather than closures made at each event, which
a quiet game paid for on every action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardgames.engine.unity.labels import card_count, card_list
from cardgames.engine.unity.state import UnityState
from gamekit.events import EVERYONE, Event

Data = dict[str, Any]


def _name(s: UnityState, e: Data) -> str:
    """The name of the seat that acts."""
    return s.players[e["seat"]]


def _cards(s: UnityState, e: Data) -> str:
    """The event's cards by name."""
    return card_list(s.deck, e["cards"])


def _glory(s: UnityState, e: Data) -> str:
    back = e["cards"]
    return (f"God's Glory ends the attack: {card_list(s.deck, back)} {'goes' if len(back) == 1 else 'go'} back to "
            f"{s.players[s.attacker]}'s hand.")


SENTENCES: dict[str, Callable[[UnityState, Data], str]] = {
    "pick": lambda s, e: f"{_name(s, e)} picks {s.deck.name[e['card']]}.",
    "lapse": lambda s, e: "No card is left to draw and the attack cannot be defeated: it lapses (house rule).",
    "broken": lambda s, e: f"{_name(s, e)} cannot enter into righteousness: the chain is broken.",
    "attack": lambda s, e: (f"{_name(s, e)} attacks {s.players[e['target']]} with {_cards(s, e)} "
                            f"({e['strength']} points)."),
    "defeat": lambda s, e: f"{_name(s, e)} defeats the attack in unity with {_cards(s, e)}.",
    "evil_defeat": lambda s, e: f"{_name(s, e)} defeats evil with evil ({_cards(s, e)}): the penalty is two cards.",
    "david": lambda s, e: (f"{s.deck.name[e['cards'][0]]} defeats {s.deck.name[e['cards'][1]]}: "
                           f"{s.players[s.attacker]} must draw {card_count(s.deck.draws[e['cards'][0]])}."),
    "trinity": lambda s, e: (f"{_name(s, e)} defeats the attack with the Trinity: {s.players[s.attacker]} must draw "
                             f"{card_count(s.deck.draws[e['card']])}."),
    "judgement": lambda s, e: f"God's Judgement turns the attack back on {s.players[s.defender]}.",
    "glory": _glory,
    "angel": lambda s, e: f"{_name(s, e)} defeats the attack with {_cards(s, e)}.",
    "reshuffle": lambda s, e: "The discard piles are reshuffled into a new draw pile.",
    "drew": lambda s, e: f"{_name(s, e)} draws {_cards(s, e)}.",
    "draws": lambda s, e: f"{_name(s, e)} draws {card_count(e['count'])}.",
    "festival": lambda s, e: f"{_name(s, e)} celebrates {s.deck.name[e['card']]}.",
    "festival_draw": lambda s, e: f"{_name(s, e)} draws {_cards(s, e)} from the righteous discard pile.",
    "celebrate": lambda s, e: f"{_name(s, e)} discards {s.deck.name[e['card']]} for {s.deck.name[s.fest]}.",
    "invite": lambda s, e: f"{_name(s, e)} invites all to enter into righteousness with {_cards(s, e)}.",
    "enter": lambda s, e: f"{_name(s, e)} enters into righteousness with {_cards(s, e)}.",
    "decline": lambda s, e: f"{_name(s, e)} does not enter into righteousness: one card per righteous card played.",
    "win": lambda s, e: f"{_name(s, e)} has played every card and wins!",
    "limit": lambda s, e: "The turn limit is reached: the game ends with no winner.",
}
"""What the log says of each kind of event."""


def say(s: UnityState, ev: list[Event], kind: str, data: Data, see: tuple[int, ...] | None = EVERYONE) -> None:
    """Add an event to the action's events, its sentence built only when the action is applied with text on.
    `data` is a dict the caller builds: keyword arguments cost more to pack."""
    ev.append(Event(kind, SENTENCES[kind](s, data) if s.text else "", see, data))
