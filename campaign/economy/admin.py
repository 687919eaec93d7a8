"""The admin for GMs' bulk edits. Writes go through the services, so every change is audited."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from campaign.campaigns.admin import ReadOnlyAdmin
from campaign.economy import ledger, services
from campaign.models import (
    Account,
    Army,
    ArmyDayActivity,
    Commander,
    EscrowHold,
    EventRecruitOffer,
    FundingRequest,
    Item,
    LedgerEntry,
    LedgerTransaction,
    Unit,
    UnitTraining,
    UpkeepArrears,
    UpkeepBill,
    UpkeepLine,
)

# --- the economy -----------------------------------------------------------------------------------------
# Lunari, units and bills change only through the services (and so the ledger); here they are read-only.
# The admin may create and edit what a GM sets up by hand, each save going through a service.


@admin.register(Commander)
class CommanderAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "player", "level", "power", "morale", "influence", "in_battle"]
    list_filter = ["campaign", "power"]
    search_fields = ["name", "player__username"]
    readonly_fields = ["morale", "in_battle", "morale_bought_on"]

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        data = {f: form.cleaned_data.get(f) for f in ["name", "level", "power", "tactician_choice", "influence"]}
        try:
            if change:
                saved = services.commander_update(commander=obj, actor=request.user, **data)
            else:
                saved = services.commander_create(campaign=form.cleaned_data["campaign"], actor=request.user,
                                                  player=form.cleaned_data.get("player"), **data)
        except ValidationError as exc:
            self.message_user(request, " ".join(exc.messages), messages.ERROR)
            return
        obj.pk = saved.pk


@admin.register(Item)
class ItemAdmin(ReadOnlyAdmin):
    list_display = ["name", "kind", "commander", "destroyed_at"]
    list_filter = ["kind"]
    search_fields = ["name", "commander__name"]


@admin.register(Unit)
class UnitAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "commander", "state", "army", "trainings", "strength"]
    list_filter = ["state", "campaign"]
    search_fields = ["name", "unit_type__name", "commander__name"]


@admin.register(UnitTraining)
class UnitTrainingAdmin(ReadOnlyAdmin):
    list_display = ["unit", "number", "event", "strength_from", "strength_to", "price", "paid"]


@admin.register(Army)
class ArmyAdmin(ReadOnlyAdmin):
    list_display = ["name", "commander", "campaign"]
    search_fields = ["name", "commander__name"]


@admin.register(ArmyDayActivity)
class ArmyDayActivityAdmin(ReadOnlyAdmin):
    list_display = ["army", "day", "reason", "marked_by", "at"]
    list_filter = ["reason"]


@admin.register(EventRecruitOffer)
class EventRecruitOfferAdmin(admin.ModelAdmin):
    list_display = ["unit_type", "event", "by_quest", "gm_price"]
    list_filter = ["event", "by_quest"]

    def save_model(self, request, obj, form, change):
        try:
            offer = services.recruit_offer_set(event=obj.event, unit_type=obj.unit_type, actor=request.user,
                                               by_quest=obj.by_quest, gm_price=obj.gm_price, note=obj.note)
        except ValidationError as exc:
            self.message_user(request, " ".join(exc.messages), messages.ERROR)
            return
        obj.pk = offer.pk

    def delete_model(self, request, obj):
        services.recruit_offer_remove(offer=obj, actor=request.user)


class LedgerEntryInline(admin.TabularInline):
    model = LedgerEntry
    extra = 0
    can_delete = False
    readonly_fields = ["account", "amount"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    """The ledger is append-only: corrections are reversals (the action below), never edits."""

    list_display = ["id", "at", "campaign", "kind", "reason", "actor", "reverses"]
    list_filter = ["kind", "campaign"]
    search_fields = ["reason"]
    inlines = [LedgerEntryInline]
    actions = ["reverse_selected"]

    @admin.action(description="Reverse the selected transactions (a correction; nothing is edited)")
    def reverse_selected(self, request, queryset):
        for txn in queryset.order_by("pk"):
            try:
                ledger.ledger_reverse(transaction_to_reverse=txn, actor=request.user,
                                      reason=f"Corrected in the admin by {request.user}")
            except ValidationError as exc:
                self.message_user(request, f"#{txn.pk}: {' '.join(exc.messages)}", messages.ERROR)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["transaction", "account", "amount"]
    list_filter = ["account__kind"]


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "campaign", "kind", "balance"]
    list_filter = ["kind", "campaign"]


@admin.register(EscrowHold)
class EscrowHoldAdmin(ReadOnlyAdmin):
    list_display = ["commander", "amount", "status", "released_to", "reason"]


class UpkeepLineInline(admin.TabularInline):
    model = UpkeepLine
    extra = 0
    can_delete = False
    readonly_fields = ["unit", "counted_strength", "lunari", "note"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(UpkeepBill)
class UpkeepBillAdmin(ReadOnlyAdmin):
    list_display = ["commander", "day", "gross", "morale_offset", "amount_due", "amount_paid"]
    inlines = [UpkeepLineInline]


@admin.register(UpkeepArrears)
class UpkeepArrearsAdmin(ReadOnlyAdmin):
    list_display = ["commander", "amount", "status", "bill", "resolved_by", "note"]
    list_filter = ["status"]


@admin.register(FundingRequest)
class FundingRequestAdmin(ReadOnlyAdmin):
    list_display = ["requester", "funder", "amount", "status", "reason", "created_at", "decided_at"]
    list_filter = ["status"]
