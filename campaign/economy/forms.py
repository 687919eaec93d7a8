"""Forms of the economy pages: they parse what a person typed; the services decide whether it may happen."""

from __future__ import annotations

from django import forms

from campaign.catalogue.selectors import unit_types_for_campaign
from campaign.economy.donations import RECIPIENTS
from campaign.models import Campaign, Commander, Day, EventRecruitOffer, Item
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
        self.fields["paid_by"].queryset = Commander.objects.filter(campaign_id=commander.campaign_id)

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

    def __init__(self, *args, requester: Commander, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["funder"].queryset = Commander.objects.filter(campaign_id=requester.campaign_id).exclude(
            pk=requester.pk)


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


class DayCloseForm(forms.Form):
    day = forms.ModelChoiceField(queryset=Day.objects.none())

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["day"].queryset = Day.objects.filter(event__campaign=campaign).select_related("event")


class OtherCommanderForm(forms.Form):
    """Another commander of the campaign: whom a unit is lent to, or an item card given to."""

    to = CommanderChoiceField(queryset=Commander.objects.none(), label="To")

    def __init__(self, *args, commander: Commander, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to"].queryset = Commander.objects.filter(campaign_id=commander.campaign_id).exclude(
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


class RecruitOfferForm(forms.Form):
    """A line of an Event's recruit list: a unit type of the campaign's catalogue, on its terms."""

    unit_type = forms.ModelChoiceField(queryset=None, label="Unit type")
    by_quest = forms.BooleanField(required=False, label="Only after its quest is done")
    gm_price = forms.IntegerField(required=False, min_value=0, max_value=MAX_AMOUNT, label="GM's price (optional)")
    note = forms.CharField(required=False, max_length=300)

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit_type"].queryset = unit_types_for_campaign(campaign=campaign)
