"""Forms for battles: start one, log a table Battle's result."""

from __future__ import annotations

from django import forms

from battles.engine.state import PATHS, ROLES
from battles.models import Battle
from battles.services import NPC_BY_GM
from cardgames.models import AIPolicy

DERVISH_CHOICES = [("", "—")] + [(name, name) for name in (*PATHS, *ROLES)]


class BattleStartForm(forms.Form):
    """Two enemy armies (or a Battle due on the map), how it is fought, and the picks made at the start."""

    attacker_army = forms.ModelChoiceField(queryset=None, label="Attacking army")
    defender_army = forms.ModelChoiceField(queryset=None, label="Defending army")
    location = forms.ModelChoiceField(queryset=None, required=False, label="At a location (the defender's)")
    mode = forms.ChoiceField(choices=Battle.Mode.choices, initial=Battle.Mode.LIVE, widget=forms.RadioSelect)
    npc_seat = forms.ChoiceField(label="A GM-run commander is played by", initial=NPC_BY_GM,
                                 choices=[(NPC_BY_GM, "Me, the game master")]
                                 + [(v, label) for v, label in AIPolicy.choices if v])
    dervish = forms.ChoiceField(choices=DERVISH_CHOICES, required=False,
                                help_text="Only for a Dervish: the Path or Role their units Add 1 against today.")

    def __init__(self, *args, armies, locations, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["attacker_army"].queryset = armies
        self.fields["defender_army"].queryset = armies
        self.fields["location"].queryset = locations

    def clean(self):
        data = super().clean()
        a, d = data.get("attacker_army"), data.get("defender_army")
        if a and d and a.commander_id == d.commander_id:
            raise forms.ValidationError("Pick armies of two different commanders.")
        return data

    def choices_for(self, *commanders) -> dict[int, dict[str, str]]:
        """The start picks per commander id (only a Dervish needs one here)."""
        pick = self.cleaned_data.get("dervish")
        return {c.pk: {"dervish": pick} for c in commanders if c.power == "Dervish" and pick}


class UnitPilesField(forms.MultipleChoiceField):
    widget = forms.CheckboxSelectMultiple

    def to_python(self, value):
        return [int(v) for v in super().to_python(value)]

    def valid_value(self, value):
        return super().valid_value(str(value))


class BattleLogForm(forms.Form):
    """What a table Battle came to. The service checks the combination; the form only reads it."""

    winner = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect)
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False,
                            help_text="Anything worth keeping: the turning point, who was Routed, a Cleric's return.")

    def __init__(self, *args, battle: Battle, **kwargs):
        super().__init__(*args, **kwargs)
        commanders = battle.config["commanders"]
        self.fields["winner"].choices = [(seat, c["name"]) for seat, c in enumerate(commanders)]
        for seat, c in enumerate(commanders):
            units = [(str(u["id"]), f"{u['name']} ({'-' if u['strength'] is None else u['strength']})")
                     for u in c["units"]]
            for pile in ("killed", "disabled", "exhausted"):
                self.fields[f"{pile}_{seat}"] = UnitPilesField(choices=units, required=False,
                                                               label=f"{c['name']}: {pile.title()}")
            self.fields[f"morale_{seat}"] = forms.IntegerField(label=f"{c['name']}: Morale left",
                                                               initial=int(c["morale"]) + int(c["base_morale"]))
            self.fields[f"influence_{seat}"] = forms.IntegerField(
                label=f"{c['name']}: Influence spent (had {c['influence']})", initial=0)

    def seat_fields(self, seat: int) -> list:
        return [self[f"{name}_{seat}"] for name in ("killed", "disabled", "exhausted", "morale", "influence")]

    def entry(self) -> dict:
        d = self.cleaned_data
        return {"winner": d["winner"], "notes": d.get("notes") or "",
                **{pile: [d[f"{pile}_{s}"] for s in (0, 1)] for pile in ("killed", "disabled", "exhausted")},
                "morale_left": [d[f"morale_{s}"] for s in (0, 1)],
                "influence_spent": [d[f"influence_{s}"] for s in (0, 1)]}
