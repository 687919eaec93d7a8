"""The admin for GMs' bulk edits. Writes go through the services, so every change is audited."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from campaign import artwork, ledger, services
from campaign.catalogue import catalogue_effects_check
from campaign.models import (
    Account,
    Army,
    ArmyDayActivity,
    AuditEntry,
    Campaign,
    Commander,
    Day,
    EscrowHold,
    Event,
    EventRecruitOffer,
    FundingRequest,
    Heartbeat,
    Item,
    LedgerEntry,
    LedgerTransaction,
    Membership,
    Unit,
    UnitTraining,
    UnitType,
    UpkeepArrears,
    UpkeepBill,
    UpkeepLine,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


class EventInline(admin.TabularInline):
    model = Event
    extra = 0
    fields = ["name", "starts_at", "ends_at", "status", "minutes_per_hour"]
    show_change_link = True


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline, EventInline]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        services.audit_record(campaign=obj, actor=request.user, action="admin.campaign.save", target=obj,
                              data={"fields": sorted(form.changed_data)})


class DayInline(admin.TabularInline):
    model = Day
    extra = 0
    readonly_fields = ["opened_at", "closed_at"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "starts_at", "ends_at", "status", "minutes_per_hour", "current_hour"]
    list_filter = ["status", "campaign"]
    search_fields = ["name", "campaign__name"]
    inlines = [DayInline]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        services.audit_record(campaign=obj.campaign, actor=request.user, action="admin.event.save", target=obj,
                              data={"fields": sorted(form.changed_data)})


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "campaign", "role", "joined_at"]
    list_filter = ["role", "campaign"]
    search_fields = ["user__username", "campaign__name"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records only services write (ledger, logs, battles): the admin shows them and changes nothing."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "campaign", "actor", "action", "target"]
    list_filter = ["action", "campaign"]
    search_fields = ["target", "action"]


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    list_display = ["name", "seen_at", "beats"]


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


class UnitTypeAdminForm(forms.ModelForm):
    """The model's fields, the effects checked against the battle engine, and an artwork upload that Pillow
    checks in the service (a plain file field: the service says what is wrong with a file)."""

    upload = forms.FileField(required=False, label="New artwork",
                             help_text="A PNG, JPEG, WebP or GIF of at most 5 MB; stored re-encoded, without metadata.")

    class Meta:
        model = UnitType
        fields = ["campaign", "name", "strength", "role", "path", "traits", "text", "effects", "quest", "trains_to",
                  "third_training"]

    def clean_effects(self):
        return catalogue_effects_check(name=self.cleaned_data.get("name") or "This unit type",
                                       effects=self.cleaned_data["effects"])

    def clean_upload(self):
        upload = self.cleaned_data["upload"]
        if upload:
            artwork.artwork_process(upload)  # refuse a bad file on the form; the service stores its own clean copy
        return upload

    def clean(self):
        cleaned = super().clean()
        target, campaign = cleaned.get("trains_to"), cleaned.get("campaign", self.instance.campaign)
        if target is not None and target.campaign_id not in (None, campaign.pk if campaign else None):
            self.add_error("trains_to", f"{target} is in another campaign's catalogue: pick one this catalogue sees.")
        return cleaned


@admin.register(UnitType)
class UnitTypeAdmin(admin.ModelAdmin):
    """Adds and changes go through services.unit_type_save (the checks of a catalogue file), artwork through
    services.unit_type_set_artwork. A whole file loads with `manage.py load_catalogue`."""

    form = UnitTypeAdminForm
    list_display = ["name", "campaign", "strength", "role", "path", "quest", "trains_to"]
    list_filter = ["campaign", "role", "path", "quest"]
    search_fields = ["name"]
    readonly_fields = ["artwork", "artwork_thumbnail"]

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, "campaign"] if obj else self.readonly_fields

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        entry = {f: data.get(f) for f in ["name", "strength", "role", "path", "traits", "text", "effects", "quest",
                                          "third_training"]}
        entry["trains_to"] = data["trains_to"].name if data.get("trains_to") else None
        try:
            saved = services.unit_type_save(campaign=obj.campaign if change else data.get("campaign"), entry=entry,
                                            unit_type=obj if change else None, actor=request.user)
            if data.get("upload"):
                saved = services.unit_type_set_artwork(unit_type=saved, upload=data["upload"], actor=request.user)
        except ValidationError as exc:
            self.message_user(request, " ".join(exc.messages), messages.ERROR)
            return
        obj.pk = saved.pk


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
    list_display = ["unit_type", "event", "by_quest", "quest_done", "gm_price"]
    list_filter = ["event", "by_quest"]

    def save_model(self, request, obj, form, change):
        try:
            offer = services.recruit_offer_set(event=obj.event, unit_type=obj.unit_type, actor=request.user,
                                               by_quest=obj.by_quest, gm_price=obj.gm_price, note=obj.note)
            if offer.by_quest and offer.quest_done != obj.quest_done:
                services.recruit_offer_mark_quest(offer=offer, done=obj.quest_done, actor=request.user)
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

from campaign import map_admin  # noqa: E402, F401  - the tactical map's admin registers itself
