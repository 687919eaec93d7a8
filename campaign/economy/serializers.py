"""The economy API's serializers: commanders, units, the ledger, upkeep, Morale, funding and arrears, and
the inputs of each action.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework import serializers

from campaign.economy import selectors
from campaign.economy.donations import RECIPIENTS
from campaign.models import (
    POWER_CHOICES,
    TACTICIAN_CHOICE_CHOICES,
    Campaign,
    Commander,
    EventRecruitOffer,
    FundingRequest,
    Item,
    QuestCompletion,
    Unit,
    UnitTraining,
    UpkeepArrears,
)
from campaign.web.numbers import MAX_AMOUNT

PAID_BY_HELP = ("The commander who pays (default: this commander): one you may act for. One character paying for "
                "everything about a unit makes it that character's retinue.")



class CommanderSerializer(serializers.ModelSerializer):
    player = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True,
                                          help_text="The player's user name; null for a commander the GMs run.")
    tactician_choice = serializers.ChoiceField(choices=TACTICIAN_CHOICE_CHOICES, allow_blank=True, read_only=True,
                                               help_text="The power a Tactician copies; empty for any other power.")
    purse_balance = serializers.SerializerMethodField()
    starting_morale = serializers.IntegerField(read_only=True)

    class Meta:
        model = Commander
        fields = ["id", "campaign", "name", "player", "level", "power", "tactician_choice", "dervish_choice",
                  "dervish_day", "morale", "starting_morale", "influence", "in_battle", "purse_balance", "retired_at"]
        read_only_fields = fields

    def get_purse_balance(self, commander: Commander) -> int:
        purse = getattr(commander, "purse", None)
        return purse.balance if purse is not None else 0


class UnitSerializer(serializers.ModelSerializer):
    unit_type = serializers.CharField(source="unit_type.name", read_only=True)
    role = serializers.CharField(source="unit_type.role", read_only=True)
    path = serializers.CharField(source="unit_type.path", read_only=True)
    traits = serializers.ListField(source="unit_type.traits", child=serializers.CharField(), read_only=True)
    text = serializers.CharField(source="unit_type.text", read_only=True)

    class Meta:
        model = Unit
        fields = ["id", "campaign", "commander", "lent_to", "name", "unit_type", "strength", "role", "path", "traits",
                  "text", "trainings", "last_trained_event", "third_training_ability", "state", "army"]
        read_only_fields = fields


class LedgerEntrySerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    kind = serializers.CharField()
    reason = serializers.CharField()
    amount = serializers.IntegerField()
    balance_after = serializers.IntegerField()
    actor = serializers.CharField(allow_null=True)


class UpkeepLineSerializer(serializers.Serializer):
    unit = serializers.IntegerField(source="unit_id")
    counted_strength = serializers.IntegerField()
    lunari = serializers.IntegerField()
    note = serializers.CharField()


class UpkeepForecastSerializer(serializers.Serializer):
    commander = serializers.IntegerField()
    day = serializers.IntegerField(allow_null=True)
    gross = serializers.IntegerField()
    morale_pledged = serializers.IntegerField(help_text="Morale pledged to this Day's upkeep.")
    morale_spent = serializers.IntegerField(help_text="What the bill can use of the pledge (at most the Morale left).")
    morale_offset = serializers.IntegerField()
    total = serializers.IntegerField()
    lines = UpkeepLineSerializer(many=True)


class UpkeepDaySerializer(serializers.Serializer):
    day = serializers.IntegerField()
    status = serializers.CharField()
    forecasts = UpkeepForecastSerializer(many=True, help_text="Each commander's forecast I may see.")


class QuestRecordSerializer(serializers.Serializer):
    offer = serializers.PrimaryKeyRelatedField(queryset=EventRecruitOffer.objects.none(),
                                               help_text="A quest offer of the current Event's recruit list.")
    character = serializers.CharField(max_length=120, required=False, allow_blank=True, default="",
                                      help_text="Who did the quest (default: the commander).")


class QuestCompletionSerializer(serializers.ModelSerializer):
    class Meta:
        model = QuestCompletion
        fields = ["id", "offer", "commander", "character", "recorded_at", "unit"]
        read_only_fields = fields


class RecruitSerializer(serializers.Serializer):
    offer = serializers.PrimaryKeyRelatedField(queryset=EventRecruitOffer.objects.none(),
                                               help_text="An offer of the current Event's recruit list.")
    paid_by = serializers.PrimaryKeyRelatedField(queryset=Commander.objects.none(), required=False,
                                                 help_text=PAID_BY_HELP)


class UpkeepPledgeSerializer(serializers.Serializer):
    points = serializers.IntegerField(max_value=MAX_AMOUNT, min_value=0,
                                      help_text="Morale to spend on today's upkeep, 5 lunari off each; "
                                                "0 takes the pledge back.")


class MoraleBuySerializer(serializers.Serializer):
    points = serializers.IntegerField(max_value=MAX_AMOUNT, min_value=1)


class FairEscapeSerializer(serializers.Serializer):
    retinue_unit = serializers.PrimaryKeyRelatedField(
        queryset=Unit.objects.none(), required=False, allow_null=True,
        help_text="One of the commander's own retinue units, which takes -2 Strength (Killed at 0 or less) "
                  "instead of 1 Influence; leave out to spend Influence.")


class LunariSerializer(serializers.Serializer):
    amount = serializers.IntegerField(max_value=MAX_AMOUNT, min_value=1)
    reason = serializers.CharField(max_length=300)


class LedgerPostedSerializer(serializers.Serializer):
    transaction = serializers.IntegerField()
    purse_balance = serializers.IntegerField()


class TrainSerializer(serializers.Serializer):
    weapon_items = serializers.PrimaryKeyRelatedField(
        queryset=Item.objects.none(), many=True, required=False, default=list,
        help_text="Weapon item cards of the payer to destroy: 5 lunari off each, for at most half the price.")
    paid_by = serializers.PrimaryKeyRelatedField(queryset=Commander.objects.none(), required=False,
                                                 help_text=PAID_BY_HELP)


class TrainingSerializer(serializers.ModelSerializer):
    class Meta:
        model = UnitTraining
        fields = ["id", "unit", "event", "number", "strength_from", "strength_to", "price", "weapon_offset", "paid"]
        read_only_fields = fields


class RetinueNameSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)


class FundingRequestSerializer(serializers.ModelSerializer):
    """A request between two commanders; the requester must be one of mine, the funder in one of my campaigns."""

    class Meta:
        model = FundingRequest
        fields = ["id", "campaign", "requester", "funder", "amount", "reason", "status", "response", "created_at",
                  "decided_at", "transaction"]
        read_only_fields = ["campaign", "status", "response", "created_at", "decided_at", "transaction"]
        extra_kwargs = {"amount": {"min_value": 1, "max_value": MAX_AMOUNT}}

    def get_fields(self):
        fields = super().get_fields()
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            fields["requester"].queryset = selectors.commanders_visible_to(user=user)
            fields["funder"].queryset = Commander.objects.filter(campaign__memberships__user=user)
        return fields


class FundingResponseSerializer(serializers.Serializer):
    response = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class ArrearsSerializer(serializers.ModelSerializer):
    day = serializers.IntegerField(source="bill.day_id", read_only=True)

    class Meta:
        model = UpkeepArrears
        fields = ["id", "commander", "day", "amount", "status", "note", "resolved_at", "created_at"]
        read_only_fields = fields


class ArrearsSettleSerializer(serializers.Serializer):
    paid_by = serializers.PrimaryKeyRelatedField(queryset=Commander.objects.none())


class ArrearsForgiveSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=300)


class DayCloseSerializer(serializers.Serializer):
    day = serializers.IntegerField()
    already_closed = serializers.BooleanField()
    bills = serializers.IntegerField()
    upkeep_paid = serializers.IntegerField()
    arrears = serializers.IntegerField()
    next_day = serializers.IntegerField(allow_null=True)


class ItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = Item
        fields = ["id", "commander", "name", "kind", "destroyed_at"]
        read_only_fields = ["id", "destroyed_at"]


class OtherCommanderSerializer(serializers.Serializer):
    """The commander who borrows a unit or receives an item card (any other of the campaign)."""

    to = serializers.PrimaryKeyRelatedField(queryset=Commander.objects.none())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to"].queryset = Commander.objects.filter(campaign_id=self.context.get("campaign"))


class DonateWagesSerializer(serializers.Serializer):
    recipient = serializers.ChoiceField(choices=RECIPIENTS)
    temple = serializers.CharField(max_length=120, required=False, allow_blank=True, default="",
                                   help_text="Which Temple or family, for the record.")
    amount = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT, required=False,
                                      help_text="Default: the unit's wages for a Day (5 lunari a counted Strength).")


class CommanderWriteSerializer(serializers.Serializer):
    """A commander's sheet as a game master sends it; on PATCH only what is given changes."""

    campaign = serializers.PrimaryKeyRelatedField(queryset=Campaign.objects.none(),
                                                  help_text="Needed to create; a commander stays in its campaign.")
    name = serializers.CharField(max_length=120)
    level = serializers.IntegerField(min_value=0, max_value=100, default=1)
    power = serializers.ChoiceField(choices=POWER_CHOICES)
    tactician_choice = serializers.ChoiceField(choices=TACTICIAN_CHOICE_CHOICES, allow_blank=True, default="")
    influence = serializers.IntegerField(min_value=0, max_value=100, default=0)
    player = serializers.SlugRelatedField(slug_field="username", queryset=User.objects.none(), allow_null=True,
                                          default=None, help_text="A member's user name; null: the GMs run it.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        request = self.context.get("request")
        if request is not None:
            self.fields["campaign"].queryset = Campaign.objects.filter(memberships__user=request.user)
            self.fields["player"].queryset = User.objects.filter(
                memberships__campaign__memberships__user=request.user).distinct()


class LedgerReverseSerializer(serializers.Serializer):
    transaction = serializers.IntegerField(min_value=1, help_text="A transaction in this commander's ledger.")
    reason = serializers.CharField(max_length=300)


class RetireSerializer(serializers.Serializer):
    retired = serializers.BooleanField(help_text="true: retire from play (kept on record); false: bring back.")
