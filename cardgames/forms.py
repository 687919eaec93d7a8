"""The GM's form to start an encounter: which game, who (or which AI) sits in each seat, and what each
seat's commander stakes."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from campaign.web.numbers import MAX_AMOUNT
from cardgames.models import AIPolicy
from cardgames.registry import card_game_choices
from cardgames.services import SeatSpec

SEATS = ("First", "Second")


class MatchStartForm(forms.Form):
    """Seats are chosen as ``user:<id>`` (a campaign member) or ``ai:<policy>``; a stake needs the
    commander whose purse pays it (the service checks that the seat's person plays that commander)."""

    game = forms.ChoiceField(choices=card_game_choices())
    title = forms.CharField(max_length=160, required=False,
                            help_text="For example: a wager at the Gilded Goat, or a duel between squads.")

    def __init__(self, *args, members, commanders, **kwargs):
        super().__init__(*args, **kwargs)
        people = [(f"user:{m.user_id}", m.user.get_username()) for m in members]
        people += [(f"ai:{value}", label) for value, label in AIPolicy.choices if value]
        self.commanders = {str(c.pk): c for c in commanders}
        playing = [("", "No commander")] + [(pk, f"{c} ({c.player.get_username()})")
                                             for pk, c in self.commanders.items()]
        for index, word in enumerate(SEATS):
            self.fields[f"seat_{index}"] = forms.ChoiceField(label=f"{word} seat", choices=people)
            self.fields[f"commander_{index}"] = forms.ChoiceField(
                label=f"{word} seat plays for", choices=playing, required=False,
                help_text="The commander whose purse pays the stake.")
            self.fields[f"stake_{index}"] = forms.IntegerField(
                label=f"{word} seat's stake (lunari)", max_value=MAX_AMOUNT, min_value=0, initial=0, required=False,
                help_text="Held in escrow until the match ends; the winner takes the pot.")

    def seat_specs(self) -> list[SeatSpec]:
        """One SeatSpec per seat, from the cleaned data."""
        specs = []
        for index in range(len(SEATS)):
            kind, _, value = self.cleaned_data[f"seat_{index}"].partition(":")
            commander = self.commanders.get(self.cleaned_data[f"commander_{index}"])
            stake = self.cleaned_data[f"stake_{index}"] or 0
            if kind == "user":
                user = get_user_model().objects.get(pk=int(value))
                specs.append(SeatSpec(user.get_username(), user, AIPolicy.HUMAN, commander, stake))
            else:
                specs.append(SeatSpec(dict(AIPolicy.choices)[value], None, value, commander, stake))
        return specs
