"""Forms of the campaign pages: what a person types, read into plain values; the services decide the rules."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone

from campaign.models import Event, Role

INVITATION_DAYS_MAX = 365


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=150, widget=forms.TextInput(attrs={"autocomplete": "username"}))
    password = forms.CharField(strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                               help_text="At least 8 characters, not all digits, not a common password.")
    invitation = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=120)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))


class InvitationForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices, initial=Role.PLAYER)
    days = forms.IntegerField(label="Valid for (days)", min_value=1, max_value=INVITATION_DAYS_MAX, initial=14)
    max_uses = forms.IntegerField(label="Uses (empty: no limit)", min_value=1, required=False)

    def expires_at(self):
        return timezone.now() + timedelta(days=self.cleaned_data["days"])


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)


_WHEN = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class EventForm(forms.Form):
    """Times are read in the site's time zone (TIME_ZONE); the service checks that the Event ends after it starts."""

    name = forms.CharField(max_length=120)
    starts_at = forms.DateTimeField(label="Starts", widget=_WHEN)
    ends_at = forms.DateTimeField(label="Ends", widget=_WHEN)
    minutes_per_hour = forms.IntegerField(label="Real minutes per in-game hour", min_value=1, max_value=24 * 60,
                                          initial=60)

    @classmethod
    def for_event(cls, event: Event) -> EventForm:
        return cls(initial={"name": event.name, "starts_at": timezone.localtime(event.starts_at),
                            "ends_at": timezone.localtime(event.ends_at), "minutes_per_hour": event.minutes_per_hour})
