"""Forms of the unit catalogue page: a unit type (validated as the catalogue file is) and its artwork."""

from __future__ import annotations

import json

from django import forms
from django.core.exceptions import ValidationError

from battles.engine.state import TRAITS
from campaign.catalogue.entries import catalogue_effects_check
from campaign.models import UnitPath, UnitRole, UnitType
from campaign.web.numbers import parse_id

# --- the unit catalogue ------------------------------------------------------------------------------------


class UnitTypeForm(forms.Form):
    """A unit type as a game master writes it; campaign.catalogue.entries checks the entry it makes, like a file's."""

    name = forms.CharField(max_length=120)
    strength = forms.CharField(max_length=5, required=False, help_text='A whole number, or "-" for none.')
    role = forms.ChoiceField(choices=[("", "None"), *UnitRole.choices], required=False)
    path = forms.ChoiceField(choices=[("", "None"), *UnitPath.choices], required=False)
    traits = forms.MultipleChoiceField(choices=[(t, t) for t in TRAITS], required=False,
                                       widget=forms.CheckboxSelectMultiple)
    other_traits = forms.CharField(max_length=300, required=False, help_text="Any others, separated by commas.")
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False, label="Special text")
    effects = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}), required=False, label="Effects (JSON)",
        help_text='What the battle engine plays, e.g. [{"when": "discard", "do": "add", "amount": 1, "to": "own"}]. '
                  "Empty for none.")
    quest = forms.BooleanField(required=False, label="Usually recruited by quest")
    trains_to = forms.ChoiceField(required=False, label="Trains into")
    third_training = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False,
                                     label="Third training", help_text="What a unit gains on its third training.")
    third_training_traits = forms.MultipleChoiceField(
        choices=[(t, t) for t in TRAITS], required=False, widget=forms.CheckboxSelectMultiple,
        label="Traits the third training gives")
    third_training_effects = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2, "spellcheck": "false"}), required=False,
        label="Effects the third training gives (JSON)",
        help_text="Played by the battle engine once a unit is trained three times; the same vocabulary as Effects.")

    def __init__(self, *args, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["trains_to"].choices = [("", "Nothing"), *((n, n) for n in names)]

    @staticmethod
    def initial_of(unit_type: UnitType) -> dict:
        known = [t for t in unit_type.traits if t in TRAITS]
        return {
            "name": unit_type.name, "strength": unit_type.strength_display, "role": unit_type.role,
            "path": unit_type.path, "traits": known,
            "other_traits": ", ".join(t for t in unit_type.traits if t not in TRAITS), "text": unit_type.text,
            "effects": json.dumps(unit_type.effects) if unit_type.effects else "", "quest": unit_type.quest,
            "trains_to": unit_type.trains_to.name if unit_type.trains_to_id else "",
            "third_training": unit_type.third_training, "third_training_traits": unit_type.third_training_traits,
            "third_training_effects": (json.dumps(unit_type.third_training_effects)
                                       if unit_type.third_training_effects else ""),
        }

    def clean_strength(self) -> int | None:
        value = self.cleaned_data["strength"].strip()
        if value in ("", "-"):
            return None
        strength = parse_id(value)
        if strength is None:
            raise ValidationError('Write a whole number of 0 or more, or "-" for none.')
        return strength

    def clean_other_traits(self) -> list[str]:
        by_lower = {t.lower(): t for t in TRAITS}
        words = (w.strip() for w in self.cleaned_data["other_traits"].split(","))
        return [by_lower.get(w.lower(), w) for w in words if w]

    def _effects(self, field: str, what: str) -> list:
        text = self.cleaned_data[field].strip()
        if not text:
            return []
        try:
            effects = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"That is not JSON ({exc.msg} at character {exc.pos + 1}): write a list of "
                                  "effects in square brackets, or leave it empty.") from exc
        return catalogue_effects_check(name=f"{self.cleaned_data.get('name') or 'This unit type'}{what}",
                                       effects=effects)

    def clean_effects(self) -> list:
        return self._effects("effects", "")

    def clean_third_training_effects(self) -> list:
        return self._effects("third_training_effects", "'s third training")

    def entry(self) -> dict:
        """The catalogue entry this form describes."""
        data = self.cleaned_data
        traits = list(dict.fromkeys([*data["traits"], *data["other_traits"]]))
        return {"name": data["name"], "strength": data["strength"], "role": data["role"], "path": data["path"],
                "traits": traits, "text": data["text"], "effects": data["effects"], "quest": data["quest"],
                "trains_to": data["trains_to"] or None, "third_training": data["third_training"],
                "third_training_traits": data["third_training_traits"],
                "third_training_effects": data["third_training_effects"]}


class ArtworkForm(forms.Form):
    """Any file: campaign.catalogue.artwork decides, with Pillow, whether it is an image Muster can use."""

    artwork = forms.FileField(label="Artwork", help_text="A PNG, JPEG, WebP or GIF of at most 5 MB.")
