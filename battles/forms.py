"""Forms for battles: start one, log a table Battle's result."""

from __future__ import annotations

from django import forms
from django.db.models import Q

from battles.engine.powers import TACTICIAN_CHOICES
from battles.models import Battle
from battles.services import NPC_BY_GM, cleric_can_return
from campaign.economy.rules import DERVISH_CHOICES
from campaign.economy.services import dervish_choice_on
from campaign.models import Commander, Unit
from campaign.web.numbers import MAX_AMOUNT
from cardgames.models import AIPolicy


class BattleStartForm(forms.Form):
    """Two enemy armies (or a Battle due on the map), how it is fought, and the picks made at the start."""

    attacker_army = forms.ModelChoiceField(queryset=None, label="Attacking army")
    defender_army = forms.ModelChoiceField(queryset=None, label="Defending army")
    location = forms.ModelChoiceField(queryset=None, required=False, label="At a location (the defender's)")
    mode = forms.ChoiceField(choices=Battle.Mode.choices, initial=Battle.Mode.LIVE, widget=forms.RadioSelect)
    npc_seat = forms.ChoiceField(label="A GM-run commander is played by", initial=NPC_BY_GM,
                                 choices=[(NPC_BY_GM, "Me, the game master")]
                                 + [(v, label) for v, label in AIPolicy.choices if v])
    dervish = forms.ChoiceField(choices=[("", "—"), *((name, name) for name in DERVISH_CHOICES)], required=False,
                                label="Dervish's choice for today",
                                help_text="The Path or Role a Dervish's units Add 1 against: chosen at their first "
                                          "Battle of the Day, it holds for every Battle of that Day.")
    tactician = forms.ChoiceField(choices=[("", "Their usual pick"), *((p, p) for p in TACTICIAN_CHOICES)],
                                  required=False, label="Tactician copies",
                                  help_text="The Guardian-row or Steel-column power a Tactician copies this Battle.")
    oathbound = forms.ModelChoiceField(queryset=None, required=False, label="Oathbound's unit",
                                       help_text="Only for an Oathbound commander: the unit designated this Battle "
                                                 "(if Killed it is only Disabled; if Disabled, only Exhausted).")

    def __init__(self, *args, armies, locations, designating, day=None, **kwargs):
        """`armies` may fight; `designating` are the armies whose commanders this member picks for (an
        Oathbound's unit, a Dervish's choice, a Tactician's copy); `day` is the open Day."""
        super().__init__(*args, **kwargs)
        self.speaks_for = set(designating.values_list("commander_id", flat=True))
        mine = Commander.objects.filter(pk__in=self.speaks_for).order_by("name")
        self._day_picks(list(mine.filter(power="Dervish")), list(mine.filter(power="Tactician")), day)
        self.fields["attacker_army"].queryset = armies
        self.fields["defender_army"].queryset = armies
        self.fields["location"].queryset = locations
        self.fields["oathbound"].queryset = (
            Unit.objects.filter(army__in=designating, state=Unit.State.IN_ARMY).filter(
                Q(commander__power="Oathbound") | Q(commander__power="Tactician",
                                                    commander__tactician_choice="Oathbound"))
            .select_related("army", "unit_type").order_by("army__name", "pk"))
        self.fields["oathbound"].label_from_instance = lambda u: f"{u.army.name}: {u.name or u.unit_type.name}"
        if not self.fields["oathbound"].queryset.exists():
            del self.fields["oathbound"]  # nobody here is Oathbound

    def clean(self):
        data = super().clean()
        a, d, oath = data.get("attacker_army"), data.get("defender_army"), data.get("oathbound")
        if a and d and a.commander_id == d.commander_id:
            raise forms.ValidationError("Pick armies of two different commanders.")
        if a and d and oath and oath.army_id not in (a.pk, d.pk):
            self.add_error("oathbound", f"{oath.army.name} is not in this Battle: designate a unit of the "
                                        "Oathbound commander's army that fights.")
        return data

    def _day_picks(self, dervishes: list[Commander], tacticians: list[Commander], day) -> None:
        """Show the Dervish and Tactician fields only to a member who picks for one; preselect a choice
        already made today and a Tactician's usual pick."""
        if not dervishes:
            del self.fields["dervish"]
        else:
            chosen = [(c, dervish_choice_on(c, day)) for c in dervishes] if day else []
            made = [f"{c.name} chose {choice}" for c, choice in chosen if choice]
            if made:
                self.fields["dervish"].help_text = "Today: " + "; ".join(made) + ". It holds for every Battle " \
                                                   "of the Day."
                self.fields["dervish"].initial = next(choice for _, choice in chosen if choice)
        if not tacticians:
            del self.fields["tactician"]
        elif usual := next((c.tactician_choice for c in tacticians if c.tactician_choice), ""):
            self.fields["tactician"].initial = usual

    def choices_for(self, *commanders) -> dict[int, dict[str, object]]:
        """The start picks per commander id, for the commanders this member picks for: a Dervish's Path or
        Role, a Tactician's copied power, an Oathbound's designated unit."""
        picks: dict[int, dict[str, object]] = {c.pk: {} for c in commanders if c.pk in self.speaks_for}
        data = self.cleaned_data
        for c in commanders:
            if c.pk not in picks:
                continue
            if c.power == "Dervish" and data.get("dervish"):
                picks[c.pk]["dervish"] = data["dervish"]
            if c.power == "Tactician" and data.get("tactician"):
                picks[c.pk]["tactician"] = data["tactician"]
            oath = data.get("oathbound")
            if oath is not None and oath.commander_id == c.pk:
                picks[c.pk]["oathbound"] = oath.pk
        return {pk: p for pk, p in picks.items() if p}


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
                            help_text="Anything worth keeping: the turning point, who was Routed.")

    def __init__(self, *args, battle: Battle, **kwargs):
        super().__init__(*args, **kwargs)
        commanders = battle.config["commanders"]
        self.fields["winner"].choices = [(seat, c["name"]) for seat, c in enumerate(commanders)]
        for seat, c in enumerate(commanders):
            units = [(str(u["id"]), f"{u['name']} (Str {'-' if u['strength'] is None else u['strength']})")
                     for u in c["units"]]
            for pile in ("killed", "disabled", "exhausted"):
                self.fields[f"{pile}_{seat}"] = UnitPilesField(choices=units, required=False,
                                                               label=f"{c['name']}: {pile.title()}")
            self.fields[f"morale_{seat}"] = forms.IntegerField(label=f"{c['name']}: Morale left",
                                                               initial=int(c["morale"]) + int(c["base_morale"]),
                                                               min_value=0, max_value=MAX_AMOUNT)
            self.fields[f"influence_{seat}"] = forms.IntegerField(
                label=f"{c['name']}: Influence spent (had {c['influence']})", initial=0, min_value=0,
                max_value=MAX_AMOUNT)
            if cleric_can_return(c):
                self.fields[f"cleric_{seat}"] = forms.BooleanField(
                    required=False, label=f"{c['name']} used the Cleric's return (1 Morale, once a Day)")

    def seat_fields(self, seat: int) -> list:
        names = ("killed", "disabled", "exhausted", "morale", "influence", "cleric")
        return [self[f"{name}_{seat}"] for name in names if f"{name}_{seat}" in self.fields]

    def entry(self) -> dict:
        d = self.cleaned_data
        return {"winner": d["winner"], "notes": d.get("notes") or "",
                **{pile: [d[f"{pile}_{s}"] for s in (0, 1)] for pile in ("killed", "disabled", "exhausted")},
                "morale_left": [d[f"morale_{s}"] for s in (0, 1)],
                "influence_spent": [d[f"influence_{s}"] for s in (0, 1)],
                "cleric_used": [bool(d.get(f"cleric_{s}")) for s in (0, 1)]}
