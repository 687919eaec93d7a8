"""The GM's form to start a match: which game, and who (or which AI) sits in each seat."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from cardgames.models import AIPolicy
from cardgames.registry import card_game_choices


class SeatField(forms.ChoiceField):
    """A campaign member (``user:<id>``) or an AI policy (``ai:<policy>``)."""


class MatchStartForm(forms.Form):
    game = forms.ChoiceField(choices=card_game_choices())
    title = forms.CharField(max_length=160, required=False, help_text="For example: a wager at the Gilded Goat.")
    seat_0 = SeatField(label="First seat")
    seat_1 = SeatField(label="Second seat")

    def __init__(self, *args, members, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(f"user:{m.user_id}", m.user.get_username()) for m in members]
        choices += [(f"ai:{value}", label) for value, label in AIPolicy.choices if value]
        self.fields["seat_0"].choices = choices
        self.fields["seat_1"].choices = choices

    def seat(self, index: int) -> tuple[str, object | None, str]:
        """(name, user, ai) for a seat."""
        kind, _, value = self.cleaned_data[f"seat_{index}"].partition(":")
        if kind == "user":
            user = get_user_model().objects.get(pk=int(value))
            return user.get_username(), user, AIPolicy.HUMAN
        return dict(AIPolicy.choices)[value], None, value
