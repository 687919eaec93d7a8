"""Why an action is refused: the rule it breaks and what to do instead, in a sentence."""

from __future__ import annotations

from cardgames.engine.unity.deck import EVIL, FESTIVAL
from cardgames.engine.unity.state import CELEBRATE, ENTER, FREE, RESPOND, UnityState
from gamekit.errors import RuleError

KINDS = ("pick", "play", "festival", "celebrate", "david", "trinity", "judgement", "glory", "angel",
         "draw", "decline")
SPECIAL_NAMES = {"david": "David", "trinity": "Trinity", "judgement": "God's Judgement",
                 "glory": "God's Glory", "angel": "Angel"}


def refusal(s: UnityState, action: tuple) -> RuleError:
    """The RuleError for an action that `legal_actions` does not offer."""
    d, hand = s.deck, s.hands[s.turn]
    kind = action[0] if action else ""
    if kind not in KINDS:
        return RuleError("action", f"{action!r} is not a Unity action: send one such as ('pick', card) "
                                   "or ('play',).")
    cards = list(action[1:])
    if any(not isinstance(c, int) or c not in hand for c in cards):
        return RuleError("hand", "You can only use cards from your own hand: choose another card.")
    first = cards[0] if cards else None
    if s.sel and kind != "pick" and kind != "play":
        return RuleError("selection", "You have picked cards for a play: pick more or play them first.")
    if kind == "pick":
        refused = _pick(s, cards)
        if refused is not None:
            return refused
    if kind == "play" and not s.sel:
        return RuleError("play", "Pick the cards of your play first, then play them.")
    lead = s.sel[0] if s.sel else first
    evil = lead is not None and d.side[lead] == EVIL
    if s.phase == FREE:
        return _free(kind, evil)
    if s.phase == RESPOND:
        return _respond(s, kind, evil, first)
    if s.phase == ENTER:
        return _enter(s, kind)
    if s.phase == CELEBRATE:
        return RuleError("festival", f"Celebrate {d.name[s.fest]}: {_festival_text(s)}")
    return RuleError("over", "The game is over.")


def _free(kind: str, evil: bool) -> RuleError:
    if kind in ("pick", "play") and evil:
        return RuleError("attack-category", "An evil attack is evil cards of one category plus evil "
                                            "objects; each Asherah Pole brings in one more category.")
    if kind in ("pick", "play"):
        return RuleError("invitation-category", "An invitation is righteous cards of one category; a Unity "
                                                "card or the Shofar lets you combine categories.")
    if kind == "festival":
        return RuleError("festival", "Only a festival card starts a festival.")
    return RuleError("free-turn", "On a free turn make an evil attack, make an invitation to enter into "
                                  "righteousness, or celebrate a festival.")


def _respond(s: UnityState, kind: str, evil: bool, first: int | None) -> RuleError:
    beat = sum(s.deck.value[c] for c in s.attack)
    if kind == "draw":
        return RuleError("must-defeat", "You can defeat this evil attack with righteous cards, so you must "
                                        "play them (or defeat evil with evil) instead of drawing.")
    if kind == "david":
        return RuleError("david", "David defeats only Goliath: play him when Goliath is in the attack.")
    if kind == "angel":
        return RuleError("angel", "An Angel defeats the attack together with one other righteous card "
                                  "from your hand.")
    if kind in SPECIAL_NAMES:
        return RuleError(kind, f"That card is not {SPECIAL_NAMES[kind]}: choose a {SPECIAL_NAMES[kind]} "
                               "card from your hand.")
    if kind in ("pick", "play") and evil:
        return RuleError("evil-defeats-evil", f"To defeat evil with evil play evil cards of one category "
                                              f"plus evil objects totalling more than {beat} points.")
    if kind in ("pick", "play"):
        return RuleError("unity", f"Play righteous human cards of one category (a Unity card mixes "
                                  f"categories) with any righteous objects, totalling more than {beat} "
                                  "points and playing no card more than needed.")
    return RuleError("answer-attack", "You are under an evil attack: defeat it (in unity, with David, "
                                      "Trinity, God's Judgement or Glory, an Angel, or with evil) or draw.")


def _enter(s: UnityState, kind: str) -> RuleError:
    d = s.deck
    cats = ", ".join(d.categories[i] for i in range(len(d.categories)) if s.chain >> i & 1)
    if kind == "decline":
        return RuleError("chain-draw", "You have drawn already: enter into righteousness with the cards "
                                       "you can.")
    if kind in ("pick", "play"):
        return RuleError("enter-righteousness", f"Enter with righteous cards of a category already played "
                                                f"({cats}) or a card that enters with any category; Unity "
                                                "or the Shofar combines categories.")
    return RuleError("righteousness", f"Enter into righteousness with matching cards, or decline and draw "
                                      f"{s.chain_count} cards.")


def _pick(s: UnityState, cards: list[int]) -> RuleError | None:
    """A pick names one card, in hand order after those picked, of the same side, and no festival."""
    d = s.deck
    if not cards:
        return RuleError("pick", "Name the card you pick: send ('pick', card).")
    first = cards[0]
    if s.sel and first <= s.sel[-1]:
        return RuleError("selection-order", "Pick the cards of a play in hand order, highest value first.")
    if s.sel and d.side[first] != d.side[s.sel[0]]:
        return RuleError("one-side", "A play is all evil cards or all righteous cards: pick cards of "
                                     "the same side or play what you picked.")
    if d.side[first] == FESTIVAL:
        return RuleError("festival", "A festival card is not part of a play: celebrate it with "
                                     "('festival', card) on a free turn.")
    return None


def _festival_text(s: UnityState) -> str:
    d = s.deck
    cats = d.festival_asks(s.fest)
    return "discard one card of " + " or ".join(d.categories[i] for i in sorted(cats)) + "."
