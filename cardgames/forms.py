"""The GM's form to start an encounter of one game: who (or which AI) sits in each seat the game allows, what
each seat's commander stakes, and the game's settings, preset to their defaults; and a player's forms to
challenge another commander or practise against an AI (the services check the settings and the stake)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth import get_user_model

from campaign.web.numbers import MAX_AMOUNT
from cardgames.models import AIPolicy
from cardgames.registry import (
    SEATS,
    Setting,
    SettingsError,
    card_game_choices,
    config_from,
    game_settings,
    game_start,
)
from cardgames.services import SeatSpec

YES_NO = [("yes", "Yes"), ("no", "No")]


def json_text(value: Any, depth: int = 0) -> str:
    """JSON for a text area, one entry a line (a deck reads one card a line): the outer level, and a second
    level that holds lists or objects; anything deeper stays on its entry's line."""
    pad, end = " " * (depth + 1), " " * depth
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    if not (depth == 0 or (depth == 1 and any(isinstance(v, list | dict) for v in inner))):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list) and value:
        return "[\n" + ",\n".join(pad + json_text(v, depth + 1) for v in value) + f"\n{end}]"
    if isinstance(value, dict) and value:
        return "{\n" + ",\n".join(f"{pad}{json.dumps(k)}: {json_text(v, depth + 1)}" for k, v in value.items()) \
            + f"\n{end}}}"
    return json.dumps(value, ensure_ascii=False)


class SettingJSONField(forms.JSONField):
    """JSON data in a text area (`json_text`)."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, forms.fields.InvalidJSONInput):
            return value
        return json_text(value)


def _setting_field(setting: Setting) -> forms.Field:
    """A form field preset to the setting's default; left blank, the default holds."""
    common = {"label": setting.label, "required": False, "help_text": setting.help}
    if setting.kind == "bool":
        return forms.TypedChoiceField(choices=YES_NO, coerce=lambda v: v == "yes",
                                      initial="yes" if setting.default else "no", **common)
    if setting.kind == "json":
        return SettingJSONField(initial=setting.default, widget=forms.Textarea(attrs={"rows": 8}), **common,
                                error_messages={"invalid": "This is not JSON data: compare it with the default."})
    return forms.IntegerField(min_value=setting.minimum, max_value=setting.maximum, initial=setting.default,
                              **common)


def setting_field_name(setting: Setting) -> str:
    return "setting_" + setting.name.replace(".", "__")


class MatchStartForm(forms.Form):
    """Seats are chosen as ``user:<id>`` (a campaign member) or ``ai:<policy>``: the game's fewest seats must be
    filled, further seats up to its most may be left "Not used". A stake needs the commander whose purse pays
    it (the service checks that the seat's person plays that commander). The settings and the seat count are
    checked by the engine itself (`registry.game_start`); its refusal is shown on the setting at fault."""

    game = forms.ChoiceField(choices=card_game_choices(), widget=forms.HiddenInput)
    title = forms.CharField(max_length=160, required=False,
                            help_text="For example: a wager at the Gilded Goat, or a duel between squads.")

    def __init__(self, *args, game: str, members, commanders, **kwargs):
        super().__init__(*args, initial={"game": game}, **kwargs)
        self.game_name = game
        self.fewest, self.most = SEATS[game]
        people = [(f"user:{m.user_id}", m.user.get_username()) for m in members]
        people += [(f"ai:{value}", label) for value, label in AIPolicy.choices if value]
        self.commanders = {str(c.pk): c for c in commanders}
        playing = [("", "No commander")] + [(pk, f"{c} ({c.player.get_username()})")
                                             for pk, c in self.commanders.items()]
        for index in range(self.most):
            optional = index >= self.fewest
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                label="Who sits here", choices=([("", "Not used")] if optional else []) + people,
                required=not optional)
            self.fields[f"commander_{index}"] = forms.ChoiceField(
                label="Plays for", choices=playing, required=False,
                help_text="The commander whose purse pays the stake.")
            self.fields[f"stake_{index}"] = forms.IntegerField(
                label="Stake (lunari)", max_value=MAX_AMOUNT, min_value=0, initial=0, required=False,
                help_text="Held in escrow until the match ends; the winner takes the pot.")
        self.settings = game_settings(game)
        for setting in self.settings:
            self.fields[setting_field_name(setting)] = _setting_field(setting)

    def seat_rows(self) -> list[tuple[int, bool, list[forms.BoundField]]]:
        """(seat number from 1, optional, its fields) for the template."""
        return [(index + 1, index >= self.fewest, [self[f"{part}_{index}"] for part in ("seat", "commander", "stake")])
                for index in range(self.most)]

    def setting_fields(self) -> list[tuple[forms.BoundField, str]]:
        """Each setting's field and its kind (int, bool or json) for the template."""
        return [(self[setting_field_name(s)], s.kind) for s in self.settings]

    def clean(self) -> dict[str, Any]:
        """The seats in use become `seats` (SeatSpecs) and the settings `config`; then the engine's own check."""
        data = super().clean()
        if self.errors:
            return data
        data["seats"] = self._seat_specs(data)
        if self.errors:
            return data
        values = {s.name: data[setting_field_name(s)] for s in self.settings
                  if data[setting_field_name(s)] not in (None, "")}
        data["config"] = config_from(self.game_name, values)
        try:
            game_start(self.game_name, data["config"], [spec.name for spec in data["seats"]], 0)
        except SettingsError as exc:
            fields = {s.name: setting_field_name(s) for s in self.settings}
            self.add_error(fields.get(exc.setting or ""), exc.message)
        return data

    def _seat_specs(self, data: dict[str, Any]) -> list[SeatSpec]:
        """One SeatSpec per seat in use, in seat order; each person sits once, and repeated AI names are told
        apart by their seat number."""
        specs, people = [], set()
        for index in range(self.most):
            choice = data[f"seat_{index}"]
            commander = self.commanders.get(data[f"commander_{index}"])
            stake = data[f"stake_{index}"] or 0
            if not choice:
                if commander or stake:
                    self.add_error(f"seat_{index}", "This seat is not used: clear its commander and stake, "
                                                    "or pick who sits here.")
                continue
            kind, _, value = choice.partition(":")
            if kind == "user":
                if value in people:
                    self.add_error(f"seat_{index}", "This person already has a seat: each person sits once.")
                people.add(value)
                user = get_user_model().objects.get(pk=int(value))
                specs.append(SeatSpec(user.get_username(), user, AIPolicy.HUMAN, commander, stake))
            else:
                name = dict(AIPolicy.choices)[value]
                if any(spec.name == name for spec in specs):
                    name = f"{name} (seat {index + 1})"
                specs.append(SeatSpec(name, None, value, commander, stake))
        return specs


class _PlayerEncounterForm(forms.Form):
    """What a player's challenge and practice game share: the game, the stake and the settings that differ."""

    game = forms.ChoiceField(choices=card_game_choices())
    stake = forms.IntegerField(label="Stake (lunari)", min_value=0, max_value=MAX_AMOUNT, initial=0)
    config = SettingJSONField(label="Settings", required=False, initial={},
                              widget=forms.Textarea(attrs={"rows": 2, "cols": 20}),
                              help_text="Only what differs from the game's defaults, e.g. {\"victories\": 2}.",
                              error_messages={"invalid": "The settings are JSON data, like {\"victories\": 2}."})

    def clean_config(self) -> dict:
        return self.cleaned_data["config"] or {}


class ChallengeForm(_PlayerEncounterForm):
    """My commander challenges another player's commander; each side stakes the same."""

    field_order = ["challenger", "challenged", "game", "stake", "config"]

    def __init__(self, *args, mine, others, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["challenger"] = forms.ModelChoiceField(mine, label="Your commander", empty_label=None)
        self.fields["challenged"] = forms.ModelChoiceField(others, label="Challenge")
        self.fields["stake"].help_text = "Each side stakes this much; held in escrow when the challenge is accepted."
        self.order_fields(self.field_order)


class PracticeForm(_PlayerEncounterForm):
    """My commander against an AI; a stake only where the house rule lets the bank take one."""

    field_order = ["commander", "policy", "game", "stake", "config"]

    def __init__(self, *args, mine, bank_stakes: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["commander"] = forms.ModelChoiceField(mine, label="Your commander", empty_label=None)
        self.fields["policy"] = forms.ChoiceField(label="Against", choices=[c for c in AIPolicy.choices if c[0]])
        if bank_stakes:
            self.fields["stake"].help_text = "The bank stakes as much; if the AI wins, the bank keeps yours."
        else:
            del self.fields["stake"]
        self.order_fields(self.field_order)
