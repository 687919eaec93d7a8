"""The admin (superusers only) for campaigns, Events, Days, memberships, the audit trail and heartbeats."""

from __future__ import annotations

from django.contrib import admin

from campaign.campaigns import audit
from campaign.models import (
    AuditEntry,
    Campaign,
    Day,
    Event,
    Heartbeat,
    Membership,
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
        audit.audit_record(campaign=obj, actor=request.user, action="admin.campaign.save", target=obj,
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
        audit.audit_record(campaign=obj.campaign, actor=request.user, action="admin.event.save", target=obj,
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
