"""Forms of the economy pages: they parse what a person typed; the services decide whether it may happen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from django import forms
from django.contrib.auth import get_user_model

from campaign.economy.donations import RECIPIENTS
from campaign.models import POWER_CHOICES, TACTICIAN_CHOICE_CHOICES, Campaign, Commander, EventRecruitOffer, Item
from campaign.web.numbers import MAX_AMOUNT


class CommanderChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Commander) -> str:
        return obj.name


class PaidByForm(forms.Form):
    """Who pays: any commander of the campaign parses; the service refuses one the person may not act for,
    with a sentence. Empty means the commander itself."""

    paid_by = CommanderChoiceField(queryset=Commander.objects.none(), required=False, label="Paid by")

    def __init__(self, *args, commander: Commander, **kwargs):
        super().__init__(*args, **kwargs)
        self.commander = commander
        self.fields["paid_by"].queryset = Commander.objects.active().filter(campaign_id=commander.campaign_id)

    def payer(self) -> Commander:
        return self.cleaned_data.get("paid_by") or self.commander


class RecruitForm(PaidByForm):
    offer = forms.ModelChoiceField(queryset=EventRecruitOffer.objects.none())

    def __init__(self, *args, offers, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["offer"].queryset = offers


class TrainForm(PaidByForm):
    weapon_items = forms.ModelMultipleChoiceField(queryset=Item.objects.none(), required=False,
                                                  widget=forms.CheckboxSelectMultiple,
                                                  label="Weapon cards to destroy")

    def __init__(self, *args, weapons, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["weapon_items"].queryset = weapons


class RetinueNameForm(forms.Form):
    name = forms.CharField(max_length=120, label="Retinue name")


class UpkeepPledgeForm(forms.Form):
    points = forms.IntegerField(max_value=MAX_AMOUNT, min_value=0, label="Morale points")


class FundingRequestForm(forms.Form):
    funder = CommanderChoiceField(queryset=Commander.objects.none(), label="Ask")
    amount = forms.IntegerField(max_value=MAX_AMOUNT, min_value=1, label="Lunari")
    reason = forms.CharField(max_length=300, label="What for")

    def __init__(self, *args, requester: Commander, funders: Sequence[tuple[int, str]] | None = None, **kwargs):
        """`funders`: the other commanders in play (id, name), when the page has read them already; the choices
        are drawn from them instead of reading them again (what is posted is still checked against the database)."""
        super().__init__(*args, **kwargs)
        field = cast(CommanderChoiceField, self.fields["funder"])
        field.queryset = Commander.objects.active().filter(campaign_id=requester.campaign_id).exclude(pk=requester.pk)
        if funders is not None:
            field.choices = [("", field.empty_label), *funders]


class FundingResponseForm(forms.Form):
    response = forms.CharField(max_length=300, required=False)


class MoraleBuyForm(forms.Form):
    points = forms.IntegerField(max_value=MAX_AMOUNT, min_value=1, label="Morale points")


class LunariForm(forms.Form):
    """A game master's grant or fine."""

    commander = CommanderChoiceField(queryset=Commander.objects.none())
    amount = forms.IntegerField(max_value=MAX_AMOUNT, min_value=1, label="Lunari")
    reason = forms.CharField(max_length=300)

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["commander"].queryset = Commander.objects.filter(campaign=campaign)


class ArrearsSettleForm(forms.Form):
    paid_by = CommanderChoiceField(queryset=Commander.objects.none(), label="Paid by")

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["paid_by"].queryset = Commander.objects.filter(campaign=campaign)


class ArrearsForgiveForm(forms.Form):
    note = forms.CharField(max_length=300, label="Why")


class OtherCommanderForm(forms.Form):
    """Another commander of the campaign: whom a unit is lent to, or an item card given to."""

    to = CommanderChoiceField(queryset=Commander.objects.none(), label="To", error_messages={
        "required": "choose another commander of the campaign.",
        "invalid_choice": "choose another commander of the campaign."})

    def __init__(self, *args, commander: Commander, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to"].queryset = Commander.objects.active().filter(campaign_id=commander.campaign_id).exclude(
            pk=commander.pk)


class ItemAddForm(forms.Form):
    name = forms.CharField(max_length=120, label="Card name")
    kind = forms.ChoiceField(choices=Item.Kind.choices, initial=Item.Kind.WEAPON)


class DonateWagesForm(forms.Form):
    recipient = forms.ChoiceField(choices=[(r, r[0].upper() + r[1:]) for r in RECIPIENTS], label="To")
    temple = forms.CharField(max_length=120, required=False, label="Which Temple or family",
                             help_text="For the record, e.g. the Temple of the Twin Moons.")
    amount = forms.IntegerField(min_value=1, max_value=MAX_AMOUNT, label="Lunari",
                                help_text="The unit's wages for a Day, unless you give more or less.")


class CommanderForm(forms.Form):
    """A commander's sheet as a game master writes it; the services check the rules."""

    name = forms.CharField(max_length=120)
    level = forms.IntegerField(min_value=0, max_value=100, initial=1)
    power = forms.ChoiceField(choices=POWER_CHOICES)
    tactician_choice = forms.ChoiceField(choices=[("", "None"), *TACTICIAN_CHOICE_CHOICES], required=False,
                                         label="A Tactician's usual pick")
    influence = forms.IntegerField(min_value=0, max_value=100, initial=0)
    player = forms.ModelChoiceField(queryset=None, required=False, empty_label="Nobody: the game masters run it",
                                    help_text="A player character is played by a member; the others are GM-run.")

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = get_user_model().objects.filter(
            memberships__campaign=campaign).order_by("username")

    @staticmethod
    def initial_of(commander: Commander) -> dict:
        return {"name": commander.name, "level": commander.level, "power": commander.power,
                "tactician_choice": commander.tactician_choice, "influence": commander.influence,
                "player": commander.player_id}


class LedgerReverseForm(forms.Form):
    transaction = forms.IntegerField(min_value=1, max_value=10**18 - 1)
    reason = forms.CharField(max_length=300, label="Why")


class RecruitOfferForm(forms.Form):
    """One line of an Event's recruit list as a game master writes it."""

    unit_type = forms.ModelChoiceField(queryset=None, label="Unit type")
    by_quest = forms.BooleanField(required=False, label="Recruited by quest (at the quest price)")
    gm_price = forms.IntegerField(min_value=0, max_value=MAX_AMOUNT, required=False, label="Price set by the GMs",
                                  help_text="Needed for Strengths outside 1 to 5; empty: the rules' price.")
    note = forms.CharField(max_length=300, required=False, help_text="For a quest: what must be done.")

    def __init__(self, *args, unit_types, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit_type"].queryset = unit_types
